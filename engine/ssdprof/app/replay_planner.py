"""One planner for trace replays: a :class:`ReplayRequest` (``ssdprof replay``, the RPC, the Replay view) becomes
a sweep of kind ``replay`` of one point, by the sweep planner's own rules for the target (a folder's test file,
a file or a whole device, consent to overwrite, a mounted device refused, hosts) plus the replay's: the trace
read whole, the part chosen, its offsets laid on the target, its lanes; every bad value named at once.

The sweep's one point is the replay as a workload says it (the trace's main access size, its read share, its
span as the runtime, the lanes as jobs): what lists, tables and the store key it by. What runs is the trace.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ssdprof.app.planner import EngineName, Loose, SweepRequest, Tags, WorkloadInput, plan_sweep
from ssdprof.model.problems import FieldRule, Problems, WorkloadError, problem, register
from ssdprof.model.quantities import parse_size_bytes
from ssdprof.model.replay import (
    MAX_REPLAY_DEPTH,
    HostPart,
    HostsMode,
    OffsetMapping,
    ReplaySpec,
    ReplayTiming,
    TraceSelection,
)
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.trace import TraceError, TraceFormat, TraceSummary
from ssdprof.model.workload import MAX_BLOCK_SIZE_BYTES, MAX_RUNTIME_S
from ssdprof.target.plan import whole_device_bytes
from ssdprof.trace.describe import describe
from ssdprof.trace.mapping import ReplayRefused
from ssdprof.trace.plan import ReplayPlan, plan_replay, split_plan
from ssdprof.trace.reader import load_trace
from ssdprof.trace.records import TraceRecords

__all__ = ["DEFAULT_LANES", "ReplayJob", "ReplayRequest", "describe_trace", "host_plans", "plan_replay_request",
           "trace_sha256"]

DEFAULT_LANES = 16
_MiB = 1 << 20
_ASSUMED_LANE_IOPS = 2000.0
"""What an estimate of a replay as fast as possible assumes of each lane (a slow SSD at one I/O in flight); the
real time is shown live."""

register({
    "trace": FieldRule("TRACE", "a fio iolog (v2 or v3), a blktrace file or an MSR-Cambridge CSV (.csv or .csv.gz)",
                       "trace", "hm_1.csv.gz"),
    "timing": FieldRule("--timing", "as-recorded or fastest", "timing", "as-recorded"),
    "lanes": FieldRule("--qd", f"1–{MAX_REPLAY_DEPTH} I/Os in flight at most", "queue depth", "16"),
    "mapping": FieldRule("--offsets", "exact, wrap or scale", "offsets", "wrap"),
    "selection": FieldRule("--disk/--trace-host/--from/--to", "disks and hosts the trace holds, a window within its "
                           "span", "part of the trace", "--disk 1 --from 60 --to 120"),
    # the window's ends named by their own fields (the view's From and To), not as the part of the trace
    "start_s": FieldRule("--from", "0 s or more, seconds from the trace's first I/O", "from (s)", "60"),
    "end_s": FieldRule("--to", "above 0 s and after the window's start (blank: the trace's end)", "to (s)", "120"),
    "hosts_mode": FieldRule("--split", "whole (the trace on every host) or split (each I/O on one host)",
                            "hosts' share", "split"),
})


class ReplayRequest(BaseModel):
    """A replay as typed in the view or on the command line; omitted fields take defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    trace: str = Field(min_length=1, max_length=4096, description="the trace file on the engine's machine")
    format: TraceFormat | None = Field(default=None, description="default: told by the file's content")
    selection: TraceSelection = Field(default_factory=TraceSelection)
    timing: ReplayTiming = ReplayTiming.AS_RECORDED
    lanes: int = Field(default=DEFAULT_LANES, ge=1, le=MAX_REPLAY_DEPTH,
                       description="I/Os in flight at most (each lane issues one at a time)")
    mapping: OffsetMapping = OffsetMapping.EXACT
    target: str | None = Field(default=None, description="a folder (a test file as large as the trace's region), a "
                                                         "file or a whole block device (writes confirmed with "
                                                         "allow_overwrite)")
    size_bytes: Loose | None = Field(default=None, description="a folder's test file: default the trace's region")
    direct: bool = True
    engine: EngineName | None = None
    allow_overwrite: bool = False
    keep_file: bool = False
    repeats: int = Field(default=1, ge=1, le=100, description="play the trace this many times (each a run): two "
                                                              "targets' repeats compare with a Welch verdict")
    hosts: list[str] = Field(default_factory=list, max_length=256, description="replay on these SSH hosts at once "
                             "(aliases or user@host:port), from one common start, instead of on this machine")
    hosts_mode: HostsMode = Field(default=HostsMode.WHOLE, description="the whole trace on every host, or one trace "
                                                                       "split across them (each I/O on one host)")
    remote_dir: str = Field(default="", description="the folder on every host (default: the engine's remote scratch "
                                                    "folder)")
    remote_dirs: dict[str, str] = Field(default_factory=dict, description="host -> its own folder, overriding remote_dir")
    remote_devices: dict[str, str] = Field(default_factory=dict, description="host -> a block device there, replayed "
                                                                             "on in place of a test file")
    name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=dict)


