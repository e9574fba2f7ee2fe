"""The numbers behind every chart, as values a client draws: the GUI's Results view (the ``runs.charts``
and ``runs.bars`` RPC methods; a run's latency distribution is :mod:`.percentiles`) reads them from
here, and the PDF's charts read the same series (``groups.series_over``, ``groups.repeat_summaries``),
so the two cannot disagree.

Each point is one run, a sweep's repeats of one point, or runs pooled because the caller asked
(``pool``; :mod:`ssdprof.analysis.repeats` is the rule): it carries their mean, the half width of
their 95 % confidence interval (Student's t, :func:`ssdprof.analysis.welch.mean_ci`), n, the run ids
and where they came from; a latency percentile of several runs is the percentile of all their I/Os
from their added bins (:mod:`ssdprof.analysis.pooled`), with no interval. Latency is of all I/Os,
reads and writes together (``RunResult.mixed``), unless a series names its direction. Runs of one
setting that are not pooled are points of their own. Values keep their unit (IOPS, ns, bytes): a
client scales them for display only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import Field

from ssdprof.analysis.groupings import telling_apart
from ssdprof.analysis.metrics import overlay_latency_note
from ssdprof.analysis.pooled import BinsOf, own_bins
from ssdprof.analysis.repeats import Pool, PoolKind, context_parts
from ssdprof.analysis.spec_comparison import comparable_outstanding, run_access
from ssdprof.analysis.specs import Spec
from ssdprof.model.run_summary import AnyRun, R
from ssdprof.model.value import Value
from ssdprof.report.groups import Point, RunGroup, Series, Summary, repeat_summaries, series_over

__all__ = ["BarChart", "ChartPoint", "ChartSeries", "ChartSet", "MeanValue", "RunPoint", "bar_chart", "chart_set",
           "spec_points"]

_SOURCE = ("n and where the runs came from: 'run 8', 'n = 3 repeats of sweep 12', "
           "'n = 5 runs pooled from sweeps 3, 7'")


class ChartPoint(Value):
    x: float = Field(description="in the unit the chart names (bytes, queue depth, % reads, IOPS, or a bar's index)")
    y: float | None = Field(description="mean of the point's runs, in the chart's unit (a latency percentile "
                                        "of several runs: the percentile of all their I/Os, from their added "
                                        "bins); None when none has the metric")
    half_width: float | None = Field(description="half the 95 % confidence interval of the mean (Student's t); "
                                                 "None below 2 and for a percentile")
    n: int = Field(description="how many runs the mean is of")
    run_ids: list[int] = Field(description="the runs the point is of; none for a spec's figure")
    source: str = Field(description=f"{_SOURCE}; 'spec sheet' for a spec's figure; '' for no runs")


Statistic = Literal["", "mean", "p50", "p99", "p99.9"]


class ChartSeries(Value):
    label: str = Field(description="e.g. 'randread QD1 T1' (the settings that stay fixed), or a spec sheet's figure")
    points: list[ChartPoint]
    setting: str = Field("", description="the label without its statistic: a chart draws one "
                                         "setting's series in one colour")
    statistic: Statistic = Field("", description="the latency statistic when a setting has several "
                                                 "(a chart tells them apart by dash); '' for rates")


class BarChart(Value):
    """One bar per category (a setting) per series (a group of runs); ``x`` is the category's index."""

    categories: list[str]
    series: list[ChartSeries]


class MeanValue(Value):
    mean: float = Field(description="the mean of the runs, in the metric's unit; of a percentile, the "
                                    "percentile of all the runs' I/Os together (pooled)")
    half_width: float | None = Field(description="half the 95 % confidence interval (Student's t); "
                                                 "None below 2 and for a pooled percentile")
    n: int = Field(description="how many runs have the metric")
    pooled: bool = Field(default=False, description="a percentile of several runs' I/Os together, "
                                                    "from their added histogram bins (not a mean)")


