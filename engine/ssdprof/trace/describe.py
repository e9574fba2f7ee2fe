"""What a trace holds, in the figures a person checks before replaying it: counts and bytes per direction,
duration, the access sizes, the region it touches, the rate it was recorded at over time, and the latency it
recorded (in fio's bins, so its p99 is read by the same rule as a replay's)."""

from __future__ import annotations

import numpy as np

from ssdprof.model import histogram
from ssdprof.model.direction import LatencyStats
from ssdprof.model.trace import SizeCount, TraceSecond, TraceStream, TraceSummary
from ssdprof.trace.records import Column, TraceRecords

__all__ = ["MAX_SERIES_POINTS", "MAX_SIZES", "describe", "latency_bins", "peak_in_flight", "rate_series", "series_step_s"]

MAX_SERIES_POINTS = 600
MAX_SIZES = 24
_STEPS_S = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400)
_NS = 1_000_000_000


def describe(records: TraceRecords, *, step_s: int | None = None) -> TraceSummary:
    """``step_s``: the rate series' step (default: the plainest that fits the trace's span)."""
    writes = records.is_write
    reads = ~writes
    latency = records.latency_ns
    read_bins = latency_bins(latency[reads & (latency >= 0)])
    write_bins = latency_bins(latency[writes & (latency >= 0)])
    notes = list(records.notes)
    sizes, grouped = _sizes(records)
    if grouped:
        notes.append(f"{grouped} distinct access sizes: counted in power-of-two groups, each named by its top")
    empty = not len(records)
    return TraceSummary(
        format=records.format, source=records.source, io_count=len(records),
        read_count=int(reads.sum()), write_count=int(writes.sum()),
        read_bytes=int(records.size_bytes[reads].sum()), write_bytes=int(records.size_bytes[writes].sum()),
        timed=records.timed, duration_s=records.span_ns / _NS,
        offset_min_bytes=0 if empty else int(records.offset_bytes.min()),
        offset_end_bytes=0 if empty else int((records.offset_bytes + records.size_bytes).max()),
        sizes=sizes, series=rate_series(records, step_s=step_s),
        recorded_read_lat_ns=_latency(latency[reads & (latency >= 0)], read_bins),
        recorded_write_lat_ns=_latency(latency[writes & (latency >= 0)], write_bins),
        recorded_read_bins_ns=read_bins, recorded_write_bins_ns=write_bins,
        latency_recorded_for=int((latency >= 0).sum()), peak_in_flight=peak_in_flight(records),
        streams=_streams(records), skipped=dict(records.skipped), notes=notes)


def series_step_s(duration_s: float) -> int:
    """Seconds per point: one, or the plainest step that keeps a long trace within MAX_SERIES_POINTS."""
    return next((step for step in _STEPS_S if duration_s / step <= MAX_SERIES_POINTS), _STEPS_S[-1])


def rate_series(records: TraceRecords, *, step_s: int | None = None) -> list[TraceSecond]:
    """The recorded rate per interval (one second, longer for a long trace), from the trace's time 0."""
    if not records.timed or not len(records):
        return []
    step_s = step_s or series_step_s(records.span_ns / _NS)
    slot = records.time_ns // (step_s * _NS)
    slots = int(slot.max()) + 1
    out: list[TraceSecond] = []
    columns = [np.bincount(slot, weights=w, minlength=slots) for w in (
        ~records.is_write, records.is_write, np.where(records.is_write, 0, records.size_bytes),
        np.where(records.is_write, records.size_bytes, 0))]
    for index in range(slots):
        read_ios, write_ios, read_bytes, write_bytes = (float(c[index]) / step_s for c in columns)
        out.append(TraceSecond(start_s=float(index * step_s), span_s=float(step_s), read_iops=read_ios,
                               write_iops=write_ios, read_bw_bytes_per_s=read_bytes, write_bw_bytes_per_s=write_bytes))
    return out


def latency_bins(latency_ns: Column) -> dict[int, int]:
    """fio-layout bins (bucket midpoint -> count) of the given latencies."""
    values, counts = np.unique(latency_ns, return_counts=True)
    bins: dict[int, int] = {}
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        bucket = histogram.bucket_value(value)
        bins[bucket] = bins.get(bucket, 0) + count
    return bins


def _latency(latency_ns: Column, bins: dict[int, int]) -> LatencyStats | None:
    if not latency_ns.size:
        return None
    names = list(histogram.REPORTED_PERCENTILES)
    found = histogram.percentiles(bins, list(histogram.REPORTED_PERCENTILES.values()))
    return LatencyStats(samples=int(latency_ns.size), mean=float(latency_ns.mean()), stddev=float(latency_ns.std()),
                        min=float(latency_ns.min()), max=float(latency_ns.max()), from_bins=True,
                        **{name: float(v) for name, v in zip(names, found, strict=True) if v is not None})


def _sizes(records: TraceRecords) -> tuple[list[SizeCount], int]:
    """Each access size's reads and writes, by size; past MAX_SIZES distinct sizes, power-of-two groups."""
    sizes = records.size_bytes
    distinct = np.unique(sizes)
    grouped = 0
    if distinct.size > MAX_SIZES:
        grouped = int(distinct.size)
        sizes = np.left_shift(1, np.ceil(np.log2(np.maximum(sizes, 1))).astype(np.int64))
    out = []
    for size in np.unique(sizes).tolist():
        same = sizes == size
        out.append(SizeCount(size_bytes=int(size), reads=int((same & ~records.is_write).sum()),
                             writes=int((same & records.is_write).sum())))
    return out, grouped


def peak_in_flight(records: TraceRecords) -> int | None:
    """Most I/Os outstanding at once, from each recorded I/O's issue and completion."""
    known = records.latency_ns >= 0
    if not records.timed or not bool(known.any()):
        return None
    starts = records.time_ns[known]
    events = np.concatenate([np.stack([starts, np.ones_like(starts)], axis=1),
                             np.stack([starts + records.latency_ns[known], -np.ones_like(starts)], axis=1)])
    events = events[np.lexsort((events[:, 1], events[:, 0]))]  # at one instant a completion before an issue
    return int(np.cumsum(events[:, 1]).max())


def _streams(records: TraceRecords) -> list[TraceStream]:
    counts = np.bincount(records.stream, minlength=len(records.streams))
    return [TraceStream(host=s.host, disk=s.disk, io_count=int(counts[i])) for i, s in enumerate(records.streams)
            if counts[i]]
