"""Linux io_uring through ctypes over the raw system calls (no liburing, no compiler).

The ring is set up with one submission entry (SQE) per slot and the SQE of slot ``s`` is
always entry ``s``: its descriptor, length, buffer and ``user_data`` (the slot) are written
once, so queuing an I/O stores only its offset (and, for writes, the buffer address), then
places ``s`` in the submission array. Where the caller names the one memory region that holds
every buffer, the file and that region are registered with the ring (fio's ``registerfiles``
and ``fixedbufs``), so the kernel neither looks the descriptor up nor pins the buffer's pages
for each I/O: the device sees the same requests, and the engine's own share of each I/O is
smaller (measured below). Where registration is refused (``RLIMIT_MEMLOCK`` on kernels that
count pinned pages against it, a region over 1 GiB), plain reads and writes run instead. On a shallow queue each I/O is submitted by its own
``io_uring_enter`` as it is queued, as fio does; from :data:`ssdprof.portable.aio.BATCHED_FROM_DEPTH`
one call submits a wake-up's refills (:func:`ssdprof.portable.aio.submit_each`). A second call
waits for completions (one, or a batch on deep queues: :func:`ssdprof.portable.aio.reap_batch`)
unless the submitting call already posted enough. The calls pass plain Python ints to ctypes:
declared ``argtypes`` cost ~0.85 µs a call to convert.

Memory order: without SQPOLL the kernel reads the submission tail inside the system call
and posts completions before it advances the completion tail, so stores made before the
call are seen, and completions are read only up to the tail read first. Python's stores
and loads are not reordered on x86-64 (TSO); on arm64 a completion entry read right after
the tail it follows is ordered by the address dependency through ``head & mask``.
"""

from __future__ import annotations

import ctypes
import errno
import mmap
import os
import struct
from collections.abc import Callable
from time import perf_counter_ns

from ssdprof.portable.aio import reap_batch, submit_each

__all__ = ["UringQueue", "UringRefused", "uring_refusal"]

_SYS_SETUP, _SYS_ENTER, _SYS_REGISTER = 425, 426, 427  # the same numbers in every Linux architecture's table since 5.1
_REGISTER_BUFFERS, _REGISTER_FILES = 0, 2
_SQE_FIXED_FILE = 1
_OP_READ_FIXED, _OP_WRITE_FIXED = 4, 5
_REGISTERED_BYTES_MAX = 1 << 30
_PAGE_BYTES = mmap.PAGESIZE
_ENTER_GETEVENTS = 1
_OFF_SQ_RING, _OFF_CQ_RING, _OFF_SQES = 0, 0x8000000, 0x10000000
_FEAT_SINGLE_MMAP, _FEAT_RW_CUR_POS = 1 << 0, 1 << 3
_OP_READ, _OP_WRITE = 22, 23
_COOP_TASKRUN, _SINGLE_ISSUER, _DEFER_TASKRUN = 1 << 8, 1 << 12, 1 << 13
_SETUP_FLAGS = (_COOP_TASKRUN | _SINGLE_ISSUER | _DEFER_TASKRUN, _COOP_TASKRUN, 0)
_SQE_BYTES, _CQE_BYTES = 64, 16
_DISABLED_SWITCH = "/proc/sys/kernel/io_uring_disabled"


class UringRefused(OSError):
    """io_uring cannot be used here: an old kernel, a seccomp filter, or the sysctl switch."""


class _SqOffsets(ctypes.Structure):
    _fields_ = [("head", ctypes.c_uint32), ("tail", ctypes.c_uint32), ("ring_mask", ctypes.c_uint32),
                ("ring_entries", ctypes.c_uint32), ("flags", ctypes.c_uint32), ("dropped", ctypes.c_uint32),
                ("array", ctypes.c_uint32), ("resv1", ctypes.c_uint32), ("user_addr", ctypes.c_uint64)]


