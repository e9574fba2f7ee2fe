"""Plain-language observations computed from runs, shown beside the charts.

Each finder compares runs that differ in exactly one respect (queue depth, direction, or
randomness), averaging repeats first, so an observation never rests on an unfair pairing.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ssdprof.analysis.metrics import metric_value, setting_key, settings_kept
from ssdprof.analysis.shared_limit import rate_words, shared_limits
from ssdprof.model.quantities import format_size
from ssdprof.model.run_summary import AnyRun

__all__ = ["Observation", "observe"]

_KNEE_FRACTION = 0.9
_KNEE_LATENCY_RATIO = 1.5
_SMALL_GAP = 0.10
_NEAR_LINK = 0.9
_CPU_NAMED = 8
"""Runs whose CPU figure one observation gives; the rest counted."""


@dataclass(frozen=True)
class Observation:
    code: str
    """qd_knee, qd_still_rising, qd_within_spread, read_write_gap, random_sequential_gap, above_interface_limit, network_bound, cpu_bound,
    shared_limit."""
    severity: str
    """info or warning."""
    message: str
    run_ids: tuple[int | None, ...] = ()
    data: dict[str, float] = field(default_factory=dict)


def observe(runs: Sequence[AnyRun], link_bytes_per_s: float | None = None, cpu_busy_pct: float = 90.0) -> list[Observation]:
    """Every observation the runs support; ``link_bytes_per_s`` is one client's network link."""
    with settings_kept(runs):
        return [*_queue_depth_knees(runs), *_read_write_gap(runs), *_random_sequential_gap(runs),
                *_above_interface_limit(runs), *_network_bound(runs, link_bytes_per_s),
                *_cpu_bound(runs, cpu_busy_pct), *_shared_limits(runs)]


def _mean_by(runs: Sequence[AnyRun], setting: Callable[[AnyRun], float], metric: str) -> dict[float, float]:
    grouped: dict[float, list[float]] = {}
    for run in runs:
        if (value := metric_value(run, metric)) is not None:
            grouped.setdefault(setting(run), []).append(value)
    return {k: statistics.fmean(v) for k, v in sorted(grouped.items())}


def _groups(runs: Sequence[AnyRun], drop: frozenset[str]) -> list[list[AnyRun]]:
    found: dict[tuple[object, ...], list[AnyRun]] = {}
    for run in runs:
        if run.status in ("ok", "partial"):
            found.setdefault(setting_key(run, drop), []).append(run)
    return list(found.values())


def _label(run: AnyRun) -> str:
    w = run.workload
    mix = f" {w.read_pct}%R" if w.pattern.fixed_read_pct is None else ""
    return f"{w.pattern.value}{mix} {format_size(w.block_size_bytes)}"


def _outstanding(run: AnyRun) -> float:
    return float(run.engine.effective_queue_depth * run.workload.numjobs)


def _queue_depth_knees(runs: Sequence[AnyRun]) -> list[Observation]:
    found = []
    for group in _groups(runs, frozenset({"qd", "jobs"})):
        iops = _mean_by(group, _outstanding, "iops")
        latency = _mean_by(group, _outstanding, "lat_ns_mean")
        if len(iops) < 3 or len(latency) < 3:
            continue
        best = max(iops.values())
        knee = min(n for n, v in iops.items() if v >= _KNEE_FRACTION * best)
        deepest = max(iops)
        ids = tuple(r.id for r in group)
        if knee == deepest:
            found.append(_deepest_step(group, iops, latency, ids))
            continue
        gain = iops[deepest] / iops[knee] - 1
        lat_ratio = latency[deepest] / latency[knee]
        if lat_ratio < _KNEE_LATENCY_RATIO:
            continue
        found.append(Observation(
            "qd_knee", "info",
            f"{_label(group[0])}: IOPS stops rising at {knee:g} outstanding I/Os ({iops[knee]:,.0f} IOPS, "
            f"{iops[knee] / best:.0%} of the best). Going to {deepest:g} changes IOPS by {gain:+.0%} while mean latency "
            f"climbs {lat_ratio:.1f}x ({latency[knee] / 1e3:,.1f} → {latency[deepest] / 1e3:,.1f} µs): deeper queues only add "
            "waiting.", ids, {"knee_outstanding": knee, "iops_at_knee": iops[knee], "latency_ratio": lat_ratio}))
    return found


