"""The desktop app's contract: every RPC method's params and result, the notifications, the errors.

Defined once, here. :func:`schema` emits it as JSON Schema; ``scripts/gen_contract.py`` turns
that into ``src/api/contract.gen.ts`` and ``engine/tests/test_contract.py`` fails when the
generated file is stale. The stdio RPC (``rpc.py``) and browser mode (``server.py``) both
speak exactly this.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema, models_json_schema
from pydantic_core import core_schema

from ssdprof.analysis.spec_comparison import SpecComparison
from ssdprof.contract_analysis import (
    CorrelationParams,
    CorrelationResult,
    ObserveParams,
    ObserveResult,
    PredictParams,
    PredictResult,
    ScalingParams,
    ScalingResult,
    SpecDeleteParams,
    SpecSaveParams,
    SpecSaveResult,
)
from ssdprof.devices import BlockDevice
from ssdprof.events import LayoutDone, PointFinished, PointProgress, PointStarted, SweepFinished, SweepStarted
from ssdprof.results import RunResult
from ssdprof.specs import Spec
from ssdprof.sweep import MAX_REPEATS, SweepMode
from ssdprof.workload import FieldProblem, Workload

__all__ = ["ERROR_CODES", "METHODS", "NOTIFICATIONS", "Method", "RpcErrorData", "TargetDevice", "WorkloadInput", "schema", "target_device"]


class _Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True)


Loose = int | float | str
"""What a person types: ``4096`` or ``"4k"``, ``10`` or ``"10s"``; the engine parses units."""


class WorkloadInput(_Params):
    """Workload fields as typed in a form; omitted fields take the engine's defaults."""

    pattern: str | None = None
    read_pct: Loose | None = None
    block_size_bytes: Loose | None = None
    queue_depth: Loose | None = None
    numjobs: Loose | None = None
    runtime_s: Loose | None = None
    ramp_s: Loose | None = None
    size_bytes: Loose | None = None
    offset_bytes: Loose | None = None
    target: str | None = None
    direct: bool | None = None
    engine: str | None = None
    allow_overwrite: bool | None = None
    keep_file: bool | None = None

    def raw(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


# --------------------------------------------------------------------------------------- methods


class NoParams(_Params):
    pass


class FieldRule(_Result):
    flag: str
    allowed: str


class EngineInfoResult(_Result):
    version: str
    fio_path: str | None
    fio_version: str | None
    portable_available: bool
    portable_reason: str = Field(description="why the portable engine is or is not available")
    default_target: str = Field(description="the scratch folder used when no target is given")
    db_path: str
    platform: str
    defaults: Workload
    field_rules: dict[str, FieldRule]


class ValidateParams(_Params):
    workload: WorkloadInput
    check_target: bool = Field(default=True, description="also check the target exists, is writable and has room")


class ValidateResult(_Result):
    ok: bool
    problems: list[FieldProblem]
    workload: Workload | None = None
    label: str = ""
    duration_s: float = 0.0


class PresetInfo(_Result):
    name: str
    description: str
    points: int


class PresetsResult(_Result):
    presets: list[PresetInfo]


class SweepParams(_Params):
    """A sweep: a preset, factors varied one at a time or as a grid, or the base workload alone."""

    base: WorkloadInput = WorkloadInput()
    preset: str | None = None
    factors: dict[str, list[Loose]] | None = Field(default=None, description="workload field -> values to try")
    mode: SweepMode = SweepMode.ONE_AT_A_TIME
    repeats: int = Field(default=1, ge=1, le=MAX_REPEATS)
    name: str | None = Field(default=None, max_length=200)
    tags: dict[str, str] = Field(default_factory=dict)
    hosts: list[str] = Field(default_factory=list, max_length=256,
                             description="run on these SSH hosts (aliases or user@host:port) instead of locally")
    remote_dir: str = Field(default="", description="the folder on every host (default: the engine's remote scratch folder)")
    remote_dirs: dict[str, str] = Field(default_factory=dict, description="host -> its own folder, overriding remote_dir")
    remote_devices: dict[str, str] = Field(default_factory=dict,
                                           description="host -> a block device there, measured in place of a test file")
    rbd: str = Field(default="", description="POOL/IMAGE for fio's rbd engine on the hosts; {host} gives one image per host")
    ceph_conf: str = ""
    ceph_user: str = "admin"


class PlannedPoint(_Result):
    label: str
    workload: Workload


class TargetDevice(_Result):
    """A block device as a target: what it is, what lies beneath it, and what keeps it from being written."""

    path: str
    description: str = Field(description="e.g. '/dev/loop3 (loop device over /var/tmp/a.img on vda, 64MiB)'")
    model: str = Field(description="the model of the disk holding the data ('' when the OS does not say)")
    size_bytes: int
    kind: str = Field(description="disk, partition, loop, zram, ram, dm or md")
    stack: list[str] = Field(description="from the device down to the disk holding its data")
    in_use: list[str] = Field(description="why it must not be written now (mounted, held, swap), each with what to do")
    ram: str = Field(description="why measuring it would measure memory; '' for a real device")


def target_device(device: BlockDevice) -> TargetDevice:
    return TargetDevice(path=device.path, description=device.describe(), model=device.model, size_bytes=device.size_bytes,
                        kind=device.kind, stack=list(device.stack), in_use=device.uses(), ram=device.ram_reason() or "")


class DevicesResult(_Result):
    devices: list[TargetDevice]


class SweepEstimate(_Result):
    name: str
    points: list[PlannedPoint]
    repeats: int
    total_points: int
    estimated_s: float = Field(description="ramp + runtime of every point, per-point overhead and test-file layout")
    layout_bytes: int
    device: TargetDevice | None = Field(default=None, description="the block device the sweep targets, if it is one")
    overwrite_bytes: int = Field(default=0, description="bytes of the device the sweep overwrites (0: it only reads)")
    region: str = Field(default="", description="what the sweep does to the device, in one sentence")


class ResumeParams(_Params):
    sweep_id: int | None = Field(default=None, description="default: the last unfinished sweep")


class CancelResult(_Result):
    cancelled: bool = Field(description="false when no sweep was running")
    sweep_id: int | None = None


class SweepStatus(_Result):
    running: bool
    sweep_id: int | None = None
    name: str = ""
    total_points: int = 0
    finished_points: int = 0


class SweepInfo(_Result):
    id: int
    created_at: str
    name: str
    status: str
    runs: int


class SweepsResult(_Result):
    sweeps: list[SweepInfo]


class RunsListParams(_Params):
    tag: str | None = Field(default=None, description="key=value, or a bare value matching any tag")
    text: str | None = Field(default=None, description="matched against target, device model, engine and source")
    since: str | None = Field(default=None, description="ISO date or time")
    sweep_id: int | None = None
    limit: int = Field(default=500, ge=1, le=5000, description="the newest N matching runs; a sweep_id lists all its runs")


class RunsListResult(_Result):
    runs: list[RunResult] = Field(description="oldest first; without per-second progress and histogram bins; runs.get has them")
    total: int = Field(description="how many runs match in all; more than len(runs) when the limit left older ones out")


class RunIdParams(_Params):
    run_id: int


class RunResultEnvelope(_Result):
    run: RunResult


class TagParams(_Params):
    run_id: int
    tags: dict[str, Annotated[str, Field(max_length=200)]]


class DeleteResult(_Result):
    deleted: bool


class ExportParams(_Params):
    run_ids: list[int] = Field(default_factory=list)
    sweep_id: int | None = None


class ExportResult(_Result):
    csv: str
    filename: str
    runs: int


# ------------------------------------------------------------------------ spec sheets, compare


class SpecsListResult(_Result):
    specs: list[Spec]
    problems: list[str] = Field(description="spec files that could not be read, each naming the file and field")
    user_spec_ids: list[str] = Field(default_factory=list, description="the specs that are the user's own (editable, deletable)")
    user_spec_dir: str | None = Field(default=None, description="where the user's own spec sheets are saved")


class SpecMatchParams(_Params):
    device_model: str = Field(min_length=1, max_length=300)
    capacity_bytes: int | None = Field(default=None, gt=0)


class SpecMatchResult(_Result):
    spec: Spec | None
    score: int = Field(description="3 exact, 2 the pattern appears in the model, 1 same family; 0 no match")
    note: str


class SpecCompareParams(_Params):
    run_ids: list[int] = Field(min_length=1, max_length=2000)
    spec_id: str | None = Field(default=None, description="default: the spec matching each run's device model")


class RunSpecComparison(_Result):
    run_id: int = Field(description="the first of run_ids")
    run_ids: list[int] = Field(description="repeats of one setting, compared as the mean of their measurements")
    spec_id: str
    how: str = Field(description="why this spec: matched the device model, or chosen")
    comparison: SpecComparison
    sentence: str


class SpecCompareResult(_Result):
    comparisons: list[RunSpecComparison]
    unmatched: dict[str, str] = Field(description="run id -> why no spec was compared with it")


class RunsCompareParams(_Params):
    a: list[int] = Field(min_length=1, max_length=2000, description="run ids of group A (e.g. an earlier run)")
    b: list[int] = Field(min_length=1, max_length=2000, description="run ids of group B")
    metric: Literal["iops", "bw_bytes_per_s", "lat_ns_mean", "lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9"] = "iops"
    confidence: float = Field(default=0.95, gt=0.5, lt=1)


class MeanInterval(_Result):
    n: int
    mean: float
    stddev: float | None
    half_width: float | None = Field(description="half the confidence interval; null when n < 2")


class GroupVerdict(_Result):
    setting: str
    same_setting: bool
    a_run_ids: list[int]
    b_run_ids: list[int]
    a: MeanInterval
    b: MeanInterval
    diff_pct: float | None = Field(description="mean(B) - mean(A), relative to mean(A)")
    p_value: float | None = Field(description="Welch's t-test, two-sided; null without 2 repeats a side")
    significant: bool
    verdict: str


class RunsCompareResult(_Result):
    metric: str
    unit: str = Field(description="of the means: IOPS, MB/s (10^6 bytes/s) or µs")
    comparisons: list[GroupVerdict]
    latency_note: str = Field(default="", description="set when A's and B's latencies are of different kinds")


class ReportParams(_Params):
    run_ids: list[int] = Field(default_factory=list, max_length=2000)
    sweep_id: int | None = None
    compare_with: list[int] = Field(default_factory=list, max_length=2000, description="earlier runs: a second group")
    spec_id: str | None = Field(default=None, description="default: the spec matching the device model")
    title: str | None = Field(default=None, max_length=200)


class ReportResult(_Result):
    pdf_base64: str
    filename: str
    bytes: int
    runs: int


# ---------------------------------------------------------------------------------------- hosts


class HostProbeInfo(_Result):
    reachable: bool
    os: str
    cpu_count: int
    fio_version: str
    fio_engines: list[str]
    ceph_tools: list[str]
    nics: dict[str, int] = Field(description="interface -> link speed in Mb/s (-1 when the OS does not say)")
    error: str


class HostInfo(_Result):
    name: str
    added_at: str
    fingerprint: str
    probe: HostProbeInfo


class HostsListResult(_Result):
    hosts: list[HostInfo]


class HostParams(_Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")


class HostAddParams(_Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")
    accept_fingerprint: str | None = Field(default=None, max_length=200,
                                           description="accept the host key with this fingerprint (as offered by a first call)")


class HostKeyInfo(_Result):
    key_type: str
    fingerprint: str


class HostAddResult(_Result):
    added: bool
    host: str
    offered: list[HostKeyInfo] = Field(description="unknown host keys: show them; add again with accept_fingerprint")
    probe: HostProbeInfo | None
    message: str


class HostTestResult(_Result):
    host: str
    probe: HostProbeInfo


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
    "sweep.estimate": Method(params=SweepParams, result=SweepEstimate, summary="points and duration; runs nothing"),
    "sweep.start": Method(params=SweepParams, result=SweepStarted, summary="start a sweep; events follow as run.event"),
    "sweep.resume": Method(params=ResumeParams, result=SweepStarted, summary="continue an interrupted sweep"),
    "sweep.cancel": Method(params=NoParams, result=CancelResult, summary="stop fio; finished points are kept"),
    "sweep.status": Method(params=NoParams, result=SweepStatus, summary="whether a sweep is running"),
    "sweeps.list": Method(params=NoParams, result=SweepsResult, summary="stored sweeps, newest first"),
    "runs.list": Method(params=RunsListParams, result=RunsListResult, summary="stored runs matching a filter"),
    "runs.get": Method(params=RunIdParams, result=RunResultEnvelope, summary="one run in full"),
    "runs.tag": Method(params=TagParams, result=RunResultEnvelope, summary="add or change tags of a run"),
    "runs.delete": Method(params=RunIdParams, result=DeleteResult, summary="delete a run"),
    "export.csv": Method(params=ExportParams, result=ExportResult, summary="runs as CSV, units in the column names"),
    "specs.list": Method(params=NoParams, result=SpecsListResult, summary="the spec library (bundled and the user's own)"),
    "specs.match": Method(params=SpecMatchParams, result=SpecMatchResult, summary="the spec sheet for a device model"),
    "specs.compare": Method(params=SpecCompareParams, result=SpecCompareResult, summary="% of spec for runs, where fair"),
    "specs.save": Method(params=SpecSaveParams, result=SpecSaveResult, summary="add or edit one of the user's own spec sheets"),
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
    "report.pdf": Method(params=ReportParams, result=ReportResult, summary="a PDF report of runs or a sweep (base64)"),
    "hosts.list": Method(params=NoParams, result=HostsListResult, summary="the hosts added so far"),
    "hosts.add": Method(params=HostAddParams, result=HostAddResult, summary="add a host; an unknown key is offered first"),
    "hosts.test": Method(params=HostParams, result=HostTestResult, summary="reachability, fio, engines, CPUs, NICs"),
    "hosts.remove": Method(params=HostParams, result=DeleteResult, summary="forget a host"),
}


# --------------------------------------------------------------------------------- notifications

RunEventUnion = Annotated[
    SweepStarted | LayoutDone | PointStarted | PointProgress | PointFinished | SweepFinished,
    Field(discriminator="kind"),
]


class RunEventNotification(_Result):
    """``run.event``: one event of the running sweep, in order."""

    event: RunEventUnion


class EngineLog(_Result):
    """``engine.log``: something the user should know that belongs to no request."""

    level: Literal["info", "warning", "error"]
    message: str


class EngineStatus(_Result):
    """``engine.status``: sent by the desktop shell when the engine process stops or restarts."""

    state: Literal["ready", "restarting", "stopped"]
    message: str


NOTIFICATIONS: dict[str, type[BaseModel]] = {
    "run.event": RunEventNotification,
    "engine.log": EngineLog,
    "engine.status": EngineStatus,
}


# ---------------------------------------------------------------------------------------- errors

ERROR_CODES: dict[str, int] = {
    "parse_error": -32700,
    "invalid_request": -32600,
    "method_not_found": -32601,
    "invalid_params": -32602,
    "internal_error": -32603,
    "not_found": -32001,
    "busy": -32002,
}


class RpcErrorData(_Result):
    """``error.data`` of an invalid_params error: each problem names its field, as the CLI does."""

    problems: list[FieldProblem] = Field(default_factory=list)


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
        "error_data": ref(RpcErrorData, "serialization"),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
