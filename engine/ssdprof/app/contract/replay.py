"""The trace replay's part of the contract, with its params and results: a trace described (``trace.describe``), a replay estimated,
started (events follow as ``replay.event``), resumed, cancelled, its status, the stored replays listed, one read
back beside its trace, and its PDF page."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ssdprof.app.contract.base import Params, Result, Topic
from ssdprof.app.contract.kind import JobFace
from ssdprof.app.contract.runs import DeviceEffect
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.replay_planner import ReplayRequest
from ssdprof.model.replay import HostsMode, OffsetMapping, ReplayTiming
from ssdprof.model.replay_events import ReplayFinished, ReplayProgress, ReplayStarted
from ssdprof.model.replay_results import ReplayInfo, ReplayResult
from ssdprof.model.trace import TraceFormat, TraceSummary

__all__ = ["FACE", "TOPIC", "ReplayEstimate", "ReplayIdParams", "ReplayListResult", "ReplayReportParams",
           "ReplayResumeParams", "TraceDescribeParams"]


class TraceDescribeParams(Params):
    trace: str = Field(min_length=1, max_length=4096, description="the trace file on the engine's machine")
    format: TraceFormat | None = Field(default=None, description="default: told by the file's content")


class ReplayEstimate(DeviceEffect):
    """What the replay will do, said before it starts: the trace, the part replayed, how, where, how long."""

    name: str
    label: str
    trace: TraceSummary = Field(description="the whole trace as recorded")
    replayed: TraceSummary = Field(description="the part replayed, offsets as laid on the target")
    timing: ReplayTiming
    lanes: int
    mapping: OffsetMapping
    target_bytes: int = Field(description="the region the offsets land on")
    expected_s: float | None = Field(description="as recorded: the part's span; null as fast as possible")
    repeats: int
    layout_bytes: int = Field(description="a folder's test file, written before the replay")
    engine: str
    engine_reason: str
    notes: list[str] = Field(default_factory=list)
    hosts: list[str] = Field(default_factory=list, description="the SSH hosts it replays on, all started at once; "
                                                               "empty: this machine")
    hosts_mode: HostsMode | None = Field(default=None, description="on hosts: the whole trace on each, or split")
    hosts_sentence: str = Field(default="", description="what each host plays, in one sentence")


class ReplayResumeParams(Params):
    replay_id: int = Field(ge=1, description="the replay whose remaining repeats run")


class ReplayIdParams(Params):
    replay_id: int = Field(ge=1)


class ReplayReportParams(ReplayIdParams):
    title: str | None = Field(default=None, max_length=200)


class ReplayListResult(Result):
    replays: list[ReplayInfo] = Field(description="newest first")


ReplayEventUnion = Annotated[ReplayStarted | ReplayProgress | ReplayFinished, Field(discriminator="kind")]


FACE = JobFace.made("replay", "replay", ReplayEventUnion, title="Replay", doc=(
    "``replay.event``: one event of the running replay, in order: started, each second beside the trace's\n"
    "recorded rate, the end."))
"""ReplayStatus, ReplayCancelResult and ReplayEventNotification, and its place in the job layer."""

REPLAY = FACE.topic(
    listed=ReplayListResult, plural="replays", kept="repeats",
    estimate=(ReplayRequest, ReplayEstimate, "a replay's part, lanes, target and duration; runs nothing"),
    start=(ReplayRequest, ReplayStarted, "start a trace replay; events follow as replay.event"),
    resume=(ReplayResumeParams, ReplayStarted, "run a cancelled replay's remaining repeats"),
    get=(ReplayIdParams, ReplayResult,
         "a replay beside its trace: p50/p99 recorded and replayed, IOPS over time both ways, timing kept"),
    report=(ReplayReportParams, ReportResult, "a replay's PDF page (base64)"))

TOPIC = Topic({
    "trace.describe": (TraceDescribeParams, TraceSummary,
                       "what a trace holds: I/Os, span, mix, sizes, offsets, recorded rate and latency; runs nothing"),
    **REPLAY.methods,
}, REPLAY.notifications)
