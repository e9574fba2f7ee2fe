"""A stored replay beside the trace it played: latency per direction as recorded and as replayed (both read
from fio-layout bins by the same rule), IOPS over time on the trace's own steps, and whether the target kept the
recorded timing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from ssdprof.model import histogram
from ssdprof.model.direction import DirectionStats, LatencyStats
from ssdprof.model.replay import ReplaySpec, ReplayTiming
from ssdprof.model.replay_results import CdfPoint, LatencyBeside, RateStep, ReplayResult
from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.model.status import SweepState

__all__ = ["KEPT_TIMING_PCT", "replay_label", "replay_result"]

KEPT_TIMING_PCT = 5.0
"""A replay as recorded within this share of the trace's span kept its timing."""
_P50, _P99 = histogram.REPORTED_PERCENTILES["p50"], histogram.REPORTED_PERCENTILES["p99"]


def replay_label(spec: ReplaySpec, target: str) -> str:
    timing = "as recorded" if spec.timing is ReplayTiming.AS_RECORDED else "as fast as possible"
    return f"{spec.recorded.source} {timing}, {spec.lanes} in flight at most, on {target or 'the default folder'}"


def replay_result(*, replay_id: int, created_at: str, name: str, status: SweepState, spec: ReplaySpec,
                  target: str, run: RunResult | None) -> ReplayResult:
    recorded_s = spec.recorded.duration_s
    replayed_s = max(run.read.runtime_ms, run.write.runtime_ms) / 1000 if run is not None else None
    change = (100 * (replayed_s - recorded_s) / recorded_s
              if replayed_s is not None and recorded_s > 0 and spec.timing is ReplayTiming.AS_RECORDED else None)
    step_s = int(spec.recorded.series[0].span_s) if spec.recorded.series else 1
    return ReplayResult(
        id=replay_id, created_at=created_at, name=name, status=status, run_id=run.id if run else None, spec=spec,
        label=replay_label(spec, target), target=target, engine=run.engine.name if run else "",
        recorded_span_s=recorded_s, replayed_span_s=replayed_s, span_change_pct=change,
        timing_sentence=_timing(spec, recorded_s, replayed_s, change),
        read_iops=run.read.iops if run else 0.0, write_iops=run.write.iops if run else 0.0,
        read_bw_bytes_per_s=run.read.bw_bytes_per_s if run else 0.0,
        write_bw_bytes_per_s=run.write.bw_bytes_per_s if run else 0.0,
        read_io_count=run.read.io_count if run else 0, write_io_count=run.write.io_count if run else 0,
        read_io_bytes=run.read.io_bytes if run else 0, write_io_bytes=run.write.io_bytes if run else 0,
        latency=[_beside("read", spec.recorded.recorded_read_lat_ns, spec.recorded.recorded_read_bins_ns,
                         run.read if run else DirectionStats()),
                 _beside("write", spec.recorded.recorded_write_lat_ns, spec.recorded.recorded_write_bins_ns,
                         run.write if run else DirectionStats())],
        rates=_rates(spec, run.progress if run else [], step_s), rate_step_s=step_s,
        warnings=run.warnings if run else [])


def _timing(spec: ReplaySpec, recorded_s: float, replayed_s: float | None, change: float | None) -> str:
    if replayed_s is None:
        return "not replayed yet"
    if spec.timing is ReplayTiming.FASTEST:
        pace = f", {recorded_s / replayed_s:.3g}x the recorded pace" if recorded_s and replayed_s else ""
        return f"replayed as fast as possible in {replayed_s:.3g} s (the trace spans {recorded_s:.3g} s{pace})"
    words = f"replayed in {replayed_s:.3g} s of the trace's {recorded_s:.3g} s"
    if change is None:
        return words
    late = _lateness(spec)
    if abs(change) <= KEPT_TIMING_PCT:
        return f"{words} ({change:+.1f} %): the target kept the recorded timing{late}"
    return (f"{words} ({change:+.1f} %): the target fell behind the recorded rate with at most {spec.lanes} I/Os "
            f"in flight (a larger queue depth lets more overlap){late}")


def _lateness(spec: ReplaySpec) -> str:
    issued = spec.issued
    if issued is None or issued.late_p99_ms is None:
        return ""
    share = 100 * issued.late_count / issued.issued if issued.issued else 0.0
    return (f"; 99 % of I/Os issued within {max(issued.late_p99_ms, 0):.0f} ms of their recorded time, "
            f"{issued.late_count} ({share:.1f} %) more than 10 ms late")


def _beside(direction: Literal["read", "write"], recorded: LatencyStats | None, recorded_bins: dict[int, int],
            replayed: DirectionStats) -> LatencyBeside:
    recorded_p50, recorded_p99 = histogram.percentiles(recorded_bins, [_P50, _P99])
    return LatencyBeside(
        direction=direction, recorded_count=sum(recorded_bins.values()), replayed_count=replayed.io_count,
        recorded_p50_ns=recorded_p50, recorded_p99_ns=recorded_p99, recorded_mean_ns=recorded.mean if recorded else None,
        replayed_p50_ns=replayed.lat_ns.p50, replayed_p99_ns=replayed.lat_ns.p99, replayed_mean_ns=replayed.lat_ns.mean,
        recorded_cdf=_cdf(recorded_bins), replayed_cdf=_cdf(replayed.lat_bins_ns))


def _cdf(bins: dict[int, int]) -> list[CdfPoint]:
    steps = histogram.cumulative(bins)
    total = steps[-1][1] if steps else 0
    return [CdfPoint(latency_ns=float(value), share=seen / total) for value, seen in steps]


def _rates(spec: ReplaySpec, progress: Sequence[ProgressSample], step_s: int) -> list[RateStep]:
    """The trace's recorded steps beside the replay's I/Os on the same steps: counted by issue time from fio's
    per-I/O log where kept (as the trace counts its own), else fio's per-second samples spread over the steps (each
    sample's I/Os shared out by how much of it each step covers; hosts add)."""
    issued = spec.issued
    replayed = (list(zip(map(float, issued.reads_per_step), map(float, issued.writes_per_step), strict=True))
                if issued is not None and issued.step_s == step_s else _replayed_counts(progress, step_s))
    recorded = spec.recorded.series
    steps = max(len(recorded), len(replayed))
    out = []
    for index in range(steps):
        mine = recorded[index] if index < len(recorded) else None
        theirs = replayed[index] if index < len(replayed) else None
        out.append(RateStep(start_s=float(index * step_s), span_s=float(step_s),
                            recorded_read_iops=mine.read_iops if mine else None,
                            recorded_write_iops=mine.write_iops if mine else None,
                            replayed_read_iops=theirs[0] / step_s if theirs else None,
                            replayed_write_iops=theirs[1] / step_s if theirs else None))
    return out


def _replayed_counts(progress: Sequence[ProgressSample], step_s: int) -> list[tuple[float, float]]:
    if not progress:
        return []
    end_s = max(p.elapsed_s for p in progress)
    counts = [[0.0, 0.0] for _ in range(max(1, math.ceil(end_s / step_s - 1e-9)))]
    for sample in progress:
        start = sample.start_s if sample.start_s is not None else sample.elapsed_s  # as the run spans it
        for index in range(max(0, int(start // step_s)), min(len(counts), math.ceil(sample.elapsed_s / step_s))):
            overlap = min(sample.elapsed_s, (index + 1) * step_s) - max(start, index * step_s)
            if overlap > 0:
                counts[index][0] += sample.read_iops * overlap
                counts[index][1] += sample.write_iops * overlap
    return [(reads, writes) for reads, writes in counts]
