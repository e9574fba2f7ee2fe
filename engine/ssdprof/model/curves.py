"""Sweeps whose next point depends on the last: a curve of latency under offered load (vdbench's curve
runs), and the highest queue depth within a latency target. Both are stored as a sweep carrying one of
these specs, so they resume like any sweep; the points are planned in ``app/curve.py`` and ``app/slo.py``.
"""

from __future__ import annotations

import math
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.model.problems import FieldRule, WorkloadError, problem, register, shown
from ssdprof.model.status import ReferenceStatus, RunStatus, SweepState
from ssdprof.model.value import Value

__all__ = [
    "DEFAULT_CURVE_POINTS_PCT",
    "MIN_LATENCY_NS",
    "SATURATION_TOLERANCE_PCT",
    "CurvePoint",
    "CurveSpec",
    "CurveSpecOverlay",
    "CurveSummary",
    "Knee",
    "SloPoint",
    "SloSpec",
    "SloSummary",
    "SpecReference",
    "parse_latency_ns",
    "parse_points_pct",
]

DEFAULT_CURVE_POINTS_PCT = (10, 50, 70, 80, 90, 100)
"""vdbench's curve: fixed rates at these percentages of the measured maximum."""
SATURATION_TOLERANCE_PCT = 5.0
"""A point is saturated when its achieved IOPS fall short of the offered rate by more than this."""
MAX_LATENCY_NS = 3_600 * 10**9
MIN_LATENCY_NS = 1000
MAX_SLO_QD = 4096

