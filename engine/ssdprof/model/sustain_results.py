"""A sustained-write test's result: the fill's per-second and per-GiB series, its phases found by
change-point detection, the cliff verdict, thermal throttling seen during the fill and the recovery
rows. Computed by :mod:`ssdprof.analysis.sustain`; every face draws these values as they are."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.status import SweepState
from ssdprof.model.sustain import SustainPattern, SustainWear
from ssdprof.model.value import Value

__all__ = [
    "Confidence",
    "GibSample",
    "PhaseCause",
    "RecoveryRow",
    "SustainDrop",
    "SustainInfo",
    "SustainParameters",
    "SustainPhase",
    "SustainResult",
    "SustainSample",
    "SustainThrottle",
    "SustainVerdict",
    "VerdictKind",
]

VerdictKind = Literal["cliff", "no_cliff", "throttling", "too_short", "not_run"]
"""cliff: a sustained drop in write speed (a cache filled); no_cliff: none found, none forced;
throttling: the drop overlaps thermal throttling the drive reported, so it is not named a cache;
too_short: under 10 samples, nothing can be judged; not_run: the fill has not finished yet."""

Confidence = Literal["high", "moderate", "low"]
PhaseCause = Literal["cache", "after_cache", "throttling", "steady"]


class SustainSample(Value):
    """One second of a write: its rate and the bytes written up to its end."""

    elapsed_s: float = Field(description="seconds from the write's start to the end of this second")
    bytes_written: int = Field(description="cumulative, at the end of this second")
    bw_bytes_per_s: float
    lat_ns_mean: float | None = Field(default=None, description="total latency, mean over the second")
    lat_ns_p99: float | None = Field(default=None, description="the second's p99 (on several hosts, the "
                                                               "slowest host's)")
    interval_s: float | None = Field(default=None, description="the time its rate covers, ending at elapsed_s "
                                                               "(the first: fio's I/O time, short of the "
                                                               "second by the job's start); null: a second")


class GibSample(Value):
    """One GiB written: how fast it went (bytes over the time it took)."""

    gib: int = Field(description="1 for the first GiB written")
    bytes_written: int = Field(description="cumulative at its end")
    elapsed_s: float = Field(description="when its last byte was written")
    bw_bytes_per_s: float
    lat_ns_mean: float | None = None


class SustainPhase(Value):
    """A stretch of the fill at one speed, between change points."""

    index: int = Field(description="0 for the first phase")
    name: str = Field(description="e.g. 'cache', 'after the cache', 'after the second drop'")
    cause: PhaseCause
    start_s: float
    end_s: float
    duration_s: float
    start_bytes: int = Field(description="bytes written before it")
    bytes_written: int = Field(description="bytes written during it")
    bw_bytes_per_s: float = Field(description="its speed: the bytes written during it over its duration")
    bw_sd_bytes_per_s: float = Field(description="standard deviation of its per-second speeds")
    lat_ns_mean: float | None = None
    lat_ns_sd: float | None = None
    lat_ns_p99_second_median: float | None = Field(
        default=None, description="the median of its seconds' p99s (each second's from that second's bins): "
        "per-second samples keep no bins, so a p99 of all the phase's I/Os is not to be had, and a mean of "
        "percentiles is none")


class SustainDrop(Value):
    """A sustained drop between two phases."""

    at_bytes: int = Field(description="bytes written when speed fell")
    at_s: float
    before_bw_bytes_per_s: float = Field(description="the phase before's speed (its bytes over its time)")
    after_bw_bytes_per_s: float = Field(description="the phase after's speed (its bytes over its time)")
    drop_pct: float = Field(description="how far it fell, % of the speed before")
    cause: Literal["cache", "throttling"]


class SustainThrottle(Value):
    """Thermal throttling the drive reported during the fill (local runs; none on hosts yet)."""

    throttled_s: int | None = Field(default=None, description="seconds throttled, the drive's count")
    transitions: int | None = None
    temperature_max_c: float | None = None
    warning_temp_c: float | None = None
    hot_from_s: float | None = Field(default=None, description="first second at or over the warning "
                                                               "temperature, if sampled")
    overlaps_drop: bool = Field(description="the throttling can explain the first drop")
    text: str = Field(description="in words; '' when the drive reported none")


class SustainVerdict(Value):
    kind: VerdictKind
    cache_bytes: int | None = Field(default=None, description="bytes written before the first "
                                                              "sustained drop (cliff only)")
    before_bw_bytes_per_s: float | None = None
    after_bw_bytes_per_s: float | None = Field(default=None, description="the phase right after the "
                                                                         "first drop")
    sustained_bw_bytes_per_s: float | None = Field(
        default=None, description="the last phase's speed (its bytes over its time): the speed the drive "
        "holds; with no cliff, the whole fill's bytes over its time")
    ratio: float | None = Field(default=None, description="before / after the first drop")
    confidence: float | None = Field(default=None, ge=0, le=1,
                                     description="from the two phases' separation against their spread")
    confidence_words: Confidence | None = None
    separation: float | None = Field(default=None, description="|mean difference| / pooled sd")
    drops: list[SustainDrop] = Field(default_factory=list)
    sentence: str = Field(description="the verdict in one or two sentences")


class RecoveryRow(Value):
    """One idle interval and the write after it."""

    step: int = Field(description="1 for the first idle interval")
    idle_s: float
    status: Literal["done", "pending", "failed"]
    run_id: int | None = None
    bytes_written: int = 0
    seconds: float = 0.0
    recovered_bytes: int | None = Field(default=None, description="written at the fast speed before "
                                                                  "speed fell again")
    recovered_pct: float | None = Field(default=None, description="recovered_bytes as % of the cache")
    fast_bw_bytes_per_s: float | None = Field(default=None, description="that fast part's speed: its bytes "
                                                                        "over the time it took")
    bw_bytes_per_s: float | None = Field(default=None, description="the write's bytes over its time")
    samples: list[SustainSample] = Field(default_factory=list)


class SustainParameters(Value):
    target: str
    hosts: list[str] = Field(default_factory=list)
    pattern: SustainPattern
    block_size_bytes: int
    queue_depth: int
    engine: str
    region_bytes: int
    offset_bytes: int
    write_bytes: int
    idle_s: list[float]
    recovery_bytes: int | None


class SustainInfo(Value):
    """A stored test as listed."""

    id: int
    created_at: str
    name: str
    status: SweepState
    target: str
    write_bytes: int
    verdict: VerdictKind
    cache_bytes: int | None = None
    recovery_done: int = Field(description="recovery writes finished")
    recovery_total: int


class SustainResult(Value):
    id: int
    created_at: str
    name: str
    status: SweepState
    reason: str = ""
    label: str = Field(description="e.g. 'write 1MiB QD8, 64GiB to /dev/nvme0n1'")
    parameters: SustainParameters
    fill_run_id: int | None = None
    fill_seconds: float = 0.0
    fill_bytes: int = 0
    fill_bw_bytes_per_s: float | None = Field(default=None, description="the fill's speed: its bytes over its "
                                                                       "seconds (fio's own count and time)")
    samples: list[SustainSample] = Field(default_factory=list, description="the fill, per second")
    per_gib: list[GibSample] = Field(default_factory=list)
    phases: list[SustainPhase] = Field(default_factory=list)
    verdict: SustainVerdict
    throttle: SustainThrottle | None = None
    recovery: list[RecoveryRow] = Field(default_factory=list)
    wear: SustainWear | None = None
    notes: list[str] = Field(default_factory=list)
    test_file: str = Field(default="", description="a folder target's test file, on this machine, while it is kept "
                                                   "(until the test is done, or for good with keep_file); '' when none")
    test_file_bytes: int | None = Field(default=None, description="that file's size: the test region it was laid out to")
