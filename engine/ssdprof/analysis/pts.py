"""A PTS test's report from its stored runs: the tracking variables per round, the steady-state checks, the
access size x mix matrix averaged over the measurement window, and the write-saturation curve."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from statistics import fmean

from ssdprof.analysis.steady_state import steady_state
from ssdprof.model.drive_state import DriveState
from ssdprof.model.pts import PtsSpec, Tracking, mix_label
from ssdprof.model.pts_results import PtsMatrixCell, PtsParameters, PtsResult, PtsRound
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult

__all__ = ["PtsRecord", "metric_value", "pts_result", "rounds_of", "tracking_values"]

Rounds = dict[int, dict[tuple[int, int], RunResult]]
"""round (1-based) -> (access size, read %) -> the run measuring that point."""


def metric_value(run: RunResult, metric: str) -> float | None:
    """A run's value of a tracking metric in the unit the PTS reports: IOPS, MB/s (10^6 bytes/s) or µs."""
    if run.status == "failed":
        return None
    if metric == "iops":
        return run.read.iops + run.write.iops
    if metric == "bw":
        return (run.read.bw_bytes_per_s + run.write.bw_bytes_per_s) / 1e6
    sides = [s for s in (run.read, run.write) if s.active and s.lat_ns.mean is not None]
    if not sides:
        return None
    if metric == "lat_mean":
        return sum((s.lat_ns.mean or 0.0) * s.io_count for s in sides) / sum(s.io_count for s in sides) / 1000
    return max(s.lat_ns.max or 0.0 for s in sides) / 1000


def rounds_of(runs: list[RunResult]) -> Rounds:
    found: Rounds = {}
    for run in sorted(runs, key=lambda r: r.id or 0):
        if run.status in ("ok", "partial"):
            found.setdefault(run.repeat + 1, {})[(run.workload.block_size_bytes, run.workload.read_pct)] = run
    return found


def tracking_values(spec: PtsSpec, rounds: Rounds, tracking: Tracking) -> list[float | None]:
    """The tracking variable of each complete round, round 1 first."""
    key = (tracking.block_size_bytes, tracking.read_pct)
    return [metric_value(rounds[r][key], tracking.metric) if key in rounds[r] else None for r in _complete(spec, rounds)]


def _complete(spec: PtsSpec, rounds: Rounds) -> list[int]:
    """Complete rounds in order; a cut-short round (a cancel) is judged once it is finished."""
    wanted = {(p.block_size_bytes, p.read_pct) for p in spec.points()}
    done: list[int] = []
    for number in sorted(rounds):
        if number != len(done) + 1 or not wanted <= set(rounds[number]):
            break
        done.append(number)
    return done


class PtsRecord:
    """What the store holds of a test, for :func:`pts_result`."""

    def __init__(self, *, pts_id: int, created_at: str, spec: PtsSpec, status: str, reason: str,
                 drive_state: DriveState | None, parameters: PtsParameters, estimated_s: float = 0.0):
        self.pts_id, self.created_at, self.spec, self.status, self.reason = pts_id, created_at, spec, status, reason
        self.drive_state, self.parameters, self.estimated_s = drive_state, parameters, estimated_s


def pts_result(record: PtsRecord, runs: list[RunResult]) -> PtsResult:
    spec = record.spec
    rounds = rounds_of(runs)
    trackings = spec.trackings()
    checks = [steady_state(tracking_values(spec, rounds, t), spec.rule, tracking=t.label(spec.sequential), unit=t.unit,
                           gating=t.gating) for t in trackings]
    complete = _complete(spec, rounds)
    window = checks[0].window if checks[0].window else []
    window_rounds = [r for r in complete if window and window[0] <= r <= window[1]]
    return PtsResult(
        id=record.pts_id, created_at=record.created_at, name=spec.name, test=spec.test.value, profile=spec.profile.value,
        pts_compliant=spec.pts_compliant, compliance_note=spec.compliance_note(), status=record.status, reason=record.reason,
        parameters=record.parameters, drive_state=record.drive_state,
        drive_state_text=record.drive_state.sentence() if record.drive_state else "not recorded", steady_state=checks[0], checks=checks,
        rounds=_rounds(spec, rounds, trackings, complete), matrix=_matrix(spec, rounds, window_rounds),
        estimated_s=record.estimated_s)


