"""A worker process: its lanes run as one asynchronous queue (or as threads on the synchronous
path), released together by the engine's start signal.

Start-up (importing, opening files, allocating and filling buffers) happens before the start
signal, so it is never measured: each lane reports :class:`LaneReady` and waits; the engine
sets the common start time and releases every lane at once (a barrier across processes). The
entry point takes only picklable arguments and imports no pydantic, so it starts quickly with
the ``spawn`` method that macOS and Windows use.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psutil

from ssdprof.portable import aio
from ssdprof.portable.aio import SYNC, AsyncQueue
from ssdprof.portable.directio import open_io_file
from ssdprof.portable.lane import Lane
from ssdprof.portable.lanes import LaneSpec
from ssdprof.portable.messages import LaneDone, LaneReady, WorkerDone, WorkerSpec
from ssdprof.portable.pacing import PacedLanes
from ssdprof.portable.queued import QueuedLanes

__all__ = ["run_worker"]

_PARENT_CHECK_S = 1.0


def run_worker(spec: WorkerSpec, connection: Connection, go: Any, start_ns: Any, stop: Any) -> None:
    """Process entry. ``go`` is an Event, ``start_ns`` and ``stop`` shared ctypes values."""
    # Ctrl-C reaches the whole process group; the engine stops the workers itself, cleanly.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lock = threading.Lock()

    def send(message: object) -> None:
        with lock:
            connection.send(message)

    def stopped() -> bool:
        return bool(stop.value)

    common = {"send": send, "stopped": stopped, "go": go, "start_ns": start_ns}
    waited_s: list[float] = []
    if spec.backend == SYNC:
        threads = [threading.Thread(target=_lane_main, args=(spec, lane), daemon=True, kwargs=common) for lane in spec.lanes]
    else:
        threads = [threading.Thread(target=_queue_main, args=(spec, waited_s), daemon=True, kwargs=common)]
    for thread in threads:
        thread.start()
    cpu_at_start = time.process_time()
    if _wait_for_start(go, spec.parent_pid):
        cpu_at_start = time.process_time()
    for thread in threads:
        thread.join()
    with contextlib.suppress(OSError):  # the engine is gone; nothing left to tell
        send(WorkerDone(spec.worker_id, time.process_time() - cpu_at_start, waited_s[0] if waited_s else None))
    connection.close()


def _lane_main(spec: WorkerSpec, lane_spec: LaneSpec, *, send: Callable[[object], None], stopped: Callable[[], bool],
               go: Any, start_ns: Any) -> None:
    try:
        io = open_io_file(Path(spec.path), direct=spec.direct, write=spec.writes, system=spec.system)
    except OSError as exc:
        send(LaneDone(lane_id=lane_spec.lane_id, error=f"cannot open {spec.path}: {exc.strerror or exc}"))
        return
    try:
        lane = Lane(lane_spec, io, spec.schedule, writes=spec.writes, send=send, stopped=stopped)
        send(LaneReady(lane_spec.lane_id))
        if not _wait_for_start(go, spec.parent_pid) or stopped():
            return
        send(lane.run(int(start_ns.value)))
    except (OSError, EOFError):
        return  # the pipe to the engine broke: it was cancelled or died
    finally:
        io.close()


def _queue_main(spec: WorkerSpec, waited_s: list[float], *, send: Callable[[object], None], stopped: Callable[[], bool],
                go: Any, start_ns: Any) -> None:
    """All of this worker's lanes as the slots of one asynchronous queue, in this one thread; a queue kept full
    appends to ``waited_s`` how long the thread waited for completions."""

    def open_queue(length_bytes: int, read_addresses: list[int], memory: tuple[int, int]) -> AsyncQueue:
        return aio.open_queue(spec.backend, Path(spec.path), direct=spec.direct, write=spec.writes, system=spec.system,
                              length_bytes=length_bytes, read_addresses=read_addresses, memory=memory)

    try:
        kind = PacedLanes if spec.schedule.rate_iops_per_lane else QueuedLanes
        lanes = kind(spec.lanes, open_queue, spec.schedule, writes=spec.writes, send=send, stopped=stopped)
    except OSError as exc:
        for lane in spec.lanes:
            send(LaneDone(lane_id=lane.lane_id, error=f"cannot start {spec.backend} on {spec.path}: {exc.strerror or exc}"))
        return
    try:
        for lane in spec.lanes:
            send(LaneReady(lane.lane_id))
        if not _wait_for_start(go, spec.parent_pid) or stopped():
            lanes.close()
            return
        finished = lanes.run(int(start_ns.value))
        if kind is QueuedLanes:
            waited_s.append(lanes.waited_ns / 1e9)
        for done in finished:
            send(done)
    except (OSError, EOFError):
        return  # the pipe to the engine broke: it was cancelled or died


def _wait_for_start(go: Any, parent_pid: int) -> bool:
    """Wait for the start signal; False if the engine process went away meanwhile.

    (Not os.getppid(): under forkserver the parent is the fork server, not the engine.)"""
    while not go.wait(_PARENT_CHECK_S):
        if not psutil.pid_exists(parent_pid):
            return False
    return True
