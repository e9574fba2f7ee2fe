"""The one job layer: one test at a time whatever its kind, a cancel and a status that reach the kind
running and no other, the status a page opened mid-run reads, and a job that fails after it began
saying so rather than dying silently."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from pydantic import BaseModel

from ssdprof.app.contract.errors import RpcError
from ssdprof.app.jobs import BUSY_MESSAGE, Jobs
from ssdprof.app.kinds.kind import Context, Emit
from ssdprof.app.kinds.pts import PTS
from ssdprof.app.kinds.sustain import SUSTAIN
from ssdprof.app.kinds.sweep import SWEEP, SweepKind, SweepPlan
from ssdprof.app.planner import SweepRequest, WorkloadInput
from ssdprof.model.events import Count, SweepStarted
from ssdprof.store.db import Store


@dataclass
class Session:
    jobs: Jobs
    ctx: Context
    notes: queue.Queue[tuple[str, BaseModel]]

    def until(self, method: str, kind: str, timeout_s: float = 60) -> list[Any]:
        """The events of ``method`` up to the first of ``kind``."""
        seen = []
        while True:
            name, payload = self.notes.get(timeout=timeout_s)
            if name == method:
                seen.append(payload.event)  # type: ignore[attr-defined]
                if seen[-1].kind == kind:
                    return seen


@pytest.fixture
def session(disk_dir: Path) -> Iterator[Session]:
    notes: queue.Queue[tuple[str, BaseModel]] = queue.Queue()
    store = Store(disk_dir / "results.db")
    ctx = Context(store, db_path=disk_dir / "results.db", default_dir=disk_dir / "scratch")
    jobs = Jobs(ctx, lambda method, payload: notes.put((method, payload)))
    yield Session(jobs, ctx, notes)
    jobs.close()
    store.close()


def two_points(disk_dir: Path) -> SweepRequest:
    return SweepRequest(base=WorkloadInput(target=str(disk_dir), runtime_s=2, ramp_s=0, size_bytes="16MiB"),
                        factors={"queue_depth": [1, 2]})


@requires_fio
def test_a_running_sweep_makes_every_kind_busy_and_only_its_own_cancel_and_status_reach_it(
        session: Session, disk_dir: Path) -> None:
    started = session.jobs.launch(SWEEP, SWEEP.plan(two_points(disk_dir), session.ctx, to_run=True))
    assert isinstance(started, SweepStarted) and started.sweep_id is not None
    for kind in (SWEEP, PTS, SUSTAIN):
        with pytest.raises(RpcError, match=BUSY_MESSAGE[:30]) as refused:
            session.jobs.launch(kind, SWEEP.plan(two_points(disk_dir), session.ctx, to_run=True))
        assert refused.value.code == "busy"
    running = session.jobs.status(SWEEP).model_dump()
    assert running["running"] and running["sweep_id"] == started.sweep_id and running["count"]["total"] == 2
    assert session.jobs.status(PTS).model_dump()["running"] is False
    assert session.jobs.cancel(PTS).model_dump() == {"cancelled": False, "pts_id": None}  # type: ignore[union-attr]
    assert session.jobs.cancel(SWEEP).model_dump() == {  # type: ignore[union-attr]
        "cancelled": True, "sweep_id": started.sweep_id}
    assert session.until("run.event", "sweep_finished")[-1].status == "cancelled"
    session.jobs.close()
    assert not session.jobs.busy() and session.jobs.status(SWEEP).model_dump()["running"] is False


class BrokenSweep(SweepKind):
    """A fake for a fault no real part causes on demand: a kind's run that raises after its job began."""

    def run(self, plan: SweepPlan, ctx: Context, emit: Emit, cancel: threading.Event) -> Any:
        emit(SweepStarted(sweep_id=7, name=plan.spec.name, count=Count.of(0, 2, "exact", "point"), estimated_s=1,
                          engine="fio", engine_reason="a fake"))
        raise OSError("the disk went away")


def test_a_job_that_fails_after_it_began_logs_the_error_and_sends_its_kinds_failed_end(
        session: Session, disk_dir: Path) -> None:
    plan = SWEEP.plan(two_points(disk_dir), session.ctx, to_run=False)
    session.jobs.launch(BrokenSweep(), plan)
    name, logged = session.notes.get(timeout=10)
    while name != "engine.log":
        name, logged = session.notes.get(timeout=10)
    assert logged.model_dump() == {"level": "error", "message": "the sweep stopped: the disk went away"}
    ended = session.until("run.event", "sweep_finished", 10)[-1]
    assert ended.sweep_id == 7 and ended.status == "failed"
