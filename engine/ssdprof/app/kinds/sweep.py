"""The sweep: points planned from a request (``plan_sweep``, one planner for every face), estimated,
run by the sweep runner, resumed, listed. Curves and latency-target searches are sweeps that grow as
they run: their kinds plan them and this kind's job runs them (``runs_as = "sweep"``)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ssdprof.app.contract.kind import JobStatus
from ssdprof.app.contract.runs import PlannedPoint, ResumeParams, SweepEstimate, SweepsResult
from ssdprof.app.contract.sweeps import FACE
from ssdprof.app.kinds import register
from ssdprof.app.kinds.kind import Context, Emit, JobKind
from ssdprof.app.planner import SweepRequest, plan_sweep, preflight
from ssdprof.app.runner import Runner, SweepOutcome
from ssdprof.model.events import PointFinished, PointStarted, SweepFinished, SweepStarted
from ssdprof.model.sweep import SweepSpec, cool_down_words, estimate_s
from ssdprof.model.sweep_info import SweepInfo, last_finished
from ssdprof.remote.ceph import RbdTarget
from ssdprof.target.plan import TargetPlan, device_region, plan_target, widest

__all__ = ["SWEEP", "SweepKind", "SweepPlan", "sweep_plan"]


@dataclass(frozen=True)
class SweepPlan:
    """A sweep to run: its spec, the stored sweep it continues, the tags for its runs, and the
    target as checked before it started (None: the runner checks it)."""

    spec: SweepSpec
    resume_id: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    target: TargetPlan | None = None
    rbd: RbdTarget | None = None


def sweep_plan(spec: SweepSpec, tags: dict[str, str], ctx: Context, *, to_run: bool) -> SweepPlan:
    """A planned sweep (a curve's, a search's); ``to_run``: ready to start, its local target checked
    first, before a sweep is stored (the site then uses the target as checked here)."""
    target = plan_target(widest(spec.points), ctx.default_dir) if to_run and spec.remote is None else None
    return SweepPlan(spec, None, tags, target)


class SweepKind(JobKind[SweepPlan, SweepOutcome, JobStatus]):
    noun = "sweep"
    face = FACE

    def plan(self, request: SweepRequest, ctx: Context, *, to_run: bool) -> SweepPlan:
        if not to_run:
            return SweepPlan(plan_sweep(request), tags=dict(request.tags))
        # the target is checked with every other field (all problems at once), before a sweep is stored
        planned = preflight(request, default_dir=ctx.default_dir)
        return SweepPlan(planned.spec, None, dict(request.tags), planned.target, planned.rbd)

    def estimate(self, plan: SweepPlan, ctx: Context) -> SweepEstimate:
        spec = plan.spec
        region = device_region(spec.points) if spec.remote is None else None
        layout = 0 if region else max(p.size_bytes for p in spec.points)
        return SweepEstimate(name=spec.name, points=[PlannedPoint(label=p.label, workload=p) for p in spec.points],
                             repeats=spec.repeats, total_points=spec.total_points(), estimated_s=estimate_s(spec, layout),
                             layout_bytes=layout, **SweepEstimate.of(region),
                             cool_down=cool_down_words(spec))

    def resume(self, params: ResumeParams, ctx: Context) -> SweepPlan:
        """A sweep by its id (an interrupted or a cancelled one, anyone's not running now), else the
        caller's own last interrupted one (KeyError saying why none, and whose could be named)."""
        store = ctx.store  # a sweep a live process holds is refused here, before a job starts
        stored = store.resumable_sweep(params.sweep_id, "sweep") if params.sweep_id is not None else store.resumable("sweep")
        return SweepPlan(stored.spec, stored.id)

    def run(self, plan: SweepPlan, ctx: Context, emit: Emit, cancel: threading.Event) -> SweepOutcome:
        runner = Runner(ctx.store, default_dir=ctx.default_dir, fio_executable=ctx.fio_executable, ssh=ctx.ssh)
        return runner.run_sweep(plan.spec, resume_id=plan.resume_id, tags=plan.tags, on_event=emit, cancel=cancel,
                                target=plan.target, rbd=plan.rbd)

    def listed(self, ctx: Context, running_id: int | None) -> SweepsResult:
        sweeps, last_interrupted, last_finished = _stored(ctx, running_id)
        return SweepsResult(sweeps=sweeps, last_finished=last_finished, interrupted=last_interrupted)

    # --------------------------------------------------------------------------- its job

    def began(self, event: Any, plan: SweepPlan) -> JobStatus | None:
        if not isinstance(event, SweepStarted):
            return None
        return FACE.status(running=True, sweep_id=event.sweep_id, name=plan.spec.name, count=event.count)

    def progressed(self, status: JobStatus, event: Any) -> JobStatus:
        if isinstance(event, (PointStarted, PointFinished)):
            return status.model_copy(update={"count": event.count})
        return status

    def failed(self, job_id: int | None, reason: str) -> SweepFinished:
        return SweepFinished(sweep_id=job_id, status="failed", run_ids=[], wall_s=0.0, layout_s=0.0)


def _stored(ctx: Context, running_id: int | None) -> tuple[list[SweepInfo], SweepInfo | None, SweepInfo | None]:
    """Every stored sweep, newest first, with who holds it and whether it runs; the caller's own
    newest interrupted one (resumed unasked), and the newest that ended done or cancelled with runs
    kept (what Results opens). PTS tests and sustained writes resume in their own views."""
    sweeps = ctx.store.list_sweeps()
    try:
        mine = ctx.store.resumable("sweep").id
    except KeyError:
        mine = None
    stopped = (s for s in sweeps if s.id == mine and s.id != running_id)
    return sweeps, next(stopped, None), last_finished(sweeps)


SWEEP = register(SweepKind())