class RunPoint(Value):
    """A setting's runs shown as one figure: one run, a sweep's repeats, or pooled on request."""

    label: str = Field(description="the setting; with its runs ('(run 8)') where it is shown twice")
    run_ids: list[int] = Field(description="the runs of this figure, in run order")
    source: str = Field(description=_SOURCE)
    kind: PoolKind = Field(description="single: one run; repeats: the repeats of one point a sweep "
                                       "asked for; pooled: runs of one setting pooled on request")
    iops: MeanValue | None = Field(description="IOPS, reads and writes added")
    bw_bytes_per_s: MeanValue | None = Field(description="bandwidth in bytes/s, both directions")
    lat_ns_mean: MeanValue | None = Field(description="mean total latency in ns over all I/Os, I/O-weighted")
    lat_ns_p99: MeanValue | None = Field(description="p99 total latency in ns of all the I/Os, reads and "
                                                     "writes together, from the merged bins (of several "
                                                     "runs: their added bins)")
    read_lat_ns_p99: MeanValue | None = Field(default=None, description="the reads' own p99 (ns), "
                                                                        "where the setting reads and writes")
    write_lat_ns_p99: MeanValue | None = Field(default=None, description="the writes' own p99 (ns), "
                                                                         "where the setting reads and writes")


class ChartSet(Value):
    iops_by_size: list[ChartSeries] = Field(description="x: access size in bytes; y: IOPS (reads and writes added); "
                                                        "earlier runs and spec sheet figures follow the runs' own series")
    bw_bytes_per_s_by_size: list[ChartSeries] = Field(
        description="x: access size in bytes; y: bandwidth in bytes/s (reads and writes added); "
                    "earlier runs follow")
    lat_ns_by_queue_depth: list[ChartSeries] = Field(description="x: queue depth; y: total latency in ns (mean, p99)")
    lat_ns_by_iops: list[ChartSeries] = Field(description="x: mean IOPS at each queue depth; y: latency in ns (p50, p99, p99.9)")
    iops_by_read_pct: list[ChartSeries] = Field(description="x: % reads; y: IOPS")
    repeat_iops: BarChart = Field(description="mean IOPS per figure ± 95 % CI; earlier runs as "
                                              "their own series")
    repeats_shown: bool = Field(description="whether the repeat bars say anything: some figure "
                                            "is of several runs, or earlier runs given")
    points: list[RunPoint] = Field(description="the runs as figures (one run, a sweep's repeats, "
                                               "or pooled on request): what a detail picks from")
    pooled_same_setting: bool = Field(description="whether runs of one setting were pooled on "
                                                  "request, beyond the repeats a sweep asked for")
    latency_note: str = Field(default="", description="set when the runs drawn (and earlier runs beside them) have "
                                                      "latencies of different kinds, e.g. total vs completion only")


_LATENCY_SERIES = (("lat_ns_p50", " p50"), ("lat_ns_p99", " p99"), ("lat_ns_p99_9", " p99.9"))
_STATISTICS: dict[str, Statistic] = {"lat_ns_mean": "mean", "lat_ns_p50": "p50", "lat_ns_p99": "p99",
                                     "lat_ns_p99_9": "p99.9"}


def _point(point: Point[R], metric: str, x_metric: str | None = None) -> ChartPoint | None:
    found = point.figure(metric)
    x = point.figure(x_metric) if x_metric else None
    if x_metric and x is None:
        return None
    return ChartPoint(x=x.value if x else point.x, y=found.value if found else None,
                      half_width=found.half_width if found else None, n=found.n if found else 0,
                      run_ids=_ids(point.runs), source=point.source)


def _ids(runs: Sequence[AnyRun]) -> list[int]:
    return [r.id for r in runs if r.id is not None]


