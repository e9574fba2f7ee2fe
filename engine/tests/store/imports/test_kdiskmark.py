"""KDiskMark's text exports read as runs: its MB/s is fio's KiB/s ÷ 1000, its latency clat or lat by version."""

from __future__ import annotations

import pytest
from tool_outputs import KDM_READ, KDM_WRITE, DiskmarkTest, kdiskmark2, kdiskmark3

from ssdprof.store.imports.kdiskmark import import_kdiskmark, is_kdiskmark
from ssdprof.store.imports.sources import SourceFile


def runs_of(data: bytes):  # type: ignore[no-untyped-def]
    source = SourceFile("KDM_20220824.txt", data)
    assert is_kdiskmark(source)
    return import_kdiskmark(source, {})


def test_kdiskmark_mb_per_s_is_read_as_fios_kib_per_s_over_1000() -> None:
    seq = runs_of(kdiskmark3())[0]
    assert seq.workload.label == "read 1MiB QD8 T1"
    assert seq.read.bw_bytes_per_s == pytest.approx(508.897 * 1_024_000)
    assert seq.read.bw_bytes_per_s == pytest.approx(497.0 * (1 << 20), rel=1e-3)  # its own IOPS x 1 MiB agrees
    assert seq.read.iops == pytest.approx(497.0)


def test_kdiskmark_3_2_latency_is_completion_latency_and_says_so() -> None:
    rnd = runs_of(kdiskmark3(version="3.2.0"))[2]
    assert rnd.read.clat_ns.mean == pytest.approx(352370.0)
    assert rnd.read.lat_ns.mean is None
    assert rnd.read.latency_kind == "completion_only"
    assert rnd.imported is not None and rnd.imported.latency == "completion latency (fio clat), mean only"
    assert rnd.engine.version == "3.2.0" and rnd.environment.tool_versions == {"KDiskMark": "3.2.0", "fio": "3.30"}


def test_kdiskmark_before_3_2_latency_is_total_latency() -> None:
    rnd = runs_of(kdiskmark3(version="3.0.0"))[2]
    assert rnd.read.lat_ns.mean == pytest.approx(352370.0) and rnd.read.clat_ns.mean is None
    assert rnd.imported is not None and rnd.imported.latency == "total latency (fio lat), mean only"


def test_the_target_and_drive_model_line_becomes_the_environment() -> None:
    run = runs_of(kdiskmark3())[0]
    assert run.workload.target == "/home" and run.environment.device_model == "Samsung SSD 860 EVO 500GB"
    assert run.environment.os == "opensuse-tumbleweed 20220821 [linux 5.19.2-1-default]"
    assert run.started_at == "2022-08-24T16:10:33"


def test_kdiskmark_2_with_q_eq_8_spacing_reads_total_latency_and_warns_of_its_thread_undercount() -> None:
    tests = [DiskmarkTest(False, 1024, 8, 1, 542.516, 14415.61, 529.8), DiskmarkTest(True, 4, 32, 16, 271.553, 1955.57, 67889.0)]
    runs = runs_of(kdiskmark2(tests, tests))
    assert b"(Q= 8, T= 1)" in kdiskmark2(tests, tests)
    assert [r.workload.label for r in runs] == ["read 1MiB QD8 T1", "randread 4KiB QD32 T16", "write 1MiB QD8 T1",
                                                "randwrite 4KiB QD32 T16"]
    assert runs[0].read.lat_ns.mean == pytest.approx(14415610.0) and runs[0].read.latency_kind == "total_mean_only"
    assert runs[0].workload.runtime_s == 5 and runs[0].workload.size_bytes == 32 << 20
    assert not [w for w in runs[0].warnings if w.code == "kdiskmark_threads_undercounted"]
    assert [w.code for w in runs[1].warnings if w.code == "kdiskmark_threads_undercounted"]


def test_the_default_profile_figures_are_said_to_be_the_mean_of_the_runs() -> None:
    run = runs_of(kdiskmark3(KDM_READ, KDM_WRITE))[0]
    assert run.imported is not None
    assert next(f for f in run.imported.figures if f.field == "read.iops").meaning == "fio's iops, the mean of 5 runs"