_LATENCY_RE = re.compile(r"\s*([0-9]{1,12}(?:\.[0-9]{1,9})?)\s*(ns|us|µs|ms|s)?\s*", re.ASCII | re.IGNORECASE)
_LATENCY_UNITS_NS = {"ns": 1, "us": 1_000, "µs": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


class CurveSpec(BaseModel):
    """A curve: point 0 runs at full speed; then one point per percentage of its achieved IOPS."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    points_pct: list[int] = Field(min_length=1, max_length=100)
    stop_latency_ns: int | None = Field(default=None, ge=MIN_LATENCY_NS,
                                        description="stop once a point's p99 total latency passes this")
    tolerance_pct: float = Field(default=SATURATION_TOLERANCE_PCT, gt=0, lt=100)


class SloSpec(BaseModel):
    """The highest queue depth whose total latency at ``percentile`` stays at or under ``latency_ns``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    percentile: float = Field(gt=0, lt=100)
    latency_ns: int = Field(ge=MIN_LATENCY_NS)
    max_qd: int = Field(ge=1, le=MAX_SLO_QD)


register({
    "points_pct": FieldRule("--points", "whole percentages of the maximum from 1 to 100, comma-separated",
                            "points", "10,50,70,80,90,100"),
    "stop_latency_ns": FieldRule("--stop-latency", "a latency of at least 1us", "stop latency (p99)", "5ms"),
    "latency_ns": FieldRule("--latency", "a latency of at least 1us", "latency target", "1ms"),
    "percentile": FieldRule("--percentile", "above 0 and below 100", "target percentile", "99.9"),
    "max_qd": FieldRule("--max-qd", f"1–{MAX_SLO_QD}", "deepest queue tried", "256"),
})


def parse_points_pct(text: str | list[int | float | str]) -> list[int]:
    """``"10,50,70"`` or ``[10, 50, 70]`` -> sorted unique whole percentages from 1 to 100; a bad list
    names every bad point ("'120' is out of range; 'x' is not a number")."""
    items = text.split(",") if isinstance(text, str) else list(text)
    values: list[int] = []
    wrong: list[str] = []
    for item in items:
        word = str(item).strip().removesuffix("%")
        if not word:
            continue
        try:
            number = float(word)
        except ValueError:
            number = float("nan")
        if not number.is_integer() or not 1 <= number <= 100:
            wrong.append(f"{shown(word)} {'is not a number' if math.isnan(number) else 'is out of range'}")
            continue
        values.append(int(number))
    if wrong:  # every bad point at once, not the first
        raise WorkloadError([problem("points_pct", "; ".join(wrong))])
    if not values:
        raise WorkloadError([problem("points_pct", "no percentage given")])
    return sorted(set(values))


def parse_latency_ns(text: str | int | float, *, field: str, flag: str) -> int:
    """``1ms``, ``500us``, ``250µs``, ``2000ns`` or a number of seconds -> nanoseconds, at least 1 µs."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text) * 1e9
    else:
        match = _LATENCY_RE.fullmatch(str(text))
        if not match:
            raise _latency_problem(field, flag, f"{shown(text)} is not a latency (a number with a unit: ns, us, ms, s)")
        unit = (match.group(2) or "s").lower()
        value = float(match.group(1)) * _LATENCY_UNITS_NS[unit]
    if not value <= MAX_LATENCY_NS:  # NaN and infinity too
        raise _latency_problem(field, flag, f"{shown(text)} is over an hour: no latency target is that long")
    value_ns = round(value)
    if value_ns < MIN_LATENCY_NS:
        raise _latency_problem(field, flag, f"{shown(text)} is below 1us: no drive answers faster")
    return value_ns


def _latency_problem(field: str, flag: str, message: str) -> WorkloadError:
    return WorkloadError([problem(field, message, flag=flag)])


class CurvePoint(Value):
    """One point of a curve: the full-speed run (``pct`` None, offered 0) or a fixed offered rate."""

    index: int
    pct: int | None = Field(description="offered rate as % of the maximum; None for the full-speed run")
    offered_iops: float = Field(description=(
        "the mean rate of the arrivals the engine made; 0 for the full-speed run. fio makes its Poisson gaps whole "
        "microseconds, so it offers more than asked at high rates per job (see fio.jobfile.poisson_offered_iops)"))
    rate_iops: int = Field(default=0, description="the rate asked for: pct of the maximum, over all jobs and hosts")
    achieved_iops: float
    saturated: bool = Field(description="achieved fell short of offered by more than the tolerance (or full speed)")
    lat_ns_mean: float | None = None
    lat_ns_p50: float | None = None
    lat_ns_p99: float | None = None
    lat_ns_p99_9: float | None = None
    run_id: int | None = None
    status: RunStatus = "ok"


class Knee(Value):
    """Where latency turns up, named in words by the engine; the renderer and the PDF only show it."""

    text: str = Field(description="the knee in words, read from the points that kept up with their offered "
                                   "rate only; or why none is named")
    from_pct: int | None = None
    to_pct: int | None = None
    saturation: str = Field(default="", description="said when most fixed-rate points saturated: how many, the "
                                                    "lightest one's offered and achieved IOPS, and why")


class SpecReference(Value):
    """A vendor's rated figure drawn beside a curve: rated IOPS as a vertical line, rated latency as a horizontal one."""

    quantity: Literal["iops", "latency"]
    value: float = Field(description="IOPS, or latency in ns")
    label: str = Field(description="e.g. 'rated 68,000 IOPS (rand_read, 4 KiB, QD32)'")
    status: ReferenceStatus = Field(description=(
        "matched (rated as this curve ran), unstated (the sheet leaves a condition out) or "
        "mismatch (not measured as rated: not drawn)"))
    note: str = Field(default="", description="why the figure is fair here, or what the sheet leaves unstated")


class CurveSpecOverlay(Value):
    """The spec sheet's figures for the curve's pattern and access size, chosen by the engine's fairness rules."""

    spec_id: str | None = Field(description="None when no sheet was chosen or matched")
    title: str = ""
    how: str = Field(description="how the sheet was found (chosen, or matched to the drive model), or why there is none")
    references: list[SpecReference] = Field(default_factory=list)
    left_out: list[SpecReference] = Field(default_factory=list, description=(
        "the sheet's figures for this pattern not drawn (status mismatch), each with the reason as its note"))


class CurveSummary(Value):
    """A curve as every face shows it: latency (total, from bins) against achieved IOPS, per offered rate."""

    sweep_id: int | None
    name: str
    label: str = Field(description="the workload, e.g. 'randread 4KiB QD32 T1'")
    status: SweepState
    reason: str = ""
    engine: str = ""
    max_iops: float | None = None
    tolerance_pct: float = SATURATION_TOLERANCE_PCT
    stop_latency_ns: int | None = None
    stopped_at_pct: int | None = Field(default=None, description="the point whose p99 passed the stop latency")
    points_pct: list[int] = Field(default_factory=list)
    points: list[CurvePoint] = Field(default_factory=list)
    knee: Knee | None = None
    spec: CurveSpecOverlay | None = Field(default=None, description="rated figures to draw beside the curve, when asked for")
    latency_from: str = Field(default="submission", description=(
        "where latency starts: the I/O's actual submission (fio's lat under rate_iops), not its scheduled arrival; "
        "a point that falls behind its schedule is marked saturated instead"))


class SloPoint(Value):
    queue_depth: int
    iops: float
    lat_ns_at_percentile: float | None
    lat_ns_p99: float | None = None
    meets: bool
    run_id: int | None = None


class SloSummary(Value):
    """The depth with the most IOPS whose total latency at the percentile stayed within the target, the
    deepest depth within it (often the same), and every point tried."""

    sweep_id: int | None
    status: SweepState
    reason: str = ""
    method: str = Field(description="how the depth was searched, e.g. ssdprof's bisection over measured runs")
    percentile: float
    latency_ns: int
    max_qd: int
    best: SloPoint | None = Field(default=None, description="the most IOPS within the target")
    deepest: SloPoint | None = Field(default=None, description="the deepest queue within the target")
    points: list[SloPoint] = Field(default_factory=list, description="in the order they were tried")
    text: str = ""
