"""A run's latency distribution as a cumulative percentile curve a client draws (``runs.percentiles``)."""

from __future__ import annotations

from pydantic import Field

from ssdprof.model.histogram import cumulative, merge
from ssdprof.model.results import RunResult
from ssdprof.model.value import Value

__all__ = ["PercentileCurve", "PercentilePoint", "PercentileSeries", "percentile_curve"]


class PercentilePoint(Value):
    lat_ns: int = Field(description="a histogram bucket's value")
    percentile: float = Field(description="the share of I/Os at or below it, in %")


class PercentileSeries(Value):
    direction: str = Field(description="'read' or 'write'")
    points: list[PercentilePoint]


class PercentileCurve(Value):
    label: str
    direction: str = Field(description="whose I/Os: 'all I/Os' (reads and writes together), or 'read' or "
                                       "'write' where the run did only that")
    points: list[PercentilePoint] = Field(description="the cumulative distribution of total latency of all the "
                                                      "run's I/Os, from the merged histogram bins")
    by_direction: list[PercentileSeries] = Field(default_factory=list, description="each direction's own, "
                                                                                   "where the run read and wrote")


def _distribution(bins: dict[int, int]) -> list[PercentilePoint]:
    steps = cumulative(bins)
    total = steps[-1][1] if steps else 0
    return [PercentilePoint(lat_ns=value, percentile=100 * seen / total) for value, seen in steps]


def percentile_curve(run: RunResult) -> PercentileCurve:
    """The cumulative distribution of the total latency of all the run's I/Os, step by histogram bucket
    (fio's own rule: the p-th percentile is the first bucket whose count reaches p/100·N), and each
    direction's beside it where the run read and wrote. Empty without bins."""
    sides = [(name, stats) for name, stats in (("read", run.read), ("write", run.write)) if stats.active]
    if len(sides) != 2:
        name, stats = sides[0] if sides else ("read", run.read)
        return PercentileCurve(label=run.workload.label, direction=name, points=_distribution(stats.lat_bins_ns))
    both = merge([run.read.lat_bins_ns, run.write.lat_bins_ns]) if run.read.lat_bins_ns and run.write.lat_bins_ns else {}
    return PercentileCurve(label=run.workload.label, direction="all I/Os", points=_distribution(both),
                           by_direction=[PercentileSeries(direction=name, points=_distribution(stats.lat_bins_ns))
                                         for name, stats in sides])
