"""POSIX AIO (aio_read/aio_write/aio_suspend/aio_error/aio_return) through ctypes: macOS's queue.

The same code runs on Linux through glibc, which is how CI exercises the macOS path. Each slot
owns one ``struct aiocb`` whose descriptor, length, buffer and notification (none) are written
once; queuing an I/O stores its offset (and a write's buffer). Each slot has its own
descriptor (``dup``): glibc serves the requests of one descriptor one at a time, in one helper
thread, which would make every queue depth 1; the kernel's AIO on macOS does not mind.

macOS caps outstanding AIO per process (``kern.aioprocmax``, 16 by default) and in total
(``kern.aiomax``, 90): the engine keeps each worker's queue within the per-process cap, and
a refusal (EAGAIN) says how an administrator raises the limits; they are never raised here.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter_ns
from typing import Any

__all__ = ["DARWIN", "GLIBC", "AiocbLayout", "PosixAioQueue", "aiocb_layout", "posixaio_refusal", "slots_per_process"]

DARWIN_AIO_PER_PROCESS = 16
"""macOS's default ``kern.aioprocmax``."""


@dataclass(frozen=True)
class AiocbLayout:
    """Where ``struct aiocb``'s fields sit (bytes), and the OS's constants that go with it."""

    size: int
    fildes: int
    offset: int
    buf: int
    nbytes: int
    lio_opcode: int
    sigev_notify: int
    sigev_none: int
    einprogress: int


GLIBC = AiocbLayout(size=168, fildes=0, offset=128, buf=16, nbytes=24, lio_opcode=4, sigev_notify=44, sigev_none=1,
                    einprogress=115)
"""glibc on 64-bit Linux (checked against <aio.h> with offsetof)."""
DARWIN = AiocbLayout(size=80, fildes=0, offset=8, buf=16, nbytes=24, lio_opcode=72, sigev_notify=40, sigev_none=0,
                     einprogress=36)
"""macOS <sys/aio.h>: fildes, off_t offset, buf, nbytes, reqprio, struct sigevent (notify first), lio_opcode."""


def aiocb_layout(system: str) -> AiocbLayout:
    return DARWIN if system == "Darwin" else GLIBC


def slots_per_process(system: str) -> int | None:
    """The most AIO one process may have outstanding by default, where the OS caps it."""
    return DARWIN_AIO_PER_PROCESS if system == "Darwin" else None


def _library() -> Any:
    library = ctypes.CDLL(None, use_errno=True)
    if not hasattr(library, "aio_suspend"):  # glibc before 2.34 keeps POSIX AIO in librt
        library = ctypes.CDLL("librt.so.1", use_errno=True)
    for name in ("aio_read", "aio_write", "aio_error", "aio_return"):
        getattr(library, name).argtypes = [ctypes.c_void_p]
    library.aio_return.restype = ctypes.c_ssize_t
    library.aio_suspend.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    return library


class _GlibcAioInit(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int) for name in ("aio_threads", "aio_num", "aio_locks", "aio_usedba", "aio_debug",
                                                   "aio_numusers", "aio_idle_time", "aio_reserved")]


def _allow_threads(library: Any, depth: int) -> None:
    """glibc serves AIO with at most 20 helper threads by default, which would cap the queue there;
    the setting only counts before the process's first request (threads start on demand)."""
    if hasattr(library, "aio_init"):
        library.aio_init(ctypes.byref(_GlibcAioInit(aio_threads=max(depth, 64), aio_num=max(depth, 64), aio_idle_time=1)))


def posixaio_refusal() -> str | None:
    try:
        _library()
    except (OSError, AttributeError) as exc:
        return f"POSIX AIO is not available: {exc}"
    return None


def _limit_hint(system: str) -> str:
    if system == "Darwin":
        return ("; macOS limits outstanding AIO (kern.aioprocmax, kern.aiomax): an administrator can raise them with "
                "`sudo sysctl -w kern.aiomax=2048 kern.aioprocmax=512 kern.aiothreads=16`, or use a lower queue depth")
    return ""


