"""A sweep written as fio-plot's folder tree, and drawn by fio-plot itself (1.1.21, the test lock)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import Store
from ssdprof.store.fio_plot import fio_plot_files
from ssdprof.store.imports.sources import SourceFile
from ssdprof.store.interchange import fio_runs

FIO_PLOT = Path(sys.executable).parent / "fio-plot"
requires_fio_plot = pytest.mark.skipif(not FIO_PLOT.exists(), reason="fio-plot is not installed (scripts/setup.sh runtime "
                                                                      "installs engine/requirements-test.lock)")


def fio_runs_at_depths(folder: Path, depths: tuple[int, ...] = (1, 4, 16)):  # type: ignore[no-untyped-def]
    """Real fio randread runs of a small file at each queue depth, as ssdprof imports them."""
    runs = []
    for depth in depths:
        done = subprocess.run(["fio", "--name=plot", f"--filename={folder / 'target.bin'}", "--size=8M", "--rw=randread",
                               "--bs=4k", f"--iodepth={depth}", "--ioengine=libaio", "--direct=0", "--runtime=1", "--time_based",
                               "--lat_percentiles=1", "--output-format=json+"], capture_output=True, text=True, check=True,
                              timeout=60)
        runs += fio_runs(SourceFile(f"qd{depth}.json", done.stdout.encode()))
    return runs


def test_the_layout_is_bench_fios_target_size_and_rw_iodepth_numjobs() -> None:
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from analysis_runs import make_run

    runs = [make_run(qd=q, lat_ns=80_000.0, run_id=q).model_copy(update={"workload": make_run(qd=q).workload.model_copy(
        update={"target": "/mnt/nvme/ssdprof-test"})}) for q in (1, 32)]
    runs.append(make_run(rw="randrw", read_pct=70, qd=8, lat_ns=90_000.0, run_id=9))
    files = fio_plot_files(runs)
    assert sorted(files) == ["ssdprof-test/4k/randread-1-1.json", "ssdprof-test/4k/randread-32-1.json",
                             "ssdprof/randrw70/4k/randrw-8-1.json"]
    document = json.loads(files["ssdprof-test/4k/randread-32-1.json"])
    job = document["jobs"][0]
    assert job["job options"] == {**document["global options"]} and job["job options"]["iodepth"] == "32"
    assert job["read"]["lat_ns"]["mean"] == 80_000.0 and job["read"]["iops"] == 1000.0


def test_repeats_go_in_run_folders_and_a_run_without_total_latency_is_refused() -> None:
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from analysis_runs import make_run

    first, second = (make_run(qd=4, lat_ns=1e5, run_id=i).model_copy(update={"repeat": i}) for i in (0, 1))
    assert sorted(fio_plot_files([first, second])) == ["ssdprof/4k/run-1/randread-4-1.json", "ssdprof/4k/run-2/randread-4-1.json"]
    completion = make_run(qd=4, lat_ns=1e5, run_id=7)
    completion = completion.model_copy(update={"read": completion.read.model_copy(
        update={"clat_ns": completion.read.lat_ns, "lat_ns": type(completion.read.lat_ns)()})})
    with pytest.raises(Exception, match=r"run 7 \(completion_only\)"):
        fio_plot_files([completion])


@requires_fio
@requires_fio_plot
def test_fio_plot_draws_the_folder_ssdprof_export_writes_for_a_sweep(disk_dir: Path) -> None:
    store_path = disk_dir / "results.sqlite3"
    store = Store(store_path)
    runs = fio_runs_at_depths(disk_dir)
    sweep = store.create_sweep(SweepSpec(name="qd sweep", points=[r.workload for r in runs]))
    for index, run in enumerate(runs):
        store.add_run(run.model_copy(update={"sweep_id": sweep}), point_index=index)
    store.close()
    out = disk_dir / "plots"
    subprocess.run([str(Path(sys.executable).parent / "ssdprof"), "export", "--format", "fio-plot", str(sweep), str(out),
                    "--db", str(store_path)], check=True, capture_output=True, text=True, timeout=120)
    folder = out / "target.bin" / "4k"
    assert sorted(p.name for p in folder.iterdir()) == ["randread-1-1.json", "randread-16-1.json", "randread-4-1.json"]
    drawn = subprocess.run([str(FIO_PLOT), "-i", str(folder), "-T", "ssdprof sweep", "-l", "-r", "randread", "-n", "1",
                            "-d", "1", "4", "16", "-o", str(disk_dir / "qd.png")], capture_output=True, text=True, timeout=300, check=False,
                           cwd=disk_dir)
    assert drawn.returncode == 0, drawn.stdout + drawn.stderr
    png = disk_dir / "qd.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    shots = Path(__file__).parents[3] / "docs" / "screenshots"
    if shots.is_dir():
        shutil.copy(png, shots / "fio-plot-of-an-exported-sweep.png")