class _CqOffsets(ctypes.Structure):
    _fields_ = [("head", ctypes.c_uint32), ("tail", ctypes.c_uint32), ("ring_mask", ctypes.c_uint32),
                ("ring_entries", ctypes.c_uint32), ("overflow", ctypes.c_uint32), ("cqes", ctypes.c_uint32),
                ("flags", ctypes.c_uint32), ("resv1", ctypes.c_uint32), ("user_addr", ctypes.c_uint64)]


class _Params(ctypes.Structure):
    _fields_ = [("sq_entries", ctypes.c_uint32), ("cq_entries", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("sq_thread_cpu", ctypes.c_uint32), ("sq_thread_idle", ctypes.c_uint32), ("features", ctypes.c_uint32),
                ("wq_fd", ctypes.c_uint32), ("resv", ctypes.c_uint32 * 3), ("sq_off", _SqOffsets), ("cq_off", _CqOffsets)]


def _syscall() -> ctypes._CFuncPtr:  # type: ignore[name-defined]
    libc = ctypes.CDLL(None, use_errno=True)
    call = libc.syscall
    call.restype = ctypes.c_long
    return call


def _setup(entries: int) -> tuple[int, _Params]:
    call = _syscall()
    call.argtypes = [ctypes.c_long, ctypes.c_uint32, ctypes.POINTER(_Params)]
    # fio's choice (engines/io_uring.c): completions run as deferred task work when this one
    # thread reaps, instead of interrupting it; each flag is dropped where the kernel predates it.
    for flags in _SETUP_FLAGS:
        params = _Params(flags=flags)
        fd = call(_SYS_SETUP, entries, ctypes.byref(params))
        if fd >= 0 or ctypes.get_errno() != errno.EINVAL:
            break
    if fd < 0:
        code = ctypes.get_errno()
        raise UringRefused(code, f"io_uring_setup refused: {os.strerror(code)}{_switch_note()}")
    if not params.features & _FEAT_RW_CUR_POS:  # IORING_OP_READ/WRITE arrived with this feature (5.6)
        os.close(fd)
        raise UringRefused(errno.EINVAL, "io_uring on this kernel predates IORING_OP_READ/WRITE (Linux 5.6)")
    return int(fd), params


def _switch_note() -> str:
    try:
        with open(_DISABLED_SWITCH) as switch:
            value = switch.read().strip()
    except OSError:
        return ""
    return f" ({_DISABLED_SWITCH} is {value})" if value != "0" else ""


def uring_refusal() -> str | None:
    """Why io_uring cannot run in this process, or None when a ring can be set up."""
    try:
        fd, _ = _setup(1)
    except UringRefused as exc:
        return str(exc.strerror)
    os.close(fd)
    return None


def _map(fd: int, size: int, offset: int) -> mmap.mmap:
    return mmap.mmap(fd, size, flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0),
                     prot=mmap.PROT_READ | mmap.PROT_WRITE, offset=offset)


