"""The worker processes of one measurement: started, released together, stopped, reaped.

Linux uses the ``forkserver`` start method (a clean single-threaded parent to fork from, fast
after the first time, safe inside a threaded engine); macOS, Windows and frozen builds use
``spawn``. Every
process started here is ended here, by its own handle, and never left running.
"""

from __future__ import annotations

import multiprocessing
import platform
import sys
import time
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from ssdprof.portable.messages import WorkerSpec
from ssdprof.portable.worker import run_worker

__all__ = ["WorkerPool", "default_start_method"]

_JOIN_GRACE_S = 5.0


def default_start_method(system: str | None = None, *, frozen: bool | None = None) -> str:
    """forkserver on Linux; spawn elsewhere, and in a frozen (PyInstaller) engine, whose
    ``multiprocessing.freeze_support()`` is made for spawn."""
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    return "forkserver" if (system or platform.system()) == "Linux" and not frozen else "spawn"


class WorkerPool:
    def __init__(self, specs: list[WorkerSpec], start_method: str):
        self._context: Any = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            # Workers need only this module; the default would re-import the caller's __main__.
            self._context.set_forkserver_preload(["ssdprof.portable.worker"])
        self._go = self._context.Event()
        self._start_ns = self._context.RawValue("q", 0)
        self._stop = self._context.RawValue("b", 0)
        self._specs = specs
        self._processes: list[BaseProcess] = []
        self._connections: dict[Connection, BaseProcess] = {}
        self.closed_pipes = 0
        """Workers whose pipe has closed: finished, or died before finishing."""

    def start(self) -> None:
        for spec in self._specs:
            receiver, sender = self._context.Pipe(duplex=False)
            process = self._context.Process(target=run_worker, name=f"ssdprof-portable-{spec.worker_id}", daemon=True,
                                            args=(spec, sender, self._go, self._start_ns, self._stop))
            process.start()
            sender.close()  # the worker holds the only write end: EOF tells us it has gone
            self._processes.append(process)
            self._connections[receiver] = process

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._processes if p.pid is not None]

    @property
    def running(self) -> bool:
        """True while some worker still has its pipe open."""
        return bool(self._connections)

    def receive(self, timeout_s: float) -> list[object]:
        """Messages that arrive within ``timeout_s`` (all of those already waiting)."""
        messages: list[object] = []
        for ready in wait(list(self._connections), timeout_s):
            connection = ready if isinstance(ready, Connection) else None
            if connection is None:
                continue
            try:
                while connection.poll():
                    messages.append(connection.recv())
            except (EOFError, OSError):
                self._connections.pop(connection, None)
                connection.close()
                self.closed_pipes += 1
        return messages

    def release(self) -> int:
        """Set the common start time and let every lane go; returns the start (perf_counter_ns)."""
        start_ns = time.perf_counter_ns()
        self._start_ns.value = start_ns
        self._go.set()
        return start_ns

    def stop(self) -> None:
        """Ask every lane to finish at its next checkpoint (within ~0.1 s of its current I/O)."""
        self._stop.value = 1
        self._go.set()

    def close(self) -> None:
        """Reap every worker: wait briefly, then terminate, then kill the ones still there.

        Their pipes are drained meanwhile: a worker blocked writing to a full pipe would
        otherwise never get to exit."""
        self.stop()
        deadline = time.monotonic() + _JOIN_GRACE_S
        while self._connections and time.monotonic() < deadline:
            self.receive(0.05)
        for process in self._processes:
            process.join(max(deadline - time.monotonic(), 0.0))
        for process in self._processes:
            if process.is_alive():
                process.terminate()
                process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join(1.0)
        for connection in self._connections:
            connection.close()
        self._connections.clear()
        for process in self._processes:
            if not process.is_alive():  # one stuck in an uninterruptible I/O is reaped when it returns
                process.close()
