"""What worker processes tell the engine, over one pipe per worker (pickled dataclasses).

Order per lane: :class:`LaneReady` once its file and buffers are set up, a :class:`Chunk`
per checkpoint, then :class:`LaneDone`; per worker a final :class:`WorkerDone`. A lane that
cannot start sends :class:`LaneDone` with ``error`` set.
"""

from __future__ import annotations

from dataclasses import dataclass

from ssdprof.portable.lanes import LaneSpec

__all__ = ["Chunk", "LaneDone", "LaneReady", "Schedule", "WorkerDone", "WorkerSpec"]


@dataclass(frozen=True)
class Schedule:
    """Times relative to the common start: I/O completing before ``ramp_ns`` is not counted."""

    ramp_ns: int
    runtime_ns: int
    checkpoint_ns: int = 100_000_000
    """How often a lane checks for cancel (and so how promptly it stops)."""
    handover_ns: int = 1_000_000_000
    """How often a lane sends its latencies (a multiple of ``checkpoint_ns``): the progress interval."""
    rate_iops_per_lane: float = 0.0
    """An offered load (Poisson arrivals) per lane; a worker's queue paces its lanes' share. 0: keep the queue full."""

    @property
    def duration_ns(self) -> int:
        return self.ramp_ns + self.runtime_ns


@dataclass(frozen=True)
class WorkerSpec:
    worker_id: int
    path: str
    direct: bool
    writes: bool
    system: str
    lanes: tuple[LaneSpec, ...]
    schedule: Schedule
    parent_pid: int
    backend: str = "sync"
    """``sync``: a thread per lane; otherwise the asynchronous interface that runs all lanes as one queue."""


@dataclass(frozen=True)
class LaneReady:
    lane_id: int


@dataclass(frozen=True)
class Chunk:
    """Raw completion latencies a lane collected since its last checkpoint.

    The engine does the binning, so worker processes spend no time (and hold no GIL) on it.
    Latencies are native int64 nanoseconds; the first ``read_ramp``/``write_ramp`` of them
    completed during the ramp and are not part of the measurement.
    """

    lane_id: int
    upto_ns: int
    """The checkpoint this chunk ends at, in ns after the start (on the checkpoint grid)."""
    read_ns: bytes
    write_ns: bytes
    read_ramp: int = 0
    write_ramp: int = 0


@dataclass(frozen=True)
class LaneDone:
    lane_id: int
    measured_ns: int = 0
    """From the end of the ramp to this lane's last completion."""
    error: str | None = None


@dataclass(frozen=True)
class WorkerDone:
    worker_id: int
    cpu_s: float
    """CPU time (user + system, all threads) the worker used from the start to its end."""
    waited_s: float | None = None
    """How long its asynchronous queue's thread was blocked waiting for completions; None where it did not keep
    the queue full (the synchronous path, or a paced queue, which waits for its arrivals by design)."""
