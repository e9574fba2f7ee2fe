"""One I/O thread: synchronous positional reads and writes, each timed on its own.

The hot loop does only what each I/O needs: test its direction, take the clock, transfer, take the clock, append
the latency to an int64 array, compare with the next checkpoint. Every ``checkpoint_ns`` (and
at the end of the ramp and the end) :meth:`Lane._checkpoint` checks for cancel; each second,
at the end of the ramp and at the end it hands the raw latencies to the engine process, which
bins them. Nothing heavier runs here: whatever
a lane does while holding the GIL delays the other lanes of its process, and that delay
would show up in their latencies.

An I/O belongs to the measurement when it completes after the ramp ends (fio's rule too);
the ramp's I/O still counts towards the bytes issued, which the device counters are checked
against. Times come from ``time.perf_counter_ns``: monotonic, nanosecond, and system-wide on
Linux, macOS and Windows, so every process shares the start time the engine sets.
"""

from __future__ import annotations

import contextlib
import struct
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ssdprof.portable.directio import IoFile, aligned_buffer
from ssdprof.portable.lanes import LaneSpec, OffsetStream
from ssdprof.portable.messages import Chunk, LaneDone, Schedule

__all__ = ["Lane", "WriteBuffers"]

_SECTOR = 4096
_POOL_VIEWS = 16


