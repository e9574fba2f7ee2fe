"""Queue depth without threads: one thread keeps a group of lanes' I/O in flight at once.

Each lane of the group is one *slot* of an asynchronous queue (io_uring, libaio, POSIX AIO or
an I/O completion port, see :mod:`ssdprof.portable.aio`): it always has exactly one I/O
outstanding, and when that completes the lane's next I/O (from its own offset stream, so
offsets follow the same rules as the synchronous lanes) is queued in its place. Completions
are reaped in batches; all queued I/O is submitted together with the wait for the next.

Latency is total latency, fio's ``lat``: from a clock read just before the I/O's submission
(``AsyncQueue.submitted_ns``) to one read when its completion has been reaped, the batch's
single clock read as in fio. Checkpoints, ramp accounting and hand-over follow
:mod:`ssdprof.portable.lane`: an I/O belongs to the measurement when it is reaped after the
ramp ends, and latencies go to the engine per lane, as raw int64 nanoseconds.
"""

from __future__ import annotations

import gc
import os
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain, repeat

from ssdprof.portable.aio import AsyncQueue
from ssdprof.portable.directio import buffer_address, contiguous_buffers
from ssdprof.portable.lane import WriteBuffers
from ssdprof.portable.lanes import LaneSpec, OffsetStream
from ssdprof.portable.messages import Chunk, LaneDone, Schedule

__all__ = ["QueueFactory", "QueuedLanes", "failed_transfer"]

QueueFactory = Callable[[int, list[int], tuple[int, int]], AsyncQueue]
"""``factory(length_bytes, read_addresses, memory) -> queue`` with one slot per read address; ``memory`` is
``(address, bytes)`` of the one region that holds every read and write buffer (see :func:`aio.open_queue`)."""


def _ios(stream: OffsetStream) -> Iterator[tuple[int, bool]]:
    # chain's next() steps the current batch's zip in C; Python runs once per batch, not per I/O.
    return chain.from_iterable(zip(*stream.next_batch(), strict=True) for _ in repeat(None))


@dataclass
class _Slot:
    spec: LaneSpec
    ios: Iterator[tuple[int, bool]]
    writes: WriteBuffers | None
    write_addresses: list[int]
    read_ns: array[int]
    write_ns: array[int]
    read_ramp: int = 0
    write_ramp: int = 0


