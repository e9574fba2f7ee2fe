"""The SNIA IOTTA MSR-Cambridge CSV layout read into a trace."""

import re
from pathlib import Path

import pytest
from trace_files import Io, write_msr

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.msr import read_msr
from ssdprof.trace.reader import load_trace

IOS = [Io(0, False, 1324597248, 4096, 1291), Io(37, True, 8192, 65536, 50), Io(1_000_000, False, 4096, 512, 7)]


def test_filetime_ticks_become_nanoseconds_from_the_first_io_and_response_time_the_latency(tmp_path: Path) -> None:
    trace = load_trace(write_msr(tmp_path / "hm_1.csv", IOS))
    assert trace.format is TraceFormat.MSR_CSV and trace.timed
    assert trace.time_ns.tolist() == [0, 37_000, 1_000_000_000]
    assert trace.latency_ns.tolist() == [1_291_000, 50_000, 7_000]
    assert trace.offset_bytes.tolist() == [1324597248, 8192, 4096]
    assert trace.is_write.tolist() == [False, True, False]


def test_a_header_line_with_the_column_names_is_accepted(tmp_path: Path) -> None:
    assert len(load_trace(write_msr(tmp_path / "t.csv", IOS, header=True))) == 3


def test_each_host_and_disk_is_a_stream_of_its_own() -> None:
    lines = ["128166372003061629,hm,0,Read,0,4096,10", "128166372003061639,hm,1,Write,0,4096,10",
             "128166372003061649,prxy,0,read,0,4096,10"]
    trace = read_msr(lines, "t.csv")
    assert [(s.host, s.disk) for s in trace.streams] == [("hm", "0"), ("hm", "1"), ("prxy", "0")]
    assert trace.stream.tolist() == [0, 1, 2]


@pytest.mark.parametrize(("bad", "words"), [
    ("128166372003061649,hm,0,Read,0,4096", "6 fields"),
    ("128166372003061649,hm,0,Trim,0,4096,10", "Type 'Trim' is neither Read nor Write"),
    ("128166372003061649,hm,0,Read,0x10,4096,10", "Offset '0x10' is not a whole number"),
    ("1.28e17,hm,0,Read,0,4096,10", "Timestamp '1.28e17'"),
    ("128166372003061649,hm,0,Read,0,0,10", "Size 0"),
    ("128166372003061649,hm,0,Read,0,4096,-3", "ResponseTime '-3'"),
])
def test_a_malformed_line_is_named_by_its_number(bad: str, words: str) -> None:
    lines = ["128166372003061629,hm,0,Read,0,4096,10", "128166372003061639,hm,0,Read,0,4096,10", bad]
    with pytest.raises(TraceError, match=f"line 3: {re.escape(words)}"):
        read_msr(lines, "t.csv")
