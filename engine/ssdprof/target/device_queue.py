"""How much of the queue reached the device: the OS's disk counters read around a run.

A run's queue depth is what the engine keeps outstanding. The device sees less of it where I/O
waits in the engine's own thread: stamped but not yet submitted, or completed but not yet
reaped. fio's single thread, busy with system calls at depth, holds a large share there (on this
project's virtual disk, fio io_uring at QD32 kept 7–12 I/Os at the block layer and the rest
completed and waiting for it), and its latency includes that wait.

The disk's counters (Linux: ``/proc/diskstats`` through psutil) sum, over every request, the
time from its arrival at the block layer (the I/O scheduler included) to its completion. By
Little's law the mean number of I/Os the block layer held during the run is the run's IOPS ×
that time per I/O issued, where the I/O issued are the bytes the disk moved ÷ the access size
(an I/O the block layer splits into several requests counts its requests' time in full, as it
holds them all at once). Counted over the whole run, ramp included; other I/O on the same disk
at the same time counts too, so a busy disk reads deeper than the run alone made it.
"""

from __future__ import annotations

from dataclasses import dataclass

import psutil

from ssdprof.model.results import DeviceQueue, DirectionStats, Severity, ValidityWarning

__all__ = ["SHALLOW_SHARE", "DeviceQueueProbe", "DiskTimes", "device_queue", "device_queue_warnings", "parse_diskstats",
           "read_disk_times"]

SHALLOW_SHARE = 0.5
"""Below this share of the requested queue at the device, the run says so."""
_SMALLEST_JUDGED_REQUESTED = 4
_SMALLEST_COUNTED_IOS = 1000
"""Fewer I/O than this and the counters' background (journal, other processes) dominates."""
_SECTOR_BYTES = 512
"""/proc/diskstats counts sectors of 512 bytes whatever the device's block size."""
_SMALLEST_TIMED_MS = 10
"""The counters keep whole milliseconds: a direction with less block-layer time than this gets no per-request time."""


@dataclass(frozen=True)
class DiskTimes:
    """One disk's cumulative counters: completed requests, bytes, and block-layer milliseconds."""

    read_count: int
    write_count: int
    read_bytes: int
    write_bytes: int
    read_ms: int
    write_ms: int
    busy_ms: int = 0
    """Time with at least one request in flight (io_ticks): the disk's utilisation over a span."""


def read_disk_times(disk: str) -> DiskTimes | None:
    """The disk's counters now, or None where the OS does not count that disk (or at all)."""
    try:
        counters = (psutil.disk_io_counters(perdisk=True, nowrap=True) or {}).get(disk)
    except (OSError, RuntimeError):
        return None  # e.g. containers without /proc/diskstats
    if counters is None:
        return None
    return DiskTimes(counters.read_count, counters.write_count, counters.read_bytes, counters.write_bytes,
                     counters.read_time, counters.write_time, getattr(counters, "busy_time", 0))


def parse_diskstats(text: str) -> dict[tuple[int, int], tuple[str, DiskTimes]]:
    """Linux's /proc/diskstats (lines, or a host's lines joined by ';') by (major, minor): name and counters.

    Fields after major, minor and name: reads, merged, sectors read, ms reading, writes, merged, sectors
    written, ms writing, in flight, ms doing I/O, … (Documentation/admin-guide/iostats.rst); partitions have the
    same fields."""
    found = {}
    for line in text.replace(";", "\n").splitlines():
        fields = line.split()
        if len(fields) < 14 or not all(f.isdigit() for f in fields[:2] + fields[3:14]):
            continue
        major, minor, name, *counts = fields[:14]
        n = [int(v) for v in counts]
        found[int(major), int(minor)] = (name, DiskTimes(read_count=n[0], write_count=n[4], read_bytes=n[2] * _SECTOR_BYTES,
                                                         write_bytes=n[6] * _SECTOR_BYTES, read_ms=n[3], write_ms=n[7],
                                                         busy_ms=n[9]))
    return found


