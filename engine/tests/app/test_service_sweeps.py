"""Which stored sweep the app offers to resume unasked (only one the engine stopped in the middle of),
and which one Results opens after a reload (the newest that ended with runs kept)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from claimants import ended_process
from pydantic import BaseModel

from ssdprof.app.contract.runs import NoParams, ResumeParams
from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.app.service.sweeps import Sweeps
from ssdprof.model.pts import PtsTest
from ssdprof.model.results import DirectionStats, EngineInfo, RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store


@pytest.fixture
def sweeps(tmp_path: Path) -> Iterator[Sweeps]:
    store = Store(tmp_path / "results.db")
    sent: list[tuple[str, BaseModel]] = []
    yield Sweeps(store, tmp_path / "results.db", lambda method, payload: sent.append((method, payload)),
                 default_dir=tmp_path, fio_executable="fio", ssh=SshSettings())
    store.close()


def a_sweep(store: Store, status: str, *, runs: int = 1) -> int:
    """A sweep that ended with ``status``; "running": one whose engine was killed mid-sweep."""
    if status == "running":
        killed = Store(store.location, claimant=ended_process())
        try:
            sweep_id = killed.create_sweep(SweepSpec(name="killed sweep", points=[Workload(target="/data")]))
        finally:
            killed.release_all()  # its process is gone: nothing renews the lease
            killed.close()
        return sweep_id
    sweep_id = store.create_sweep(SweepSpec(name=f"{status} sweep", points=[Workload(target="/data")]))
    for _ in range(runs):
        store.add_run(RunResult(engine=EngineInfo(name="fio"), workload=Workload(target="/data"), sweep_id=sweep_id,
                                read=DirectionStats(io_count=10, iops=5.0), started_at="2026-11-01T00:00:00"),
                      point_index=0)
    store.set_sweep_status(sweep_id, status)
    return sweep_id


def test_nothing_is_offered_for_resuming_when_every_sweep_ended(sweeps: Sweeps) -> None:
    done = a_sweep(sweeps.store, "done")
    a_sweep(sweeps.store, "cancelled")
    a_sweep(sweeps.store, "failed")
    listed = sweeps.stored(NoParams())
    assert listed.interrupted is None
    with pytest.raises(KeyError, match=r"no interrupted sweep of yours .* to resume"):
        sweeps.resume(ResumeParams())
    assert listed.last_finished is not None and listed.last_finished.status == "cancelled"
    assert [s.id for s in listed.sweeps][-1] == done


def test_a_sweep_the_engine_stopped_in_the_middle_of_is_offered_for_resuming(sweeps: Sweeps) -> None:
    killed = a_sweep(sweeps.store, "running")  # the engine died: nothing runs it now
    lost_host = a_sweep(sweeps.store, "stopped")
    a_sweep(sweeps.store, "done")
    sweeps.store.create_pts(plan_pts(PtsRequest(test=PtsTest.IOPS)))  # running: PTS tests resume in their own view
    interrupted = sweeps.stored(NoParams()).interrupted
    assert interrupted is not None and interrupted.id == lost_host
    sweeps.store.claim_sweep(lost_host)  # resumed here, to its end: only the process holding a sweep ends it
    sweeps.store.set_sweep_status(lost_host, "done")
    again = sweeps.stored(NoParams()).interrupted
    assert again is not None and again.id == killed


def test_results_open_the_newest_sweep_that_ended_with_runs(sweeps: Sweeps) -> None:
    finished = a_sweep(sweeps.store, "done")
    a_sweep(sweeps.store, "cancelled", runs=0)  # cancelled before its first point: nothing to show
    a_sweep(sweeps.store, "failed")
    last = sweeps.stored(NoParams()).last_finished
    assert last is not None and last.id == finished and last.runs == 1
