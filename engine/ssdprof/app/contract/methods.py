"""The desktop app's contract: every RPC method's params and result, the notifications, the errors.

Defined once, here. :func:`schema` emits it as JSON Schema; ``scripts/gen_contract.py`` turns
that into ``contract/contract.gen.ts`` (imported by both ``electron/`` and ``src/``), and
``engine/tests/app/test_contract.py`` fails when the generated file is stale. The stdio RPC
(``rpc.py``) and browser mode (``server.py``) both speak exactly this.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import asdict
from pathlib import Path
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
from ssdprof.app.contract.base import NoParams, Topic
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
from ssdprof.app.contract.notifications import EngineLog, EngineStatus
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
    ChartsParams,
    DeleteResult,
    DevicesResult,
    EngineInfoResult,
    ExportParams,
    ExportResult,
    PresetsResult,
    RunIdParams,
    RunResultEnvelope,
    RunsListParams,
    RunsListResult,
    SummaryParams,
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
from ssdprof.model.status import STATUS_CHOICES
from ssdprof.report.percentiles import PercentileCurve
from ssdprof.report.series import BarChart, ChartSet

__all__ = ["METHODS", "NOTIFICATIONS", "Method", "schema"]


# --------------------------------------------------------------------------------------- methods


class Method(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    params: type[BaseModel]
    result: type[BaseModel]
    summary: str


_CORE = Topic({
    "engine.info": (NoParams, EngineInfoResult, "fio and portable engine availability, defaults"),
    "workload.validate": (ValidateParams, ValidateResult, "the engine's own field checks"),
    "presets.list": (NoParams, PresetsResult, "the ready-made sweeps"),
    "devices.list": (NoParams, DevicesResult, "this machine's block devices, and what uses them"),
    "runs.list": (RunsListParams, RunsListResult, "stored runs matching a filter"),
    "runs.get": (RunIdParams, RunResultEnvelope, "one run in full"),
    "runs.page": (RunsPageParams, RunsPageResult,
                        "a page of stored runs matching a filter, newest first, with how many match"),
    "runs.select": (RunsSelectParams, RunsSelectResult,
                          "every matching run's id (no limit) and the tag keys they carry"),
    "runs.groups": (RunsGroupsParams, RunsGroupsResult,
                          "runs split into groups by a tag or a recorded fact, with the keys offered"),
    "runs.people": (NoParams, PeopleResult, "the users and machines that stored runs"),
    "runs.tag": (TagParams, RunResultEnvelope, "add or change tags of a run"),
    "runs.delete": (RunIdParams, DeleteResult, "delete a run"),
    "runs.charts": (ChartsParams, ChartSet,
                          "every series the Results view draws: mean ± 95 % CI per point, spec and earlier runs"),
    "runs.bars": (BarsParams, BarChart, "mean ± 95 % CI of a metric per setting, one series per group"),
    "runs.summary": (SummaryParams, StudentSummary,
                           "the student's summary: key figures, each factor's effect, "
                                   "the spec, caveats"),
    "runs.percentiles": (RunIdParams, PercentileCurve, "a run's latency distribution from its bins"),
    "export.csv": (ExportParams, ExportResult, "runs as CSV, units in the column names"),
    "specs.list": (NoParams, SpecsListResult, "the spec library (bundled and the user's own)"),
    "specs.match": (SpecMatchParams, SpecMatchResult, "the spec sheet for a device model"),
    "specs.compare": (SpecCompareParams, SpecCompareResult, "% of spec for runs, where fair"),
    "specs.save": (SpecSaveParams, SpecSaveResult, "add or edit one of the user's own spec sheets"),
    "specs.remember": (SpecRememberParams, SpecRememberResult,
                             "remember (or forget) the spec chosen for a run's device"),
    "specs.delete": (SpecDeleteParams, DeleteResult, "delete one of the user's own spec sheets"),
    "runs.compare": (RunsCompareParams, RunsCompareResult, "group B vs A: mean ± CI, Welch"),
    "analysis.predict": (PredictParams, PredictResult,
                               "fit a metric against access size or outstanding I/Os; predict with intervals"),
    "analysis.scaling": (ScalingParams, ScalingResult,
                               "Universal Scalability Law over node or client counts, capped by the network"),
    "analysis.observe": (ObserveParams, ObserveResult,
                               "plain-language observations: the queue-depth knee, gaps, network or CPU bound"),
    "analysis.correlation": (CorrelationParams, CorrelationResult,
                                   "factor x metric correlations per storage-node count"),
    "analysis.scale_up": (ScaleUpParams, ScaleUpResult,
                                "size an all-flash array: every way to cable its chassis and enclosures to SAS "
                                        "controllers, IOPS and CPU predicted from a chassis and one enclosure"),
    "analysis.scale_up_report": (ScaleUpParams, ReportResult,
                                       "the scale-up sizing as a PDF page (base64)"),
    "report.pdf": (ReportParams, ReportResult, "a PDF report of runs or a sweep (base64)"),
    "hosts.list": (NoParams, HostsListResult, "the hosts added so far"),
    "hosts.add": (HostAddParams, HostAddResult, "add a host; an unknown key is offered first"),
    "hosts.test": (HostParams, HostTestResult, "reachability, fio, engines, CPUs, NICs"),
    "hosts.remove": (HostParams, DeleteResult, "forget a host"),
    "hosts.set_link": (HostLinkParams, HostInfo, "set or clear the link speed set for a host"),
    **WATCH_METHODS,
    **DRIVE_METHODS,
    **IMPORT_METHODS,
}, {"engine.log": EngineLog, "engine.status": EngineStatus})
"""The methods and notifications of no test kind; each kind's are its own module's ``TOPIC``."""


def _topics() -> list[Topic]:
    """The core table, then every module of this folder that declares a ``TOPIC`` (each test kind's
    among them: a new kind's methods join the contract with its module; nothing here names it)."""
    found = [_CORE]
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        topic = getattr(importlib.import_module(f"{__package__}.{module.name}"), "TOPIC", None)
        if isinstance(topic, Topic):
            found.append(topic)
    return found


def _gather(topics: list[Topic]) -> tuple[dict[str, Method], dict[str, type[BaseModel]]]:
    methods: dict[str, Method] = {}
    notifications: dict[str, type[BaseModel]] = {}
    for topic in topics:
        for name, (params, result, summary) in topic.methods.items():
            if name in methods:
                raise RuntimeError(f"the contract declares method {name!r} twice")
            methods[name] = Method(params=params, result=result, summary=summary)
        for name, model in topic.notifications.items():
            if name in notifications:
                raise RuntimeError(f"the contract declares notification {name!r} twice")
            notifications[name] = model
    return methods, notifications


METHODS, NOTIFICATIONS = _gather(_topics())


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
