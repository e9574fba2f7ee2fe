"""The numbers behind every chart, as values a client draws: the GUI's Results view (the ``runs.charts``,
``runs.bars`` and ``runs.percentiles`` RPC methods) reads them from here, and the PDF's charts read
the same series (``groups.series_over``, ``groups.repeat_summaries``), so the two cannot disagree.

Each point is one run, a sweep's repeats of one point, or runs pooled because the caller asked
(``pool``; :mod:`ssdprof.analysis.repeats` is the rule): it carries their mean, the half width of
their 95 % confidence interval (Student's t, :func:`ssdprof.analysis.stats.mean_ci`), n, the run ids
and where they came from. Runs of one setting that are not pooled are points of their own. Values
keep their unit (IOPS, ns, bytes): a client scales them for display only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.analysis.repeats import Pool, PoolKind, context_parts
from ssdprof.analysis.spec_comparison import comparable_outstanding, run_access
from ssdprof.analysis.specs import Spec
from ssdprof.model.histogram import cumulative
from ssdprof.model.results import RunResult
from ssdprof.model.run_summary import AnyRun, R
from ssdprof.report.groups import Point, RunGroup, Series, Summary, repeat_summaries, series_over

__all__ = ["BarChart", "ChartPoint", "ChartSeries", "ChartSet", "MeanValue", "PercentileCurve",
           "PercentilePoint", "RunPoint", "bar_chart", "chart_set", "percentile_curve",
           "spec_points"]

_SOURCE = ("n and where the runs came from: 'run 8', 'n = 3 repeats of sweep 12', "
           "'n = 5 runs pooled from sweeps 3, 7'")


class _Value(BaseModel):
    model_config = ConfigDict(frozen=True)


class ChartPoint(_Value):
    x: float = Field(description="in the unit the chart names (bytes, queue depth, % reads, IOPS, or a bar's index)")
    y: float | None = Field(description="mean of the point's runs, in the chart's unit; None when "
                                        "none has the metric")
    half_width: float | None = Field(description="half the 95 % confidence interval of the mean (Student's t); None below 2")
    n: int = Field(description="how many runs the mean is of")
    run_ids: list[int] = Field(description="the runs the point is of; none for a spec's figure")
    source: str = Field(description=f"{_SOURCE}; 'spec sheet' for a spec's figure; '' for no runs")


Statistic = Literal["", "mean", "p50", "p99", "p99.9"]


class ChartSeries(_Value):
    label: str = Field(description="e.g. 'randread QD1 T1' (the settings that stay fixed), or a spec sheet's figure")
    points: list[ChartPoint]
    setting: str = Field("", description="the label without its statistic: a chart draws one "
                                         "setting's series in one colour")
    statistic: Statistic = Field("", description="the latency statistic when a setting has several "
                                                 "(a chart tells them apart by dash); '' for rates")


class BarChart(_Value):
    """One bar per category (a setting) per series (a group of runs); ``x`` is the category's index."""

    categories: list[str]
    series: list[ChartSeries]


class MeanValue(_Value):
    mean: float = Field(description="the mean of the runs, in the metric's unit")
    half_width: float | None = Field(description="half the 95 % confidence interval (Student's t); "
                                                 "None below 2")
    n: int = Field(description="how many runs have the metric")


class RunPoint(_Value):
    """A setting's runs shown as one figure: one run, a sweep's repeats, or pooled on request."""

    label: str = Field(description="the setting; with its runs ('(run 8)') where it is shown twice")
    run_ids: list[int] = Field(description="the runs of this figure, in run order")
    source: str = Field(description=_SOURCE)
    kind: PoolKind = Field(description="single: one run; repeats: the repeats of one point a sweep "
                                       "asked for; pooled: runs of one setting pooled on request")
    iops: MeanValue | None = Field(description="IOPS, reads and writes added")
    bw_bytes_per_s: MeanValue | None = Field(description="bandwidth in bytes/s, both directions")
    lat_ns_mean: MeanValue | None = Field(description="mean total latency in ns, I/O-weighted")
    lat_ns_p99: MeanValue | None = Field(description="the mean of the runs' p99 total latency "
                                                     "in ns (the worse direction's)")


class ChartSet(_Value):
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


class PercentilePoint(_Value):
    lat_ns: int = Field(description="a histogram bucket's value")
    percentile: float = Field(description="the share of I/Os at or below it, in %")


