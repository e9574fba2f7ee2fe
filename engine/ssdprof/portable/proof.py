"""Proof, not trust: did the bytes reach the device, and was the engine itself the bottleneck?

The operating system counts the bytes each disk transferred (psutil's per-disk counters).
If fewer than 90 % of the bytes the engine issued show up there, a cache answered. When the
disk holding the target cannot be named (outside Linux the mapping is not simple), the sum
over all disks is used: it can only over-count, so a warning is never raised wrongly.
The engine's own CPU use (all worker processes and threads) above ~70 % of the machine's
cores means the result may be engine-bound rather than device-bound.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass
from pathlib import Path

import psutil

from ssdprof.model.results import Severity, ValidityWarning
from ssdprof.target.environment import disk_node

__all__ = [
    "DEVICE_SHARE_MIN",
    "ENGINE_CPU_MAX",
    "DeviceProof",
    "DiskBytes",
    "cache_warnings",
    "cpu_warnings",
    "disk_of",
    "read_disk_bytes",
]

DEVICE_SHARE_MIN = 0.90
ENGINE_CPU_MAX = 0.70
_SMALLEST_CHECKED_BYTES = 4 << 20
"""Below this, the device counters' background noise (journal, other processes) dominates."""


@dataclass(frozen=True)
class DiskBytes:
    read_bytes: int
    write_bytes: int
    source: str
    """The disk counted (e.g. ``nvme0n1``), or ``all disks``."""


def disk_of(path: Path, system: str | None = None) -> str | None:
    """The block device holding ``path`` as psutil names it (a partition's whole disk; a
    device-mapper or md device itself, since its counters see all of its I/O), where known."""
    if (system or platform.system()) != "Linux":
        return None
    node = disk_node(path)
    return node.name if node else None


def read_disk_bytes(disk: str | None) -> DiskBytes | None:
    """The disk's cumulative byte counters now (all disks when ``disk`` is unknown or absent)."""
    try:
        per_disk = psutil.disk_io_counters(perdisk=True, nowrap=True) or {}
        if disk and disk in per_disk:
            counters = per_disk[disk]
            return DiskBytes(counters.read_bytes, counters.write_bytes, disk)
        total = psutil.disk_io_counters(perdisk=False, nowrap=True)
    except (OSError, RuntimeError):
        return None  # e.g. containers without /proc/diskstats
    return DiskBytes(total.read_bytes, total.write_bytes, "all disks") if total else None


class DeviceProof:
    """Snapshots a disk's byte counters around a run and judges how much of the I/O reached it."""

    def __init__(self, disk: str | None):
        self.disk = disk
        self._before: DiskBytes | None = None

    def start(self) -> None:
        self._before = read_disk_bytes(self.disk)

    def finish(self, *, issued_read_bytes: int, issued_write_bytes: int) -> list[ValidityWarning]:
        return cache_warnings(self._before, read_disk_bytes(self.disk), issued_read_bytes=issued_read_bytes,
                              issued_write_bytes=issued_write_bytes)


def cache_warnings(before: DiskBytes | None, after: DiskBytes | None, *, issued_read_bytes: int,
                   issued_write_bytes: int) -> list[ValidityWarning]:
    """A warning per direction where less than 90 % of what was issued reached the device."""
    if before is None or after is None:
        return [ValidityWarning(code="device_counters_unavailable", severity=Severity.INFO, message=(
            "the operating system's disk counters could not be read, so it is not proven that the I/O reached the device"))]
    warnings = []
    for name, issued, moved in (("read", issued_read_bytes, after.read_bytes - before.read_bytes),
                                ("write", issued_write_bytes, after.write_bytes - before.write_bytes)):
        if issued < _SMALLEST_CHECKED_BYTES:
            continue
        share = moved / issued
        if share < DEVICE_SHARE_MIN:
            warnings.append(ValidityWarning(
                code="cache_answered", concerns=[f"{name}.iops", f"{name}.lat_ns"],
                message=f"only {share * 100:.0f} % of the {issued / 1e6:.0f} MB the engine {_verb(name)} reached {after.source} "
                        f"(its own counters say {max(moved, 0) / 1e6:.0f} MB): a cache answered, not the device"))
    return warnings


def cpu_warnings(engine_cpu_s: float, wall_s: float, cpu_count: int) -> list[ValidityWarning]:
    """A warning when the engine kept more than ~70 % of all cores busy."""
    if wall_s <= 0 or cpu_count <= 0:
        return []
    share = engine_cpu_s / (wall_s * cpu_count)
    if share <= ENGINE_CPU_MAX:
        return []
    return [ValidityWarning(
        code="engine_cpu_bound", concerns=["read.iops", "write.iops", "read.lat_ns", "write.lat_ns"],
        message=f"the portable engine kept {share * 100:.0f} % of the {cpu_count} CPU cores busy: the result may show the "
                "engine's limit rather than the device's; compare with fewer jobs, a lower queue depth, or fio")]


def _verb(direction: str) -> str:
    return "read" if direction == "read" else "wrote"