@dataclass(frozen=True)
class ReplayJob:
    """A replay planned: the sweep that stores it (its one point, its ``replay`` spec) and the I/Os to issue."""

    spec: SweepSpec
    plan: ReplayPlan
    whole: TraceSummary
    """The whole trace as recorded (the part replayed is ``spec.replay.recorded``)."""
    host_plans: dict[str, ReplayPlan] = field(default_factory=dict)
    """On SSH hosts: what each host plays (the plan, or its share of it); empty on this machine."""


def plan_replay_request(request: ReplayRequest, *, check_target: bool = False, default_dir: Path | None = None
                        ) -> ReplayJob:
    """The replay planned, or a WorkloadError naming every bad field (the trace's first bad line among them)."""
    problems = Problems()
    records = None
    with problems.collect():
        records = _load(request)
    size = None
    with problems.collect():
        size = _size(request, records)
    with problems.collect():
        _local_target_on_hosts(request)
    if records is None or size is None:
        problems.raise_any()
    assert records is not None and size is not None
    replay = None
    with problems.collect():
        replay = _plan(request, records, size)
    spec = None
    with problems.collect():
        spec = plan_sweep(_sweep_request(request, replay, size), check_target=check_target, default_dir=default_dir)
    plans: dict[str, ReplayPlan] = {}
    with problems.collect():
        plans = host_plans(request.hosts_mode, replay, spec.remote.hosts) if replay and spec and spec.remote else {}
    problems.raise_any()
    assert replay is not None and spec is not None
    recorded = describe(replay.records)
    stored = ReplaySpec(trace_path=request.trace, trace_sha256=trace_sha256(Path(request.trace).expanduser()),
                        selection=request.selection, timing=request.timing, lanes=replay.lanes,
                        mapping=request.mapping, target_bytes=size, recorded=recorded, notes=list(replay.notes),
                        hosts_mode=request.hosts_mode, parts=_parts(request.hosts_mode, plans, recorded))
    return ReplayJob(spec.model_copy(update={"replay": stored, "name": request.name or f"replay {records.source}"}),
                     replay, describe(records), plans)


def host_plans(mode: HostsMode, plan: ReplayPlan, hosts: list[str]) -> dict[str, ReplayPlan]:
    """What each host plays: the whole plan, or (split) its share, dealt in turn; by host name."""
    if mode is HostsMode.WHOLE:
        return dict.fromkeys(hosts, plan)
    try:
        return dict(zip(hosts, split_plan(plan, len(hosts)), strict=True))
    except ReplayRefused as exc:
        raise WorkloadError([problem("hosts_mode", str(exc), with_rule=False)]) from None


def _parts(mode: HostsMode, plans: dict[str, ReplayPlan], recorded: TraceSummary) -> list[HostPart]:
    step_s = int(recorded.series[0].span_s) if recorded.series else None
    return [HostPart(host=name, lanes=plan.lanes, recorded_end_s=int(plan.records.time_ns.max()) / 1e9,
                     recorded=describe(plan.records, step_s=step_s) if mode is HostsMode.SPLIT else None)
            for name, plan in plans.items()]


