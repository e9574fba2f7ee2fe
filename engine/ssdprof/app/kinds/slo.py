"""The latency-target search: the queue depth with the most IOPS whose total latency at a percentile
stays within a target. Planned by ``app/slo.py``, run as a sweep that grows until it has its answer,
read back as the :class:`SloSummary` every face shows (listed with the curves, ``curves.list``)."""

from __future__ import annotations

from ssdprof.app.adaptive import stored_slo
from ssdprof.app.contract.curves import SLO_METHODS, CurveIdParams, SloCheck, SloReportParams
from ssdprof.app.kinds import register
from ssdprof.app.kinds.curve import GrowingSweepKind
from ssdprof.app.kinds.kind import Context, Report
from ssdprof.app.kinds.sweep import SweepPlan
from ssdprof.app.slo import plan_slo
from ssdprof.model.curves import SloSummary

__all__ = ["SLO", "SloKind"]


class SloKind(GrowingSweepKind):
    name = "slo"
    noun = "latency target search"
    methods = SLO_METHODS
    planner = staticmethod(plan_slo)

    def estimate(self, plan: SweepPlan, ctx: Context) -> SloCheck:
        spec = plan.spec
        assert spec.slo is not None
        return SloCheck(label=spec.points[0].label, max_qd=spec.slo.max_qd, point_s=spec.points[0].duration_s())

    def result(self, params: CurveIdParams, ctx: Context) -> SloSummary:
        return stored_slo(ctx.store, params.sweep_id)

    def report(self, params: SloReportParams, ctx: Context) -> Report:
        from ssdprof.report.curve import build_slo_pdf

        slo = stored_slo(ctx.store, params.sweep_id)
        return Report(build_slo_pdf(slo, title=params.title), f"ssdprof-slo-{params.sweep_id}.pdf", len(slo.points))


SLO = register(SloKind())
