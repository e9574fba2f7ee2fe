"""The curve under offered load: the maximum, then Poisson rates at percentages of it. Planned by
``app/curve.py`` (the same rules on every face), run as a sweep (its events are ``run.event``;
``sweep.cancel`` and ``sweep.resume`` work on it), read back as the :class:`CurveSummary` every face
draws; ``curves.list`` lists latency-target searches beside curves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ssdprof.app.adaptive import stored, stored_curve
from ssdprof.app.contract.curves import (
    CURVE_METHODS,
    CurveCheck,
    CurveGetParams,
    CurveReportParams,
    CurvesListResult,
    StoredCurve,
)
from ssdprof.app.contract.runs import ResumeParams
from ssdprof.app.curve import plan_curve
from ssdprof.app.kinds import register
from ssdprof.app.kinds.kind import Context, Report, TestKind
from ssdprof.app.kinds.sweep import SweepPlan, sweep_plan
from ssdprof.model.curves import CurveSummary
from ssdprof.model.sweep import SweepSpec

__all__ = ["CURVE", "CurveKind", "GrowingSweepKind", "last_unfinished", "resumed_sweep"]


class GrowingSweepKind(TestKind[SweepPlan]):
    """A kind planned as a sweep that grows as it runs (a curve, a latency-target search): its plan
    is a sweep's, run and resumed as one; only its planner is its own."""

    runs_as = "sweep"
    planner: ClassVar[Callable[..., SweepSpec]]
    """Its own planner: the request planned, checking the target, every problem at once."""

    def plan(self, request: Any, ctx: Context, *, to_run: bool) -> SweepPlan:
        spec = self.planner(request, check_target=True, default_dir=ctx.default_dir)
        return sweep_plan(spec, dict(request.sweep.tags), ctx, to_run=to_run)

    def resume(self, params: ResumeParams, ctx: Context) -> SweepPlan:
        """One by its sweep id, else the newest of this kind that did not end done."""
        return resumed_sweep(ctx, params.sweep_id, self.name)


class CurveKind(GrowingSweepKind):
    name = "curve"
    noun = "curve"
    methods = CURVE_METHODS
    planner = staticmethod(plan_curve)

    def estimate(self, plan: SweepPlan, ctx: Context) -> CurveCheck:
        spec = plan.spec
        assert spec.curve is not None
        points = 1 + len(spec.curve.points_pct)
        return CurveCheck(label=spec.points[0].label, points=points, estimated_s=points * spec.points[0].duration_s())

    def result(self, params: CurveGetParams, ctx: Context) -> CurveSummary:
        return stored_curve(ctx.store, params.sweep_id, ctx.library(), params.spec_id)

    def listed(self, ctx: Context, running_id: int | None) -> CurvesListResult:
        found = []
        for row in ctx.store.list_sweeps():
            sweep = ctx.store.sweep(row.id)
            if sweep is not None and (sweep.spec.curve or sweep.spec.slo):
                found.append(StoredCurve(sweep_id=sweep.id, created_at=sweep.created_at, name=sweep.name,
                                         status=sweep.status, kind="curve" if sweep.spec.curve else "slo"))
        return CurvesListResult(curves=found)

    def report(self, params: CurveReportParams, ctx: Context) -> Report:
        from ssdprof.report.curve import build_curve_pdf  # matplotlib and reportlab load when a report is asked for

        curve = stored_curve(ctx.store, params.sweep_id, ctx.library(), params.spec_id)
        earlier = [stored_curve(ctx.store, other) for other in params.compare_with if other != params.sweep_id]
        pdf = build_curve_pdf([curve], earlier=earlier, title=params.title)
        return Report(pdf, f"ssdprof-curve-{params.sweep_id}.pdf", len(curve.points))


def resumed_sweep(ctx: Context, sweep_id: int | None, kind: str) -> SweepPlan:
    """A curve's or a search's stored sweep to continue: by its id, else the caller's own newest of
    its kind that did not end done and runs nowhere now (KeyError saying why none)."""
    if sweep_id is None:
        sweep_id = last_unfinished(ctx, kind)
    spec, _, _ = stored(ctx.store, sweep_id, kind)
    return SweepPlan(spec, sweep_id)


def last_unfinished(ctx: Context, kind: str) -> int:
    """The caller's own newest curve (``kind`` "curve") or search ("slo") that did not end done."""
    return ctx.store.resumable("sweep", ended=("stopped", "cancelled", "failed"),
                               accept=lambda sweep: bool(sweep.spec.curve if kind == "curve" else sweep.spec.slo)).id


CURVE = register(CurveKind())