class WriteBuffers:
    """Incompressible, never-repeating write data without refilling whole buffers.

    One random pool; successive writes use windows at different 4 KiB shifts into it, and each
    4 KiB of a write is stamped with the lane's seed and a counter, so no two written sectors
    are alike (defeats compression and deduplication) for the cost of one small store.
    """

    def __init__(self, block_size_bytes: int, seed: int, memory: memoryview | None = None):
        self._pool = aligned_buffer(self.pool_bytes(block_size_bytes)) if memory is None else memory
        self._pool[:] = np.random.default_rng(seed).bytes(len(self._pool))
        pool = memoryview(self._pool)
        self.views = [(pool[k * _SECTOR : k * _SECTOR + block_size_bytes],) for k in range(_POOL_VIEWS)]
        self._words = np.frombuffer(self._pool, dtype=np.uint64)
        self._seed = seed & 0xFFFFFFFFFFFFFFFF
        self._block = block_size_bytes
        self._count = 0

    @staticmethod
    def pool_bytes(block_size_bytes: int) -> int:
        """The memory one pool needs (callers may supply it, e.g. from :func:`contiguous_buffers`)."""
        return block_size_bytes + (_POOL_VIEWS - 1) * _SECTOR

    def next(self) -> tuple[memoryview]:
        return self.views[self.next_index()]

    def next_index(self) -> int:
        """Stamp the next write's window and return its index in ``views``."""
        self._count += 1
        k = self._count % _POOL_VIEWS
        if self._block <= _SECTOR:
            struct.pack_into("<QQ", self.views[k][0], 0, self._seed, self._count)
        else:
            first = k * _SECTOR // 8
            self._words[first : first + self._block // 8 : _SECTOR // 8] = self._count
        return k


def _reads_only() -> tuple[memoryview]:
    raise AssertionError("a lane opened to read only was asked to write")


@dataclass(frozen=True)
class _Clock:
    start_ns: int
    ramp_end_ns: int
    end_ns: int
    checkpoint_ns: int
    handover_ns: int


class Lane:
    """Runs one lane's I/O from the common start until the end, cancel, or an I/O error."""

    def __init__(self, spec: LaneSpec, io: IoFile, schedule: Schedule, *, writes: bool,
                 send: Callable[[object], None], stopped: Callable[[], bool]):
        self.spec = spec
        self._io = io
        self._schedule = schedule
        self._send = send
        self._stopped = stopped
        self._stream = OffsetStream(spec)
        # A one-element tuple: os.preadv walks it a little faster than a list.
        self._read_buffers = (memoryview(aligned_buffer(spec.block_size_bytes)),)
        self._writes = WriteBuffers(spec.block_size_bytes, spec.seed) if writes else None
        self._read_ns = array("q")
        self._write_ns = array("q")
        self._clock = _Clock(0, 0, 0, 1, 1)
        self._handover_ns = 0
        self._ramping = schedule.ramp_ns > 0
        self.done = LaneDone(spec.lane_id)

    def run(self, start_ns: int) -> LaneDone:
        s = self._schedule
        self._clock = _Clock(start_ns, start_ns + s.ramp_ns, start_ns + s.duration_ns, s.checkpoint_ns, s.handover_ns)
        self._handover_ns = start_ns + s.handover_ns
        try:
            self._loop(self._next_checkpoint(time.perf_counter_ns()))
        except OSError as exc:
            now = time.perf_counter_ns()
            with contextlib.suppress(OSError):  # the pipe to the engine may be what broke
                self._hand_over(now, last_was_read=True)
            error = f"{'read/write' if self._writes else 'read'} failed: {exc.strerror or exc}"
            self.done = LaneDone(self.spec.lane_id, max(now - self._clock.ramp_end_ns, 0), error)
        return self.done

    def _loop(self, checkpoint: int) -> None:
        # One loop for reads, writes and mixes alike: the per-I/O direction test costs pure reads and
        # pure writes 2-3 % of the CPU a 4 KiB I/O on tmpfs takes here (the compiled loop is the fast one).
        clock, descriptor, read, write = time.perf_counter_ns, self._io.descriptor, self._io.read, self._io.write
        read_buffers, next_buffers = self._read_buffers, self._writes.next if self._writes else _reads_only
        note_read, note_write = self._read_ns.append, self._write_ns.append
        while checkpoint:
            offsets, reads = self._stream.next_batch()
            for offset, is_read in zip(offsets, reads, strict=True):
                if is_read:
                    t0 = clock()
                    read(descriptor, read_buffers, offset)
                    t1 = clock()
                    note_read(t1 - t0)
                else:
                    buffers = next_buffers()
                    t0 = clock()
                    write(descriptor, buffers, offset)
                    t1 = clock()
                    note_write(t1 - t0)
                if t1 >= checkpoint:
                    checkpoint = self._checkpoint(t1, is_read)
                    if not checkpoint:
                        break

    def _checkpoint(self, now: int, last_was_read: bool) -> int:
        """Check for the end and cancel, hand over when due; returns the next checkpoint, or 0 to stop."""
        c = self._clock
        finished = now >= c.end_ns or self._stopped()
        if finished or now >= self._handover_ns or (self._ramping and now >= c.ramp_end_ns):
            self._hand_over(now, last_was_read)
            self._handover_ns = c.start_ns + ((now - c.start_ns) // c.handover_ns + 1) * c.handover_ns
        if finished:
            self.done = LaneDone(self.spec.lane_id, max(now - c.ramp_end_ns, 0))
            return 0
        return self._next_checkpoint(now)

    def _next_checkpoint(self, now: int) -> int:
        c = self._clock
        grid = c.start_ns + ((now - c.start_ns) // c.checkpoint_ns + 1) * c.checkpoint_ns
        return min(grid, c.ramp_end_ns if self._ramping else grid, c.end_ns)

    def _hand_over(self, now: int, last_was_read: bool) -> None:
        """Send the latencies collected since the last checkpoint, marking which were ramp I/O.

        When this checkpoint ends the ramp, only the I/O that crossed its end is measured."""
        c = self._clock
        read_ramp = write_ramp = 0
        if self._ramping:
            read_ramp, write_ramp = len(self._read_ns), len(self._write_ns)
            if now >= c.ramp_end_ns:
                self._ramping = False
                if last_was_read:
                    read_ramp = max(read_ramp - 1, 0)
                else:
                    write_ramp = max(write_ramp - 1, 0)
        upto_ns = (now - c.start_ns) // c.checkpoint_ns * c.checkpoint_ns
        self._send(Chunk(self.spec.lane_id, upto_ns, self._read_ns.tobytes(), self._write_ns.tobytes(), read_ramp, write_ramp))
        del self._read_ns[:]
        del self._write_ns[:]
