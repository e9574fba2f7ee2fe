"""All of a run's I/Os (model/aggregate.py ``mixed``): the figures fio itself prints for reads and writes
together with ``unified_rw_reporting=both``, from real fio."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import FIO_DATA, requires_fio

from ssdprof.fio.output import parse_report, split_documents
from ssdprof.model.aggregate import mixed
from ssdprof.model.histogram import merge, percentile
from ssdprof.store.interchange import import_fio_output


@requires_fio
def test_all_ios_of_a_mixed_run_are_fios_own_unified_mixed_figures(tmp_path: Path) -> None:
    done = subprocess.run(
        ["fio", "--name=mix", f"--filename={tmp_path / 'f'}", "--size=16M", "--rw=randrw", "--rwmixread=70",
         "--bs=4k", "--iodepth=4", "--direct=1", "--runtime=1", "--time_based", "--lat_percentiles=1",
         "--unified_rw_reporting=both", "--output-format=json+"],
        capture_output=True, text=True, check=True)
    job = parse_report(done.stdout).jobs[0]
    fios = split_documents(done.stdout)[0][-1]["jobs"][0]["mixed"]  # fio may print a note before its JSON
    both = mixed(job.read, job.write)
    assert both.io_count == fios["total_ios"] == job.read.io_count + job.write.io_count
    for name, key in (("p50", "50.000000"), ("p99", "99.000000"), ("p99_9", "99.900000")):
        assert getattr(both.lat_ns, name) == fios["lat_ns"]["percentile"][key]
    assert abs((both.lat_ns.mean or 0) - fios["lat_ns"]["mean"]) < 1e-3
    assert both.lat_bins_ns == {} and both.clat_bins_ns == {}, "kept without bins: they are read's and write's added"


def test_a_mixed_runs_p99_is_of_its_merged_bins_neither_direction_nor_the_worse() -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_randrw_psync_lat.jsonplus.json")[0]
    expected = percentile(merge([run.read.lat_bins_ns, run.write.lat_bins_ns]), 99)
    assert run.mixed.lat_ns.p99 == expected
    assert run.mixed.iops == run.read.iops + run.write.iops
    assert run.mixed.lat_ns.p99 not in (run.read.lat_ns.p99, run.write.lat_ns.p99)


def test_a_run_of_one_direction_is_its_own_all_ios() -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")[0]
    assert run.mixed.lat_ns == run.read.lat_ns and run.mixed.iops == run.read.iops


def test_a_run_without_total_latency_bins_has_no_all_io_percentiles_and_its_mean() -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_randrw_70_30.jsonplus.json")[0]  # clat bins only
    assert run.read.lat_ns.p99 is None and run.mixed.lat_ns.p99 is None
    weighted = ((run.read.lat_ns.mean or 0) * run.read.lat_ns.samples + (run.write.lat_ns.mean or 0) * run.write.lat_ns.samples)
    assert run.mixed.lat_ns.mean == weighted / (run.read.lat_ns.samples + run.write.lat_ns.samples)


def test_a_copy_with_another_direction_has_its_all_ios_made_again() -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_randrw_psync_lat.jsonplus.json")[0]
    faster = run.model_copy(update={"read": run.read.model_copy(update={"iops": run.read.iops * 2})})
    assert faster.mixed.iops == run.read.iops * 2 + run.write.iops
