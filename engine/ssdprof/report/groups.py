"""What a report is about: groups of runs, and the series and repeat summaries its charts and tables read.

A report covers one run, a sweep's runs, or a comparison of labelled groups (e.g. SATA vs PCIe).
Runs are one figure only when they are a sweep's repeats of one point, or the group pools its runs
of one setting because the user chose to (:mod:`ssdprof.analysis.repeats`, the one rule); every
other run stays a figure of its own, its origin in its label where its setting is shown twice.
Several runs are summarised as mean ± 95 % confidence interval from Student's t distribution
(:func:`ssdprof.analysis.welch.mean_ci`, the one implementation), and say n and where they came
from; a latency percentile of several runs is the percentile of all their I/Os, from their added
histogram bins (:mod:`ssdprof.analysis.pooled`), never a mean of the runs' percentiles. The PDF's
charts and the GUI's (``report/series.py``, the ``runs.charts`` RPC) read the same series from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic

from ssdprof.analysis.metrics import LATENCY_METRICS, metric_value, setting_key
from ssdprof.analysis.pooled import PERCENTILE_METRICS, BinsOf, own_bins, pooled_percentile
from ssdprof.analysis.repeats import Pool, pools, setting_context, setting_label
from ssdprof.model.quantities import format_size
from ssdprof.model.run_summary import AnyRun, R

__all__ = ["METRICS", "Figure", "Point", "RunGroup", "Series", "Summary", "repeat_summaries", "series_over",
           "setting_label"]

CONFIDENCE = 0.95


@dataclass(frozen=True)
class RunGroup(Generic[R]):
    """Runs shown together under one label (a sweep, or one side of a comparison): whole runs, or
    their summaries where only figures are drawn (the Groups bars)."""

    label: str
    runs: tuple[R, ...]
    pool: bool = False
    """Pool the group's runs of one setting as one figure (the user chose to); otherwise only a
    sweep's repeats of one point are."""
    bins_of: BinsOf = own_bins
    """Where the runs' latency bins are, for a percentile of several runs (summaries carry none)."""


METRICS: dict[str, Callable[[AnyRun], float | None]] = {
    "iops": lambda r: r.read.iops + r.write.iops if r.read.active or r.write.active else None,
    "bw_bytes_per_s": lambda r: r.read.bw_bytes_per_s + r.write.bw_bytes_per_s
    if r.read.active or r.write.active else None,
    **LATENCY_METRICS,
}
"""All I/Os, reads and writes together: rates added, latency I/O-weighted, percentiles from merged bins."""


@dataclass(frozen=True)
class Figure:
    """One figure of runs of one setting: their mean ± 95 % CI, or a percentile of all their I/Os."""

    value: float
    half_width: float | None
    """Half the 95 % CI of a mean of several runs; None for one run, and for a percentile (from added
    bins: no mean to put an interval on)."""
    n: int
    """How many runs the figure is of."""
    pooled: bool = False
    """A percentile of several runs' I/Os together, from their added bins."""


def figure_of(runs: Sequence[AnyRun], metric: str, bins_of: BinsOf = own_bins) -> Figure | None:
    """``metric`` of the runs as one figure: a percentile from their added bins, anything else their
    mean ± 95 % CI; None when no run has it."""
    # loaded on first use: importing scipy.stats takes half a second
    from ssdprof.analysis.welch import mean_ci

    pick = METRICS.get(metric) or (lambda run: metric_value(run, metric))
    found = [v for r in runs if (v := pick(r)) is not None]
    if not found:
        return None
    if metric in PERCENTILE_METRICS and len(runs) > 1:
        value = pooled_percentile(runs, metric, bins_of)
        return None if value is None else Figure(value, None, len(found), pooled=True)
    ci = mean_ci(found, CONFIDENCE)
    return Figure(ci.mean, ci.half_width, ci.n)


@dataclass(frozen=True)
class Summary(Generic[R]):
    """Runs of one setting within one group shown as one figure: a sweep's repeats, one run, or runs
    pooled on request."""

    group: str
    label: str
    """The setting; with the runs' origin ('(run 8)') where the group shows the setting twice."""
    runs: tuple[R, ...]
    source: str = ""
    """n and where the runs came from: 'run 8', 'n = 3 repeats of sweep 12', 'n = 5 runs pooled
    from sweeps 3, 7'."""
    bins_of: BinsOf = own_bins

    def figure(self, metric: str) -> Figure | None:
        """The runs' ``metric`` as one figure (:func:`figure_of`)."""
        return figure_of(self.runs, metric, self.bins_of)