class PosixAioQueue:
    def __init__(self, descriptor: int, depth: int, *, length_bytes: int, read_addresses: list[int],
                 on_close: Callable[[], None] = lambda: None, system: str | None = None):
        self._system = system or platform.system()
        self._layout = layout = aiocb_layout(self._system)
        self._library = _library()
        self._on_close = on_close
        if self._system != "Darwin":
            _allow_threads(self._library, depth)
        self._descriptors = [os.dup(descriptor) for _ in range(depth)]
        self.submitted_ns = [0] * depth
        self.waited_ns = 0
        self.reap_at_once = 1  # each wait returns at the first completion
        self._blocks = ctypes.create_string_buffer(layout.size * depth)
        base = ctypes.addressof(self._blocks)
        self._addresses = [base + slot * layout.size for slot in range(depth)]
        self._read_addresses = read_addresses
        for slot, address in enumerate(self._addresses):
            ctypes.c_int.from_address(address + layout.fildes).value = self._descriptors[slot]
            ctypes.c_size_t.from_address(address + layout.nbytes).value = length_bytes
            ctypes.c_int.from_address(address + layout.sigev_notify).value = layout.sigev_none
        self._offsets = [ctypes.c_int64.from_address(a + layout.offset) for a in self._addresses]
        self._buffers = [ctypes.c_void_p.from_address(a + layout.buf) for a in self._addresses]
        self._pending = (ctypes.c_void_p * depth)()
        """aio_suspend's list: the slot's aiocb while it is in flight, NULL (ignored) otherwise."""
        self._queued: list[tuple[int, bool]] = []
        self._in_flight: list[int] = []

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    def queue(self, slot: int, offset: int, *, write_address: int = 0) -> None:
        self._offsets[slot].value = offset
        self._buffers[slot].value = write_address or self._read_addresses[slot]
        self._queued.append((slot, bool(write_address)))

    def submit_and_reap(self) -> list[tuple[int, int]]:
        queued, self._queued = self._queued, []
        library, stamps, addresses = self._library, self.submitted_ns, self._addresses
        for slot, write in queued:
            stamps[slot] = perf_counter_ns()
            if (library.aio_write if write else library.aio_read)(addresses[slot]) != 0:
                code = ctypes.get_errno()
                raise OSError(code, f"{'aio_write' if write else 'aio_read'} refused: {os.strerror(code)}"
                                    f"{_limit_hint(self._system) if code == errno.EAGAIN else ''}")
            self._pending[slot] = addresses[slot]
            self._in_flight.append(slot)
        while True:
            done = self._completed()
            if done:
                return done
            began = perf_counter_ns()
            refused = library.aio_suspend(self._pending, len(self._pending), None) != 0
            self.waited_ns += perf_counter_ns() - began
            if refused and ctypes.get_errno() not in (errno.EINTR, errno.EAGAIN):
                code = ctypes.get_errno()
                raise OSError(code, f"aio_suspend failed: {os.strerror(code)}")

    def _completed(self) -> list[tuple[int, int]]:
        library, addresses, einprogress = self._library, self._addresses, self._layout.einprogress
        done, still = [], []
        for slot in self._in_flight:
            status = library.aio_error(addresses[slot])
            if status == einprogress:
                still.append(slot)
                continue
            result = library.aio_return(addresses[slot])  # also frees the kernel's record of the request
            done.append((slot, result if status == 0 else -status))
            self._pending[slot] = None
        self._in_flight = still
        return done

    def close(self) -> None:
        # An aiocb must outlive its request: wait for stragglers before the memory goes.
        while self._in_flight:
            self._library.aio_suspend(self._pending, len(self._pending), None)
            self._completed()
        for descriptor in self._descriptors:
            os.close(descriptor)
        self._on_close()
