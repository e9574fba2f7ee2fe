"""What a report is about: groups of runs, and the series and repeat summaries its charts and tables read.

A report covers one run, a sweep's runs, or a comparison of labelled groups (e.g. SATA vs PCIe).
Repeats of one setting are summarised as mean ± 95 % confidence interval from Student's t
distribution; percentiles of repeats are never averaged for the tables (each run keeps its own).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssdprof.analysis.metrics import LATENCY_METRICS
from ssdprof.results import RunResult

__all__ = ["METRICS", "Point", "RunGroup", "Series", "Summary", "mean_ci95", "repeat_summaries", "series_over", "setting_label"]

CONFIDENCE = 0.95


@dataclass(frozen=True)
class RunGroup:
    """Runs shown together under one label (a sweep, or one side of a comparison)."""

    label: str
    runs: tuple[RunResult, ...]


METRICS: dict[str, Callable[[RunResult], float | None]] = {
    "iops": lambda r: r.read.iops + r.write.iops if r.read.active or r.write.active else None,
    "bw_bytes_per_s": lambda r: r.read.bw_bytes_per_s + r.write.bw_bytes_per_s if r.read.active or r.write.active else None,
    **LATENCY_METRICS,
}
"""Reads and writes added for rates; latency is the I/O-weighted mean, or the worse direction's percentile."""


def mean_ci95(values: Sequence[float]) -> tuple[float, float | None]:
    """Mean and the half width of its 95 % confidence interval (t distribution); None below 2 values."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, None
    from scipy import stats as sps  # loaded on first use: importing scipy.stats takes half a second

    stddev = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, float(sps.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * stddev / math.sqrt(n)


def _setting(run: RunResult) -> tuple[object, ...]:
    w = run.workload
    hosts = tuple(sorted(h.host for h in run.hosts)) if len(run.hosts) > 1 else ()
    return (w.pattern.value, w.read_pct, w.block_size_bytes, w.queue_depth, w.numjobs, w.direct, hosts)


def setting_label(run: RunResult) -> str:
    hosts = f" on {len(run.hosts)} hosts" if len(run.hosts) > 1 else ""
    return run.workload.label() + hosts


@dataclass(frozen=True)
class Summary:
    """Repeats of one setting within one group."""

    group: str
    label: str
    runs: tuple[RunResult, ...]

    def mean_ci(self, metric: str) -> tuple[float, float | None] | None:
        found = [v for r in self.runs if (v := METRICS[metric](r)) is not None]
        return mean_ci95(found) if found else None


def repeat_summaries(groups: Sequence[RunGroup]) -> list[Summary]:
    """Every setting of every group in first-seen order, its repeats together."""
    out: list[Summary] = []
    for group in groups:
        by_setting: dict[tuple[object, ...], list[RunResult]] = {}
        for run in group.runs:
            by_setting.setdefault(_setting(run), []).append(run)
        out += [Summary(group.label, setting_label(runs[0]), tuple(runs)) for runs in by_setting.values()]
    return out


@dataclass(frozen=True)
class Point:
    x: float
    runs: tuple[RunResult, ...]

    def mean_ci(self, metric: str) -> tuple[float, float | None] | None:
        return Summary("", "", self.runs).mean_ci(metric)


@dataclass(frozen=True)
class Series:
    label: str
    points: tuple[Point, ...]


_FACTORS: dict[str, tuple[int, Callable[[RunResult], float], str]] = {
    "block_size": (2, lambda r: float(r.workload.block_size_bytes), "bs"),
    "queue_depth": (3, lambda r: float(r.workload.queue_depth), "QD"),
}


def series_over(groups: Sequence[RunGroup], factor: str) -> list[Series]:
    """Runs that differ only in ``factor`` (block_size or queue_depth), as x-sorted series of 2+ points."""
    index, value, short = _FACTORS[factor]
    found: list[Series] = []
    for group in groups:
        by_rest: dict[tuple[object, ...], dict[float, list[RunResult]]] = {}
        for run in group.runs:
            if METRICS["iops"](run) is None:
                continue
            setting = _setting(run)
            rest = setting[:index] + setting[index + 1:]
            by_rest.setdefault(rest, {}).setdefault(value(run), []).append(run)
        for by_x in by_rest.values():
            if len(by_x) < 2:
                continue
            first = next(iter(by_x.values()))[0]
            label = first.workload.label().replace(f" {_varying_part(first, short)}", "")
            if len(groups) > 1:
                label = f"{group.label}: {label}"
            found.append(Series(label, tuple(Point(x, tuple(runs)) for x, runs in sorted(by_x.items()))))
    return found


def _varying_part(run: RunResult, short: str) -> str:
    """The label's token for the varied factor, e.g. '4KiB' or 'QD8', left out of a series' name."""
    tokens = run.workload.label().split()
    if short == "QD":
        return next(t for t in tokens if t.startswith("QD"))
    return tokens[-3]
