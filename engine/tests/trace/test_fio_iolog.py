"""fio's iolog versions 2 and 3 read into a trace, every bad line named."""

import re
from pathlib import Path

import numpy as np
import pytest
from trace_files import Io, random_ios, write_iolog_v2, write_iolog_v3

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.fio_iolog import read_iolog
from ssdprof.trace.reader import load_trace


def test_a_version_3_log_keeps_each_io_its_time_direction_offset_and_size(tmp_path: Path) -> None:
    ios = random_ios(40, span_s=2, seed=1)
    trace = load_trace(write_iolog_v3(tmp_path / "t.log", ios, start_us=7000))
    assert trace.format is TraceFormat.FIO_IOLOG_V3 and trace.timed
    assert trace.time_ns.tolist() == [io.time_us * 1000 for io in ios]  # counted from the first I/O
    assert trace.is_write.tolist() == [io.write for io in ios]
    assert trace.offset_bytes.tolist() == [io.offset for io in ios]
    assert trace.size_bytes.tolist() == [io.size for io in ios]
    assert [s.disk for s in trace.streams] == ["/dev/sdb"]


def test_a_version_2_log_takes_its_time_from_the_waits_since_the_previous_wait(tmp_path: Path) -> None:
    ios = [Io(0, False, 0, 4096), Io(0, True, 4096, 4096), Io(1500, False, 8192, 4096), Io(4000, False, 0, 512)]
    trace = load_trace(write_iolog_v2(tmp_path / "t.log", ios))
    assert trace.format is TraceFormat.FIO_IOLOG_V2 and trace.timed
    assert trace.time_ns.tolist() == [0, 0, 1_500_000, 4_000_000]


def test_a_version_2_log_without_waits_is_untimed_and_says_so(tmp_path: Path) -> None:
    trace = load_trace(write_iolog_v2(tmp_path / "t.log", random_ios(5, span_s=1, seed=2), waits=False))
    assert not trace.timed and trace.span_ns == 0
    assert any("records no time" in note for note in trace.notes)


def test_trims_and_syncs_are_counted_but_not_replayed() -> None:
    text = ["fio version 2 iolog", "/f add", "/f open", "/f read 0 4096", "/f trim 0 8192", "/f sync 0 0",
            "/f datasync 0 0", "/f write 4096 4096", "/f close"]
    trace = read_iolog(text, "t.log")
    assert len(trace) == 2 and trace.skipped == {"trim": 1, "sync": 2}


@pytest.mark.parametrize(("lines", "line", "words"), [
    (["fio version 4 iolog"], 1, "not an iolog header"),
    (["fio version 3 iolog", "0 /f add", "0 /f open", "10 /f read 0 4096", "20 /f read x 4096"], 5, "offset 'x'"),
    (["fio version 3 iolog", "0 /f add", "10 /f read 0 4096", "20 /f read 4096"], 4, "4 fields"),
    (["fio version 3 iolog", "0 /f add", "10 /g read 0 4096"], 3, "/g, which no 'add' line added"),
    (["fio version 3 iolog", "0 /f add", "10 /f wait 100 0"], 3, "'wait' is not allowed"),
    (["fio version 2 iolog", "/f add", "/f read 0 4096", "/f erase 0 4096"], 4, "unknown action 'erase'"),
    (["fio version 2 iolog", "/f add", "/f read 0 0"], 3, "0 bytes"),
    (["fio version 3 iolog", "0 /f add", "-5 /f read 0 4096"], 3, "time (µs) '-5'"),
])
def test_a_malformed_line_is_named_by_its_number(lines: list[str], line: int, words: str) -> None:
    with pytest.raises(TraceError, match=f"line {line}: .*{re.escape(words)}") as raised:
        read_iolog(lines, "t.log")
    assert raised.value.line == line


def test_a_bad_line_deep_in_a_file_stops_the_import_with_nothing_returned(tmp_path: Path) -> None:
    path = write_iolog_v3(tmp_path / "t.log", random_ios(200, span_s=1, seed=3))
    lines = path.read_text().splitlines()
    lines[150] = lines[150].replace(" read ", " raed ").replace(" write ", " wirte ")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TraceError, match=r"t\.log: line 151: unknown action"):
        load_trace(path)


def test_blank_lines_are_passed_over() -> None:
    trace = read_iolog(["fio version 2 iolog", "", "/f add", "  ", "/f read 0 4096", ""], "t.log")
    assert np.array_equal(trace.line, [5])
