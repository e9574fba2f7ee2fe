"""Which asynchronous I/O interface runs the queue on this OS, and opening one.

Per OS, in order of preference: Linux io_uring, then libaio where io_uring is refused (a
seccomp filter, ``kernel.io_uring_disabled``, a kernel before 5.6); macOS POSIX AIO; Windows
overlapped I/O with a completion port. When none can run, the synchronous path (one thread
per outstanding I/O) runs instead and the result names it and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = ["ASYNC_BACKENDS", "SYNC", "AsyncQueue", "BackendChoice", "backend_label", "choose_backend", "open_queue", "reap_batch",
           "submit_each"]

SYNC = "sync"
ASYNC_BACKENDS = {"Linux": ("io_uring", "libaio"), "Darwin": ("posixaio",), "Windows": ("iocp",)}
"""Preference order per OS; ``posixaio`` also runs on Linux (glibc), which is how CI exercises macOS's path."""


class AsyncQueue(Protocol):
    """``depth`` slots, each with at most one I/O in flight; results are bytes or a negative errno."""

    submitted_ns: list[int]
    """Per slot: ``time.perf_counter_ns()`` read just before its current I/O was submitted."""
    waited_ns: int
    """Time spent blocked waiting for completions, in all: what the device left this thread idle."""
    reap_at_once: int
    """How many completions a wait asks for (:func:`reap_batch`); a paced queue asks for one."""

    @property
    def in_flight(self) -> int: ...

    def queue(self, slot: int, offset: int, *, write_address: int = 0) -> None:
        """Queue the slot's next I/O (a read into its own buffer, or a write from ``write_address``);
        io_uring and libaio submit it at once on a shallow queue (:func:`submit_each`)."""

    def submit_and_reap(self) -> list[tuple[int, int]]:
        """Submit what is queued, wait for at least one completion, return ``(slot, result)`` per reaped I/O."""

    def close(self) -> None: ...


BATCHED_FROM_DEPTH = 16


