"""The most IOPS within a latency target: the deepest queue whose total latency at a percentile stays
at or under the target, found by ssdprof's own search over real, stored runs on either engine.

fio 3.33's ``latency_target`` mode was tried first and not used: measured here (4 KiB random reads,
target 2 ms at p99, a 500 ms window, iodepth 64) it ended the job after 6 of its 8 s once it settled
at a depth, and its statistics mix every depth it tried, so neither its IOPS nor its latency belong to
the depth it reports. Here every depth tried is a plain run that a user can repeat.

The search: QD 1, then doubling while the target holds, then bisection between the deepest depth that
held and the shallowest that did not, until they are within an eighth of each other (a finer step is
below the noise of one run).
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.app.curve import total
from ssdprof.app.planner import SweepRequest, plan_sweep
from ssdprof.fio.histogram import percentile
from ssdprof.model.curves import MAX_SLO_QD, SloPoint, SloSpec, SloSummary, parse_latency_ns
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import WorkloadError

__all__ = ["METHOD", "SloRequest", "extend_search", "plan_slo", "slo_tags", "summarize_slo"]

METHOD = ("bisection: ssdprof's search over queue depth (1, doubling, then halving the interval), each depth a plain "
          "run of the chosen engine; fio's latency_target mode is not used (its statistics mix the depths it tries)")


class SloRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    sweep: SweepRequest = SweepRequest()
    percentile: float | str = Field(default=99.0, description="e.g. 99 or 99.9")
    latency: str | float = Field(default="1ms", description="the target, e.g. 1ms or 500us (at least 1us)")
    max_qd: int | str = 256


def plan_slo(request: SloRequest) -> SweepSpec:
    if request.sweep.preset or request.sweep.factors or request.sweep.repeats != 1:
        raise WorkloadError.single("preset", "--preset", "a latency target search takes one workload, no preset, factors or repeats")
    if request.sweep.base.rate_iops not in (None, 0, "0"):
        raise WorkloadError.single("rate_iops", "--rate", "a latency target search runs at full speed; leave the rate out")
    pct = _number(request.percentile, "percentile", "--percentile")
    if not 0 < pct < 100:
        raise WorkloadError.single("percentile", "--percentile", f"must be above 0 and below 100, e.g. 99 or 99.9; got {pct:g}")
    max_qd = _number(request.max_qd, "max_qd", "--max-qd")
    if not max_qd.is_integer() or not 1 <= max_qd <= MAX_SLO_QD:
        raise WorkloadError.single("max_qd", "--max-qd", f"must be a whole number from 1 to {MAX_SLO_QD}; got {request.max_qd!r}")
    latency_ns = parse_latency_ns(request.latency, field="latency_ns", flag="--latency")
    spec = plan_sweep(request.sweep.model_copy(update={"base": request.sweep.base.model_copy(update={"queue_depth": 1})}))
    return spec.model_copy(update={"name": request.sweep.name or f"latency target {spec.points[0].label}",
                                   "slo": SloSpec(percentile=pct, latency_ns=latency_ns, max_qd=int(max_qd))})


def _number(value: float | int | str, field: str, flag: str) -> float:
    try:
        return float(str(value).strip().removesuffix("%"))
    except ValueError:
        raise WorkloadError.single(field, flag, f"must be a number; got {value!r}") from None


def _at(spec: SloSpec, result: RunResult) -> float | None:
    bins = total(result).lat_bins_ns
    value = percentile(bins, Fraction(str(spec.percentile))) if bins else None
    return float(value) if value is not None else None


def _bounds(spec: SweepSpec, measured: dict[int, RunResult]) -> tuple[int, int | None]:
    """(deepest depth that held below the shallowest that did not, that shallowest or None)."""
    assert spec.slo is not None
    tried = {spec.points[i].queue_depth: _at(spec.slo, r) for i, r in measured.items() if i < len(spec.points)}
    failed = [qd for qd, value in tried.items() if value is None or value > spec.slo.latency_ns]
    high = min(failed) if failed else None
    held = [qd for qd in tried if qd not in failed and (high is None or qd < high)]
    return (max(held) if held else 0), high


def extend_search(spec: SweepSpec, measured: dict[int, RunResult]) -> SweepSpec:
    """Add the next depth to try once every point so far is measured; nothing once the search has converged."""
    slo = spec.slo
    assert slo is not None
    if any(i not in measured for i in range(len(spec.points))):
        return spec  # the last point has not run (or failed): resume it first
    low, high = _bounds(spec, measured)
    if low == 0:
        return spec  # even QD 1 misses the target
    if high is None:
        following = min(low * 2, slo.max_qd) if low < slo.max_qd else None
    else:
        following = (low + high) // 2 if high - low > max(1, low // 8) else None
    tried = {p.queue_depth for p in spec.points}
    if following is None or following in tried:
        return spec
    point = spec.points[0].model_copy(update={"queue_depth": following})
    return spec.model_copy(update={"points": [*spec.points, point]})


def slo_tags(spec: SweepSpec, index: int) -> dict[str, str]:
    assert spec.slo is not None
    return {"slo_latency_ns": str(spec.slo.latency_ns), "slo_percentile": f"{spec.slo.percentile:g}"}


def summarize_slo(spec: SweepSpec, measured: dict[int, RunResult], *, sweep_id: int | None, status: str,
                  reason: str = "") -> SloSummary:
    slo = spec.slo
    assert slo is not None
    points = []
    for index, result in sorted(measured.items()):
        if index >= len(spec.points):
            continue
        value = _at(slo, result)
        both = total(result)
        points.append(SloPoint(queue_depth=spec.points[index].queue_depth, iops=both.iops, lat_ns_at_percentile=value,
                               lat_ns_p99=both.lat_ns.p99, meets=value is not None and value <= slo.latency_ns,
                               run_id=result.id))
    low, _ = _bounds(spec, measured)
    best = next((p for p in points if p.queue_depth == low), None)
    target = f"p{slo.percentile:g} ≤ {_ms(slo.latency_ns)}"
    if best is None:
        text = f"no queue depth met {target}" + (f": QD1 gave {_ms(points[0].lat_ns_at_percentile)}" if points and
                                                 points[0].lat_ns_at_percentile else "")
    else:
        text = (f"QD{best.queue_depth} is the deepest queue that met {target}: {best.iops:,.0f} IOPS at "
                f"{_ms(best.lat_ns_at_percentile)}")
    return SloSummary(sweep_id=sweep_id, status=status, reason=reason, method=METHOD, percentile=slo.percentile,
                      latency_ns=slo.latency_ns, max_qd=slo.max_qd, best=best, points=points, text=text)


def _ms(ns: float | None) -> str:
    if ns is None:
        return "-"
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.0f} µs"
