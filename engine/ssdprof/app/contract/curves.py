"""The RPC's params and results for curves under offered load and latency target searches.

Started like sweeps (their events are ``run.event``; ``sweep.resume`` and ``sweep.cancel`` work on
them too); read back as the summaries every face shows.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ssdprof.app.contract.base import Params, Result
from ssdprof.app.curve import CurveRequest
from ssdprof.app.slo import SloRequest
from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.model.events import SweepStarted

__all__ = ["CURVE_METHODS", "CurveIdParams", "CurvesListResult", "StoredCurve"]


class CurveIdParams(Params):
    sweep_id: int = Field(ge=1)


class StoredCurve(Result):
    sweep_id: int
    created_at: str
    name: str
    status: str
    kind: str = Field(description="curve or slo")


class CurvesListResult(Result):
    curves: list[StoredCurve]


class NoCurveParams(Params):
    pass


CURVE_METHODS: dict[str, tuple[type[BaseModel], type[BaseModel], str]] = {
    "curve.start": (CurveRequest, SweepStarted, "a curve: the maximum, then Poisson rates at % of it; events as run.event"),
    "curve.get": (CurveIdParams, CurveSummary, "a stored curve: offered/achieved IOPS, total latency, saturation, knee"),
    "curves.list": (NoCurveParams, CurvesListResult, "stored curves and latency target searches, newest first"),
    "slo.start": (SloRequest, SweepStarted, "the deepest queue within a latency target; events as run.event"),
    "slo.get": (CurveIdParams, SloSummary, "a stored latency target search: the depth found and every depth tried"),
}
"""name -> (params, result, summary); ``methods.py`` adds them to the contract's table."""