class UringQueue:
    """``depth`` slots on one file descriptor; see the module docstring for the layout."""

    def __init__(self, descriptor: int, depth: int, *, length_bytes: int, read_addresses: list[int],
                 memory: tuple[int, int] | None = None, on_close: Callable[[], None] = lambda: None):
        self.depth = depth
        self.reap_at_once = reap_batch(depth)
        self._on_close = on_close
        self.submitted_ns = [0] * depth
        self.waited_ns = 0
        self._fd, params = _setup(depth)
        try:
            self._map_rings(params)
        except OSError:
            os.close(self._fd)
            raise
        # No argtypes (see the module docstring): undeclared Python ints pass as C ints, sign-extended
        # to the register, and None as NULL, which is exact for the small non-negative values passed here.
        self._enter = _syscall()
        self.registered = memory is not None and self._register(descriptor, memory)
        self._op_read, self._op_write = (_OP_READ_FIXED, _OP_WRITE_FIXED) if self.registered else (_OP_READ, _OP_WRITE)
        # Registered: the file is index 0 of the ring's table, every buffer lies in buffer 0.
        flags, fd = (_SQE_FIXED_FILE, 0) if self.registered else (0, descriptor)
        for slot in range(depth):
            struct.pack_into("<BBHiQQIIQH", self._sqes, slot * _SQE_BYTES, self._op_read, flags, 0, fd, 0,
                             read_addresses[slot], length_bytes, 0, slot, 0)
        self.submit_each = submit_each(depth)
        self._queued: list[int] = []
        self._read_addresses = read_addresses
        self._writing = [False] * depth
        self._in_flight = 0

    def _register(self, descriptor: int, memory: tuple[int, int]) -> bool:
        """Register the file and the buffers' region with the ring; False (nothing registered) where refused."""
        address, size = memory
        first = address - address % _PAGE_BYTES
        size = -(-(address + size - first) // _PAGE_BYTES) * _PAGE_BYTES
        if size > _REGISTERED_BYTES_MAX:
            return False
        region = (ctypes.c_uint64 * 2)(first, size)
        files = (ctypes.c_int32 * 1)(descriptor)
        register = _syscall()
        # Extended arguments go as c_void_p: a plain Python int is passed as a C int and the pointer is lost.
        if register(_SYS_REGISTER, self._fd, _REGISTER_BUFFERS, ctypes.c_void_p(ctypes.addressof(region)), 1) < 0:
            return False
        return bool(register(_SYS_REGISTER, self._fd, _REGISTER_FILES, ctypes.c_void_p(ctypes.addressof(files)), 1) >= 0)

    def _map_rings(self, params: _Params) -> None:
        sq, cq = params.sq_off, params.cq_off
        sq_bytes = sq.array + params.sq_entries * 4
        cq_bytes = cq.cqes + params.cq_entries * _CQE_BYTES
        if params.features & _FEAT_SINGLE_MMAP:
            sq_bytes = cq_bytes = max(sq_bytes, cq_bytes)
        self._maps = [_map(self._fd, sq_bytes, _OFF_SQ_RING)]
        if not params.features & _FEAT_SINGLE_MMAP:
            self._maps.append(_map(self._fd, cq_bytes, _OFF_CQ_RING))
        self._maps.append(_map(self._fd, params.sq_entries * _SQE_BYTES, _OFF_SQES))
        sq_words = memoryview(self._maps[0]).cast("I")
        cq_ring = self._maps[1] if len(self._maps) == 3 else self._maps[0]
        cq_words = memoryview(cq_ring).cast("I")
        self._sqes = self._maps[-1]
        self._sqe_words = memoryview(self._sqes).cast("Q")
        self._sqe_bytes = memoryview(self._sqes)
        self._sq_words, self._cq_words = sq_words, cq_words
        self._sq_head_at = sq.head // 4
        self._sq_tail_at, self._sq_array_at, self._sq_mask = sq.tail // 4, sq.array // 4, sq_words[sq.ring_mask // 4]
        self._cq_head_at, self._cq_tail_at, self._cq_mask = cq.head // 4, cq.tail // 4, cq_words[cq.ring_mask // 4]
        # CQE k: user_data in words 4k, 4k+1 (low first); res, signed, in word 4k+2.
        self._cqe_at = [cq.cqes // 4 + 4 * k for k in range(params.cq_entries)]
        self._cq_results = memoryview(cq_ring).cast("i")
        self._sq_tail = sq_words[self._sq_tail_at]

    def queue(self, slot: int, offset: int, *, write_address: int = 0) -> None:
        """Queue slot's next I/O at ``offset``; a write supplies its buffer's address."""
        self._sqe_words[slot * 8 + 1] = offset
        if write_address:
            self._sqe_words[slot * 8 + 2] = write_address
            if not self._writing[slot]:
                self._writing[slot] = True
                self._sqe_bytes[slot * _SQE_BYTES] = self._op_write
        elif self._writing[slot]:  # back to a read: its opcode, and its own buffer (not the last write's)
            self._writing[slot] = False
            self._sqe_bytes[slot * _SQE_BYTES] = self._op_read
            self._sqe_words[slot * 8 + 2] = self._read_addresses[slot]
        if not self.submit_each:
            self._queued.append(slot)
            return
        tail = self._sq_tail
        self._sq_words[self._sq_array_at + (tail & self._sq_mask)] = slot
        self._sq_tail = tail = (tail + 1) & 0xFFFFFFFF
        self._sq_words[self._sq_tail_at] = tail
        self._in_flight += 1
        self.submitted_ns[slot] = perf_counter_ns()
        pending = (tail - self._sq_words[self._sq_head_at]) & 0xFFFFFFFF
        if self._enter(_SYS_ENTER, self._fd, pending, 0, _ENTER_GETEVENTS, None, 0) < 0:
            self._check_errno("submit")  # a busy ring keeps it pending: the next submit_and_reap retries

    def submit_and_reap(self) -> list[tuple[int, int]]:
        """Submit what is queued, wait for at least one completion, return (slot, result) for each reaped.

        A result is the bytes transferred or a negative errno. ``submitted_ns`` is set for the
        queued slots just before the system call submits them."""
        queued = self._queued
        if queued:
            self._queued = []
            words, at, mask, tail = self._sq_words, self._sq_array_at, self._sq_mask, self._sq_tail
            # One clock read for the batch, before its entries are placed: their placing counts
            # in their latency (tens of ns each), never the other way round.
            stamps, now = self.submitted_ns, perf_counter_ns()
            for slot in queued:
                words[at + (tail & mask)] = slot
                stamps[slot] = now
                tail += 1
            self._sq_tail = tail & 0xFFFFFFFF
            words[self._sq_tail_at] = self._sq_tail
            self._in_flight += len(queued)
        # Submit, then wait, in two calls as fio does: measured here, one call that does both
        # adds ~6 % to a 4 KiB read's p50 at QD1 (with these setup flags, on Linux 6.18). The
        # submitting call also posts what has completed meanwhile (GETEVENTS runs the deferred
        # completions), so as in fio the wait is skipped when enough are already there.
        enter, fd, words = self._enter, self._fd, self._cq_words
        while True:
            # Whatever the kernel has not consumed yet (its head lags our tail) is submitted now.
            pending = (self._sq_tail - self._sq_words[self._sq_head_at]) & 0xFFFFFFFF
            if not pending or enter(_SYS_ENTER, fd, pending, 0, _ENTER_GETEVENTS, None, 0) >= 0:
                break
            self._check_errno("submit")
        wanted = min(self.reap_at_once, self._in_flight)
        if (words[self._cq_tail_at] - words[self._cq_head_at]) & 0xFFFFFFFF < wanted:
            began = perf_counter_ns()
            while enter(_SYS_ENTER, fd, 0, wanted, _ENTER_GETEVENTS, None, 0) < 0:
                self._check_errno("wait")
            self.waited_ns += perf_counter_ns() - began
        return self._reap()

    @staticmethod
    def _check_errno(what: str) -> None:
        code = ctypes.get_errno()
        if code not in (errno.EINTR, errno.EAGAIN, errno.EBUSY):
            raise OSError(code, f"io_uring_enter ({what}) failed: {os.strerror(code)}")

    def _reap(self) -> list[tuple[int, int]]:
        """Every posted completion, read with one look at the ring's head and tail."""
        words = self._cq_words
        head, tail = words[self._cq_head_at], words[self._cq_tail_at]
        count = (tail - head) & 0xFFFFFFFF
        first = head & self._cq_mask
        at = self._cqe_at[first : first + count]
        if len(at) < count:  # wrapped past the ring's end
            at += self._cqe_at[: count - len(at)]
        results = self._cq_results
        done = [(words[a], results[a + 2]) for a in at]
        words[self._cq_head_at] = tail
        self._in_flight -= count
        return done

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def close(self) -> None:
        for view in (self._sq_words, self._cq_words, self._cq_results, self._sqe_words, self._sqe_bytes):
            view.release()  # an mmap with live views cannot close
        for ring in self._maps:
            ring.close()
        os.close(self._fd)
        self._on_close()