def _rounds(spec: PtsSpec, rounds: Rounds, trackings: list[Tracking], complete: list[int]) -> list[PtsRound]:
    result, written, elapsed = [], 0, 0.0
    metric = spec.convergence_metric()
    for number in sorted(rounds):
        points = rounds[number]
        written += sum(r.write.io_bytes for r in points.values())
        elapsed += sum(max(r.read.runtime_ms, r.write.runtime_ms) / 1000 for r in points.values())
        tracked = {t.label(spec.sequential): _value(points, t) for t in trackings}
        convergence = {format_size(bs): _value(points, Tracking(metric=metric, block_size_bytes=bs, read_pct=trackings[0].read_pct))
                       for bs in spec.block_sizes_bytes}
        result.append(PtsRound(round=number, tracking_value=tracked[trackings[0].label(spec.sequential)], tracked=tracked,
                               convergence=convergence, runs=[r.id for r in points.values() if r.id is not None],
                               complete=number in complete, bytes_written=written, elapsed_s=elapsed))
    return result


def _value(points: Mapping[tuple[int, int], RunResult], tracking: Tracking) -> float | None:
    run = points.get((tracking.block_size_bytes, tracking.read_pct))
    return metric_value(run, tracking.metric) if run is not None else None


def _matrix(spec: PtsSpec, rounds: Rounds, window_rounds: list[int]) -> list[PtsMatrixCell]:
    """Each point averaged over the measurement window (the last complete rounds when steady state was not reached)."""
    if not window_rounds:
        complete = _complete(spec, rounds)
        window_rounds = complete[-spec.rule.window:]
    cells = []
    for point in spec.points():
        key = (point.block_size_bytes, point.read_pct)
        runs = [rounds[r][key] for r in window_rounds if key in rounds.get(r, {})]
        if not runs:
            continue
        means = [v for v in (metric_value(r, "lat_mean") for r in runs) if v is not None]
        maxes = [v for v in (metric_value(r, "lat_max") for r in runs) if v is not None]
        bins = _merge([s.lat_bins_ns for r in runs for s in (r.read, r.write)])
        five_nines = _percentile(bins, Fraction("99.999"))
        cells.append(PtsMatrixCell(
            block_size_bytes=point.block_size_bytes, read_pct=point.read_pct, mix=mix_label(point.read_pct),
            sequential=spec.sequential, iops=fmean(metric_value(r, "iops") or 0.0 for r in runs),
            bw_bytes_per_s=fmean(r.read.bw_bytes_per_s + r.write.bw_bytes_per_s for r in runs),
            lat_mean_ns=fmean(means) * 1000 if means else None, lat_max_ns=max(maxes) * 1000 if maxes else None,
            lat_p99_999_ns=float(five_nines) if five_nines is not None else None,
            rounds=[r.repeat + 1 for r in runs], runs=[r.id for r in runs if r.id is not None]))
    return cells


def _merge(histograms: list[dict[int, int]]) -> dict[int, int]:
    total: dict[int, int] = {}
    for hist in histograms:
        for value, count in hist.items():
            total[value] = total.get(value, 0) + count
    return total


def _percentile(hist: dict[int, int], pct: Fraction) -> int | None:
    """The smallest bucket value with at least ``pct`` % of the samples at or below it (fio's rule)."""
    total = sum(hist.values())
    cumulative = 0
    for value in sorted(hist):
        cumulative += hist[value]
        if cumulative * 100 >= pct * total and total:
            return value
    return None
