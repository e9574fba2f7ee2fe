"""What a trace holds, said before anything runs."""

from pathlib import Path

import pytest
from trace_files import Io, write_msr

from ssdprof.model import histogram
from ssdprof.trace.describe import describe, series_step_s
from ssdprof.trace.fio_iolog import read_iolog
from ssdprof.trace.msr import read_msr
from ssdprof.trace.reader import load_trace

# 3 reads and 1 write in the first second, 2 reads in the third; latencies 100 µs .. 2 ms
IOS = [Io(0, False, 0, 4096, 100), Io(200_000, False, 4096, 4096, 200), Io(400_000, True, 1 << 20, 65536, 2000),
       Io(900_000, False, 8192, 8192, 300), Io(2_100_000, False, 12288, 4096, 400), Io(2_500_000, False, 16384, 4096, 500)]


def test_counts_bytes_and_duration_per_direction(tmp_path: Path) -> None:
    summary = describe(load_trace(write_msr(tmp_path / "t.csv", IOS)))
    assert (summary.io_count, summary.read_count, summary.write_count) == (6, 5, 1)
    assert (summary.read_bytes, summary.write_bytes) == (4096 * 4 + 8192, 65536)
    assert summary.duration_s == 2.5 and summary.timed
    assert summary.read_pct == pytest.approx(500 / 6)


def test_the_offset_range_ends_at_the_end_of_the_furthest_io(tmp_path: Path) -> None:
    summary = describe(load_trace(write_msr(tmp_path / "t.csv", IOS)))
    assert (summary.offset_min_bytes, summary.offset_end_bytes) == (0, (1 << 20) + 65536)


def test_the_access_size_histogram_counts_reads_and_writes_per_size(tmp_path: Path) -> None:
    summary = describe(load_trace(write_msr(tmp_path / "t.csv", IOS)))
    assert [(s.size_bytes, s.reads, s.writes) for s in summary.sizes] == [(4096, 4, 0), (8192, 1, 0), (65536, 0, 1)]


def test_many_distinct_sizes_are_grouped_by_powers_of_two_and_said() -> None:
    lines = [f"{128166372003061629 + i},hm,0,Read,0,{512 * (i + 1)},10" for i in range(40)]
    summary = describe(read_msr(lines, "t.csv"))
    assert all(s.size_bytes & (s.size_bytes - 1) == 0 for s in summary.sizes)
    assert sum(s.reads for s in summary.sizes) == 40
    assert any("40 distinct access sizes" in note for note in summary.notes)


def test_recorded_iops_per_second_from_the_first_io(tmp_path: Path) -> None:
    summary = describe(load_trace(write_msr(tmp_path / "t.csv", IOS)))
    assert [(p.start_s, p.span_s, p.read_iops, p.write_iops) for p in summary.series] == [
        (0.0, 1.0, 3.0, 1.0), (1.0, 1.0, 0.0, 0.0), (2.0, 1.0, 2.0, 0.0)]
    assert summary.series[0].write_bw_bytes_per_s == 65536


def test_a_long_trace_is_drawn_in_plain_steps_of_at_most_600_points() -> None:
    assert series_step_s(59) == 1
    assert series_step_s(3600) == 10
    assert series_step_s(7 * 86400) == 1800


def test_recorded_latency_percentiles_come_from_fio_bins(tmp_path: Path) -> None:
    summary = describe(load_trace(write_msr(tmp_path / "t.csv", IOS)))
    reads = summary.recorded_read_lat_ns
    assert reads is not None and reads.samples == 5 and reads.from_bins
    assert reads.p50 == histogram.bucket_value(300_000)  # the 3rd of 100..500 µs
    assert reads.max == 500_000 and reads.mean == 300_000
    assert summary.recorded_read_bins_ns == {histogram.bucket_value(v * 1000): 1 for v in (100, 200, 300, 400, 500)}
    assert summary.latency_recorded_for == 6


def test_the_peak_in_flight_counts_ios_overlapping_as_recorded(tmp_path: Path) -> None:
    overlapping = [Io(0, False, 0, 4096, 1000), Io(100, False, 0, 4096, 1000), Io(200, False, 0, 4096, 50),
                   Io(2000, False, 0, 4096, 10)]
    assert describe(load_trace(write_msr(tmp_path / "t.csv", overlapping))).peak_in_flight == 3


def test_a_trace_without_latency_says_none() -> None:
    summary = describe(read_iolog(["fio version 3 iolog", "0 /f add", "5 /f read 0 4096", "90 /f write 0 4096"], "t.log"))
    assert summary.recorded_read_lat_ns is None and summary.peak_in_flight is None and summary.latency_recorded_for == 0


def test_the_streams_are_listed_with_their_io_counts() -> None:
    lines = ["128166372003061629,hm,0,Read,0,4096,10", "128166372003061639,hm,1,Write,0,4096,10",
             "128166372003061649,hm,1,Read,0,4096,10"]
    assert [(s.host, s.disk, s.io_count) for s in describe(read_msr(lines, "t.csv")).streams] == [
        ("hm", "0", 1), ("hm", "1", 2)]