def _along(series: Sequence[Series[R]], metric: str, suffix: str = "", x_metric: str | None = None) -> list[ChartSeries]:
    statistic = _STATISTICS.get(metric, "")
    named = [(s, f"{s.label}{suffix}") for s in series]  # a latency suffix ends in its statistic
    return [ChartSeries(label=label, setting=label.removesuffix(f" {statistic}") if statistic else label,
                        statistic=statistic,
                        points=[p for point in s.points if (p := _point(point, metric, x_metric))])
            for s, label in named]


def spec_points(spec: Spec | None, runs: Sequence[AnyRun]) -> list[ChartSeries]:
    """The spec's rated IOPS at stated access sizes, for the access patterns among the runs and a queue depth
    the engine judges fair against one of them (:func:`comparable_outstanding`): one reference point each."""
    if spec is None:
        return []
    accesses = {access[0] for r in runs if (access := run_access(r))}
    depths = [r.engine.effective_queue_depth * r.workload.numjobs for r in runs]
    found = []
    for f in spec.figures:
        if f.unit != "IOPS" or f.block_size_bytes is None or f.metric not in accesses:
            continue
        if f.queue_depth is not None and not any(comparable_outstanding(f.queue_depth * (f.threads or 1), d) for d in depths):
            continue
        threads = f"×{f.threads}" if f.threads else ""
        label = f"spec: {spec.model} {f.metric.value.replace('_', ' ', 1)} QD{f.queue_depth or '?'}{threads}"
        point = ChartPoint(x=f.block_size_bytes, y=f.canonical_value, half_width=None, n=1,
                           run_ids=[], source="spec sheet")
        found.append(ChartSeries(label=label, points=[point]))
    return found


def _iops_by_size(these: Sequence[RunGroup[R]], before: Sequence[RunGroup[R]],
                  spec: Spec | None) -> list[ChartSeries]:
    by_size = series_over(these, "block_size")
    runs = [r for g in these for r in g.runs]
    reference = spec_points(spec, runs)
    if reference and not by_size:  # the runs themselves, so the reference points have something to stand beside
        measured = [ChartPoint(x=r.workload.block_size_bytes, y=r.read.iops + r.write.iops,
                               half_width=None, n=1, run_ids=_ids([r]), source=Pool((r,)).source)
                    for r in runs]
        reference = [ChartSeries(label="measured", points=measured), *reference]
    earlier = _along(series_over(before, "block_size"), "iops", " (earlier)")
    return [*_along(by_size, "iops"), *earlier, *reference]


def bar_chart(groups: Sequence[RunGroup[R]], metric: str, first: Sequence[str] = ()) -> BarChart:
    """Mean ± 95 % CI of ``metric`` for every figure (category: a setting, with its runs where a
    group shows it twice) of every group (series), in first-seen order (``first`` ahead)."""
    summaries = repeat_summaries(groups)
    apart = _telling_groups_apart(groups)
    category = {id(s): _without(s.label, s.runs[0], apart) for s in summaries}
    categories = list(dict.fromkeys([*first, *(category[id(s)] for s in summaries)]))
    series = []
    for group in groups:
        mine = {category[id(s)]: s for s in summaries if s.group == group.label}
        points = [_bar(i, mine.get(category), metric) for i, category in enumerate(categories)]
        series.append(ChartSeries(label=group.label, points=points))
    return BarChart(categories=categories, series=series)


def _telling_groups_apart(groups: Sequence[RunGroup[R]]) -> frozenset[str]:
    """The label parts (hosts, nodes, round) that tell the groups apart
    (:func:`~ssdprof.analysis.groupings.telling_apart`), so a category (the setting compared) leaves
    them out: grouped by nodes, 'read 16KiB QD1 T1' is compared across nodes=1 and nodes=2."""
    return telling_apart([g.runs for g in groups], {name: _context_part(name) for name in ("hosts", "nodes", "round")})


def _context_part(name: str) -> Callable[[AnyRun], object]:
    return lambda run: context_parts(run)[name]