def repeat_summaries(groups: Sequence[RunGroup[R]]) -> list[Summary[R]]:
    """Every pool (:func:`~ssdprof.analysis.repeats.pools`) of every group, in first-seen order."""
    out: list[Summary[R]] = []
    for group in groups:
        found = pools(group.runs, group.pool)
        shown = Counter(setting_label(p.runs[0]) for p in found)
        for pool in found:
            label = setting_label(pool.runs[0])
            if shown[label] > 1:
                label = f"{label} ({pool.origin})"
            out.append(Summary(group.label, label, pool.runs, pool.source, group.bins_of))
    return out


@dataclass(frozen=True)
class Point(Generic[R]):
    """One figure of a series: a pool of runs (one run, a sweep's repeats, or pooled on request) at
    ``x``. A series holds several points at one x where runs of one setting are not pooled."""

    x: float
    runs: tuple[R, ...]
    source: str = ""
    """n and where the runs came from (:attr:`ssdprof.analysis.repeats.Pool.source`)."""
    bins_of: BinsOf = own_bins

    def figure(self, metric: str) -> Figure | None:
        return figure_of(self.runs, metric, self.bins_of)


@dataclass(frozen=True)
class Series(Generic[R]):
    label: str
    points: tuple[Point[R], ...]


_FACTORS: dict[str, tuple[frozenset[str], Callable[[AnyRun], float], str]] = {
    "block_size": (frozenset({"bs"}), lambda r: float(r.workload.block_size_bytes), "bs"),
    "queue_depth": (frozenset({"qd"}), lambda r: float(r.workload.queue_depth), "qd"),
    # along the mix the pattern goes too (randread is randrw at 100 %): only random or not stays
    "read_pct": (frozenset({"pattern", "read_pct"}), lambda r: float(r.workload.read_pct), "mix"),
}


def series_over(groups: Sequence[RunGroup[R]], factor: str) -> list[Series[R]]:
    """Runs that differ only in ``factor`` (block_size, queue_depth or read_pct), as x-sorted series
    of 2+ settings; at each x, one point per pool of runs (see :func:`_lines`)."""
    drop, value, part = _FACTORS[factor]
    found: list[Series[R]] = []
    for group in groups:
        by_rest: dict[tuple[object, ...], dict[float, list[R]]] = {}
        for run in group.runs:
            if run.status == "failed" or METRICS["iops"](run) is None:
                continue
            by_rest.setdefault(setting_key(run, drop), {}).setdefault(value(run), []).append(run)
        for by_x in by_rest.values():
            if len(by_x) < 2:
                continue
            label = _label_without(next(iter(by_x.values()))[0], part)
            if len(groups) > 1:
                label = f"{group.label}: {label}"
            found += _lines(label, {x: pools(runs, group.pool) for x, runs in sorted(by_x.items())}, group.bins_of)
    return found


def _lines(label: str, by_x: dict[float, list[Pool[R]]], bins_of: BinsOf) -> list[Series[R]]:
    """One line through one figure at each x; where a setting was measured separately more than
    once, the line takes the measurement made with its neighbours (nearest in run id) and each
    other measurement is a series of its own, named as measured separately, never joined to the
    line by a vertical stroke."""
    alone = [pool.runs[0].id or 0 for found in by_x.values() if len(found) == 1 for pool in found]
    centre = sorted(alone)[len(alone) // 2] if alone else 0
    main: list[Point[R]] = []
    extra: list[Series[R]] = []
    for x, found in by_x.items():
        ordered = sorted(found, key=lambda pool: abs(_mean_id(pool) - centre))
        main.append(Point(x, ordered[0].runs, ordered[0].source, bins_of))
        extra += [Series(f"{label} ({pool.source}, measured separately)", (Point(x, pool.runs, pool.source, bins_of),))
                  for pool in ordered[1:]]
    return [Series(label, tuple(main)), *extra]


def _mean_id(pool: Pool[R]) -> float:
    ids = pool.run_ids
    return sum(ids) / len(ids) if ids else 0.0


def _label_without(run: AnyRun, part: str) -> str:
    """The run's setting without the varied factor ('4KiB', 'QD8'); along the mix, the pattern and
    its '70%R' become 'random' or 'sequential'."""
    w = run.workload
    mix = "" if w.pattern.fixed_read_pct is not None else f" {w.read_pct}%R"
    kind = "random" if w.pattern.is_random else "sequential"
    parts = {"mix": f"{w.pattern.value}{mix}", "bs": format_size(w.block_size_bytes),
             "qd": f"QD{w.queue_depth}", "jobs": f"T{w.numjobs}",
             "rate": f"@{w.rate_iops} IOPS" if w.rate_iops else ""}
    parts[part] = kind if part == "mix" else ""
    return " ".join(p for p in parts.values() if p) + setting_context(run)
