"""Live progress from fio's ``--status-interval`` output.

fio prints a complete cumulative JSON document every interval; the difference between two
consecutive documents is what happened in that second (I/O counts, bytes, and histogram bins,
so per-second percentiles are exact too). Latency is total latency (``lat_ns``), as everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, NamedTuple

from ssdprof.fio.output import FioOutputError, combine, parse_document
from ssdprof.model import histogram
from ssdprof.model.results import DirectionStats, ProgressSample

__all__ = ["DocumentStream", "ProgressTracker"]


class DocumentStream:
    """Splits fio's stdout, fed line by line, into JSON documents as each one closes."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._pending: list[str] = []

    def feed(self, line: str) -> Iterator[dict[str, Any]]:
        self._lines.append(line)
        if not self._pending and not line.startswith("{"):
            return
        self._pending.append(line)
        if line.rstrip("\r\n") != "}":
            return
        try:
            document = json.loads("".join(self._pending))
        except json.JSONDecodeError:
            return  # a nested '}' at column 0 would be unusual; keep collecting
        self._pending = []
        if isinstance(document, dict):
            yield document

    @property
    def text(self) -> str:
        return "".join(self._lines)


class ProgressTracker:
    """Turns cumulative documents into per-interval samples for every host in them."""

    def __init__(self, ramp_s: float = 0.0) -> None:
        self._ramp_s = ramp_s
        self._previous: dict[str, tuple[float, DirectionStats, DirectionStats]] = {}
        self._first_timestamp_ms: int | None = None

    def update(self, document: dict[str, Any]) -> list[ProgressSample]:
        try:
            report = parse_document(document)
        except FioOutputError:
            return []
        timestamp_ms = report.timestamp_ms or 0
        if self._first_timestamp_ms is None:
            self._first_timestamp_ms = timestamp_ms - 1000
        elapsed_s = (timestamp_ms - self._first_timestamp_ms) / 1000
        samples = []
        for host in report.hosts:
            jobs = [j for j in report.jobs if j.host == host]
            read = combine(j.read for j in jobs)
            write = combine(j.write for j in jobs)
            sample = self._delta(host, elapsed_s, read, write)
            if sample is not None:
                samples.append(sample)
        return samples

    def _delta(self, host: str, elapsed_s: float, read: DirectionStats, write: DirectionStats) -> ProgressSample | None:
        before = self._previous.get(host)
        self._previous[host] = (elapsed_s, read, write)
        start_s, read0, write0 = before if before else (elapsed_s - 1.0, DirectionStats(), DirectionStats())
        interval_s = elapsed_s - start_s
        if before is None:
            # the first document's counts cover fio's I/O time, not the whole second: the job's
            # start (file open, layout) takes part of it, and dividing by the second read 10 %
            # low (a 1 s point drawn at 18k IOPS beside its 20k); a job over within it (a 32 MiB
            # write in 30 ms) is all its I/O time: over the second it read 33.5 MB/s for 1,118 MB/s
            io_s = max(read.runtime_ms, write.runtime_ms) / 1000
            interval_s = io_s if 0 < io_s < interval_s else interval_s
        elif interval_s < 0.25:
            return None  # the final report right after the last status document, or one at the same instant
        ramping = elapsed_s <= self._ramp_s + 0.5
        # fio resets its counters when the ramp ends: they then cover only the time since. A reset
        # shows as counts going down or, when the drive is fast enough to pass the old counts
        # within the interval, as I/O time growing by far less than the wall-clock interval.
        io_time_grew_ms = max(read.runtime_ms, write.runtime_ms) - max(read0.runtime_ms, write0.runtime_ms)
        if (read.io_count < read0.io_count or write.io_count < write0.io_count
                or (before is not None and self._ramp_s > 0 and io_time_grew_ms < 500 * interval_s)):
            read0, write0 = DirectionStats(), DirectionStats()
            interval_s = max(read.runtime_ms, write.runtime_ms) / 1000
            ramping = True  # this interval straddles the reset; its rate is approximate
            if interval_s <= 0:
                return None  # a document right at the reset (a slow host): nothing measured since it yet
        r = _interval(read, read0, interval_s)
        w = _interval(write, write0, interval_s)
        return ProgressSample(
            elapsed_s=round(elapsed_s, 3), interval_s=round(interval_s, 3), host=host, ramping=ramping,
            read_iops=r.iops, read_bw_bytes_per_s=r.bw, read_lat_ns_mean=r.mean, read_lat_ns_p99=_p99(r.bins),
            write_iops=w.iops, write_bw_bytes_per_s=w.bw, write_lat_ns_mean=w.mean, write_lat_ns_p99=_p99(w.bins),
            lat_ns_mean=_all_mean(r, w), lat_ns_p99=_all_p99(r, w),
        )


class _Interval(NamedTuple):
    iops: float
    bw: float
    mean: float | None
    latencies: int
    bins: dict[int, int]


def _interval(now: DirectionStats, before: DirectionStats, interval_s: float) -> _Interval:
    ios = now.io_count - before.io_count
    io_bytes = now.io_bytes - before.io_bytes
    bins = histogram.subtract(now.lat_bins_ns, before.lat_bins_ns)
    mean = None
    n_now, n_before = now.lat_ns.samples, before.lat_ns.samples
    if n_now > n_before and now.lat_ns.mean is not None:
        total_now = n_now * now.lat_ns.mean
        total_before = n_before * (before.lat_ns.mean or 0.0)
        mean = (total_now - total_before) / (n_now - n_before)
    return _Interval(ios / interval_s, io_bytes / interval_s, mean, max(n_now - n_before, 0), bins)


def _p99(bins: dict[int, int]) -> float | None:
    found = histogram.percentile(bins, histogram.REPORTED_PERCENTILES["p99"]) if bins else None
    return float(found) if found is not None else None


def _all_p99(read: _Interval, write: _Interval) -> float | None:
    """The interval's p99 over reads and writes together, from their merged bins; None where a
    direction that did I/O has none (a percentile of only some of the I/Os would be mislabelled)."""
    parts = [p.bins for p in (read, write) if p.iops > 0]
    return _p99(histogram.merge(parts)) if parts and all(parts) else None


def _all_mean(read: _Interval, write: _Interval) -> float | None:
    """The interval's mean over reads and writes together, weighted by their latency counts."""
    parts = [(p.latencies, p.mean) for p in (read, write) if p.mean is not None and p.latencies]
    total = sum(n for n, _ in parts)
    return sum(n * m for n, m in parts) / total if total else None
