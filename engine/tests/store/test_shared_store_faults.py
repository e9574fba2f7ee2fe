"""A lab's shared PostgreSQL store under faults, through the real command line: the server stopped
(``pg_ctl stop -m fast``) and started again mid-sweep, the server away until the sweep ends, and two
people resuming at once. Sweeps of 1 s points on a 16 MiB test file; two people are two logins
(each ssdprof started with its own LOGNAME and USER, which is how ssdprof knows who runs a sweep).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import requires_fio
from pg_fixtures import *  # noqa: F403  # pg_server, pg_url: a real PostgreSQL server
from pg_server import PgServer

from ssdprof.store.db import RunFilter, Store
from ssdprof.store.location import DatabaseUrl
from ssdprof.store.pending import PendingWrites, pending_path

POINTS = "qd=1,2,3,4,5,6"
SHORT = ["--runtime", "1", "--ramp", "0", "--size", "16MiB", "--rw", "randrw"]


def sweep(url: DatabaseUrl, target: Path, *more: str, user: str | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "LOGNAME": user, "USER": user} if user else None
    return subprocess.Popen([sys.executable, "-m", "ssdprof", "sweep", "--db", url.url, *more, *SHORT, "--target", str(target)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def ssdprof(url: DatabaseUrl, *args: str, user: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOGNAME": user, "USER": user} if user else None
    return subprocess.run([sys.executable, "-m", "ssdprof", *args, "--db", url.url], capture_output=True, text=True,
                          timeout=300, check=False, env=env)


def wait_for_points(url: DatabaseUrl, count: int, sweep_id: int | None = None, timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    store = Store(url)
    try:
        while store.count_runs(RunFilter(sweep_id=sweep_id, limit=None)) < count:
            assert time.monotonic() < deadline, f"fewer than {count} points stored in {timeout_s} s"
            time.sleep(0.1)
    finally:
        store.close()


def stored_points(url: DatabaseUrl, sweep_id: int) -> list[int]:
    store = Store(url)
    try:
        return sorted(r.workload.queue_depth for r in store.runs(RunFilter(sweep_id=sweep_id, limit=None)))
    finally:
        store.close()


def no_traceback(*outputs: str) -> None:
    for text in outputs:
        assert "Traceback" not in text, text


@requires_fio
def test_a_server_stopped_and_started_mid_sweep_loses_no_point_and_the_sweep_carries_on(
        pg_server: PgServer, pg_url: DatabaseUrl, disk_dir: Path) -> None:
    running = sweep(pg_url, disk_dir, "--vary", POINTS)
    wait_for_points(pg_url, 3)
    pg_server.stop()
    time.sleep(3)  # the 4th point finishes meanwhile: its writes wait for the server
    pg_server.start()
    out, err = running.communicate(timeout=180)
    assert running.returncode == 0, err
    no_traceback(out, err)
    assert stored_points(pg_url, 1) == [1, 2, 3, 4, 5, 6]
    store = Store(pg_url)
    try:
        ended = store.sweep(1)
        assert ended is not None and (ended.status, ended.standing) == ("done", "done")
        runs = store.runs(RunFilter(sweep_id=1, limit=None))
        ledger = store.ledger(runs[0].drive_state.target_identity if runs[0].drive_state else "")
        assert ledger is not None and ledger.bytes_written == 16 * 2**20 + sum(r.write.io_bytes for r in runs)
    finally:
        store.close()
    assert PendingWrites(pending_path(pg_url)).waiting() == []


@requires_fio
def test_a_server_away_until_the_sweep_ends_keeps_its_points_here_and_the_next_start_sends_them(
        pg_server: PgServer, pg_url: DatabaseUrl, disk_dir: Path) -> None:
    running = sweep(pg_url, disk_dir, "--vary", POINTS, "--json")
    wait_for_points(pg_url, 2)
    pg_server.stop()
    try:
        out, err = running.communicate(timeout=240)  # the first write waits 20 s, then the rest are kept at once
    finally:
        pg_server.start()
    assert running.returncode == 0, err
    no_traceback(out, err)
    ran = json.loads(out)
    assert ran["status"] == "done" and len(ran["runs"]) == 6
    kept = [line for line in err.splitlines() if "kept on this machine in" in line]
    assert len(kept) == 1 and "the next ssdprof that reaches it sends them" in kept[0], err
    assert "done: 6 point(s)" in err and "kept on this machine until the results database answers" in err
    assert len(PendingWrites(pending_path(pg_url)).waiting()) >= 4  # at least the points and the sweep's end
    listed = ssdprof(pg_url, "sweeps", "list", "--json")  # a later start: sends what was kept first
    assert listed.returncode == 0, listed.stderr
    sweeps = json.loads(listed.stdout)["sweeps"]
    assert [(s["id"], s["status"], s["standing"], s["runs"]) for s in sweeps] == [(1, "done", "done", 6)]
    assert stored_points(pg_url, 1) == [1, 2, 3, 4, 5, 6]
    assert PendingWrites(pending_path(pg_url)).waiting() == []


def held_by(url: DatabaseUrl, sweep_id: int, pid: int, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    store = Store(url)
    try:
        while (found := store.sweep(sweep_id)) is None or found.holder is None or found.holder.pid != pid:
            assert time.monotonic() < deadline, f"sweep {sweep_id} was not claimed by pid {pid} in {timeout_s} s"
            time.sleep(0.1)
    finally:
        store.close()


def killed_after(url: DatabaseUrl, target: Path, user: str, points: int, sweep_id: int) -> None:
    process = sweep(url, target, "--vary", POINTS, user=user)
    wait_for_points(url, points, sweep_id)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)


@requires_fio
def test_two_people_resuming_at_once_each_resume_only_their_own_sweep(
        pg_url: DatabaseUrl, tmp_path: Path, disk_dir: Path) -> None:
    Store(pg_url).close()  # migrated once
    targets = {user: disk_dir / user for user in ("alice", "bob")}
    for target in targets.values():
        target.mkdir()
    killed_after(pg_url, targets["alice"], "alice", 2, sweep_id=1)
    killed_after(pg_url, targets["bob"], "bob", 2, sweep_id=2)
    listed = json.loads(ssdprof(pg_url, "sweeps", "list", "--json", user="carol").stdout)["sweeps"]
    assert [(s["id"], s["owner"], s["standing"]) for s in listed] == [(2, "bob", "interrupted"), (1, "alice", "interrupted")]

    carol = ssdprof(pg_url, "sweep", "--resume", user="carol")  # someone with nothing of hers to resume
    assert carol.returncode == 1 and len(carol.stderr.strip().splitlines()) == 1, carol.stderr
    assert carol.stderr.startswith("ssdprof: no interrupted sweep of yours (carol on ")
    assert "sweep 2 (held by bob on " in carol.stderr and "resume it by its id if you mean to take it over" in carol.stderr

    resuming = {user: sweep(pg_url, targets[user], "--resume", user=user) for user in ("alice", "bob")}  # at once
    held_by(pg_url, 1, resuming["alice"].pid)
    taking = ssdprof(pg_url, "sweep", "--resume", "1", user="bob")  # named, but alice's resume is running it
    assert taking.returncode == 1 and len(taking.stderr.strip().splitlines()) == 1, taking.stderr
    assert taking.stderr.startswith("ssdprof: sweep 1 is running: held by alice on ")
    for user, process in resuming.items():
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, (user, err)
        no_traceback(out, err)
    assert stored_points(pg_url, 1) == [1, 2, 3, 4, 5, 6]  # each point once: nobody resumed another's
    assert stored_points(pg_url, 2) == [1, 2, 3, 4, 5, 6]
    store = Store(pg_url)
    try:
        owners = {row.id: (row.owner, row.standing) for row in store.list_sweeps()}
        assert owners == {1: ("alice", "done"), 2: ("bob", "done")}
    finally:
        store.close()


@requires_fio
def test_a_pts_test_whose_server_goes_away_stops_resumable_with_its_points_kept(
        pg_server: PgServer, pg_url: DatabaseUrl, disk_dir: Path) -> None:
    pts = subprocess.Popen([sys.executable, "-m", "ssdprof", "pts", "iops", "--db", pg_url.url, "--target", str(disk_dir),
                            "--profile", "laptop", "--size", "16MiB", "--round-time", "1s", "--window", "3",
                            "--min-rounds", "3", "--max-rounds", "6", "--bs", "4k", "--mixes", "0", "--passes", "0.5"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_points(pg_url, 1)
    pg_server.stop()
    try:
        _, err = pts.communicate(timeout=240)  # its next write waits 20 s and is kept; judging the round needs the store
    finally:
        pg_server.start()
    assert pts.returncode == 1 and "Traceback" not in err, err
    said = [line for line in err.splitlines() if line.startswith("ssdprof: ")]
    assert any("its points are kept: resume with ssdprof pts resume 1 when it answers" in line for line in said), err
    assert any("are kept on this machine in" in line for line in said), err
    listed = ssdprof(pg_url, "sweeps", "list", "--json")  # the next start sends what was kept
    assert listed.returncode == 0, listed.stderr
    (test,) = json.loads(listed.stdout)["sweeps"]
    assert (test["kind"], test["status"], test["standing"]) == ("pts", "stopped", "interrupted") and test["runs"] >= 2
    assert PendingWrites(pending_path(pg_url)).waiting() == []
