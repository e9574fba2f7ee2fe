"""The RPC's params and results for curves under offered load and latency target searches.

Started like sweeps (their events are ``run.event``; ``sweep.resume`` and ``sweep.cancel`` work on
them too); read back as the summaries every face shows.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.app.contract.base import Params, Result, Topic
from ssdprof.app.contract.kind import Methods
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.curve import CurveRequest
from ssdprof.app.slo import SloRequest
from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.model.events import SweepStarted
from ssdprof.model.status import SweepState

__all__ = ["CURVE_METHODS", "SLO_METHODS", "TOPIC", "CurveCheck", "CurveGetParams", "CurveIdParams", "CurveReportParams",
           "CurvesListResult", "SloCheck", "SloReportParams", "StoredCurve"]

MAX_EARLIER_CURVES = 8


class CurveIdParams(Params):
    sweep_id: int = Field(ge=1)


class CurveGetParams(CurveIdParams):
    spec_id: str | None = Field(default=None, max_length=80,
                                description="the spec sheet whose rated figures to draw; default: the one matching the drive")


class CurveReportParams(CurveGetParams):
    compare_with: list[int] = Field(default_factory=list, max_length=MAX_EARLIER_CURVES,
                                    description="earlier curves (sweep ids) overlaid on the chart")
    title: str | None = Field(default=None, max_length=200)


class SloReportParams(CurveIdParams):
    title: str | None = Field(default=None, max_length=200)


class StoredCurve(Result):
    sweep_id: int
    created_at: str
    name: str
    status: SweepState
    kind: Literal["curve", "slo"]


class CurvesListResult(Result):
    curves: list[StoredCurve]


class NoCurveParams(Params):
    pass


class CurveCheck(Result):
    """A curve as it would run: every bad field is an invalid_params error naming all of them at once."""

    label: str = Field(description="the workload, as every face names it")
    points: int = Field(description="the full-speed run and one point per percentage")
    estimated_s: float = Field(description="ramp and runtime of every point (laying out a test file not included)")


class SloCheck(Result):
    """A latency target search as it would run: every bad field is an invalid_params error naming all of
    them at once."""

    label: str = Field(description="the workload at its first depth, as every face names it")
    max_qd: int = Field(description="the deepest queue the search may try")
    point_s: float = Field(description="ramp and runtime of each depth tried; how many it tries is not known "
                                       "before their answers")


CURVE_METHODS = Methods(estimate="curve.check", start="curve.start", list="curves.list", get="curve.get", report="curve.report")
SLO_METHODS = Methods(estimate="slo.check", start="slo.start", get="slo.get", report="slo.report")
"""The methods of the curve's kind and of the latency target search's (both listed by ``curves.list``)."""

TOPIC = Topic({
    **CURVE_METHODS.table(
        start=(CurveRequest, SweepStarted, "a curve: the maximum, then Poisson rates at % of it; events as run.event"),
        estimate=(CurveRequest, CurveCheck, "a curve's fields checked, every bad one named at once; runs nothing"),
        get=(CurveGetParams, CurveSummary,
             "a stored curve: offered/achieved IOPS, total latency, saturation, knee, the spec's rated figures"),
        report=(CurveReportParams, ReportResult, "a curve's PDF page (base64), earlier curves and spec figures overlaid"),
        list=(NoCurveParams, CurvesListResult, "stored curves and latency target searches, newest first")),
    **SLO_METHODS.table(
        start=(SloRequest, SweepStarted, "the queue depth with the most IOPS within a latency target; events as run.event"),
        estimate=(SloRequest, SloCheck, "a latency target search's fields checked, every bad one named at once; runs nothing"),
        get=(CurveIdParams, SloSummary, "a stored latency target search: the depth found and every depth tried"),
        report=(SloReportParams, ReportResult,
                "a latency target search's PDF page (base64): the answer, every depth tried")),
})
