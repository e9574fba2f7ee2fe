"""How each factor the sweep varied moved IOPS, bandwidth and latency, in the assignment's words.

A series is runs that differ only in the factor (``metrics.setting_key`` with the factor dropped;
along the read/write mix the pattern goes too, as randread is randrw at 100 %). Each point of a
series is one pool of repeats; where separate runs measured the same point (the student preset
measures 4 KiB QD1 reads in each of its series), the one with the series' own pattern and nearest
in the sweep's order to its other points stands for it, so a series reads as it was measured, and
where the key figures show another of those runs the sentence says so, with its figures. A change
read between two settings whose runs' 95 % intervals overlap is said to be within the run-to-run
spread, with the intervals, not as a change.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence

from ssdprof.analysis.metrics import setting_key
from ssdprof.analysis.repeats import setting_label
from ssdprof.analysis.summary_figures import Figures, figures, run_ids
from ssdprof.analysis.summary_model import Factor, FactorFinding, GlanceCell, GlanceRow
from ssdprof.analysis.summary_spread import by_setting, spread_words, within_spread
from ssdprof.analysis.summary_words import iops_text, latency_text, mb_s_text, ratio_text, runs_text
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult

__all__ = ["MAX_SERIES_PER_FACTOR", "factor_findings"]

MAX_SERIES_PER_FACTOR = 3
"""A grid varies each factor in many series: the summary names the longest few, the charts all."""
_SAME = 1.05
"""Within 5 % counts as unchanged."""
_MANY = 1.5
"""From here a change reads as a multiple (2.1×), below it as a percentage (+12 %)."""

Group = Sequence[RunResult]
_DROP: dict[Factor, frozenset[str]] = {"access_size": frozenset({"bs"}),
                                        "read_pct": frozenset({"pattern", "read_pct"}),
                                        "queue_depth": frozenset({"qd"})}
_X: dict[Factor, Callable[[RunResult], float]] = {
    "access_size": lambda r: float(r.workload.block_size_bytes),
    "read_pct": lambda r: float(r.workload.read_pct),
    "queue_depth": lambda r: float(r.workload.queue_depth)}


def _x_text(factor: Factor, x: float) -> str:
    if factor == "access_size":
        return format_size(int(x))
    return f"{x:g} % reads" if factor == "read_pct" else f"QD{x:g}"


def _held(factor: Factor, run: RunResult) -> str:
    """What the series keeps fixed, in the run label's terms."""
    w = run.workload
    pattern = w.pattern.value + ("" if w.pattern.fixed_read_pct is not None else f" {w.read_pct}%R")
    size, depth = format_size(w.block_size_bytes), f"QD{w.queue_depth} T{w.numjobs}"
    if factor == "access_size":
        return f"{pattern} {depth}"
    if factor == "queue_depth":
        return f"{pattern} {size} T{w.numjobs}"
    return f"{'random' if w.pattern.is_random else 'sequential'} {size} {depth}"


def _series(groups: Sequence[Group], factor: Factor) -> list[dict[float, list[Group]]]:
    by_rest: dict[tuple[object, ...], dict[float, list[Group]]] = {}
    for group in groups:
        key = setting_key(group[0], _DROP[factor])
        by_rest.setdefault(key, {}).setdefault(_X[factor](group[0]), []).append(group)
    found = [s for s in by_rest.values() if len(s) >= 2]
    return sorted(found, key=len, reverse=True)[:MAX_SERIES_PER_FACTOR]


def _points(series: dict[float, list[Group]], factor: Factor) -> list[tuple[float, Group]]:
    """One group per value of the factor, in its order (the mix: all reads to all writes)."""
    alone = [groups[0] for groups in series.values() if len(groups) == 1]
    ids = [i for g in alone for i in run_ids(g)]
    centre = statistics.fmean(ids) if ids else None
    usual = Counter(g[0].workload.pattern for g in alone).most_common(1)

    def rank(group: Group) -> tuple[bool, float, int]:
        other_pattern = bool(usual) and group[0].workload.pattern != usual[0][0]
        own = run_ids(group)
        distance = abs(statistics.fmean(own) - centre) if centre is not None and own else 0.0
        return other_pattern, distance, -len(group)

    chosen = [(x, min(groups, key=rank)) for x, groups in series.items()]
    return sorted(chosen, key=lambda p: p[0], reverse=factor == "read_pct")


def _sign(ratio: float) -> int:
    return 0 if 1 / _SAME < ratio < _SAME else 1 if ratio > 1 else -1


