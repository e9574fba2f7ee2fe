"""Curve runs (vdbench's): a full-speed run finds the maximum, then one fixed-rate run per percentage of
it with Poisson arrivals; the curve stops once a point's p99 passes the stop latency.

The runner asks :func:`extend_curve` after every point what the curve's points are now, so a curve is
one stored sweep whose points grow as it runs and resume from whatever was measured.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.analysis.knee import find_knee
from ssdprof.app.planner import SweepRequest, plan_sweep
from ssdprof.fio.jobfile import poisson_offered_iops
from ssdprof.model.aggregate import combine
from ssdprof.model.curves import (
    DEFAULT_CURVE_POINTS_PCT,
    SATURATION_TOLERANCE_PCT,
    CurvePoint,
    CurveSpec,
    CurveSummary,
    parse_latency_ns,
    parse_points_pct,
)
from ssdprof.model.problems import Problems, problem
from ssdprof.model.results import DirectionStats, RunResult
from ssdprof.model.status import SweepState
from ssdprof.model.sweep import SweepSpec

__all__ = ["CurveRequest", "curve_tags", "extend_curve", "plan_curve", "summarize_curve", "total"]


class CurveRequest(BaseModel):
    """A curve as the CLI's flags, the RPC and the designer give it: a one-point sweep request and the rates."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    sweep: SweepRequest = SweepRequest()
    points_pct: str | list[int | float | str] = Field(default=",".join(map(str, DEFAULT_CURVE_POINTS_PCT)),
                                                      description="percentages of the maximum, e.g. 10,50,70,80,90,100")
    stop_latency: str | float | None = Field(default=None, description="stop once p99 passes this, e.g. 5ms")


def plan_curve(request: CurveRequest, *, check_target: bool = False, default_dir: Path | None = None) -> SweepSpec:
    """The curve's first point (full speed) and its spec; raises WorkloadError naming every bad field."""
    problems = Problems()
    if request.sweep.preset or request.sweep.factors:
        problems.add(problem("preset", "a curve varies the offered rate only: give one workload, no preset or factors",
                             with_rule=False))
    if request.sweep.repeats != 1:
        problems.add(problem("repeats", "a curve runs each rate once", with_rule=False))
    if request.sweep.base.rate_iops not in (None, 0, "0"):
        problems.add(problem("rate_iops", "a curve finds the maximum itself and sets each point's rate", with_rule=False))
    points: list[int] = []
    stop = None
    with problems.collect():
        points = parse_points_pct(request.points_pct)
    with problems.collect():
        if request.stop_latency not in (None, ""):
            stop = parse_latency_ns(request.stop_latency, field="stop_latency_ns", flag="--stop-latency")
    spec = None
    with problems.collect():
        spec = plan_sweep(request.sweep, check_target=check_target, default_dir=default_dir)
    problems.raise_any()
    assert spec is not None
    return spec.model_copy(update={"name": request.sweep.name or f"curve {spec.points[0].label}",
                                   "curve": CurveSpec(points_pct=points, stop_latency_ns=stop)})


def total(result: RunResult) -> DirectionStats:
    """Reads and writes together: counts and IOPS add, bins add, percentiles from the added bins."""
    return combine([result.read, result.write])


def extend_curve(spec: SweepSpec, measured: dict[int, RunResult]) -> SweepSpec:
    """The curve's points now: the fixed rates once the maximum (point 0) is measured; cut after the
    first fixed-rate point whose p99 passed the stop latency."""
    curve = spec.curve
    assert curve is not None
    points = list(spec.points)
    maximum = measured.get(0)
    if len(points) == 1 and maximum is not None:
        max_iops = total(maximum).iops
        base = points[0]
        floor = base.numjobs * (len(spec.remote.hosts) if spec.remote else 1)  # fio needs a rate of 1 per job at least
        points += [base.model_copy(update={"rate_iops": max(floor, round(max_iops * pct / 100))}) for pct in curve.points_pct]
    if curve.stop_latency_ns is not None:
        for index in range(1, len(points)):
            result = measured.get(index)
            p99 = total(result).lat_ns.p99 if result is not None else None
            if p99 is not None and p99 > curve.stop_latency_ns:
                points = points[: index + 1]
                break
    return spec if points == spec.points else spec.model_copy(update={"points": points})


def curve_tags(spec: SweepSpec, index: int) -> dict[str, str]:
    """Each stored point names its offered rate (and its share of the maximum) in its tags."""
    if spec.curve is None:
        return {}
    return {"curve_pct": str(spec.curve.points_pct[index - 1]) if index else "max"}


def summarize_curve(spec: SweepSpec, measured: dict[int, RunResult], *, sweep_id: int | None,
                    status: SweepState, reason: str = "") -> CurveSummary:
    """Every measured point with offered and achieved IOPS, total latency from bins, saturation, and the knee."""
    curve = spec.curve
    assert curve is not None
    points = [_point(spec, index, result, curve.tolerance_pct) for index, result in sorted(measured.items())
              if index < len(spec.points)]
    stopped = None
    if curve.stop_latency_ns is not None:
        stopped = next((p.pct for p in points if p.pct is not None and (p.lat_ns_p99 or 0) > curve.stop_latency_ns), None)
    maximum = measured.get(0)
    return CurveSummary(
        sweep_id=sweep_id, name=spec.name, label=spec.points[0].label, status=status, reason=reason,
        engine=maximum.engine.name if maximum else "", max_iops=total(maximum).iops if maximum else None,
        tolerance_pct=curve.tolerance_pct, stop_latency_ns=curve.stop_latency_ns, stopped_at_pct=stopped,
        points_pct=curve.points_pct, points=points, knee=find_knee(points, curve.tolerance_pct))


def _point(spec: SweepSpec, index: int, result: RunResult, tolerance_pct: float = SATURATION_TOLERANCE_PCT) -> CurvePoint:
    assert spec.curve is not None
    both = total(result)
    workload = spec.points[index]
    offered = float(workload.rate_iops)
    if index and result.engine.name == "fio":
        offered = poisson_offered_iops(workload, workload.numjobs, len(spec.remote.hosts) if spec.remote else 1)
    saturated = index == 0 or both.iops < offered * (1 - tolerance_pct / 100)
    return CurvePoint(index=index, pct=spec.curve.points_pct[index - 1] if index else None, offered_iops=offered,
                      rate_iops=workload.rate_iops,
                      achieved_iops=both.iops, saturated=saturated, lat_ns_mean=both.lat_ns.mean, lat_ns_p50=both.lat_ns.p50,
                      lat_ns_p99=both.lat_ns.p99, lat_ns_p99_9=both.lat_ns.p99_9, run_id=result.id, status=result.status)
