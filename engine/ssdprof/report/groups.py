"""What a report is about: groups of runs, and the series and repeat summaries its charts and tables read.

A report covers one run, a sweep's runs, or a comparison of labelled groups (e.g. SATA vs PCIe).
Repeats of one setting are summarised as mean ± 95 % confidence interval from Student's t
distribution (:func:`ssdprof.analysis.stats.mean_ci`, the one implementation); percentiles of repeats
are never averaged for the tables (each run keeps its own). The PDF's charts and the GUI's
(``report/series.py``, the ``runs.charts`` RPC) read the same series from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ssdprof.analysis.metrics import LATENCY_METRICS
from ssdprof.model.results import RunResult

if TYPE_CHECKING:
    from ssdprof.analysis.stats import MeanCI

__all__ = ["METRICS", "Point", "RunGroup", "Series", "Summary", "repeat_summaries", "series_over", "setting_label"]

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


def _setting(run: RunResult) -> tuple[object, ...]:
    w = run.workload
    hosts = tuple(sorted(h.host for h in run.hosts)) if len(run.hosts) > 1 else ()
    return (w.pattern.value, w.read_pct, w.block_size_bytes, w.queue_depth, w.numjobs, w.direct, hosts)


def setting_label(run: RunResult) -> str:
    hosts = f" on {len(run.hosts)} hosts" if len(run.hosts) > 1 else ""
    return run.workload.label + hosts


@dataclass(frozen=True)
class Summary:
    """Repeats of one setting within one group."""

    group: str
    label: str
    runs: tuple[RunResult, ...]

    def mean_ci(self, metric: str) -> MeanCI | None:
        """Mean ± 95 % CI of the repeats' ``metric``; None when no repeat has it."""
        from ssdprof.analysis.stats import mean_ci  # loaded on first use: importing scipy.stats takes half a second

        found = [v for r in self.runs if (v := METRICS[metric](r)) is not None]
        return mean_ci(found, CONFIDENCE) if found else None


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

    def mean_ci(self, metric: str) -> MeanCI | None:
        return Summary("", "", self.runs).mean_ci(metric)


@dataclass(frozen=True)
class Series:
    label: str
    points: tuple[Point, ...]


_FACTORS: dict[str, tuple[int, Callable[[RunResult], float], str]] = {
    "block_size": (2, lambda r: float(r.workload.block_size_bytes), "bs"),
    "queue_depth": (3, lambda r: float(r.workload.queue_depth), "QD"),
    "read_pct": (1, lambda r: float(r.workload.read_pct), "%R"),
}


def _rest(run: RunResult, factor: str) -> tuple[object, ...]:
    """The settings other than ``factor``; along the read/write mix the pattern goes too (randread is
    randrw at 100 %), keeping only whether access is random."""
    setting = _setting(run)
    index = _FACTORS[factor][0]
    if factor == "read_pct":
        return (run.workload.pattern.is_random, *setting[2:])
    return setting[:index] + setting[index + 1:]


def series_over(groups: Sequence[RunGroup], factor: str) -> list[Series]:
    """Runs that differ only in ``factor`` (block_size, queue_depth or read_pct), as x-sorted series of 2+ points."""
    _, value, short = _FACTORS[factor]
    found: list[Series] = []
    for group in groups:
        by_rest: dict[tuple[object, ...], dict[float, list[RunResult]]] = {}
        for run in group.runs:
            if run.status == "failed" or METRICS["iops"](run) is None:
                continue
            by_rest.setdefault(_rest(run, factor), {}).setdefault(value(run), []).append(run)
        for by_x in by_rest.values():
            if len(by_x) < 2:
                continue
            label = _label_without(next(iter(by_x.values()))[0], short)
            if len(groups) > 1:
                label = f"{group.label}: {label}"
            found.append(Series(label, tuple(Point(x, tuple(runs)) for x, runs in sorted(by_x.items()))))
    return found


def _label_without(run: RunResult, short: str) -> str:
    """The run's label without the varied factor's token ('4KiB', 'QD8'); along the mix, the pattern and
    its '70%R' become 'random' or 'sequential'."""
    tokens = run.workload.label.split()
    if short == "QD":
        return " ".join(t for t in tokens if not t.startswith("QD"))
    if short == "bs":
        return " ".join(tokens[:-3] + tokens[-2:])
    kind = "random" if run.workload.pattern.is_random else "sequential"
    return " ".join([kind, *tokens[-3:]])
