"""Linux native AIO through ctypes on libaio.so.1: the fallback where io_uring is refused.

Each slot owns one ``struct iocb`` (linux/aio_abi.h) whose descriptor, buffer, length and
``aio_data`` (the slot) are written once; queuing an I/O stores its offset and opcode (and a
write's buffer address). ``io_submit`` takes the queued iocbs; ``io_getevents`` then waits for
at least one completion and returns up to ``depth`` of them. Like fio's libaio engine, this
needs ``O_DIRECT`` to be asynchronous: buffered I/O completes inside ``io_submit``.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
from collections.abc import Callable
from time import perf_counter_ns
from typing import Any

from ssdprof.portable.aio import reap_batch, submit_each

__all__ = ["IOCB_BYTES", "LibaioQueue", "iocb_bytes", "libaio_refusal"]

IOCB_BYTES = 64
_EVENT_BYTES = 32
_CMD_PREAD, _CMD_PWRITE = 0, 1
# aio_data u64, key u32, rw_flags u32, opcode u16, reqprio i16, fildes u32, buf u64, nbytes u64, offset i64
_IOCB = struct.Struct("<QIIHhIQQq")
_LIBRARY = "libaio.so.1"


def iocb_bytes(*, slot: int, descriptor: int, address: int, length_bytes: int, offset: int, write: bool) -> bytes:
    """One iocb as the kernel reads it (the trailing reserved and flag words stay zero)."""
    head = _IOCB.pack(slot, 0, 0, _CMD_PWRITE if write else _CMD_PREAD, 0, descriptor, address, length_bytes, offset)
    return head.ljust(IOCB_BYTES, b"\0")


def _library() -> Any:
    library = ctypes.CDLL(_LIBRARY, use_errno=True)
    library.io_setup.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
    library.io_destroy.argtypes = [ctypes.c_void_p]
    library.io_submit.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    library.io_getevents.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    return library


def _context(library: Any, depth: int) -> ctypes.c_void_p:
    context = ctypes.c_void_p(0)
    code = library.io_setup(depth, ctypes.byref(context))  # libaio returns -errno rather than setting errno
    if code < 0:
        raise OSError(-code, f"io_setup failed: {os.strerror(-code)} (fs.aio-max-nr may be exhausted)")
    return context


def libaio_refusal() -> str | None:
    """Why libaio cannot run in this process, or None."""
    try:
        library = _library()
        library.io_destroy(_context(library, 1))
    except OSError as exc:
        return str(exc.strerror or exc)
    return None


class LibaioQueue:
    def __init__(self, descriptor: int, depth: int, *, length_bytes: int, read_addresses: list[int],
                 on_close: Callable[[], None] = lambda: None):
        self._library = _library()
        self._context = _context(self._library, depth)
        self._on_close = on_close
        self.submitted_ns = [0] * depth
        self.waited_ns = 0
        self._iocbs = ctypes.create_string_buffer(IOCB_BYTES * depth)
        base = ctypes.addressof(self._iocbs)
        for slot in range(depth):
            ctypes.memmove(base + slot * IOCB_BYTES, iocb_bytes(slot=slot, descriptor=descriptor, address=read_addresses[slot],
                                                                length_bytes=length_bytes, offset=0, write=False), IOCB_BYTES)
        self._read_addresses = read_addresses
        self._words = memoryview(self._iocbs).cast("B").cast("q")
        self._halves = memoryview(self._iocbs).cast("B").cast("H")
        self._addresses = [base + slot * IOCB_BYTES for slot in range(depth)]
        self._pointers = (ctypes.c_void_p * depth)()
        self._queued: list[int] = []
        self._events = ctypes.create_string_buffer(_EVENT_BYTES * depth)
        self._event_words = memoryview(self._events).cast("B").cast("q")
        self._depth = depth
        self.reap_at_once = reap_batch(depth)
        self._submit_each = submit_each(depth)
        self._in_flight = 0

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def queue(self, slot: int, offset: int, *, write_address: int = 0) -> None:
        words = self._words
        words[slot * 8 + 5] = offset
        words[slot * 8 + 3] = write_address or self._read_addresses[slot]
        self._halves[slot * 32 + 8] = _CMD_PWRITE if write_address else _CMD_PREAD
        if self._submit_each:
            self._submit([slot])
        else:
            self._queued.append(slot)

    def submit_and_reap(self) -> list[tuple[int, int]]:
        queued, self._queued = self._queued, []
        if queued:
            self._submit(queued)
        count = -errno.EINTR
        began = perf_counter_ns()
        while count == -errno.EINTR:
            count = self._library.io_getevents(self._context, min(self.reap_at_once, self._in_flight), self._depth, self._events,
                                               None)
        self.waited_ns += perf_counter_ns() - began
        if count < 0:
            raise OSError(-count, f"io_getevents failed: {os.strerror(-count)}")
        words = self._event_words
        self._in_flight -= count
        # io_event: data u64, obj u64, res i64, res2 i64
        return [(words[k * 4], words[k * 4 + 2]) for k in range(count)]

    def _submit(self, queued: list[int]) -> None:
        pointers, addresses = self._pointers, self._addresses
        for index, slot in enumerate(queued):
            pointers[index] = addresses[slot]
        now = perf_counter_ns()
        for slot in queued:
            self.submitted_ns[slot] = now
        done = 0
        while done < len(queued):
            accepted = self._library.io_submit(self._context, len(queued) - done,
                                               ctypes.byref(pointers, done * ctypes.sizeof(ctypes.c_void_p)))
            if accepted in (-errno.EAGAIN, -errno.EINTR):
                continue
            if accepted < 0:
                raise OSError(-accepted, f"io_submit failed: {os.strerror(-accepted)}")
            done += accepted
            self._in_flight += accepted

    def close(self) -> None:
        for view in (self._words, self._halves, self._event_words):
            view.release()
        self._library.io_destroy(self._context)  # waits for what is still in flight
        self._on_close()
