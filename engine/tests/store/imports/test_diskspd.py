"""diskspd's -Rxml results read as runs: counts over the test time, latency only where -L was given."""

from __future__ import annotations

import pytest
from tool_outputs import DiskspdThread, diskspd_xml

from ssdprof.store.imports.diskspd import import_diskspd, is_diskspd
from ssdprof.store.imports.sources import ImportFailure, SourceFile

THREADS = [DiskspdThread(0, read_ios=400_000, write_ios=0, read_ms=0.250, read_stdev_ms=0.100),
           DiskspdThread(1, read_ios=600_000, write_ios=0, read_ms=0.300, read_stdev_ms=0.050)]
PERCENTILES = {"0": (0.020, 0.0), "50": (0.240, 0.0), "90": (0.410, 0.0), "95": (0.520, 0.0), "99": (0.980, 0.0),
               "99.9": (2.500, 0.0), "99.99": (7.100, 0.0), "100": (21.000, 0.0)}


def runs_of(data: bytes):  # type: ignore[no-untyped-def]
    source = SourceFile("result.xml", data)
    assert is_diskspd(source)
    return import_diskspd(source, {})


def test_a_target_is_a_run_with_its_threads_counts_added_over_the_test_time() -> None:
    (run,) = runs_of(diskspd_xml(THREADS, latency=True, percentiles_ms=PERCENTILES))
    assert run.workload.label == "randread 4KiB QD32 T2"
    assert run.read.io_count == 1_000_000 and run.read.io_bytes == 1_000_000 * 4096
    assert run.read.iops == pytest.approx(100_000.0) and run.read.bw_bytes_per_s == pytest.approx(409.6e6)
    assert run.workload.runtime_s == 10 and run.workload.ramp_s == 5 and run.workload.direct
    assert run.started_at == "2024-06-03T10:00:00+00:00" and run.environment.hostname == "LAB-WIN01"
    assert run.imported is not None
    assert [(p.name, p.read_ios) for p in run.imported.parts] == [("thread 0", 400_000), ("thread 1", 600_000)]


def test_with_l_the_mean_is_weighted_by_count_and_the_percentiles_are_diskspds() -> None:
    (run,) = runs_of(diskspd_xml(THREADS, latency=True, percentiles_ms=PERCENTILES))
    assert run.read.lat_ns.mean == pytest.approx((0.4 * 0.250 + 0.6 * 0.300) * 1e6)
    assert run.read.lat_ns.p50 == pytest.approx(240_000) and run.read.lat_ns.p99_9 == pytest.approx(2_500_000)
    assert run.read.lat_ns.min == pytest.approx(20_000) and run.read.lat_ns.max == pytest.approx(21_000_000)
    assert run.read.latency_kind == "total"
    assert run.imported is not None and run.imported.latency.startswith("total latency (diskspd: I/O issue to completion)")


def test_without_l_no_latency_is_recorded_and_the_run_says_why() -> None:
    (run,) = runs_of(diskspd_xml(THREADS, latency=False))
    assert run.read.lat_ns.mean is None and run.read.latency_kind == "none"
    assert run.imported is not None and run.imported.latency == "none: diskspd ran without -L"
    assert run.read.iops == pytest.approx(100_000.0)


def test_a_mixed_target_has_both_directions() -> None:
    threads = [DiskspdThread(0, read_ios=70_000, write_ios=30_000, read_ms=0.2, write_ms=0.05)]
    (run,) = runs_of(diskspd_xml(threads, latency=True, write_ratio=30, requests=8))
    assert run.workload.label == "randrw 70%R 4KiB QD8 T1"
    assert run.read.iops == pytest.approx(7000.0) and run.write.iops == pytest.approx(3000.0)
    assert run.write.lat_ns.mean == pytest.approx(50_000)


def test_a_truncated_xml_is_refused_naming_line_and_column() -> None:
    data = diskspd_xml(THREADS, latency=True)
    with pytest.raises(ImportFailure, match=r"result.xml line \d+, column \d+: not well-formed XML"):
        runs_of(data[: len(data) // 2])


def test_a_thread_without_its_counts_is_refused_naming_the_element() -> None:
    data = diskspd_xml(THREADS, latency=False).replace(b"<ReadCount>400000</ReadCount>", b"")
    with pytest.raises(ImportFailure, match=r"element Results/TimeSpan\[1\]/Thread\[Id=0\]/Target/ReadCount missing"):
        runs_of(data)
