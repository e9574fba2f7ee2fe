"""How many worker processes an asynchronous queue needs: one, unless one core cannot keep it full.

One thread keeps a whole queue in flight, so a second process only helps when that thread
is the bottleneck: a RAM-speed target, or a device faster than Python's ~2 µs of work per
I/O. A short probe answers it on the real target before the measurement: the queue runs for
``PROBE_NS`` in the engine's own process, and the share of the time its thread spent blocked
waiting for completions says who set the pace. A thread that seldom waits found completions
already there each time it looked: the device was ahead of it (whether the thread was busy,
or waiting for a core the machine's other work held). Its CPU use is recorded beside.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ssdprof.model.results import ValidityWarning
from ssdprof.portable import aio
from ssdprof.portable.aio import AsyncQueue
from ssdprof.portable.lanes import LaneSpec
from ssdprof.portable.messages import Schedule
from ssdprof.portable.proof import disk_of
from ssdprof.portable.queued import QueuedLanes

__all__ = ["PROBE_NS", "WAITING_SHARE_MIN", "ProbeShares", "QueueSizing", "hardware_queues", "probe_queue", "queue_bound_warnings",
           "size_queue"]

PROBE_NS = 200_000_000
WAITING_SHARE_MIN = 0.25
"""A probe thread waiting for the device less than this share of the time was the bottleneck.
Measured on this project's 2-core VM, whose other work makes it vary: 0.4-0.6 for its virtual
disk at QD8-32, but 0.1 at QD2, where each submission holds the core while the hypervisor
takes it; 0.07-0.4 for a RAM-backed file at QD32."""


@dataclass(frozen=True)
class ProbeShares:
    busy: float
    """CPU time (user + system) / wall time of the thread keeping the queue full."""
    user: float
    """Its user (Python) part."""
    waiting: float
    """Time blocked waiting for completions / wall time."""


@dataclass(frozen=True)
class QueueSizing:
    workers: int
    probe: ProbeShares | None = None
    hardware_queues: int | None = None
    """The disk's submission queues (blk-mq hardware contexts) when they capped the workers."""

    @property
    def note(self) -> str:
        if self.probe is None:
            return f"{self.workers} worker process(es)"
        if self.probe.waiting >= WAITING_SHARE_MIN:
            verdict = "one core kept the queue full"
        elif self.hardware_queues is not None:
            verdict = (f"one core could not keep the queue full, but the disk has {self.hardware_queues} hardware "
                       "queue(s): more submitters would contend for them")
        else:
            verdict = "one core could not keep the queue full"
        return (f"{self.workers} worker process(es): {verdict} (probe: waited for the device "
                f"{self.probe.waiting * 100:.0f} % of the time; {self.probe.busy:.2f} core busy, {self.probe.user:.2f} in Python)")


def _thread_cpu_s() -> tuple[float, float]:
    """(user + system, user) CPU seconds of the calling thread; both the total where the split is unknown."""
    try:
        import resource

        usage = resource.getrusage(resource.RUSAGE_THREAD)  # type: ignore[attr-defined,unused-ignore]
    except (ImportError, AttributeError, OSError):
        total = time.thread_time()
        return total, total
    return usage.ru_utime + usage.ru_stime, usage.ru_utime


def probe_queue(lanes: tuple[LaneSpec, ...], backend: str, path: Path, *, direct: bool, writes: bool,
                system: str) -> ProbeShares | None:
    """How much of a core one thread needs to keep ``lanes`` in flight on ``path``; None if it failed."""

    def open_queue(length_bytes: int, read_addresses: list[int], memory: tuple[int, int]) -> AsyncQueue:
        return aio.open_queue(backend, path, direct=direct, write=writes, system=system, length_bytes=length_bytes,
                              read_addresses=read_addresses, memory=memory)

    try:
        queue = QueuedLanes(lanes, open_queue, Schedule(ramp_ns=0, runtime_ns=PROBE_NS, checkpoint_ns=PROBE_NS // 4),
                            writes=writes, send=lambda message: None, stopped=lambda: False)
        (busy_before, user_before), wall_before = _thread_cpu_s(), time.perf_counter()
        done = queue.run(time.perf_counter_ns())
        (busy_after, user_after), wall_s = _thread_cpu_s(), time.perf_counter() - wall_before
    except OSError:
        return None  # the measurement itself will meet the problem and report it
    if any(d.error for d in done) or wall_s <= 0:
        return None
    return ProbeShares(busy=(busy_after - busy_before) / wall_s, user=(user_after - user_before) / wall_s,
                       waiting=queue.waited_ns / 1e9 / wall_s)


def size_queue(probe: ProbeShares | None, *, outstanding_ios: int, cores: int, hardware_queues: int | None = None) -> QueueSizing:
    """One process, or one per core (at most one per outstanding I/O, and for direct I/O at most one per hardware queue of
    the disk) when the probe's thread was the bottleneck.

    A disk with fewer submission queues than cores makes its submitters take turns: on this project's virtual disk (one
    queue for both CPUs, each submission an exit to the hypervisor) two processes measured worse than one, 4 KiB random
    reads: QD2 38k against 56k IOPS, QD4 58k against 74k (p99 250 against 72 us), QD8 82k against 78k."""
    if probe is None or probe.waiting >= WAITING_SHARE_MIN:
        return QueueSizing(1, probe)
    workers = max(1, min(cores, outstanding_ios))
    if hardware_queues is not None and hardware_queues < workers:
        return QueueSizing(max(1, hardware_queues), probe, hardware_queues)
    return QueueSizing(workers, probe)


def queue_bound_warnings(waited_s: dict[int, float], wall_s: float) -> list[ValidityWarning]:
    """A warning when every worker's queue thread, not the device, set the pace of the measurement.

    The probe's rule, applied to the run itself: a thread that waited for the device less than
    :data:`WAITING_SHARE_MIN` of the time found completions already there whenever it looked. More processes
    would not help where the disk's hardware queues capped them (:class:`QueueSizing`), and a busy machine can
    starve the thread too; either way the device was ahead of the engine, so it may deliver more than measured,
    and a completion may have waited for the thread before it was reaped (which adds to its latency)."""
    if not waited_s or wall_s <= 0:
        return []
    share = max(waited_s.values()) / wall_s
    if share >= WAITING_SHARE_MIN:
        return []
    return [ValidityWarning(
        code="engine_queue_bound", concerns=["read.iops", "write.iops", "read.lat_ns", "write.lat_ns"],
        message=f"the portable engine's queue thread waited for the device only {share * 100:.0f} % of the run: completions "
                "were ready whenever it looked, so the device may deliver more IOPS and shorter latencies than measured "
                "here; compare with fio on the same target")]


def hardware_queues(path: Path, system: str) -> int | None:
    """How many blk-mq hardware queues the disk holding ``path`` has (Linux), or None where unknown."""
    disk = disk_of(path, system)
    if disk is None:
        return None
    try:
        return sum(1 for entry in Path(f"/sys/block/{disk}/mq").iterdir() if entry.name.isdigit()) or None
    except OSError:
        return None