def _deepest_step(group: Sequence[AnyRun], iops: dict[float, float], latency: dict[float, float],
                  ids: tuple[int | None, ...]) -> Observation:
    """The last step of a queue series whose best IOPS is at its deepest queue: still rising (with its
    figures), within the run-to-run spread, or bought with far more latency than IOPS (near the ceiling)."""
    deepest, before = sorted(iops)[-1], sorted(iops)[-2]
    gain, lat_ratio = iops[deepest] / iops[before] - 1, latency[deepest] / latency[before]
    step = (f"from {before:g} to {deepest:g} outstanding I/Os IOPS rose {gain * 100:+.0f} % ({iops[before]:,.0f} → "
            f"{iops[deepest]:,.0f}) while mean latency rose {lat_ratio:.1f}x ({latency[before] / 1e3:,.1f} → "
            f"{latency[deepest] / 1e3:,.1f} µs)")
    data = {"deepest_outstanding": deepest, "iops_gain": gain, "latency_ratio": lat_ratio}
    overlap = _overlapping(group, before, deepest)
    if overlap:
        return Observation("qd_within_spread", "info", f"{_label(group[0])}: {step}, but the IOPS of the two are within "
                           f"each other's run-to-run spread ({overlap}): no rise is measured.", ids, data)
    if lat_ratio >= _KNEE_LATENCY_RATIO and (1 + gain) * 2 <= lat_ratio:
        return Observation("qd_knee", "info", f"{_label(group[0])}: {step}: the drive is near its ceiling; a deeper "
                           "queue mostly adds waiting.", ids, data)
    return Observation("qd_still_rising", "info", f"{_label(group[0])}: IOPS still rising at the deepest queue tested: "
                       f"{step}; try deeper queues to find the drive's ceiling.", ids, data)


def _overlapping(group: Sequence[AnyRun], a: float, b: float) -> str:
    """The two depths' IOPS as mean ± 95 % CI where both have two runs or more and the intervals
    overlap; '' otherwise."""
    from ssdprof.analysis.welch import mean_ci  # loaded when there are repeats to judge

    found = []
    for depth in (a, b):
        values = [v for r in group if _outstanding(r) == depth and (v := metric_value(r, "iops")) is not None]
        if len(values) < 2:
            return ""
        found.append(mean_ci(values))
    first, second = found
    if (first.high or 0) < (second.low or 0) or (second.high or 0) < (first.low or 0):
        return ""
    return (f"{first.mean:,.0f} ± {first.half_width or 0:,.0f} vs {second.mean:,.0f} ± {second.half_width or 0:,.0f}, "
            f"95 % CI, n = {first.n} and {second.n}")


def _paired_ratios(runs: Sequence[AnyRun], drop: frozenset[str], side: Callable[[AnyRun], bool | None],
                   metric: str) -> list[tuple[AnyRun, float]]:
    """For groups differing only in ``drop``: (a representative run, mean(side True) / mean(side False))."""
    ratios = []
    for group in _groups(runs, drop):
        means = _mean_by([r for r in group if side(r) is not None], lambda r: 1.0 if side(r) else 0.0, metric)
        if len(means) == 2 and means[0.0] > 0:
            ratios.append((group[0], means[1.0] / means[0.0]))
    return ratios


def _pure_direction(run: AnyRun) -> bool | None:
    pct = run.workload.pattern.fixed_read_pct
    return None if pct is None else pct == 100


def _read_write_gap(runs: Sequence[AnyRun]) -> list[Observation]:
    ratios = [r for _, r in _paired_ratios(runs, frozenset({"pattern", "read_pct"}), _pure_direction, "bw_bytes_per_s")]
    if not ratios:
        return []
    median = statistics.median(ratios)
    spread = f"{min(ratios):.1f}–{max(ratios):.1f}x" if len(ratios) > 1 else f"{ratios[0]:.1f}x"
    if median >= 1:
        text = f"Reads are faster than writes: {spread} the write bandwidth (median {median:.1f}x"
    else:
        text = (f"Writes are faster than reads here ({spread} read/write, median {median:.2f}x): a write cache may be "
                "absorbing the writes (runs shorter than the cache fill up the cache only")
    return [Observation("read_write_gap", "info", f"{text}, over {len(ratios)} matched setting(s)).", (),
                        {"median_read_over_write": median})]