class PercentileCurve(_Value):
    label: str
    direction: str = Field(description="read or write: the direction with the most I/Os")
    points: list[PercentilePoint] = Field(description="the cumulative distribution of total latency, from the histogram bins")


_LATENCY_SERIES = (("lat_ns_p50", " p50"), ("lat_ns_p99", " p99"), ("lat_ns_p99_9", " p99.9"))
_STATISTICS: dict[str, Statistic] = {"lat_ns_mean": "mean", "lat_ns_p50": "p50", "lat_ns_p99": "p99",
                                     "lat_ns_p99_9": "p99.9"}


def _point(point: Point[R], metric: str, x_metric: str | None = None) -> ChartPoint | None:
    found = point.mean_ci(metric)
    x = point.mean_ci(x_metric) if x_metric else None
    if x_metric and x is None:
        return None
    return ChartPoint(x=x.mean if x else point.x, y=found.mean if found else None,
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
    """The label parts (hosts, nodes, round) that are one value within each group and differ between
    groups: what the groups are, so a category (the setting compared) leaves them out (grouped by
    nodes, 'read 16KiB QD1 T1' is compared across nodes=1 and nodes=2, not two categories)."""
    if len(groups) < 2:
        return frozenset()
    each = [{name: {context_parts(run)[name] for run in g.runs} for name in ("hosts", "nodes", "round")}
            for g in groups if g.runs]
    return frozenset(name for name in ("hosts", "nodes", "round")
                     if all(len(values[name]) == 1 for values in each)
                     and len({next(iter(values[name])) for values in each}) > 1)


def _without(label: str, run: R, parts: frozenset[str]) -> str:
    found = context_parts(run)
    for name in parts:
        label = label.replace(found[name], "", 1) if found[name] else label
    return label


def _bar(x: int, summary: Summary[R] | None, metric: str) -> ChartPoint:
    ci = summary.mean_ci(metric) if summary else None
    if summary is None or ci is None:
        return ChartPoint(x=x, y=None, half_width=None, n=0, run_ids=[], source="")
    return ChartPoint(x=x, y=ci.mean, half_width=ci.half_width, n=ci.n, run_ids=_ids(summary.runs),
                      source=summary.source)


def _mean_value(summary: Summary[R], metric: str) -> MeanValue | None:
    ci = summary.mean_ci(metric)
    return None if ci is None else MeanValue(mean=ci.mean, half_width=ci.half_width, n=ci.n)


def _run_point(summary: Summary[R]) -> RunPoint:
    return RunPoint(label=summary.label, run_ids=_ids(summary.runs), source=summary.source,
                    kind=Pool(summary.runs).kind, iops=_mean_value(summary, "iops"),
                    bw_bytes_per_s=_mean_value(summary, "bw_bytes_per_s"),
                    lat_ns_mean=_mean_value(summary, "lat_ns_mean"),
                    lat_ns_p99=_mean_value(summary, "lat_ns_p99"))


def chart_set(runs: Sequence[R], earlier: Sequence[R] = (),
              spec: Spec | None = None, pool: bool = False) -> ChartSet:
    """Every series the Results view draws, for ``runs`` beside ``earlier`` ones and a spec sheet's
    figures; with ``pool`` (the user's choice), runs of one setting are pooled beyond a sweep's
    repeats."""
    these, before = [RunGroup("", tuple(runs), pool)], [RunGroup("", tuple(earlier), pool)]
    by_qd = series_over(these, "queue_depth")
    repeats = repeat_summaries(these)
    bar_groups = [RunGroup("earlier runs", tuple(earlier), pool),
                  RunGroup("these runs", tuple(runs), pool)]
    if not earlier:
        bar_groups = [RunGroup("mean IOPS", tuple(runs), pool)]
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
    )


def percentile_curve(run: RunResult) -> PercentileCurve:
    """The cumulative distribution of the run's total latency, step by histogram bucket (fio's own rule:
    the p-th percentile is the first bucket whose count reaches p/100·N). Empty without bins."""
    direction = run.main_direction
    stats = run.read if direction == "read" else run.write
    steps = cumulative(stats.lat_bins_ns)
    total = steps[-1][1] if steps else 0
    return PercentileCurve(label=run.workload.label, direction=direction,
                           points=[PercentilePoint(lat_ns=value, percentile=100 * seen / total) for value, seen in steps])