def reap_batch(depth: int) -> int:
    """How many completions to wait for at once: one, or a quarter of a queue of 16 or more.

    Waking for every completion costs this Python thread ~2.5 µs of its own work per wake-up
    on top of the system calls, and submits each refill on its own (on a virtual disk, one
    notification of the hypervisor each). Measured on this project's virtual disk, 4 KiB random
    reads at QD16 against fio io_uring: waiting for 1 gave 0.63-0.65 x fio's IOPS and 1.45 x its
    p50; for 4, 0.74-0.77 x and 1.24-1.26 x; for 8, 0.83 x and 1.13 x. The device then holds
    between three quarters of the queue and all of it; shallower queues are refilled one by one.

    Re-measured (issue 15, io_uring, 4 rounds alternating with fio, load 1.6-4.4): at QD32 a
    quarter gave 0.96-0.97 x fio's IOPS and p50 1.03 x (quiet) to 1.20 x (loaded); half the queue
    1.06 x and 1.00 x; at QD16 a quarter 0.92 x and 1.27 x, half 0.96 x and 1.18 x. Waiting for 1
    and submitting each I/O as fio does gave p50 0.87-0.94 x but 0.52-0.62 x the IOPS (the thread
    then spends ~12 µs per I/O against fio's ~7). Half was not adopted: this virtual disk
    completes in bursts (its in-flight counter reads 0 at the median and 32 at the third quartile
    under fio and here alike), so it rewards waiting; a device whose IOPS still grow with depth
    would hold only three quarters of the queue on average and report less than it delivers."""
    return max(1, depth // 4) if depth >= BATCHED_FROM_DEPTH else 1


def submit_each(depth: int) -> bool:
    """Whether each I/O is submitted as soon as it is queued (below :data:`BATCHED_FROM_DEPTH`), as fio
    does, rather than all of a wake-up's refills in one call.

    Measured on this project's virtual disk, 4 KiB random reads at QD4 against fio io_uring (load
    1.6-1.8): refills submitted together gave p50 55-61 us where fio had 40-41 us, each on its own
    37-38 us, and 0.75-0.85 x fio's IOPS instead of 0.62-0.83 x. At QD16 and 32 the extra system
    call per I/O (a notification of the hypervisor each) made the thread the bottleneck instead:
    0.65-0.9 x fio's IOPS against 0.8-1.0 x for one submission per reaped batch."""
    return depth < BATCHED_FROM_DEPTH


@dataclass(frozen=True)
class BackendChoice:
    name: str
    refusals: tuple[str, ...] = ()
    """Why each preferred interface could not run, e.g. ``io_uring: io_uring_setup refused: …``."""

    @property
    def note(self) -> str:
        if self.name == SYNC:
            why = "; ".join(self.refusals) or "no asynchronous I/O interface on this OS"
            return f"synchronous calls, one thread per outstanding I/O ({why})"
        return f"{self.name}" + (f" ({'; '.join(self.refusals)})" if self.refusals else "")


def _refusal(name: str) -> str | None:
    if name == "io_uring":
        from ssdprof.portable.uring import uring_refusal

        return uring_refusal()
    if name == "libaio":
        from ssdprof.portable.libaio import libaio_refusal

        return libaio_refusal()
    if name == "posixaio":
        from ssdprof.portable.posixaio import posixaio_refusal

        return posixaio_refusal()
    if name == "iocp":
        from ssdprof.portable.iocp import iocp_refusal

        return iocp_refusal()
    return f"unknown I/O interface {name!r}"


def choose_backend(system: str, requested: str | None = None) -> BackendChoice:
    """The first interface of this OS's preference order (or the one requested) that can run here."""
    if requested == SYNC:
        return BackendChoice(SYNC, ("synchronous calls were asked for",))
    refusals: list[str] = []
    for name in (requested,) if requested else ASYNC_BACKENDS.get(system, ()):
        problem = _refusal(name)
        if problem is None:
            return BackendChoice(name, tuple(refusals))
        refusals.append(f"{name}: {problem}")
    return BackendChoice(SYNC, tuple(refusals))


def backend_label(name: str, system: str, *, direct: bool) -> str:
    """``engine.ioengine`` for an asynchronous interface (the synchronous one is labelled by directio)."""
    calls = {"io_uring": "io_uring", "libaio": "libaio", "posixaio": "aio_read/aio_write",
             "iocp": "ReadFile/WriteFile overlapped+IOCP"}[name]
    if not direct:
        return f"{calls} (buffered)"
    if system == "Windows":
        return f"{calls}+NO_BUFFERING|WRITE_THROUGH"
    return f"{calls}+F_NOCACHE" if system == "Darwin" else f"{calls}+O_DIRECT"


def open_queue(name: str, path: Path, *, direct: bool, write: bool, system: str, length_bytes: int,
               read_addresses: list[int], memory: tuple[int, int] | None = None) -> AsyncQueue:
    """An open queue on ``path`` with one slot per read buffer address; the queue owns the file.

    ``memory`` is ``(address, bytes)`` of one region holding every buffer the queue will see (reads
    and writes), which io_uring registers with the kernel; None where the buffers lie apart."""
    if name == "iocp":
        from ssdprof.portable.iocp import IocpQueue

        return IocpQueue.open(path, direct=direct, write=write, length_bytes=length_bytes, read_addresses=read_addresses)
    from ssdprof.portable.directio import open_io_file

    io = open_io_file(path, direct=direct, write=write, system=system)
    try:
        return _on_descriptor(name, io.descriptor, length_bytes, read_addresses, memory=memory, close_file=io.close)
    except BaseException:
        io.close()
        raise


def _on_descriptor(name: str, descriptor: int, length_bytes: int, read_addresses: list[int], *,
                   memory: tuple[int, int] | None, close_file: Callable[[], None]) -> AsyncQueue:
    depth = len(read_addresses)
    if name == "io_uring":
        from ssdprof.portable.uring import UringQueue

        return UringQueue(descriptor, depth, length_bytes=length_bytes, read_addresses=read_addresses, memory=memory,
                          on_close=close_file)
    if name == "libaio":
        from ssdprof.portable.libaio import LibaioQueue

        return LibaioQueue(descriptor, depth, length_bytes=length_bytes, read_addresses=read_addresses, on_close=close_file)
    if name == "posixaio":
        from ssdprof.portable.posixaio import PosixAioQueue

        return PosixAioQueue(descriptor, depth, length_bytes=length_bytes, read_addresses=read_addresses,
                             on_close=close_file)
    raise ValueError(f"unknown I/O interface {name!r}")
