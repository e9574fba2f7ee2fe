"""Curves and latency target searches in the app: planned by the same rules as on the command line, run as
sweeps (one at a time, cancelled and resumed like them), read back as summaries."""

from __future__ import annotations

from ssdprof.app.adaptive import stored_curve, stored_slo
from ssdprof.app.contract.base import Params
from ssdprof.app.contract.curves import CurveIdParams, CurvesListResult, StoredCurve
from ssdprof.app.curve import CurveRequest, plan_curve
from ssdprof.app.service.registry import handles
from ssdprof.app.service.sweeps import Sweeps
from ssdprof.app.slo import SloRequest, plan_slo
from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.model.events import SweepStarted
from ssdprof.store.db import Store

__all__ = ["Curves"]


class Curves:
    def __init__(self, store: Store, sweeps: Sweeps):
        self.store = store
        self.sweeps = sweeps

    @handles("curve.start")
    def start_curve(self, params: CurveRequest) -> SweepStarted:
        return self.sweeps.launch(plan_curve(params), params.sweep.tags)

    @handles("slo.start")
    def start_slo(self, params: SloRequest) -> SweepStarted:
        return self.sweeps.launch(plan_slo(params), params.sweep.tags)

    @handles("curve.get")
    def curve(self, params: CurveIdParams) -> CurveSummary:
        return stored_curve(self.store, params.sweep_id)

    @handles("slo.get")
    def slo(self, params: CurveIdParams) -> SloSummary:
        return stored_slo(self.store, params.sweep_id)

    @handles("curves.list")
    def list(self, _: Params) -> CurvesListResult:
        found = []
        for row in self.store.list_sweeps():
            sweep = self.store.sweep(row["id"])
            if sweep is not None and (sweep.spec.curve or sweep.spec.slo):
                found.append(StoredCurve(sweep_id=sweep.id, created_at=sweep.created_at, name=sweep.name, status=sweep.status,
                                         kind="curve" if sweep.spec.curve else "slo"))
        return CurvesListResult(curves=found)
