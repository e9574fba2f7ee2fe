"""Windows overlapped I/O with an I/O completion port, through ctypes: Windows's queue.

The test file is opened with ``FILE_FLAG_OVERLAPPED`` (and ``FILE_FLAG_NO_BUFFERING |
FILE_FLAG_WRITE_THROUGH`` for direct I/O) and bound to a completion port. Each slot owns one
``OVERLAPPED`` that carries its offset; ``ReadFile``/``WriteFile`` return at once
(``ERROR_IO_PENDING``) or having finished, and either way the completion is queued to the
port, because ``FILE_SKIP_COMPLETION_PORT_ON_SUCCESS`` is not set. ``GetQueuedCompletionStatusEx``
reaps up to ``depth`` completions per call; each names its ``OVERLAPPED``, hence its slot.

This has not run on Windows here: the calls go through a ``kernel`` object (kernel32 on
Windows), and the tests drive the queue's logic through a stand-in that does real file I/O.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from pathlib import Path
from time import perf_counter_ns
from typing import Any

from ssdprof.portable.winio import Overlapped, create_args, kernel32, offset_words, raise_last_error

__all__ = ["ERROR_IO_PENDING", "IocpQueue", "OverlappedEntry", "iocp_refusal"]

ERROR_IO_PENDING = 997
_INFINITE = 0xFFFFFFFF
_INVALID_HANDLE = ctypes.c_void_p(-1).value


class OverlappedEntry(ctypes.Structure):
    _fields_ = [("lpCompletionKey", ctypes.c_void_p), ("lpOverlapped", ctypes.c_void_p),
                ("Internal", ctypes.c_void_p), ("dwNumberOfBytesTransferred", ctypes.c_uint32)]


def iocp_refusal() -> str | None:
    try:
        kernel = kernel32()
        if not hasattr(kernel, "GetQueuedCompletionStatusEx"):
            return "this Windows has no GetQueuedCompletionStatusEx (Vista or later needed)"
    except (AttributeError, OSError) as exc:
        return f"kernel32 is not available: {exc}"
    return None


class IocpQueue:
    def __init__(self, handle: int, port: int, kernel: Any, *, length_bytes: int, read_addresses: list[int],
                 last_error: Callable[[], int] | None = None):
        depth = len(read_addresses)
        self._handle, self._port, self._kernel = handle, port, kernel
        self._last_error: Callable[[], int] = last_error or ctypes.get_last_error  # type: ignore[attr-defined,unused-ignore]
        self._length = length_bytes
        self._read_addresses = read_addresses
        self.submitted_ns = [0] * depth
        self.waited_ns = 0
        self.reap_at_once = 1  # each wait returns at the first completion
        self._overlapped = (Overlapped * depth)()
        self._first = ctypes.addressof(self._overlapped)
        self._entries = (OverlappedEntry * depth)()
        self._removed = ctypes.c_uint32()
        self._queued: list[tuple[int, int]] = []
        self._in_flight = 0

    @classmethod
    def open(cls, path: Path, *, direct: bool, write: bool, length_bytes: int, read_addresses: list[int]) -> IocpQueue:
        kernel = kernel32()
        kernel.CreateFileW.restype = ctypes.c_void_p
        kernel.CreateIoCompletionPort.restype = ctypes.c_void_p
        args = create_args(direct=direct, write=write, create=False, overlapped=True)
        handle = kernel.CreateFileW(ctypes.c_wchar_p(str(path)), ctypes.c_uint32(args.access), ctypes.c_uint32(args.share),
                                    None, ctypes.c_uint32(args.disposition), ctypes.c_uint32(args.flags), None)
        if handle is None or handle == _INVALID_HANDLE:
            raise_last_error(f"CreateFileW({path})")
        port = kernel.CreateIoCompletionPort(ctypes.c_void_p(handle), None, 0, 1)
        if not port:
            kernel.CloseHandle(ctypes.c_void_p(handle))
            raise_last_error("CreateIoCompletionPort")
        return cls(int(handle), int(port), kernel, length_bytes=length_bytes, read_addresses=read_addresses)

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def slot_of(self, overlapped_address: int) -> int:
        """The slot whose OVERLAPPED a completion names."""
        return (overlapped_address - self._first) // ctypes.sizeof(Overlapped)

    def queue(self, slot: int, offset: int, *, write_address: int = 0) -> None:
        entry = self._overlapped[slot]
        entry.Internal = entry.InternalHigh = 0
        entry.Offset, entry.OffsetHigh = offset_words(offset)
        self._queued.append((slot, write_address))

    def submit_and_reap(self) -> list[tuple[int, int]]:
        queued, self._queued = self._queued, []
        for slot, write_address in queued:
            self._submit(slot, write_address)
        kernel = self._kernel
        began = perf_counter_ns()
        if not kernel.GetQueuedCompletionStatusEx(ctypes.c_void_p(self._port), self._entries, len(self._entries),
                                                  ctypes.byref(self._removed), _INFINITE, False):
            raise_last_error("GetQueuedCompletionStatusEx")
        self.waited_ns += perf_counter_ns() - began
        done = []
        for entry in self._entries[: self._removed.value]:
            slot = self.slot_of(int(entry.lpOverlapped))
            status = int(self._overlapped[slot].Internal or 0)  # the NTSTATUS of the transfer
            done.append((slot, int(entry.dwNumberOfBytesTransferred) if status == 0 else -int(
                kernel.RtlNtStatusToDosError(status))))
        self._in_flight -= len(done)
        return done

    def _submit(self, slot: int, write_address: int) -> None:
        function = self._kernel.WriteFile if write_address else self._kernel.ReadFile
        address = write_address or self._read_addresses[slot]
        self.submitted_ns[slot] = perf_counter_ns()
        ok = function(ctypes.c_void_p(self._handle), ctypes.c_void_p(address), ctypes.c_uint32(self._length), None,
                      ctypes.c_void_p(self._first + slot * ctypes.sizeof(Overlapped)))
        if not ok and self._last_error() != ERROR_IO_PENDING:
            raise_last_error("WriteFile" if write_address else "ReadFile")
        self._in_flight += 1

    def close(self) -> None:
        # An OVERLAPPED must outlive its transfer: cancel, then reap, before the memory goes.
        self._kernel.CancelIoEx(ctypes.c_void_p(self._handle), None)
        while self._in_flight:
            try:
                self.submit_and_reap()
            except OSError:
                break
        self._kernel.CloseHandle(ctypes.c_void_p(self._port))
        self._kernel.CloseHandle(ctypes.c_void_p(self._handle))
