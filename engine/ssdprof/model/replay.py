"""How a recorded trace is played back: which part of it (disks, hosts, a time window), with what timing, and
how its offsets land on the target. Times in seconds from the trace's first I/O, sizes in bytes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ssdprof.model.labelled import Labelled
from ssdprof.model.trace import TraceSummary
from ssdprof.model.value import Value

__all__ = ["LATE_MS", "MAX_REPLAY_DEPTH", "SLIGHTLY_LATE_MS", "HostPart", "HostsMode", "IssueTiming", "OffsetMapping",
           "ReplaySpec", "ReplayTiming", "TraceSelection"]

MAX_REPLAY_DEPTH = 1024


class ReplayTiming(Labelled):
    AS_RECORDED = "as-recorded", "as recorded (each I/O at its recorded time)"
    FASTEST = "fastest", "as fast as possible (in order, at a chosen queue depth)"


class OffsetMapping(Labelled):
    """What happens to a trace that reaches past the end of the target."""

    EXACT = "exact", "exact (refuse a trace larger than the target)"
    WRAP = "wrap", "wrap (offsets modulo the target's size)"
    SCALE = "scale", "scale (offsets shrunk in proportion onto the target)"


class HostsMode(Labelled):
    """How a replay on several SSH hosts shares the trace out."""

    WHOLE = "whole", "the whole trace on every host"
    SPLIT = "split", "one trace split across the hosts (each I/O on one host, dealt in turn)"


class TraceSelection(BaseModel):
    """The part of a trace replayed: some of its disks or hosts, and a window of its time."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hosts: list[str] = Field(default_factory=list, description="keep these recording hosts (MSR's Hostname); empty: all")
    disks: list[str] = Field(default_factory=list, description="keep these disks (MSR's DiskNumber, blktrace's "
                                                               "major,minor, an iolog's file); empty: all")
    start_s: float = Field(default=0.0, ge=0, description="the window's start, seconds from the trace's first I/O")
    end_s: float | None = Field(default=None, gt=0, description="the window's end; null: the trace's end")

    @model_validator(mode="after")
    def _window(self) -> TraceSelection:
        if self.end_s is not None and self.end_s <= self.start_s:
            raise ValueError(f"end_s: the window's end ({self.end_s:g} s) is not after its start ({self.start_s:g} s)")
        return self

    @property
    def whole(self) -> bool:
        return not self.hosts and not self.disks and self.start_s == 0 and self.end_s is None


LATE_MS = 10.0
"""An I/O issued more than this after its recorded time counts as late (fio's per-I/O log is in whole ms); a replay
as recorded kept its timing when 99 % of its I/Os were issued within it."""
SLIGHTLY_LATE_MS = 1.0
"""The finer mark the lateness is also counted at."""


class IssueTiming(Value):
    """How the replay issued its I/Os, from fio's per-I/O submission log (ms resolution): counted on the trace's
    own steps by issue time, and how late each was against its recorded time (as recorded only)."""

    issued: int
    step_s: int
    reads_per_step: list[int]
    writes_per_step: list[int]
    late_p50_ms: float | None = None
    late_p99_ms: float | None = None
    late_max_ms: float | None = None
    late_count: int = Field(default=0, description="I/Os issued more than 10 ms after their recorded time")
    late_1ms_count: int | None = Field(default=None, description="I/Os issued more than 1 ms after their recorded "
                                                                 "time (null: a replay stored before it was counted)")


class HostPart(Value):
    """What one SSH host of a replay plays: the whole part, or (split) its share of it, timed from the common start."""

    host: str
    lanes: int = Field(ge=1, le=MAX_REPLAY_DEPTH)
    recorded: TraceSummary | None = Field(default=None, description="split: this host's share as recorded (its rate on "
                                                                     "the replay's steps); whole: null, the replay's own")
    recorded_end_s: float = Field(default=0.0, description="its last I/O's recorded time, from the replay's start")
    issued: IssueTiming | None = Field(default=None, description="how this host issued its I/Os, once it ran")


class ReplaySpec(Value):
    """A stored replay: what was replayed and how, and the recorded side of the part replayed (its summary with
    the recorded latency bins and rate over time), kept so the comparison still reads when the trace is gone."""

    trace_path: str = Field(description="the trace file as given")
    trace_sha256: str = Field(description="the trace file's SHA-256, to tell a changed file")
    selection: TraceSelection = Field(default_factory=TraceSelection)
    timing: ReplayTiming
    lanes: int = Field(ge=1, le=MAX_REPLAY_DEPTH, description="I/Os in flight at most: lanes issuing one at a time")
    mapping: OffsetMapping
    target_bytes: int = Field(description="the region the trace's offsets were laid on")
    recorded: TraceSummary = Field(description="the part replayed, as recorded (offsets as laid on the target)")
    notes: list[str] = Field(default_factory=list, description="how the trace was chosen, laid and issued, in words")
    issued: IssueTiming | None = Field(default=None, description="filled in once the replay ran (traces of up to 2M "
                                                                 "I/Os; null beyond, or before)")
    hosts_mode: HostsMode = Field(default=HostsMode.WHOLE, description="on SSH hosts: the whole part on each, or split")
    parts: list[HostPart] = Field(default_factory=list, description="one per SSH host, in the hosts' order; empty: "
                                                                    "replayed on this machine")

    @property
    def copies(self) -> int:
        """How many times the hosts together replay each I/O of the part: once per host, or once when split."""
        return len(self.parts) if self.parts and self.hosts_mode is HostsMode.WHOLE else 1