def describe_trace(path: str, fmt: TraceFormat | None = None) -> TraceSummary:
    """What the trace at ``path`` holds (``trace.describe``, ``ssdprof replay --describe``); a trace that cannot be
    read is the trace field's problem, with its first bad line."""
    return describe(_load(ReplayRequest(trace=path, format=fmt)))


def trace_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _load(request: ReplayRequest) -> TraceRecords:
    try:
        return load_trace(Path(request.trace).expanduser(), request.format)
    except TraceError as exc:
        raise WorkloadError([problem("trace", str(exc), with_rule=False)]) from None


def _size(request: ReplayRequest, records: TraceRecords | None) -> int:
    """The region the trace lands on: a folder's test file (as asked, or the trace's region in whole MiB), a
    file's or a device's own size; on hosts, as asked or the trace's region."""
    return _region(request.model_copy(update={"target": None}) if request.hosts else request, records)


def _local_target_on_hosts(request: ReplayRequest) -> None:
    if request.hosts and request.target:
        raise WorkloadError([problem("target", "the target is this machine's: on hosts give a folder on each "
                                               "(remote_dir) or a device (remote_devices)", with_rule=False)])


def _region(request: ReplayRequest, records: TraceRecords | None) -> int:
    target = Path(request.target).expanduser() if request.target else None
    device = whole_device_bytes(request.target) if request.target else None
    if device is not None:
        return device
    if target is not None and target.is_file():
        return target.stat().st_size // 512 * 512
    if request.size_bytes is not None:
        try:
            return parse_size_bytes(str(request.size_bytes))
        except ValueError as exc:
            raise WorkloadError([problem("size_bytes", str(exc))]) from None
    if records is None:
        raise WorkloadError([])
    end = int((records.offset_bytes + records.size_bytes).max())
    return max(-(-end // _MiB) * _MiB, _MiB)


def _plan(request: ReplayRequest, records: TraceRecords, size: int) -> ReplayPlan:
    try:
        return plan_replay(records, selection=request.selection, timing=request.timing, queue_depth=request.lanes,
                           target_bytes=size, mapping=request.mapping, align_bytes=512 if request.direct else None)
    except ReplayRefused as exc:
        field = {"target": "target", "direct": "direct"}.get(exc.about, exc.about)
        raise WorkloadError([problem(field, str(exc), with_rule=False)]) from None
    except TraceError as exc:  # the part chosen: a disk or host the trace lacks, an empty window
        raise WorkloadError([problem("selection", str(exc), with_rule=False)]) from None


def _sweep_request(request: ReplayRequest, replay: ReplayPlan | None, size: int) -> SweepRequest:
    """The replay as the sweep planner checks it: its target, region, consent and engine."""
    records = replay.records if replay is not None else None
    writes = int(records.is_write.sum()) if records is not None else 0
    total = len(records) if records is not None else 1
    read_pct = round(100 * (total - writes) / total)
    pattern = "randread" if read_pct == 100 else "randwrite" if read_pct == 0 else "randrw"
    lanes = replay.lanes if replay is not None else request.lanes
    block = _main_size(records) if records is not None else 4096
    runtime = (replay.expected_s if replay is not None and replay.expected_s else total / (_ASSUMED_LANE_IOPS * lanes))
    base = WorkloadInput(pattern=pattern, read_pct=read_pct, block_size_bytes=block, queue_depth=1, numjobs=lanes,
                         runtime_s=min(max(runtime, 0.001), MAX_RUNTIME_S), ramp_s=0,
                         size_bytes=max(size, block * lanes), target=None if request.hosts else request.target,
                         direct=request.direct,
                         engine=request.engine, allow_overwrite=request.allow_overwrite, keep_file=request.keep_file)
    return SweepRequest(base=base, name=request.name, repeats=request.repeats,
                        tags={**request.tags, "replay": records.source if records else ""}, hosts=request.hosts,
                        remote_dir=request.remote_dir, remote_dirs=request.remote_dirs,
                        remote_devices=request.remote_devices)


def _main_size(records: TraceRecords) -> int:
    """The most frequent access size, in whole sectors within the workload's range."""
    sizes, counts = np.unique(records.size_bytes, return_counts=True)
    size = int(sizes[int(np.argmax(counts))])
    return min(max(-(-size // 512) * 512, 512), MAX_BLOCK_SIZE_BYTES)
