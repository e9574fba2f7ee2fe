"""Which stored sweep the app offers to resume unasked (only one the engine stopped in the middle of),
and which one Results opens after a reload (the newest that ended with runs kept)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from claimants import another_person
from stored_sweeps import a_sweep

from ssdprof.app.contract.runs import ResumeParams, SweepsResult
from ssdprof.app.kinds.kind import Context
from ssdprof.app.kinds.sweep import SWEEP
from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.model.pts import PtsTest
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.db import Store
from ssdprof.store.errors import SweepHeld


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Context]:
    store = Store(tmp_path / "results.db")
    yield Context(store, default_dir=tmp_path)
    store.close()


def listed(ctx: Context) -> SweepsResult:
    return SWEEP.listed(ctx, running_id=None)


def test_nothing_is_offered_for_resuming_when_every_sweep_ended(ctx: Context) -> None:
    done = a_sweep(ctx.store, "done")
    a_sweep(ctx.store, "cancelled")
    a_sweep(ctx.store, "failed")
    found = listed(ctx)
    assert found.interrupted is None
    with pytest.raises(KeyError, match=r"no interrupted sweep of yours .* to resume"):
        SWEEP.resume(ResumeParams(), ctx)
    assert found.last_finished is not None and found.last_finished.status == "cancelled"
    assert [s.id for s in found.sweeps][-1] == done


def test_a_sweep_the_engine_stopped_in_the_middle_of_is_offered_for_resuming(ctx: Context) -> None:
    killed = a_sweep(ctx.store, "running")  # the engine died: nothing runs it now
    lost_host = a_sweep(ctx.store, "stopped")
    a_sweep(ctx.store, "done")
    ctx.store.create_pts(plan_pts(PtsRequest(test=PtsTest.IOPS)))  # running: PTS tests resume in their own view
    interrupted = listed(ctx).interrupted
    assert interrupted is not None and interrupted.id == lost_host
    ctx.store.claim_sweep(lost_host)  # resumed here, to its end: only the process holding a sweep ends it
    ctx.store.set_sweep_status(lost_host, "done")
    again = listed(ctx).interrupted
    assert again is not None and again.id == killed


def test_results_open_the_newest_sweep_that_ended_with_runs(ctx: Context) -> None:
    finished = a_sweep(ctx.store, "done")
    a_sweep(ctx.store, "cancelled", runs=0)  # cancelled before its first point: nothing to show
    a_sweep(ctx.store, "failed")
    last = listed(ctx).last_finished
    assert last is not None and last.id == finished and last.runs == 1


def test_resuming_a_sweep_another_live_process_holds_is_refused_before_a_job_starts(ctx: Context) -> None:
    bob = Store(ctx.store.location, claimant=another_person("bob"), lease_s=60)
    try:
        held = bob.create_sweep(SweepSpec(name="bob's sweep", points=[Workload(target="/data")]))
        with pytest.raises(SweepHeld, match=rf"sweep {held} is running: held by bob on lab-pc-2 \(pid 4242\)"):
            SWEEP.resume(ResumeParams(sweep_id=held), ctx)
        pts = ctx.store.create_pts(plan_pts(PtsRequest(test=PtsTest.IOPS)))
        with pytest.raises(KeyError, match=rf"sweep {pts} is a PTS test, not a sweep: continue it with ssdprof pts resume {pts}"):
            SWEEP.resume(ResumeParams(sweep_id=pts), ctx)
    finally:
        bob.close()