def _without(label: str, run: R, parts: frozenset[str]) -> str:
    found = context_parts(run)
    for name in parts:
        label = label.replace(found[name], "", 1) if found[name] else label
    return label


def _bar(x: int, summary: Summary[R] | None, metric: str) -> ChartPoint:
    found = summary.figure(metric) if summary else None
    if summary is None or found is None:
        return ChartPoint(x=x, y=None, half_width=None, n=0, run_ids=[], source="")
    return ChartPoint(x=x, y=found.value, half_width=found.half_width, n=found.n, run_ids=_ids(summary.runs),
                      source=summary.source)


def _mean_value(summary: Summary[R], metric: str) -> MeanValue | None:
    found = summary.figure(metric)
    return None if found is None else MeanValue(mean=found.value, half_width=found.half_width, n=found.n,
                                                pooled=found.pooled)


def _run_point(summary: Summary[R]) -> RunPoint:
    both = all(r.read.active and r.write.active for r in summary.runs)
    return RunPoint(label=summary.label, run_ids=_ids(summary.runs), source=summary.source,
                    kind=Pool(summary.runs).kind, iops=_mean_value(summary, "iops"),
                    bw_bytes_per_s=_mean_value(summary, "bw_bytes_per_s"),
                    lat_ns_mean=_mean_value(summary, "lat_ns_mean"),
                    lat_ns_p99=_mean_value(summary, "lat_ns_p99"),
                    read_lat_ns_p99=_mean_value(summary, "read_lat_ns_p99") if both else None,
                    write_lat_ns_p99=_mean_value(summary, "write_lat_ns_p99") if both else None)


def chart_set(runs: Sequence[R], earlier: Sequence[R] = (),
              spec: Spec | None = None, pool: bool = False, bins_of: BinsOf = own_bins) -> ChartSet:
    """Every series the Results view draws, for ``runs`` beside ``earlier`` ones and a spec sheet's
    figures; with ``pool`` (the user's choice), runs of one setting are pooled beyond a sweep's
    repeats; ``bins_of``: where summaries' bins are, for a percentile of several runs."""
    these, before = [RunGroup("", tuple(runs), pool, bins_of)], [RunGroup("", tuple(earlier), pool, bins_of)]
    by_qd = series_over(these, "queue_depth")
    repeats = repeat_summaries(these)
    bar_groups = [RunGroup("earlier runs", tuple(earlier), pool, bins_of),
                  RunGroup("these runs", tuple(runs), pool, bins_of)]
    if not earlier:
        bar_groups = [RunGroup("mean IOPS", tuple(runs), pool, bins_of)]
    bars = bar_chart(bar_groups, "iops", first=[s.label for s in repeats])  # the runs' own settings first
    return ChartSet(
        iops_by_size=_iops_by_size(these, before, spec),
        bw_bytes_per_s_by_size=[
            *_along(series_over(these, "block_size"), "bw_bytes_per_s"),
            *_along(series_over(before, "block_size"), "bw_bytes_per_s", " (earlier)")],
        lat_ns_by_queue_depth=[*_along(by_qd, "lat_ns_mean", " mean"), *_along(by_qd, "lat_ns_p99", " p99"),
                               *_along(series_over(before, "queue_depth"), "lat_ns_mean", " (earlier) mean")],
        lat_ns_by_iops=[s for metric, suffix in _LATENCY_SERIES for s in _along(by_qd, metric, suffix, x_metric="iops")],
        iops_by_read_pct=[*_along(series_over(these, "read_pct"), "iops"),
                          *_along(series_over(before, "read_pct"), "iops", " (earlier)")],
        repeat_iops=bars,
        repeats_shown=any(len(s.runs) > 1 for s in repeats) or bool(earlier),
        points=[_run_point(s) for s in repeats],
        pooled_same_setting=pool,
        latency_note=overlay_latency_note(runs, earlier),
    )
