"""blktrace binaries (written here record by record, as the kernel lays them out) read through the real blkparse."""

import os
import shutil
from pathlib import Path

import pytest
from trace_files import Io, random_ios, write_blktrace

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.blktrace import HEADER, read_blktrace, trace_files
from ssdprof.trace.reader import load_trace

pytestmark = pytest.mark.skipif(shutil.which("blkparse") is None,
                                reason="blkparse is not installed (bash scripts/setup.sh installs Debian's blktrace)")


def test_the_queued_ios_of_every_cpu_file_are_read_in_time_order(tmp_path: Path) -> None:
    ios = random_ios(60, span_s=2, seed=4)
    trace = load_trace(write_blktrace(tmp_path, ios, cpus=3))
    assert trace.format is TraceFormat.BLKTRACE and trace.timed and len(trace) == 60
    assert trace.time_ns.tolist() == [io.time_us * 1000 for io in ios]
    assert trace.is_write.tolist() == [io.write for io in ios]
    assert trace.offset_bytes.tolist() == [io.offset for io in ios]
    assert trace.size_bytes.tolist() == [io.size for io in ios]
    assert [s.disk for s in trace.streams] == ["8,16"]


def test_latency_runs_from_queue_to_completion(tmp_path: Path) -> None:
    ios = random_ios(20, span_s=1, seed=5)
    trace = load_trace(write_blktrace(tmp_path, ios))
    assert trace.latency_ns.tolist() == [io.latency_us * 1000 for io in ios]


def test_discards_are_counted_and_left_out(tmp_path: Path) -> None:
    ios = [Io(0, False, 0, 4096), Io(10, False, 8192, 8192, trim=True), Io(20, True, 4096, 4096)]
    trace = load_trace(write_blktrace(tmp_path, ios, cpus=1))
    assert len(trace) == 2 and trace.skipped == {"trim": 1}


def test_a_single_stream_file_is_read_through_blkparse_standard_input(tmp_path: Path) -> None:
    first = write_blktrace(tmp_path, random_ios(10, span_s=1, seed=6), cpus=1)
    stream = first.rename(tmp_path / "capture.bin")
    assert trace_files(stream) == [stream]
    assert len(load_trace(stream)) == 10


def test_a_damaged_record_is_named_by_its_number_and_byte_and_nothing_is_read(tmp_path: Path) -> None:
    first = write_blktrace(tmp_path, random_ios(10, span_s=1, seed=7), cpus=1)
    data = bytearray(first.read_bytes())
    at = HEADER.size + 10 + 2 * HEADER.size  # after the notify record (10 bytes of name) and two events
    data[at:at + 4] = b"\0\0\0\0"
    first.write_bytes(bytes(data))
    with pytest.raises(TraceError, match=f"record 4 \\(byte {at}\\) is damaged"):
        read_blktrace(first, first.name)


def test_a_file_cut_short_is_named(tmp_path: Path) -> None:
    first = write_blktrace(tmp_path, random_ios(10, span_s=1, seed=8), cpus=1)
    first.write_bytes(first.read_bytes()[:-20])
    with pytest.raises(TraceError, match="is cut short: 28 of 48 bytes"):
        read_blktrace(first, first.name)


def test_without_blkparse_the_error_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = write_blktrace(tmp_path, random_ios(5, span_s=1, seed=9), cpus=1)
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))  # a real PATH without blkparse
    with pytest.raises(TraceError, match="apt install blktrace"):
        read_blktrace(first, first.name)
    assert os.environ["PATH"].endswith("no-tools")