def _move(ratio: float) -> str:
    if _sign(ratio) == 0:
        return "stayed within 5 %"
    if ratio >= _MANY:
        return f"rose {ratio_text(ratio)}"
    if ratio > 1:
        return f"rose {(ratio - 1) * 100:.0f} %"
    if ratio <= 1 / _MANY:
        return f"fell {ratio_text(1 / ratio)}"
    return f"fell {(1 - ratio) * 100:.0f} %"


def _ratio(a: float | None, b: float | None) -> float | None:
    return b / a if a and b is not None and a > 0 else None


def _sentence(factor: Factor, held: str, points: list[tuple[float, Figures]], *, spread: str = "",
              tail: str = "") -> str:
    (x0, a), (x1, b) = points[0], points[-1]
    iops, bw = _ratio(a.iops, b.iops) or 1.0, _ratio(a.bw_bytes_per_s, b.bw_bytes_per_s) or 1.0
    joint = " and" if _sign(iops) == _sign(bw) else " while"
    moved = (f"IOPS {_move(iops)} ({iops_text(a.iops)} → {iops_text(b.iops)})" if not spread else
             f"IOPS {_move(iops)} between the runs shown ({iops_text(a.iops)} → {iops_text(b.iops)}), within "
             f"the run-to-run spread of all the runs of each ({spread}): not a measured change,")
    text = (f"From {_x_text(factor, x0)} to {_x_text(factor, x1)} ({held}), {moved}{joint} bandwidth {_move(bw)} "
            f"({mb_s_text(a.bw_bytes_per_s)} → {mb_s_text(b.bw_bytes_per_s)})")
    lat = _ratio(a.lat_ns_mean, b.lat_ns_mean)
    if lat is not None and a.lat_ns_mean is not None and b.lat_ns_mean is not None:
        text += (f"; mean latency {_move(lat)} "
                 f"({latency_text(a.lat_ns_mean)} → {latency_text(b.lat_ns_mean)})")
    peak_x, peak = max(points, key=lambda p: p[1].iops)
    if peak_x not in (x0, x1):
        text += f". IOPS peaked at {_x_text(factor, peak_x)} ({iops_text(peak.iops)} IOPS)"
    return text + "." + tail


def _shown_apart(factor: Factor, points: list[tuple[float, Group]], cells: Sequence[GlanceCell]) -> str:
    """Where the key figures show another run of a point's setting than the sentence does: both, named."""
    notes = []
    for x, group in points:
        ids, label = run_ids(group), setting_label(group[0])
        cell = next((c for c in cells if c.setting == label and set(ids) <= set(c.separate_run_ids)), None)
        if cell is None:
            continue
        here = figures(group).iops
        apart = abs(cell.iops - here) / max(min(cell.iops, here), 1e-9)
        notes.append(f" {_x_text(factor, x)} here is {runs_text(ids)} ({iops_text(here)} IOPS); the key figures "
                     f"show {runs_text(cell.run_ids)} of the same setting ({iops_text(cell.iops)} IOPS"
                     f"{f', {latency_text(cell.lat_ns_mean)}' if cell.lat_ns_mean is not None else ''}), measured "
                     f"separately, {apart * 100:.0f} % apart.")
    return "".join(notes)


def _finding(factor: Factor, series: dict[float, list[Group]], settings: dict[tuple[object, ...], list[RunResult]],
             cells: Sequence[GlanceCell]) -> FactorFinding:
    points = _points(series, factor)
    measured = [(x, figures(group)) for x, group in points]
    (x0, a), (x1, b) = measured[0], measured[-1]
    held = _held(factor, points[0][1][0])
    ends = [settings[setting_key(points[i][1][0])] for i in (0, -1)]
    noise = within_spread(ends[0], ends[1], "iops")
    spread = spread_words(noise, iops_text, "IOPS") if noise else ""
    return FactorFinding(factor=factor, held=held, x_from=x0, x_to=x1, iops_from=a.iops,
                         iops_to=b.iops,
                         bw_bytes_per_s_from=a.bw_bytes_per_s, bw_bytes_per_s_to=b.bw_bytes_per_s,
                         lat_ns_mean_from=a.lat_ns_mean, lat_ns_mean_to=b.lat_ns_mean,
                         run_ids=[i for _, group in points for i in run_ids(group)],
                         sentence=_sentence(factor, held, measured, spread=spread,
                                            tail=_shown_apart(factor, points, cells)))


def factor_findings(groups: Sequence[Group], table: Sequence[GlanceRow] = ()) -> list[FactorFinding]:
    """Access size, then the read/write mix, then queue depth: the assignment's order; ``table``: the
    key figures, whose runs a sentence names where it reads another run of the same setting."""
    settings = by_setting(groups)
    cells = [c for row in table for c in (row.read, row.write) if c is not None]
    return [_finding(factor, series, settings, cells) for factor in _DROP for series in _series(groups, factor)]
