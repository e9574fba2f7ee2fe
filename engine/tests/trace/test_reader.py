"""A trace's format told by its content, compressed or not, and a file that is no trace said so."""

import gzip
from pathlib import Path

import pytest
from trace_files import random_ios, write_iolog_v2, write_iolog_v3, write_msr

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.reader import detect_format, load_trace


def test_each_text_format_is_told_by_its_first_line(tmp_path: Path) -> None:
    ios = random_ios(5, span_s=1, seed=1)
    assert detect_format(write_iolog_v2(tmp_path / "a", ios)) is TraceFormat.FIO_IOLOG_V2
    assert detect_format(write_iolog_v3(tmp_path / "b", ios)) is TraceFormat.FIO_IOLOG_V3
    assert detect_format(write_msr(tmp_path / "c", ios)) is TraceFormat.MSR_CSV
    assert detect_format(write_msr(tmp_path / "d", ios, header=True)) is TraceFormat.MSR_CSV


def test_a_gzip_compressed_msr_file_is_read_as_published(tmp_path: Path) -> None:
    plain = write_msr(tmp_path / "hm_0.csv", random_ios(30, span_s=1, seed=2))
    packed = tmp_path / "hm_0.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    trace = load_trace(packed)
    assert len(trace) == 30 and trace.source == "hm_0.csv.gz"


def test_a_file_that_is_no_trace_is_refused_with_what_was_expected(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello world\n")
    with pytest.raises(TraceError, match=r"neither an iolog header .* nor an MSR-Cambridge line"):
        load_trace(path)


def test_a_byte_that_is_no_text_is_named_by_its_line(tmp_path: Path) -> None:
    path = write_msr(tmp_path / "t.csv", random_ios(5, span_s=1, seed=3))
    path.write_bytes(path.read_bytes() + b"128166372003061629,h\xe9,0,Read,0,4096,10\r\n")  # Latin-1, not UTF-8
    with pytest.raises(TraceError, match="line 6: byte 21 is not text"):
        load_trace(path)


def test_a_format_named_that_the_content_contradicts_is_refused(tmp_path: Path) -> None:
    path = write_msr(tmp_path / "t.csv", random_ios(5, span_s=1, seed=4))
    with pytest.raises(TraceError, match="reads as SNIA IOTTA MSR-Cambridge CSV, not blktrace"):
        load_trace(path, TraceFormat.BLKTRACE)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="is not a file"):
        load_trace(tmp_path / "nowhere.csv")