def _random_sequential_gap(runs: Sequence[AnyRun]) -> list[Observation]:
    pairs = _paired_ratios(runs, frozenset({"pattern", "random"}), lambda r: not r.workload.pattern.is_random, "bw_bytes_per_s")
    if not pairs:
        return []
    by_size: dict[int, list[float]] = {}
    for run, ratio in pairs:
        by_size.setdefault(run.workload.block_size_bytes, []).append(ratio)
    parts = []
    for size, values in sorted(by_size.items()):
        ratio = statistics.median(values)
        gap = "no real gap" if abs(ratio - 1) < _SMALL_GAP else f"sequential {ratio:.2f}x random"
        parts.append(f"{format_size(size)}: {gap}")
    return [Observation("random_sequential_gap", "info", "Sequential vs random bandwidth by access size — " + "; ".join(parts)
                        + ". Gaps usually shrink as accesses grow: large random accesses look sequential to the drive.",
                        (), {f"seq_over_random_{size}": statistics.median(v) for size, v in by_size.items()})]


def _above_interface_limit(runs: Sequence[AnyRun]) -> list[Observation]:
    found = []
    for run in runs:
        limit = run.environment.interface_limit_bytes_per_s
        bandwidth = metric_value(run, "bw_bytes_per_s") or 0.0
        if limit and len(run.hosts) <= 1 and bandwidth > limit * 1.02:
            found.append(Observation(
                "above_interface_limit", "warning",
                f"Run {run.id}: {bandwidth / 1e6:,.0f} MB/s is above what the {run.environment.interface or 'drive'} link "
                f"can carry ({limit / 1e6:,.0f} MB/s) — the data came from a cache, not the drive (cache-suspect).",
                (run.id,), {"bw_bytes_per_s": bandwidth, "limit_bytes_per_s": limit}))
    return found


def _network_bound(runs: Sequence[AnyRun], link_bytes_per_s: float | None) -> list[Observation]:
    if not link_bytes_per_s:
        return []
    found = []
    for run in runs:
        clients = max(len(run.hosts), 1)
        bandwidth = metric_value(run, "bw_bytes_per_s") or 0.0
        if bandwidth >= _NEAR_LINK * link_bytes_per_s * clients:
            found.append(Observation(
                "network_bound", "warning",
                f"Run {run.id} ({_label(run)}): {bandwidth / 1e6:,.0f} MB/s is {bandwidth / (link_bytes_per_s * clients):.0%} of "
                f"{clients} client link(s) — network-bound; the drives may be able to do more.",
                (run.id,), {"bw_bytes_per_s": bandwidth, "link_capacity_bytes_per_s": link_bytes_per_s * clients}))
    return found


def _shared_limits(runs: Sequence[AnyRun]) -> list[Observation]:
    found = []
    for limit in shared_limits(runs):
        fits = (f"{limit.fits[0]}" + (f" (or {', '.join(limit.fits[1:3])})" if len(limit.fits) > 1 else "")
                if limit.fits else "no common link rate (1-100 GbE, up to 8 links): a QoS limit, a shaper or the "
                "storage behind them")
        found.append(Observation("shared_limit", "warning", (
            f"Shared limit beyond the clients: {limit.setting} stopped growing from {limit.grew} at "
            f"{rate_words(limit.bytes_per_s)} in all, while no client was CPU- or NIC-bound. "
            f"{rate_words(limit.bytes_per_s)}: {fits}. "
            + (f"The busy one: {limit.busy}. " if limit.busy else "")
            + "Look at what the clients share (a storage node's or a switch's link, the cluster); "
            "more clients or jobs will not add bandwidth."),
            limit.run_ids, {"bw_bytes_per_s": limit.bytes_per_s}))
    return found


def _cpu_bound(runs: Sequence[AnyRun], threshold_pct: float) -> list[Observation]:
    """One observation for every run whose CPU was busy past the threshold, each run's figure in it."""
    busy = [(run, run.cpu_busy_pct) for run in runs if run.cpu_busy_pct is not None and run.cpu_busy_pct >= threshold_pct]
    if not busy:
        return []
    if len(busy) == 1:
        run, pct = busy[0]
        text = f"Run {run.id} ({_label(run)}): the CPU was {pct:.0f} % busy"
    else:
        low, high = min(p for _, p in busy), max(p for _, p in busy)
        each = ", ".join(f"run {run.id}: {pct:.0f} %" for run, pct in busy[:_CPU_NAMED])
        more = f", and {len(busy) - _CPU_NAMED} more" if len(busy) > _CPU_NAMED else ""
        span = f"{low:.0f}" if f"{low:.0f}" == f"{high:.0f}" else f"{low:.0f} to {high:.0f}"  # never '90 to 90'
        text = f"The CPU was {span} % busy in {len(busy)} runs ({each}{more})"
    return [Observation("cpu_bound", "warning", f"{text} — CPU-bound; the result may understate the drive.",
                        tuple(run.id for run, _ in busy), {"cpu_busy_pct": max(p for _, p in busy)})]


