"""The desktop app's contract: every RPC method's params and result, the notifications, the errors.

Defined once, here. :func:`schema` emits it as JSON Schema; ``scripts/gen_contract.py`` turns
that into ``contract/contract.gen.ts`` (imported by both ``electron/`` and ``src/``), and
``engine/tests/app/test_contract.py`` fails when the generated file is stale. The stdio RPC
(``rpc.py``) and browser mode (``server.py``) both speak exactly this.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.json_schema import GenerateJsonSchema, models_json_schema
from pydantic_core import core_schema

from ssdprof.analysis.metrics import METRIC_NAMES
from ssdprof.analysis.scale_up_space import ScaleUpResult
from ssdprof.analysis.summary_model import StudentSummary
from ssdprof.app.contract.analysis import (
    CorrelationParams,
    CorrelationResult,
    ObserveParams,
    ObserveResult,
    PredictParams,
    PredictResult,
    ScaleUpParams,
    ScalingParams,
    ScalingResult,
    SpecDeleteParams,
    SpecSaveParams,
    SpecSaveResult,
)
from ssdprof.app.contract.curves import CURVE_METHODS
from ssdprof.app.contract.drive import DRIVE_METHODS
from ssdprof.app.contract.errors import ERROR_CODES, TOKEN_HEADER, RpcErrorData
from ssdprof.app.contract.hosts import (
    WATCH_METHODS,
    HostAddParams,
    HostAddResult,
    HostInfo,
    HostLinkParams,
    HostParams,
    HostsListResult,
    HostTestResult,
)
from ssdprof.app.contract.imports import IMPORT_METHODS
from ssdprof.app.contract.notifications import NOTIFICATIONS
from ssdprof.app.contract.pts import (
    PtsCancelResult,
    PtsEstimate,
    PtsIdParams,
    PtsListResult,
    PtsReportParams,
    PtsResumeParams,
    PtsStatus,
)
from ssdprof.app.contract.replay import REPLAY_METHODS
from ssdprof.app.contract.run_queries import (
    PeopleResult,
    RunsGroupsParams,
    RunsGroupsResult,
    RunsPageParams,
    RunsPageResult,
    RunsSelectParams,
    RunsSelectResult,
)
from ssdprof.app.contract.runs import (
    BarsParams,
    CancelResult,
    ChartsParams,
    DeleteResult,
    DevicesResult,
    EngineInfoResult,
    ExportParams,
    ExportResult,
    NoParams,
    PresetsResult,
    ResumeParams,
    RunIdParams,
    RunResultEnvelope,
    RunsListParams,
    RunsListResult,
    SummaryParams,
    SweepEstimate,
    SweepsResult,
    SweepStatus,
    TagParams,
    ValidateParams,
    ValidateResult,
)
from ssdprof.app.contract.specs import (
    ReportParams,
    ReportResult,
    RunsCompareParams,
    RunsCompareResult,
    SpecCompareParams,
    SpecCompareResult,
    SpecMatchParams,
    SpecMatchResult,
    SpecRememberParams,
    SpecRememberResult,
    SpecsListResult,
)
from ssdprof.app.contract.sustain import SUSTAIN_METHODS
from ssdprof.app.planner import SweepRequest
from ssdprof.app.pts_planner import PtsRequest
from ssdprof.model.events import (
    PtsStarted,
    SweepStarted,
)
from ssdprof.model.pts_results import PtsResult
from ssdprof.model.status import STATUS_CHOICES
from ssdprof.report.series import BarChart, ChartSet, PercentileCurve

__all__ = ["METHODS", "Method", "schema"]


# --------------------------------------------------------------------------------------- methods


class Method(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    params: type[BaseModel]
    result: type[BaseModel]
    summary: str


METHODS: dict[str, Method] = {
    "engine.info": Method(params=NoParams, result=EngineInfoResult, summary="fio and portable engine availability, defaults"),
    "workload.validate": Method(params=ValidateParams, result=ValidateResult, summary="the engine's own field checks"),
    "presets.list": Method(params=NoParams, result=PresetsResult, summary="the ready-made sweeps"),
    "devices.list": Method(params=NoParams, result=DevicesResult, summary="this machine's block devices, and what uses them"),
    "sweep.estimate": Method(params=SweepRequest, result=SweepEstimate, summary="points and duration; runs nothing"),
    "sweep.start": Method(params=SweepRequest, result=SweepStarted, summary="start a sweep; events follow as run.event"),
    "sweep.resume": Method(params=ResumeParams, result=SweepStarted, summary="continue an interrupted sweep"),
    "sweep.cancel": Method(params=NoParams, result=CancelResult, summary="stop fio; finished points are kept"),
    "sweep.status": Method(params=NoParams, result=SweepStatus, summary="whether a sweep is running"),
    "sweeps.list": Method(params=NoParams, result=SweepsResult, summary="stored sweeps, newest first"),
    "pts.estimate": Method(params=PtsRequest, result=PtsEstimate,
                           summary="a PTS test's rounds, points and duration (PTS defaults run for hours); runs nothing"),
    "pts.start": Method(params=PtsRequest, result=PtsStarted,
                        summary="start a PTS test: purge, preconditioning, rounds; events follow as pts.event"),
    "pts.resume": Method(params=PtsResumeParams, result=PtsStarted, summary="continue an interrupted PTS test"),
    "pts.cancel": Method(params=NoParams, result=PtsCancelResult, summary="stop the PTS test; finished rounds are kept"),
    "pts.status": Method(params=NoParams, result=PtsStatus, summary="whether a PTS test is running, and where"),
    "pts.list": Method(params=NoParams, result=PtsListResult, summary="stored PTS tests, newest first"),
    "pts.get": Method(params=PtsIdParams, result=PtsResult,
                      summary="a PTS test: steady state, rounds, matrix, drive state and parameters"),
    "pts.report": Method(params=PtsReportParams, result=ReportResult, summary="a PTS test's PDF report (base64)"),
    "runs.list": Method(params=RunsListParams, result=RunsListResult, summary="stored runs matching a filter"),
    "runs.get": Method(params=RunIdParams, result=RunResultEnvelope, summary="one run in full"),
    "runs.page": Method(params=RunsPageParams, result=RunsPageResult,
                        summary="a page of stored runs matching a filter, newest first, with how many match"),
    "runs.select": Method(params=RunsSelectParams, result=RunsSelectResult,
                          summary="every matching run's id (no limit) and the tag keys they carry"),
    "runs.groups": Method(params=RunsGroupsParams, result=RunsGroupsResult,
                          summary="runs split into groups by a tag or a recorded fact, with the keys offered"),
    "runs.people": Method(params=NoParams, result=PeopleResult, summary="the users and machines that stored runs"),
    "runs.tag": Method(params=TagParams, result=RunResultEnvelope, summary="add or change tags of a run"),
    "runs.delete": Method(params=RunIdParams, result=DeleteResult, summary="delete a run"),
    "runs.charts": Method(params=ChartsParams, result=ChartSet,
                          summary="every series the Results view draws: mean ± 95 % CI per point, spec and earlier runs"),
    "runs.bars": Method(params=BarsParams, result=BarChart, summary="mean ± 95 % CI of a metric per setting, one series per group"),
    "runs.summary": Method(params=SummaryParams, result=StudentSummary,
                           summary="the student's summary: key figures, each factor's effect, "
                                   "the spec, caveats"),
    "runs.percentiles": Method(params=RunIdParams, result=PercentileCurve, summary="a run's latency distribution from its bins"),
    "export.csv": Method(params=ExportParams, result=ExportResult, summary="runs as CSV, units in the column names"),
    "specs.list": Method(params=NoParams, result=SpecsListResult, summary="the spec library (bundled and the user's own)"),
    "specs.match": Method(params=SpecMatchParams, result=SpecMatchResult, summary="the spec sheet for a device model"),
    "specs.compare": Method(params=SpecCompareParams, result=SpecCompareResult, summary="% of spec for runs, where fair"),
    "specs.save": Method(params=SpecSaveParams, result=SpecSaveResult, summary="add or edit one of the user's own spec sheets"),
    "specs.remember": Method(params=SpecRememberParams, result=SpecRememberResult,
                             summary="remember (or forget) the spec chosen for a run's device"),
    "specs.delete": Method(params=SpecDeleteParams, result=DeleteResult, summary="delete one of the user's own spec sheets"),
    "runs.compare": Method(params=RunsCompareParams, result=RunsCompareResult, summary="group B vs A: mean ± CI, Welch"),
    "analysis.predict": Method(params=PredictParams, result=PredictResult,
                               summary="fit a metric against access size or outstanding I/Os; predict with intervals"),
    "analysis.scaling": Method(params=ScalingParams, result=ScalingResult,
                               summary="Universal Scalability Law over node or client counts, capped by the network"),
    "analysis.observe": Method(params=ObserveParams, result=ObserveResult,
                               summary="plain-language observations: the queue-depth knee, gaps, network or CPU bound"),
    "analysis.correlation": Method(params=CorrelationParams, result=CorrelationResult,
                                   summary="factor x metric correlations per storage-node count"),
    "analysis.scale_up": Method(params=ScaleUpParams, result=ScaleUpResult,
                                summary="size an all-flash array: every way to cable its chassis and enclosures to SAS "
                                        "controllers, IOPS and CPU predicted from a chassis and one enclosure"),
    "analysis.scale_up_report": Method(params=ScaleUpParams, result=ReportResult,
                                       summary="the scale-up sizing as a PDF page (base64)"),
    "report.pdf": Method(params=ReportParams, result=ReportResult, summary="a PDF report of runs or a sweep (base64)"),
    "hosts.list": Method(params=NoParams, result=HostsListResult, summary="the hosts added so far"),
    "hosts.add": Method(params=HostAddParams, result=HostAddResult, summary="add a host; an unknown key is offered first"),
    "hosts.test": Method(params=HostParams, result=HostTestResult, summary="reachability, fio, engines, CPUs, NICs"),
    "hosts.remove": Method(params=HostParams, result=DeleteResult, summary="forget a host"),
    "hosts.set_link": Method(params=HostLinkParams, result=HostInfo, summary="set or clear the link speed set for a host"),
    **{name: Method(params=params, result=result, summary=summary)
       for name, (params, result, summary) in WATCH_METHODS.items()},
    **{name: Method(params=params, result=result, summary=summary) for name, (params, result, summary) in CURVE_METHODS.items()},
    **{name: Method(params=params, result=result, summary=summary)
       for name, (params, result, summary) in IMPORT_METHODS.items()},
    **{name: Method(params=params, result=result, summary=summary)
       for name, (params, result, summary) in SUSTAIN_METHODS.items()},
    **{name: Method(params=params, result=result, summary=summary)
       for name, (params, result, summary) in DRIVE_METHODS.items()},
    **{name: Method(params=params, result=result, summary=summary) for name, (params, result, summary) in REPLAY_METHODS.items()},
}


# ---------------------------------------------------------------------------------------- schema


class _OutputsComplete(GenerateJsonSchema):
    """Results always carry every field (defaults included), so mark them required for clients."""

    def field_is_required(self, field: core_schema.ModelField | core_schema.DataclassField | core_schema.TypedDictField,
                          total: bool) -> bool:
        if self.mode == "serialization":
            return not field.get("serialization_exclude")
        return super().field_is_required(field, total)


def schema() -> dict[str, Any]:
    """One JSON Schema document: ``$defs`` plus the method and notification tables that name them."""
    inputs = {m.params for m in METHODS.values()}
    outputs = {m.result for m in METHODS.values()} | set(NOTIFICATIONS.values()) | {RpcErrorData}
    models: list[tuple[type[BaseModel], Literal["validation", "serialization"]]] = [
        *((m, "validation") for m in sorted(inputs, key=lambda m: m.__name__)),
        *((m, "serialization") for m in sorted(outputs, key=lambda m: m.__name__)),
    ]
    refs, document = models_json_schema(models, ref_template="#/$defs/{model}", schema_generator=_OutputsComplete)

    def ref(model: type[BaseModel], mode: str) -> str:
        return str(refs[(model, mode)]["$ref"]).removeprefix("#/$defs/")  # type: ignore[index]

    return {
        "$defs": document.get("$defs", {}),
        "methods": {name: {"params": ref(m.params, "validation"), "result": ref(m.result, "serialization"),
                           "summary": m.summary} for name, m in METHODS.items()},
        "notifications": {name: ref(model, "serialization") for name, model in NOTIFICATIONS.items()},
        "errors": ERROR_CODES,
        "token_header": TOKEN_HEADER,
        "error_data": ref(RpcErrorData, "serialization"),
        "metric_names": {name: {**asdict(shown), "title": shown.title}
                         for name, shown in METRIC_NAMES.items()},
        "statuses": {name: list(values) for name, values in STATUS_CHOICES.items()},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
