"""A cbt results tree read as runs: one per benchmark setting of each iteration, every client a host.

The tree is laid out as cbt lays it out (settings.py: results/cbt_config.yaml; benchmark.py:
results/<iteration>/id-<hash>/benchmark_config.yaml; librbdfio.py/fio.py: each client's fio output
'output.<volume>.<client>' as fio wrote it with --output-format=json,normal); the fio output is real
fio's, run here on a small file.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import requires_fio

from ssdprof.store.db import Store
from ssdprof.store.imports.recognise import read_sources, recognise
from ssdprof.store.imports.sources import ImportFailure
from ssdprof.store.imports.stored import store_recognised

CLIENTS = ["client-a", "client-b", "client-c"]


@pytest.fixture(scope="module")
def fio_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """fio as cbt's librbdfio runs it (rw, bs, iodepth, numjobs, direct, json,normal), on a file instead of an RBD image."""
    folder = tmp_path_factory.mktemp("cbt-fio")
    done = subprocess.run(["fio", "--name=cbt-librbdfio-file-0", f"--filename={folder / 'image'}", "--size=8M", "--rw=randread",
                           "--bs=4096B", "--iodepth=4", "--numjobs=1", "--direct=0", "--ioengine=psync", "--runtime=1",
                           "--time_based", "--ramp_time=0", "--output-format=json,normal"],
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


def lay_out_tree(root: Path, fio_output: str, *, iterations: int = 2, clients_with_output: list[str] = CLIENTS) -> Path:
    results = root / "results"
    results.mkdir(parents=True)
    cluster = {"user": "cbt", "head": "head-1", "clients": CLIENTS, "osds": ["osd-1", "osd-2", "osd-3"],
               "mons": {"mon-1": {"a": "10.0.0.1:6789"}}, "osds_per_node": 2, "fs": "xfs", "iterations": iterations,
               "pool_profiles": {"rbd": {"pg_size": 256, "pgp_size": 256, "replication": 3}}}
    benchmark = {"librbdfio": {"time": 1, "vol_size": 8, "mode": "randread", "op_size": 4096, "iodepth": 4, "numjobs": 1,
                               "pool_profile": "rbd", "procs_per_volume": 1, "volumes_per_client": 1}}
    (results / "cbt_config.yaml").write_text(yaml.dump({"cluster": cluster, "benchmarks": benchmark}, default_flow_style=False))
    for iteration in range(iterations):
        setting = {**benchmark["librbdfio"], "benchmark": "librbdfio", "iteration": iteration}
        folder = results / f"{iteration:08d}" / "id-6d1b4c2a"
        folder.mkdir(parents=True)
        (folder / "benchmark_config.yaml").write_text(yaml.dump({"cluster": setting}, default_flow_style=False))
        for client in clients_with_output:
            (folder / f"output.0.{client}").write_text(fio_output)
            (folder / f"output.0_iops.1.log.{client}").write_text("0, 1000, 0, 4096, 0\n")
        (folder / "collectl.client-a").mkdir()
    return root


@requires_fio
def test_each_iteration_is_a_run_with_every_client_as_a_host(tmp_path: Path, fio_output: str) -> None:
    tree = lay_out_tree(tmp_path / "archive", fio_output)
    (found,) = read_sources([tree])
    assert not any("_iops" in f.path for f in found.files)
    recognised = recognise(found, {"cluster": "lab2"})
    assert recognised.format == "cbt results tree"
    first, second = recognised.runs
    assert [h.host for h in first.hosts] == CLIENTS
    assert first.read.iops == pytest.approx(sum(h.read.iops for h in first.hosts))
    assert first.read.io_count == 3 * first.hosts[0].read.io_count
    assert first.workload.label == "randread 4KiB QD4 T1"
    assert first.tags == {"cbt_benchmark": "librbdfio", "cbt_iteration": "0", "nodes": "3", "cbt_osds_per_node": "2",
                          "cbt_fs": "xfs", "cbt_iterations": "2", "replication": "3", "cluster": "lab2"}
    assert second.tags["cbt_iteration"] == "1"
    assert first.environment.cluster is not None and first.environment.cluster.osd_count == 6
    assert first.imported is not None and first.imported.part == "iteration 0, id-6d1b4c2a"
    assert first.engine.name == "fio" and first.engine.version.startswith("fio-")


@requires_fio
def test_a_client_without_output_is_a_host_with_an_error_and_the_run_is_partial(tmp_path: Path, fio_output: str) -> None:
    tree = lay_out_tree(tmp_path / "archive", fio_output, iterations=1, clients_with_output=CLIENTS[:2])
    (run,) = recognise(read_sources([tree])[0], {}).runs
    assert run.status == "partial"
    assert [(h.host, h.error) for h in run.hosts][-1] == ("client-c", "no fio output in results/00000000/id-6d1b4c2a")
    assert run.read.iops == pytest.approx(sum(h.read.iops for h in run.hosts[:2]))
    assert [w.code for w in run.warnings if w.code == "cbt_client_output_missing"]


@requires_fio
def test_a_client_output_cut_short_is_refused_naming_the_file(tmp_path: Path, fio_output: str) -> None:
    tree = lay_out_tree(tmp_path / "archive", fio_output, iterations=1)
    cut = tree / "results" / "00000000" / "id-6d1b4c2a" / "output.0.client-b"
    cut.write_text(fio_output[: len(fio_output) // 3])
    with pytest.raises(ImportFailure, match=r"results/00000000/id-6d1b4c2a/output.0.client-b: .*cut short"):
        recognise(read_sources([tree])[0], {})


@requires_fio
def test_the_same_tree_imported_again_is_recognised_and_not_stored_twice(tmp_path: Path, fio_output: str) -> None:
    tree = lay_out_tree(tmp_path / "archive", fio_output)
    store = Store(":memory:")
    first = store_recognised(store, [recognise(read_sources([tree])[0], {})])
    again = store_recognised(store, [recognise(read_sources([tree])[0], {})])
    assert len(first[0].stored) == 2 and not first[0].already
    assert not again[0].stored and again[0].already == [r.id for r in first[0].stored]
    assert store.count_runs() == 2
    store.close()


def test_a_folder_that_is_no_cbt_tree_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(ImportFailure, match=r"holds no benchmark_config.yaml"):
        recognise(read_sources([tmp_path])[0], {})
