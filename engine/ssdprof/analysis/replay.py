"""A stored replay beside the trace it played: latency per direction as recorded and as replayed (both read
from fio-layout bins by the same rule), IOPS over time on the trace's own steps, and whether the target kept the
recorded timing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Literal

from ssdprof.model import histogram
from ssdprof.model.direction import DirectionStats, LatencyStats
from ssdprof.model.hosts import HostResult
from ssdprof.model.replay import LATE_MS, HostPart, HostsMode, IssueTiming, ReplaySpec, ReplayTiming
from ssdprof.model.replay_results import CdfPoint, HostReplay, LatencyBeside, RateStep, ReplayResult
from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.model.status import SweepState
from ssdprof.model.trace import TraceSecond, TraceSummary

__all__ = ["KEPT_TIMING_PCT", "replay_label", "replay_result"]

KEPT_TIMING_PCT = 5.0
"""A replay as recorded within this share of the trace's span kept its timing (where no I/O's issue was logged)."""
_FIO_DRIFT = ("; fio's read_iolog waits out each I/O's gap from its lane's previous issue, so a late I/O makes the "
              "rest of its lane late: the portable engine times each I/O from the common start")
_P50, _P99 = histogram.REPORTED_PERCENTILES["p50"], histogram.REPORTED_PERCENTILES["p99"]


def replay_label(spec: ReplaySpec, target: str) -> str:
    timing = "as recorded" if spec.timing is ReplayTiming.AS_RECORDED else "as fast as possible"
    hosts = ", ".join(part.host for part in spec.parts)
    where = (f"split across {hosts}" if spec.hosts_mode is HostsMode.SPLIT and len(spec.parts) > 1
             else f"on each of {hosts}" if len(spec.parts) > 1 else f"on {hosts or target or 'the default folder'}")
    return f"{spec.recorded.source} {timing}, {spec.lanes} in flight at most{' per host' if spec.parts else ''}, {where}"


def replay_result(*, replay_id: int, created_at: str, name: str, status: SweepState, spec: ReplaySpec,
                  target: str, run: RunResult | None) -> ReplayResult:
    recorded_s = spec.recorded.duration_s
    replayed_s = max(run.read.runtime_ms, run.write.runtime_ms) / 1000 if run is not None else None
    change = _change(spec, recorded_s, replayed_s)
    timing = _timing(spec, spec.issued, recorded_s, replayed_s, change, engine=run.engine.name if run else "")
    step_s = int(spec.recorded.series[0].span_s) if spec.recorded.series else 1
    copies = spec.copies
    recorded, read, write = spec.recorded, run.read if run else DirectionStats(), run.write if run else DirectionStats()
    return ReplayResult(
        id=replay_id, created_at=created_at, name=name, status=status, run_id=run.id if run else None, spec=spec,
        label=replay_label(spec, target), target=target, engine=run.engine.name if run else "",
        recorded_span_s=recorded_s, replayed_span_s=replayed_s, span_change_pct=change,
        **asdict(timing), read_iops=read.iops, write_iops=write.iops, read_bw_bytes_per_s=read.bw_bytes_per_s,
        write_bw_bytes_per_s=write.bw_bytes_per_s, read_io_count=read.io_count, write_io_count=write.io_count,
        read_io_bytes=read.io_bytes, write_io_bytes=write.io_bytes,
        latency=_both(recorded, read, write, copies),
        rates=_rates(recorded.series, spec.issued, run.progress if run else [], step_s, copies), rate_step_s=step_s,
        warnings=run.warnings if run else [], hosts_mode=spec.hosts_mode if spec.parts else None,
        hosts=[_host(spec, part, run, step_s) for part in spec.parts], recorded_copies=copies,
        hosts_label=spec.hosts_mode.label if spec.parts else "")


def _host(spec: ReplaySpec, part: HostPart, run: RunResult | None, step_s: int) -> HostReplay:
    """One host beside what it was given: its share as recorded (split) or the whole part."""
    recorded = part.recorded or spec.recorded
    found = next((h for h in run.hosts if h.host == part.host), None) if run else None
    result = found or HostResult(host=part.host)
    replayed_s = max(result.read.runtime_ms, result.write.runtime_ms) / 1000 if found else None
    change = _change(spec, part.recorded_end_s, replayed_s)
    timing = _timing(spec, part.issued, part.recorded_end_s, replayed_s, change, engine=run.engine.name if run else "")
    progress = [p for p in run.progress if p.host == part.host] if run else []
    return HostReplay(
        host=part.host, error=result.error, target=result.target,
        recorded_read_count=recorded.read_count, recorded_write_count=recorded.write_count,
        recorded_read_bytes=recorded.read_bytes, recorded_write_bytes=recorded.write_bytes,
        read_io_count=result.read.io_count, write_io_count=result.write.io_count,
        read_io_bytes=result.read.io_bytes, write_io_bytes=result.write.io_bytes,
        recorded_span_s=part.recorded_end_s, replayed_span_s=replayed_s, span_change_pct=change,
        **asdict(timing), latency=_both(recorded, result.read, result.write, 1),
        rates=_rates(recorded.series, part.issued, progress, step_s, 1))


def _change(spec: ReplaySpec, recorded_s: float, replayed_s: float | None) -> float | None:
    if replayed_s is None or recorded_s <= 0 or spec.timing is not ReplayTiming.AS_RECORDED:
        return None
    return 100 * (replayed_s - recorded_s) / recorded_s


@dataclass(frozen=True)
class _Timing:
    """Whether the target kept the recorded timing, in words and figures: :class:`ReplayedPart`'s fields of it."""

    timing_sentence: str
    timing_kept: bool | None = None
    late_over_1ms_pct: float | None = None
    late_over_10ms_pct: float | None = None
    late_p99_ms: float | None = None


