"""Curves and latency target searches in the app: planned by the same rules as on the command line, run as
sweeps (one at a time, cancelled and resumed like them), read back as summaries."""

from __future__ import annotations

import base64
from collections.abc import Callable

from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.app.adaptive import stored_curve, stored_slo
from ssdprof.app.contract.base import Params
from ssdprof.app.contract.curves import (
    CurveCheck,
    CurveGetParams,
    CurveIdParams,
    CurveReportParams,
    CurvesListResult,
    SloReportParams,
    StoredCurve,
)
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.curve import CurveRequest, plan_curve
from ssdprof.app.service.registry import handles
from ssdprof.app.service.sweeps import Sweeps
from ssdprof.app.slo import SloRequest, plan_slo
from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.model.events import SweepStarted
from ssdprof.store.db import Store

__all__ = ["Curves"]


class Curves:
    def __init__(self, store: Store, sweeps: Sweeps, library: Callable[[], SpecLibrary]):
        self.store = store
        self.sweeps = sweeps
        self.library = library

    @handles("curve.start")
    def start_curve(self, params: CurveRequest) -> SweepStarted:
        spec = plan_curve(params, check_target=True, default_dir=self.sweeps.default_dir)  # all problems at once
        return self.sweeps.launch(spec, params.sweep.tags)

    @handles("curve.check")
    def check_curve(self, params: CurveRequest) -> CurveCheck:
        spec = plan_curve(params, check_target=True, default_dir=self.sweeps.default_dir)
        assert spec.curve is not None
        points = 1 + len(spec.curve.points_pct)
        return CurveCheck(label=spec.points[0].label, points=points, estimated_s=points * spec.points[0].duration_s())

    @handles("slo.start")
    def start_slo(self, params: SloRequest) -> SweepStarted:
        return self.sweeps.launch(plan_slo(params), params.sweep.tags)

    @handles("curve.get")
    def curve(self, params: CurveGetParams) -> CurveSummary:
        return stored_curve(self.store, params.sweep_id, self.library(), params.spec_id)

    @handles("curve.report")
    def report(self, params: CurveReportParams) -> ReportResult:
        from ssdprof.report.curve import build_curve_pdf  # matplotlib and reportlab load when a report is asked for

        curve = stored_curve(self.store, params.sweep_id, self.library(), params.spec_id)
        earlier = [stored_curve(self.store, other) for other in params.compare_with if other != params.sweep_id]
        pdf = build_curve_pdf([curve], earlier=earlier, title=params.title)
        return ReportResult(pdf_base64=base64.b64encode(pdf).decode("ascii"), filename=f"ssdprof-curve-{params.sweep_id}.pdf",
                            bytes=len(pdf), runs=len(curve.points))

    @handles("slo.get")
    def slo(self, params: CurveIdParams) -> SloSummary:
        return stored_slo(self.store, params.sweep_id)

    @handles("slo.report")
    def slo_report(self, params: SloReportParams) -> ReportResult:
        from ssdprof.report.curve import build_slo_pdf

        slo = stored_slo(self.store, params.sweep_id)
        pdf = build_slo_pdf(slo, title=params.title)
        return ReportResult(pdf_base64=base64.b64encode(pdf).decode("ascii"), filename=f"ssdprof-slo-{params.sweep_id}.pdf",
                            bytes=len(pdf), runs=len(slo.points))

    @handles("curves.list")
    def list(self, _: Params) -> CurvesListResult:
        found = []
        for row in self.store.list_sweeps():
            sweep = self.store.sweep(row.id)
            if sweep is not None and (sweep.spec.curve or sweep.spec.slo):
                found.append(StoredCurve(sweep_id=sweep.id, created_at=sweep.created_at, name=sweep.name, status=sweep.status,
                                         kind="curve" if sweep.spec.curve else "slo"))
        return CurvesListResult(curves=found)
