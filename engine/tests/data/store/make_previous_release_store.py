"""Writes previous-release.sqlite3: a store as the release before migration 0007 wrote it, holding every
kind of run stored then, for the migration and summary tests (tests/store/test_summaries.py).

Run it with the previous release's engine first on the path (see README.md here):

    git archive <commit> engine/ssdprof | tar -x -C /var/tmp/previous
    PYTHONPATH=/var/tmp/previous/engine engine/.venv/bin/python engine/tests/data/store/make_previous_release_store.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.model.drive_state import DriveState
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import Store
from ssdprof.store.interchange import import_fio_output

HERE = Path(__file__).resolve().parent
TESTS = HERE.parents[1]
OUT = HERE / "previous-release.sqlite3"
IMPORTED = ("fio-3.33_cs_2clients.jsonplus.json", "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json",
            "fio-3.33_randrw_70_30.jsonplus.json", "fio-3.33_multi_job.jsonplus.json", "fio-2.1.4_pkb_sample_result.json",
            "fio-3.43_cs_2clients_styliteag.json")


def portable_run(db: Path) -> None:
    """A real run of the portable engine, through the previous release's command line."""
    with tempfile.TemporaryDirectory(dir="/var/tmp") as folder:
        done = subprocess.run([sys.executable, "-c", "from ssdprof.cli.main import main; raise SystemExit(main())", "run",
                               "--engine", "portable", "--target", folder, "--size", "16MiB", "--runtime", "1", "--ramp",
                               "0", "--tag", "kind=portable", "--db", str(db)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(done.stderr)


def main() -> int:
    sys.path.insert(0, str(TESTS))
    from student_sweep import student_runs

    OUT.unlink(missing_ok=True)
    portable_run(OUT)
    store = Store(OUT)
    student = student_runs()
    sweep = store.create_sweep(SweepSpec(name="student", points=[r.workload for r in student]))
    for index, run in enumerate(student):
        store.add_run(run.model_copy(update={"id": None, "sweep_id": sweep, "tags": {"kind": "local"}}), point_index=index)
    for name in IMPORTED:
        for run in import_fio_output(TESTS / "data" / "fio" / name, tags={"kind": "imported"}):
            store.add_run(run)
    curve = store.create_sweep(SweepSpec(name="curve", points=[student[7].workload]))
    for index, rate in enumerate((500, 1000, 2000)):
        point = student[7].workload.model_copy(update={"rate_iops": rate})
        store.add_run(student[7].model_copy(update={"id": None, "sweep_id": curve, "workload": point,
                                                    "tags": {"kind": "curve"}}), point_index=index)
    pts = store.create_pts(plan_pts(PtsRequest(test="iops", target="/var/tmp", profile="laptop", size_bytes="64MiB")))
    stored: list[RunResult] = []
    for round_ in (1, 2):
        state = DriveState(target_identity="file:/var/tmp/x", bytes_written_since_purge=round_ << 30,
                           ledger_since="purge", region_bytes=1 << 30, pts_id=pts, pts_round=round_)
        stored.append(store.add_run(student[0].model_copy(update={
            "id": None, "sweep_id": pts, "repeat": round_ - 1, "drive_state": state,
            "tags": {"kind": "pts", "pts_test": "iops", "pts_round": str(round_)}}), point_index=0))
    store.set_run_steady_state([r.id for r in stored if r.id is not None], "not-reached")
    store.set_tags(1, {"interface": "NVMe"})
    store.close()
    db = __import__("sqlite3").connect(OUT)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("VACUUM")
    db.close()
    print(f"{OUT}: {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
