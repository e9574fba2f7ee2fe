"""A replay's result as every face shows it: the run it stored, beside the trace's own recorded figures (latency
per direction, IOPS over time) and how long the replay took against the trace's span."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.replay import HostsMode, ReplaySpec
from ssdprof.model.results import ValidityWarning
from ssdprof.model.status import SweepState
from ssdprof.model.value import Value

__all__ = ["CdfPoint", "HostReplay", "LatencyBeside", "RateStep", "ReplayInfo", "ReplayResult", "ReplayedPart"]


class CdfPoint(Value):
    """A share of I/Os at or below a latency (a bin's midpoint)."""

    latency_ns: float
    share: float = Field(description="0 to 1")


class LatencyBeside(Value):
    """One direction's latency as recorded in the trace and as replayed (total latency, from bins)."""

    direction: Literal["read", "write"]
    trace_count: int = Field(description="the trace's I/Os of this direction (× the hosts each replaying the whole "
                                         "trace)")
    recorded_count: int = Field(description="those whose latency the trace records (0: it records none)")
    recorded_said: str = Field(default="", description="how many of them have a recorded latency, in words, where "
                                                       "not all ('' where all)")
    replayed_count: int
    recorded_p50_ns: float | None = None
    replayed_p50_ns: float | None = None
    recorded_p99_ns: float | None = None
    replayed_p99_ns: float | None = None
    recorded_mean_ns: float | None = None
    replayed_mean_ns: float | None = None
    recorded_cdf: list[CdfPoint] = Field(default_factory=list, description="the recorded distribution, from bins")
    replayed_cdf: list[CdfPoint] = Field(default_factory=list)


class RateStep(Value):
    """IOPS over one step of the replay and of the trace, both counted from their first I/O."""

    start_s: float
    span_s: float
    recorded_read_iops: float | None = Field(default=None, description="null past the trace's end")
    recorded_write_iops: float | None = None
    replayed_read_iops: float | None = Field(default=None, description="null past the replay's end")
    replayed_write_iops: float | None = None


class ReplayedPart(Value):
    """What a replay (or one host's part of it) did beside what it was given as recorded."""

    recorded_span_s: float = Field(description="the replay's start to the last I/O given, as recorded")
    replayed_span_s: float | None = Field(default=None, description="how long the replay ran (fio's own job time)")
    span_change_pct: float | None = Field(default=None, description="replayed against recorded span, as recorded only")
    timing_sentence: str = Field(default="", description="whether the target kept the recorded timing, in words")
    timing_kept: bool | None = Field(
        default=None, description="as recorded: whether the target kept the recorded timing, by the per-I/O issue "
        "log where kept (99 % of I/Os issued within 10 ms of their recorded time), else by the span (within 5 %); "
        "null as fast as possible or not replayed yet")
    late_over_1ms_pct: float | None = Field(default=None, description="% of I/Os issued more than 1 ms after their "
                                                                      "recorded time (null: not logged)")
    late_over_10ms_pct: float | None = Field(default=None, description="% of I/Os issued more than 10 ms late")
    late_p99_ms: float | None = Field(default=None, description="99 % of I/Os were issued within this of their "
                                                                "recorded time")
    read_io_count: int = 0
    write_io_count: int = 0
    read_io_bytes: int = 0
    write_io_bytes: int = 0
    latency: list[LatencyBeside] = Field(default_factory=list)
    rates: list[RateStep] = Field(default_factory=list, description="IOPS over time, replayed beside recorded")


class HostReplay(ReplayedPart):
    """One SSH host's part of a replay beside what it was given to play (the whole part, or its share of a split one,
    as recorded): counts and bytes each way, latency from its own bins, its span and its IOPS over time."""

    host: str
    error: str | None = None
    target: str = Field(default="", description="the file or device it replayed on")
    recorded_read_count: int = 0
    recorded_write_count: int = 0
    recorded_read_bytes: int = 0
    recorded_write_bytes: int = 0


class ReplayResult(ReplayedPart):
    """A stored replay read back."""

    id: int
    created_at: str = ""
    name: str = ""
    status: SweepState
    run_id: int | None = Field(default=None, description="the last stored run (latency bins, per-second series, the job): "
                                                         "the figures below are its")
    run_ids: list[int] = Field(default_factory=list, description="every repeat's run (compare two replays' runs for "
                                                                 "a Welch verdict)")
    repeats: int = 1
    spec: ReplaySpec
    label: str = Field(description="e.g. 'hm_1.csv as recorded, 16 lanes, on /dev/nvme0n1'")
    target: str = ""
    engine: str = ""
    read_iops: float = 0.0
    write_iops: float = 0.0
    read_bw_bytes_per_s: float = 0.0
    write_bw_bytes_per_s: float = 0.0
    rate_step_s: int = Field(default=1, description="seconds per step of ``rates``")
    warnings: list[ValidityWarning] = Field(default_factory=list)
    hosts_mode: HostsMode | None = Field(default=None, description="on SSH hosts: the whole trace on each, or split; "
                                                                   "null on this machine")
    hosts: list[HostReplay] = Field(default_factory=list, description="each SSH host beside its part, in the hosts' order")
    hosts_label: str = Field(default="", description="how the hosts shared the trace, in words ('' on this machine)")
    recorded_copies: int = Field(default=1, description="how many times the hosts together replay each recorded I/O "
                                                        "(the whole trace on N hosts: N); the recorded figures above "
                                                        "(counts, rates) count all of them")


class ReplayInfo(Value):
    """A stored replay as listed."""

    id: int
    created_at: str
    name: str
    status: SweepState
    label: str
    trace: str
    target: str
    run_id: int | None = None
    io_count: int
    span_change_pct: float | None = None
