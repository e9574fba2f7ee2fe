"""Worker processes and their pool: start line, release, stop, reaping (real processes)."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import psutil
import pytest

from ssdprof.portable.lanes import IoShape, plan_lanes, spread_over_workers
from ssdprof.portable.messages import Chunk, LaneDone, LaneReady, Schedule, WorkerDone, WorkerSpec
from ssdprof.portable.pool import WorkerPool, default_start_method

MS = 1_000_000


def specs(path: Path, *, lanes: int = 4, workers: int = 2, runtime_ns: int = 300 * MS) -> list[WorkerSpec]:
    groups = spread_over_workers(plan_lanes(IoShape(4096, 1 << 20, True, 100, lanes, 1), seed=2), workers)
    return [WorkerSpec(worker_id=i, path=str(path), direct=False, writes=False, system=platform.system(), lanes=tuple(group),
                       schedule=Schedule(ramp_ns=0, runtime_ns=runtime_ns), parent_pid=os.getpid())
            for i, group in enumerate(groups)]


def collect(pool: WorkerPool, until: type, count: int, limit_s: float = 20) -> list[object]:
    messages: list[object] = []
    deadline = time.monotonic() + limit_s
    while sum(isinstance(m, until) for m in messages) < count and time.monotonic() < deadline:
        messages += pool.receive(0.05)
    return messages


@pytest.fixture
def small_file(disk_dir: Path) -> Path:
    path = disk_dir / "pool.dat"
    path.write_bytes(os.urandom(1 << 20))
    return path


def test_linux_forks_from_a_server_and_other_systems_spawn() -> None:
    assert default_start_method("Linux", frozen=False) == "forkserver"
    assert default_start_method("Darwin", frozen=False) == "spawn"
    assert default_start_method("Windows", frozen=False) == "spawn"


def test_a_frozen_engine_spawns_everywhere() -> None:
    assert default_start_method("Linux", frozen=True) == "spawn"


def test_lanes_wait_at_the_start_line_until_released_together(small_file: Path) -> None:
    pool = WorkerPool(specs(small_file), default_start_method())
    try:
        pool.start()
        ready = collect(pool, LaneReady, 4)
        time.sleep(0.3)
        assert sorted(m.lane_id for m in ready if isinstance(m, LaneReady)) == [0, 1, 2, 3]
        assert not [m for m in ready + pool.receive(0.01) if isinstance(m, Chunk | LaneDone)]
        pool.release()
        done = collect(pool, WorkerDone, 2)
    finally:
        pool.close()
    finished = [m for m in done if isinstance(m, LaneDone)]
    assert sorted(d.lane_id for d in finished) == [0, 1, 2, 3]
    assert all(d.error is None and d.measured_ns > 0 for d in finished)
    assert sum(len(m.read_ns) for m in done if isinstance(m, Chunk)) > 0
    assert all(m.cpu_s > 0 for m in done if isinstance(m, WorkerDone))


def test_a_file_that_cannot_be_opened_is_reported_by_every_lane(disk_dir: Path) -> None:
    pool = WorkerPool(specs(disk_dir / "missing.dat"), default_start_method())
    try:
        pool.start()
        messages = collect(pool, LaneDone, 4)
    finally:
        pool.close()
    errors = [m.error for m in messages if isinstance(m, LaneDone)]
    assert len(errors) == 4
    assert all(e is not None and "cannot open" in e and "missing.dat" in e for e in errors)


def test_closing_before_the_release_ends_every_worker_without_measuring(small_file: Path) -> None:
    pool = WorkerPool(specs(small_file, runtime_ns=60_000 * MS), default_start_method())
    pool.start()
    collect(pool, LaneReady, 4)
    pids = pool.pids
    started = time.monotonic()
    pool.close()
    assert time.monotonic() - started < 3
    assert not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE for pid in pids)