class QueuedLanes:
    """Runs several lanes as the slots of one asynchronous queue, from the common start to the end."""

    def __init__(self, specs: tuple[LaneSpec, ...], open_queue: QueueFactory, schedule: Schedule, *, writes: bool,
                 send: Callable[[object], None], stopped: Callable[[], bool]):
        self._specs = specs
        self._schedule = schedule
        self._send = send
        self._stopped = stopped
        self._length = specs[0].block_size_bytes
        writing = writes and specs[0].read_pct < 100
        pool_bytes = WriteBuffers.pool_bytes(self._length)
        memory = contiguous_buffers([self._length] * len(specs) + ([pool_bytes] * len(specs) if writing else []))
        self._read_buffers = memory[: len(specs)]
        pools: list[memoryview | None] = list(memory[len(specs) :]) if writing else [None] * len(specs)
        self._slots = [self._slot(spec, pool) for spec, pool in zip(specs, pools, strict=True)]
        first = buffer_address(memory[0])
        self._queue = open_queue(self._length, [buffer_address(b) for b in self._read_buffers],
                                 (first, buffer_address(memory[-1]) + len(memory[-1]) - first))
        self._was_read = [True] * len(specs)
        self._start_ns = self._ramp_end_ns = self._end_ns = 0
        self._handover_ns = 0
        self._ramping = schedule.ramp_ns > 0

    def _slot(self, spec: LaneSpec, pool: memoryview | None) -> _Slot:
        buffers = WriteBuffers(spec.block_size_bytes, spec.seed, pool) if pool is not None else None
        addresses = [buffer_address(v[0]) for v in buffers.views] if buffers else []
        return _Slot(spec, _ios(OffsetStream(spec)), buffers, addresses, array("q"), array("q"))

    def run(self, start_ns: int) -> list[LaneDone]:
        s = self._schedule
        self._start_ns, self._ramp_end_ns, self._end_ns = start_ns, start_ns + s.ramp_ns, start_ns + s.duration_ns
        self._handover_ns = start_ns + s.handover_ns
        collecting = gc.isenabled()
        gc.disable()  # the loop makes no cycles; a collection's pause would land in some I/O's latency
        try:
            end_ns = self._loop()
            error = None
        except OSError as exc:
            end_ns = time.perf_counter_ns()
            error = f"{'read/write' if any(x.writes for x in self._slots) else 'read'} failed: {exc.strerror or exc}"
            self._hand_over(end_ns)
        finally:
            self._drain()
            if collecting:
                gc.enable()
        measured_ns = max(end_ns - self._ramp_end_ns, 0)
        return [LaneDone(spec.lane_id, measured_ns, error) for spec in self._specs]

    def _loop(self) -> int:
        """Keeps every slot busy until the end or cancel; returns the clock at the last reaped batch.

        The fast path is written out in one loop (no per-I/O method calls beyond the queue's
        own): at hundreds of thousands of I/O per second, each Python call is a visible share."""
        queue, slots, was_read, length = self._queue, self._slots, self._was_read, self._length
        submit_and_reap, place, clock = queue.submit_and_reap, queue.queue, time.perf_counter_ns
        ios = [state.ios for state in slots]
        note_read = [state.read_ns.append for state in slots]
        note_write = [state.write_ns.append for state in slots]
        for slot in range(len(slots)):
            self._issue(slot)
        checkpoint = self._next_checkpoint(clock())
        while True:
            done = submit_and_reap()
            now = clock()
            if now >= checkpoint:
                checkpoint = self._at_checkpoint(now, done)
                if not checkpoint:
                    return now
                for slot, _ in done:
                    self._issue(slot)
                continue
            stamps = queue.submitted_ns
            for slot, result in done:
                if result != length:
                    raise failed_transfer(result, length)
                if was_read[slot]:
                    note_read[slot](now - stamps[slot])
                else:
                    note_write[slot](now - stamps[slot])
                offset, is_read = next(ios[slot])
                was_read[slot] = is_read
                if is_read:
                    place(slot, offset)
                else:
                    state = slots[slot]
                    place(slot, offset, write_address=state.write_addresses[state.writes.next_index()])  # type: ignore[union-attr]

    def _at_checkpoint(self, now: int, done: list[tuple[int, int]]) -> int:
        """Note a batch reaped at a checkpoint (after marking the ramp's end), then check in."""
        if self._ramping and now >= self._ramp_end_ns:
            self._mark_ramp()
        stamps = self._queue.submitted_ns
        for slot, result in done:
            if result != self._length:
                raise failed_transfer(result, self._length)
            state = self._slots[slot]
            (state.read_ns if self._was_read[slot] else state.write_ns).append(now - stamps[slot])
        return self._checkpoint(now)

    def _issue(self, slot: int) -> None:
        state = self._slots[slot]
        offset, is_read = next(state.ios)
        self._was_read[slot] = is_read
        if is_read:
            self._queue.queue(slot, offset)
        else:
            assert state.writes is not None
            self._queue.queue(slot, offset, write_address=state.write_addresses[state.writes.next_index()])

    @property
    def waited_ns(self) -> int:
        """How long the thread was blocked waiting for completions (see ``AsyncQueue.waited_ns``)."""
        return self._queue.waited_ns

    def close(self) -> None:
        """Release the queue of lanes that never ran (``run`` closes it itself)."""
        self._queue.close()

    def _drain(self) -> None:
        """Reap what is still in flight (not measured: it completes after the end), then close."""
        try:
            while self._queue.in_flight:
                self._queue.submit_and_reap()
        except OSError:
            pass  # closing the queue cancels or waits for the rest, per backend
        finally:
            self._queue.close()

    def _mark_ramp(self) -> None:
        """The ramp ended before this batch was reaped: everything noted so far is ramp I/O."""
        self._ramping = False
        for state in self._slots:
            state.read_ramp, state.write_ramp = len(state.read_ns), len(state.write_ns)

    def _checkpoint(self, now: int) -> int:
        """Hand over when due; the next checkpoint, or 0 at the end or on cancel."""
        finished = now >= self._end_ns or self._stopped()
        if finished or now >= self._handover_ns:
            self._hand_over(now)
            step = self._schedule.handover_ns
            self._handover_ns = self._start_ns + ((now - self._start_ns) // step + 1) * step
        return 0 if finished else self._next_checkpoint(now)

    def _next_checkpoint(self, now: int) -> int:
        step = self._schedule.checkpoint_ns
        grid = self._start_ns + ((now - self._start_ns) // step + 1) * step
        return min(grid, self._ramp_end_ns if self._ramping else grid, self._end_ns)

    def _hand_over(self, now: int) -> None:
        step = self._schedule.checkpoint_ns
        upto_ns = (now - self._start_ns) // step * step
        for state in self._slots:
            ramp_reads = len(state.read_ns) if self._ramping else state.read_ramp
            ramp_writes = len(state.write_ns) if self._ramping else state.write_ramp
            self._send(Chunk(state.spec.lane_id, upto_ns, state.read_ns.tobytes(), state.write_ns.tobytes(),
                             ramp_reads, ramp_writes))
            del state.read_ns[:]
            del state.write_ns[:]
            state.read_ramp = state.write_ramp = 0


def failed_transfer(result: int, length: int) -> OSError:
    if result < 0:
        return OSError(-result, os.strerror(-result))
    return OSError(0, f"short transfer: {result} of {length} bytes")
