"""Exact aggregates of concurrent jobs, hosts or repeats: counts and rates add, histogram bins add, means
weigh by sample count; percentiles come from the added bins, never from averaging percentiles."""

from __future__ import annotations

from collections.abc import Iterable

from ssdprof.model import histogram
from ssdprof.model.direction import DirectionStats, LatencyStats, SpanStats

__all__ = ["combine", "latency_from_bins", "mixed"]


def combine(directions: Iterable[DirectionStats]) -> DirectionStats:
    """Exact aggregate of concurrent jobs/hosts: counts and rates add, bins add, means weigh
    by sample count; percentiles come from the added bins, or are left out when a part has none."""
    parts = [d for d in directions if d.io_count > 0 or d.clat_ns.samples > 0 or d.lat_ns.samples > 0]
    if not parts:
        return DirectionStats()
    if len(parts) == 1:
        return parts[0]
    lat_bins = _merged_bins([p.lat_bins_ns for p in parts])
    clat_bins = _merged_bins([p.clat_bins_ns for p in parts])
    return DirectionStats(
        io_count=sum(p.io_count for p in parts),
        io_bytes=sum(p.io_bytes for p in parts),
        runtime_ms=max(p.runtime_ms for p in parts),
        iops=sum(p.iops for p in parts),
        bw_bytes_per_s=sum(p.bw_bytes_per_s for p in parts),
        lat_ns=_combined_latency([p.lat_ns for p in parts], lat_bins),
        clat_ns=_combined_latency([p.clat_ns for p in parts], clat_bins),
        slat_ns=_combined_span([p.slat_ns for p in parts]),
        lat_bins_ns=lat_bins,
        clat_bins_ns=clat_bins,
    )


def mixed(read: DirectionStats, write: DirectionStats) -> DirectionStats:
    """All of a run's I/Os, reads and writes together, as fio's ``unified_rw_reporting=mixed`` reports
    them: counts, IOPS and bandwidth add, the mean weighs by I/O count, and the percentiles come from
    the merged histogram bins (none where a direction has no bins: a percentile is never taken from
    the two directions' own). A run of one direction: that direction. Kept without its bins (they
    are the two directions' added)."""
    both = combine([read, write])
    return both.model_copy(update={"lat_bins_ns": {}, "clat_bins_ns": {}}) if both.lat_bins_ns or both.clat_bins_ns else both


def latency_from_bins(bins: dict[int, int], span: SpanStats) -> LatencyStats:
    """``span``'s moments with percentiles taken from ``bins`` (the smallest bin reaching p/100 * N)."""
    names = list(histogram.REPORTED_PERCENTILES)
    values = histogram.percentiles(bins, list(histogram.REPORTED_PERCENTILES.values()))
    pct = {name: (float(v) if v is not None else None) for name, v in zip(names, values, strict=True)}
    return LatencyStats(samples=sum(bins.values()), mean=span.mean, stddev=span.stddev, min=span.min, max=span.max,
                        from_bins=True, **pct)


def _merged_bins(parts: list[dict[int, int]]) -> dict[int, int]:
    """Bins add; a part without bins leaves the union without them (its percentiles are unknown)."""
    return histogram.merge(parts) if all(parts) else {}


def _combined_latency(parts: list[LatencyStats], bins: dict[int, int]) -> LatencyStats:
    span = _combined_span(parts)
    if bins:
        return latency_from_bins(bins, span)
    return LatencyStats(**span.model_dump())


def _combined_span(parts: list[SpanStats] | list[LatencyStats]) -> SpanStats:
    weighted = [p for p in parts if p.samples and p.mean is not None]
    total = sum(p.samples for p in weighted)
    mean = sum(p.samples * (p.mean or 0.0) for p in weighted) / total if total else None
    return SpanStats(
        samples=sum(p.samples for p in parts), mean=mean, stddev=_pooled_stddev(weighted, mean, total),
        min=min((p.min for p in parts if p.min is not None), default=None),
        max=max((p.max for p in parts if p.max is not None), default=None),
    )


def _pooled_stddev(parts: list[SpanStats], mean: float | None, total: int) -> float | None:
    """Sample stddev of the union, from each part's n, mean and sample stddev."""
    if mean is None or total < 2 or any(p.stddev is None for p in parts):
        return None
    sum_squares = sum((p.samples - 1) * (p.stddev or 0.0) ** 2 + p.samples * (p.mean or 0.0) ** 2 for p in parts)
    variance = (sum_squares - total * mean**2) / (total - 1)
    return float(max(variance, 0.0) ** 0.5)