def _timing(spec: ReplaySpec, issued: IssueTiming | None, recorded_s: float, replayed_s: float | None,
            change: float | None, *, engine: str) -> _Timing:
    """As recorded, judged by how late each I/O was issued where the replay logged it (the span alone hides a lane
    that ran late all along and caught up), else by the span."""
    if replayed_s is None:
        return _Timing("not replayed yet")
    if spec.timing is ReplayTiming.FASTEST:
        pace = f", {recorded_s / replayed_s:.3g}x the recorded pace" if recorded_s and replayed_s else ""
        return _Timing(f"replayed as fast as possible in {replayed_s:.3g} s (the trace spans {recorded_s:.3g} s{pace})")
    words = f"replayed in {replayed_s:.3g} s of the trace's {recorded_s:.3g} s"
    if change is None:
        return _Timing(words)
    words = f"{words} ({change:+.1f} %)"
    behind = (f"fell behind the recorded timing with at most {spec.lanes} I/Os in flight (a larger queue depth lets "
              f"more overlap{_FIO_DRIFT if engine == 'fio' else ''})")
    if issued is None or issued.late_p99_ms is None or not issued.issued:
        kept = abs(change) <= KEPT_TIMING_PCT
        said = "kept the recorded timing" if kept else behind
        return _Timing(f"{words}: the target {said} (judged by the span only: no per-I/O issue times were logged)",
                       kept)
    over_10 = 100 * issued.late_count / issued.issued
    over_1 = 100 * issued.late_1ms_count / issued.issued if issued.late_1ms_count is not None else None
    p99 = max(issued.late_p99_ms, 0.0)
    kept = p99 <= LATE_MS
    finer = f", {over_1:.1f} % more than 1 ms" if over_1 is not None else ""
    late = (f"{over_10:.1f} % of I/Os were issued more than {LATE_MS:.0f} ms after their recorded time{finer}; 99 % "
            f"within {p99:.3g} ms")
    said = (f"the target kept the recorded timing: {late}" if kept
            else f"{'but ' if abs(change) <= KEPT_TIMING_PCT else ''}the replay {behind}: {late}")
    return _Timing(f"{words}: {said}", kept, over_1, over_10, p99)


def _both(recorded: TraceSummary, read: DirectionStats, write: DirectionStats, copies: int) -> list[LatencyBeside]:
    return [_beside("read", recorded.read_count, recorded.recorded_read_lat_ns, recorded.recorded_read_bins_ns, read,
                    copies=copies),
            _beside("write", recorded.write_count, recorded.recorded_write_lat_ns, recorded.recorded_write_bins_ns,
                    write, copies=copies)]


def _beside(direction: Literal["read", "write"], in_trace: int, recorded: LatencyStats | None,
            recorded_bins: dict[int, int], replayed: DirectionStats, *, copies: int) -> LatencyBeside:
    """``copies``: the recorded I/Os counted that many times (the whole trace on that many hosts): the same
    percentiles, counts that compare with the hosts' together."""
    recorded_bins = {bucket: count * copies for bucket, count in recorded_bins.items()}
    recorded_p50, recorded_p99 = histogram.percentiles(recorded_bins, [_P50, _P99])
    timed, in_trace = sum(recorded_bins.values()), in_trace * copies
    ios = f"{in_trace:,} {direction}{'s' if in_trace != 1 else ''}"
    said = ("" if timed >= in_trace else f"the trace records no latency for its {ios}" if not timed
            else f"the trace records the latency of {timed:,} of its {ios}")
    return LatencyBeside(
        direction=direction, trace_count=in_trace, recorded_count=timed, recorded_said=said,
        replayed_count=replayed.io_count,
        recorded_p50_ns=recorded_p50, recorded_p99_ns=recorded_p99, recorded_mean_ns=recorded.mean if recorded else None,
        replayed_p50_ns=replayed.lat_ns.p50, replayed_p99_ns=replayed.lat_ns.p99, replayed_mean_ns=replayed.lat_ns.mean,
        recorded_cdf=_cdf(recorded_bins), replayed_cdf=_cdf(replayed.lat_bins_ns))


def _cdf(bins: dict[int, int]) -> list[CdfPoint]:
    steps = histogram.cumulative(bins)
    total = steps[-1][1] if steps else 0
    return [CdfPoint(latency_ns=float(value), share=seen / total) for value, seen in steps]


def _rates(recorded: Sequence[TraceSecond], issued: IssueTiming | None, progress: Sequence[ProgressSample],
           step_s: int, copies: int) -> list[RateStep]:
    """The trace's recorded steps (× ``copies``: the hosts' together) beside the replay's I/Os on the same steps:
    counted by issue time from fio's per-I/O log where kept (as the trace counts its own), else fio's per-second
    samples spread over the steps (each sample's I/Os shared out by how much of it each step covers; hosts add)."""
    replayed = (list(zip(map(float, issued.reads_per_step), map(float, issued.writes_per_step), strict=True))
                if issued is not None and issued.step_s == step_s else _replayed_counts(progress, step_s))
    steps = max(len(recorded), len(replayed))
    out = []
    for index in range(steps):
        mine = recorded[index] if index < len(recorded) else None
        theirs = replayed[index] if index < len(replayed) else None
        out.append(RateStep(start_s=float(index * step_s), span_s=float(step_s),
                            recorded_read_iops=mine.read_iops * copies if mine else None,
                            recorded_write_iops=mine.write_iops * copies if mine else None,
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
