"""elbencho's results CSV and text results file read as runs: 'last done' figures, I/O latency per I/O."""

from __future__ import annotations

import pytest
from tool_outputs import ElbenchoPhase, elbencho_csv, elbencho_text

from ssdprof.store.imports.elbencho_csv import import_elbencho_csv, is_elbencho_csv
from ssdprof.store.imports.elbencho_text import import_elbencho_text, is_elbencho_text
from ssdprof.store.imports.sources import ImportFailure, SourceFile

WRITE = ElbenchoPhase("WRITE", 9_950, 10_002, iops=(123_456, 123_400), mib_s=(482, 482), io_lat_us=(12, 517, 1210),
                      percentiles_us={"1": 16, "50": 480, "75": 560, "99": 1100, "99.9": 1170})
READ = ElbenchoPhase("READ", 9_990, 10_001, iops=(201_000, 200_950), mib_s=(785, 784), io_lat_us=(9, 318, 2400))
MIX = ElbenchoPhase("RWMIX70", 9_990, 10_000, iops=(30_000, 29_900), mib_s=(117, 116), io_lat_us=(20, 700, 3000),
                    read_iops=(70_000, 69_800), read_mib_s=(273, 272), read_lat_us=(10, 300, 2000))
SYNC = ElbenchoPhase("SYNC", 3, 5, iops=(0, 0), mib_s=(0, 0))


def csv_runs(data: bytes):  # type: ignore[no-untyped-def]
    source = SourceFile("results.csv", data)
    assert is_elbencho_csv(source) and not is_elbencho_text(source)
    return import_elbencho_csv(source, {})


def text_runs(data: bytes):  # type: ignore[no-untyped-def]
    source = SourceFile("results.txt", data)
    assert is_elbencho_text(source) and not is_elbencho_csv(source)
    return import_elbencho_text(source, {})


def test_each_read_or_write_phase_of_the_csv_is_a_run_with_last_done_figures() -> None:
    runs, notes = csv_runs(elbencho_csv([WRITE, READ, SYNC]))
    write, read = runs
    assert write.workload.label == "randwrite 4KiB QD16 T4" and read.workload.label == "randread 4KiB QD16 T4"
    assert write.write.iops == 123_400 and write.write.bw_bytes_per_s == 482 * 1048576
    assert write.workload.runtime_s == pytest.approx(10.002)
    assert write.workload.target == "/dev/nvme1n1" and write.workload.direct
    assert write.engine.version == "3.0.25" and write.started_at == "2024-01-05T10:11:12.345+0100"
    assert any("SYNC reads or writes no data" in n for n in notes)


def test_csv_latency_is_per_io_total_mean_only_with_no_percentiles() -> None:
    write = csv_runs(elbencho_csv([WRITE]))[0][0]
    assert write.write.lat_ns.mean == 517_000 and write.write.lat_ns.min == 12_000 and write.write.lat_ns.max == 1_210_000
    assert write.write.lat_ns.p50 is None and write.write.lat_ns.p99 is None
    assert write.write.latency_kind == "total_mean_only"
    assert write.imported is not None and write.imported.latency.startswith("total latency per I/O")
    assert any("first done (stonewall" in n and "123456 IOPS" in n for n in write.imported.notes)


def test_a_rwmix_phase_has_its_reads_from_the_rwmix_read_columns() -> None:
    (mix,) = csv_runs(elbencho_csv([MIX]))[0]
    assert mix.workload.label == "randrw 70%R 4KiB QD16 T4"
    assert mix.read.iops == 69_800 and mix.write.iops == 29_900
    assert mix.read.lat_ns.mean == 300_000 and mix.write.lat_ns.mean == 700_000


def test_several_hosts_are_said_and_tagged() -> None:
    run = csv_runs(elbencho_csv([WRITE], hosts=4))[0][0]
    assert run.tags == {"hosts": "4"}
    assert run.imported is not None and any("4 hosts" in n for n in run.imported.notes)


def test_a_csv_row_cut_short_is_refused_naming_the_row() -> None:
    data = elbencho_csv([WRITE, READ])
    with pytest.raises(ImportFailure, match=r"results.csv row 3: the file ends inside this row"):
        csv_runs(data[: len(data) - 60])
    rows = data.split(b"\n")
    rows[1] = rows[1][:100]
    with pytest.raises(ImportFailure, match=r"results.csv row 2: \d+ cells where the label row has 55"):
        csv_runs(b"\n".join(rows))


def test_the_text_file_gives_the_same_figures_and_elbenchos_percentiles() -> None:
    runs, notes = text_runs(elbencho_text([WRITE, READ]))
    write, read = runs
    assert write.workload.label == "randwrite 4KiB QD16 T4" and write.workload.size_bytes == 1 << 30
    assert write.write.iops == 123_400 and write.write.bw_bytes_per_s == 482 * 1048576
    assert write.workload.runtime_s == pytest.approx(10.002)
    assert write.write.lat_ns.mean == 517_000 and write.write.lat_ns.p50 == 480_000 and write.write.lat_ns.p99_9 == 1_170_000
    assert write.write.lat_ns.p90 is None and write.write.lat_ns.p95 is None
    assert write.write.latency_kind == "total"
    assert read.read.lat_ns.max == 2_400_000 and read.read.lat_ns.p50 is None
    assert write.started_at == "2024-01-05T10:11:12+01:00"
    assert any("name no elbencho version" in n for n in notes)


def test_per_file_latency_is_said_and_never_the_runs_latency() -> None:
    phase = ElbenchoPhase("WRITE", 1000, 1000, iops=(1000, 1000), mib_s=(3, 3), file_lat_us=(500, 900, 4000))
    run = text_runs(elbencho_text([phase]))[0][0]
    assert run.write.lat_ns.mean is None and run.write.latency_kind == "none"
    assert run.imported is not None and run.imported.latency == "none per I/O (per file only: in the notes)"
    assert any("per-file latency" in n and "avg 900 µs" in n for n in run.imported.notes)


def test_a_text_file_cut_inside_a_phase_is_refused_naming_the_line() -> None:
    data = elbencho_text([WRITE, READ]).rsplit(b"---", 1)[0]
    with pytest.raises(ImportFailure, match=r"results.txt line \d+: phase READ \(line \d+\) is not closed by '---'"):
        text_runs(data)