def device_queue(disk: str, before: DiskTimes, after: DiskTimes, *, read: DirectionStats, write: DirectionStats,
                 block_size_bytes: int, requested_outstanding: int, span_s: float | None = None) -> DeviceQueue | None:
    """The device's side of a run from its counters before and after (``span_s`` apart, where timed: its
    utilisation); None when too little was counted."""
    issued = ((after.read_bytes - before.read_bytes) + (after.write_bytes - before.write_bytes)) / block_size_bytes
    block_ms = (after.read_ms - before.read_ms) + (after.write_ms - before.write_ms)
    reads, writes = after.read_count - before.read_count, after.write_count - before.write_count
    if issued < _SMALLEST_COUNTED_IOS or block_ms < 0 or reads < 0 or writes < 0:
        return None
    return DeviceQueue(
        disk=disk, requested_outstanding=requested_outstanding,
        mean_in_flight=(read.iops + write.iops) * block_ms / 1e3 / issued,
        read_request_lat_ns_mean=_per_request(read, after.read_ms - before.read_ms, reads),
        write_request_lat_ns_mean=_per_request(write, after.write_ms - before.write_ms, writes),
        requests=reads + writes, busy_pct=_busy_pct(after.busy_ms - before.busy_ms, span_s))


def _busy_pct(busy_ms: int, span_s: float | None) -> float | None:
    if not span_s or span_s <= 0 or busy_ms <= 0:
        return None
    return min(100.0, busy_ms / 10 / span_s)  # the kernel's ticks and the clock read apart can exceed 100 by a hair


def _per_request(stats: DirectionStats, block_ms: int, requests: int) -> float | None:
    """Block-layer time per request in a direction the run did (not the journal's writes under a read run)."""
    if not stats.io_count or requests <= 0 or block_ms < _SMALLEST_TIMED_MS:
        return None
    return block_ms * 1e6 / requests


def device_queue_warnings(queue: DeviceQueue | None) -> list[ValidityWarning]:
    """A note when the device held under half of the queue the engine kept outstanding."""
    if queue is None or queue.requested_outstanding < _SMALLEST_JUDGED_REQUESTED:
        return []
    if queue.mean_in_flight >= SHALLOW_SHARE * queue.requested_outstanding:
        return []
    per_request = [f"{lat / 1e3:.0f} µs per {name}" for name, lat in
                   (("read", queue.read_request_lat_ns_mean), ("write", queue.write_request_lat_ns_mean)) if lat is not None]
    block = f"; block layer {', '.join(per_request)} request" if per_request else ""
    return [ValidityWarning(
        code="device_queue_shallow", severity=Severity.INFO,
        message=f"the device held {queue.mean_in_flight:.1f} of the {queue.requested_outstanding} I/Os kept outstanding "
                f"on average ({queue.disk}'s counters{block}): the rest waited in the engine's own thread, not yet "
                "submitted or completed and not yet reaped, so the latency includes that wait and the device was "
                f"driven at a queue of about {queue.mean_in_flight:.0f}")]


class DeviceQueueProbe:
    """Reads a disk's counters when started and judges the run when finished; its utilisation is over
    the point's ``duration_s`` (ramp and runtime), not the wall time around the engine's start and
    exit, when the disk idles."""

    def __init__(self, disk: str, *, block_size_bytes: int, requested_outstanding: int,
                 duration_s: float | None = None):
        self.disk = disk
        self._block_size_bytes = block_size_bytes
        self._requested = requested_outstanding
        self._before: DiskTimes | None = None
        self._span_s = duration_s

    def start(self) -> None:
        self._before = read_disk_times(self.disk)

    def finish(self, read: DirectionStats, write: DirectionStats) -> DeviceQueue | None:
        after = read_disk_times(self.disk)
        if self._before is None or after is None:
            return None
        return device_queue(self.disk, self._before, after, read=read, write=write,
                            block_size_bytes=self._block_size_bytes, requested_outstanding=self._requested,
                            span_s=self._span_s)
