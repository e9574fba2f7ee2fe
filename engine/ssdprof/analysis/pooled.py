"""A latency percentile of several runs taken together: from their added histogram bins, never averaged.

One run's percentile is its own (``RunResult.mixed`` for all its I/Os, or one direction's). The
percentile of a sweep's repeats, or of runs pooled on request, is the percentile of all their I/Os:
their bins add (reads' and writes' too, for all I/Os) and the p-th percentile is the smallest bucket
whose count reaches p/100·N, fio's own rule (:mod:`ssdprof.model.histogram`). The mean of the runs'
p99s is no percentile of anything, so it is never shown as one.

Whole runs carry their bins; a run's summary (what the store's tables hold) does not, so a caller
that pools summaries passes where their bins are (:class:`StoredBins`, read from the runs' documents
on first need).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction

from ssdprof.analysis.metrics import metric_value
from ssdprof.model import histogram
from ssdprof.model.results import RunResult
from ssdprof.model.run_summary import AnyRun

__all__ = ["PERCENTILE_METRICS", "Bins", "BinsOf", "StoredBins", "own_bins", "pooled_percentile"]

Bins = tuple[dict[int, int], dict[int, int]]
"""A run's total-latency bins: (reads', writes'), fio's layout, ns -> count."""

BinsOf = Callable[[AnyRun], "Bins | None"]
"""Where a run's bins are; None: not known (a summary whose bins nobody read)."""

PERCENTILE_METRICS: dict[str, tuple[str, Fraction]] = {
    "lat_ns_p50": ("mixed", Fraction(50)),
    "lat_ns_p99": ("mixed", Fraction(99)),
    "lat_ns_p99_9": ("mixed", Fraction("99.9")),
    "read_lat_ns_p99": ("read", Fraction(99)),
    "write_lat_ns_p99": ("write", Fraction(99)),
}
"""The metrics that are percentiles: whose I/Os (all, or one direction's) and which percentile."""


def own_bins(run: AnyRun) -> Bins | None:
    """A whole run's bins; None for a summary."""
    return (run.read.lat_bins_ns, run.write.lat_bins_ns) if isinstance(run, RunResult) else None


class StoredBins:
    """Summaries' bins, read for every run named here at the first question (a pool's percentile needs
    every member's, and a study's pools hold most of its runs)."""

    def __init__(self, load: Callable[[Sequence[int]], dict[int, Bins]], run_ids: Iterable[int]):
        self._load = load
        self._ids = list(dict.fromkeys(run_ids))
        self._found: dict[int, Bins] | None = None

    def __call__(self, run: AnyRun) -> Bins | None:
        if isinstance(run, RunResult):
            return own_bins(run)
        if self._found is None:
            self._found = self._load(self._ids)
        return None if run.id is None else self._found.get(run.id)


def pooled_percentile(runs: Sequence[AnyRun], metric: str, bins_of: BinsOf = own_bins) -> float | None:
    """``metric`` (a key of :data:`PERCENTILE_METRICS`) of all the runs' I/Os together: one run's own
    figure; several runs' from their added bins; None when a run's bins are not known (a percentile
    is then not to be had, and none is made up)."""
    if len(runs) == 1:
        return metric_value(runs[0], metric)
    side, pct = PERCENTILE_METRICS[metric]
    parts: list[Mapping[int, int]] = []
    for run in runs:
        directions = [(run.read, 0), (run.write, 1)] if side == "mixed" else [(getattr(run, side), 0 if side == "read" else 1)]
        active = [index for stats, index in directions if stats.active]
        if not active:
            continue
        found = bins_of(run)
        if found is None or any(not found[index] for index in active):
            return None
        parts += [found[index] for index in active]
    value = histogram.percentile(histogram.merge(parts), pct) if parts else None
    return None if value is None else float(value)
