"""An offered load: the slots of one asynchronous queue fed by Poisson arrivals instead of kept full.

fio's ``rate_iops`` with ``rate_process=poisson`` gives each job one arrival process; here each
worker's queue (its share of the lanes) is one, at its share of the rate. An arrival takes a free
slot; when the next arrival is not yet due the thread waits for completions while I/O is in flight
(as fio's inline rate limiter waits for in-flight I/O before it sleeps) and sleeps when none is.
Arrivals that come due while every slot is busy are submitted as slots free up, so a device that
cannot keep up shows as achieved IOPS below the offered rate, not as a longer schedule.

Latency is measured exactly as fio measures it under a rate: from the I/O's actual submission
(``AsyncQueue.submitted_ns``) to its reaped completion, not from its scheduled arrival.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ssdprof.portable.lanes import LaneSpec
from ssdprof.portable.messages import Schedule
from ssdprof.portable.queued import QueuedLanes, QueueFactory, failed_transfer

__all__ = ["Arrivals", "PacedLanes"]

_GAPS_AT_ONCE = 4096


class Arrivals:
    """Exponential gaps (a Poisson process at ``rate_iops``) in whole nanoseconds, drawn in batches."""

    def __init__(self, rate_iops: float, seed: int):
        if rate_iops <= 0:
            raise ValueError("an arrival process needs a rate above 0")
        self._mean_ns = 1e9 / rate_iops
        self._rng = np.random.default_rng(seed)
        self._gaps: list[int] = []

    def next_gap_ns(self) -> int:
        if not self._gaps:
            self._gaps = np.rint(self._rng.exponential(self._mean_ns, _GAPS_AT_ONCE)).astype(np.int64).tolist()[::-1]
        return self._gaps.pop()


class PacedLanes(QueuedLanes):
    """Several lanes as the slots of one queue, each I/O submitted at its arrival (or at the first free slot after)."""

    def __init__(self, specs: tuple[LaneSpec, ...], open_queue: QueueFactory, schedule: Schedule, *, writes: bool,
                 send: Callable[[object], None], stopped: Callable[[], bool]):
        super().__init__(specs, open_queue, schedule, writes=writes, send=send, stopped=stopped)
        self._queue.reap_at_once = 1  # a batch wait would hold back arrivals that come due meanwhile
        self._arrivals = Arrivals(schedule.rate_iops_per_lane * len(specs), seed=specs[0].seed ^ 0x5EED)

    def _loop(self) -> int:
        queue, clock, arrivals = self._queue, time.perf_counter_ns, self._arrivals
        free = list(range(len(self._slots)))[::-1]
        due = self._start_ns + arrivals.next_gap_ns()
        checkpoint = self._next_checkpoint(clock())
        while True:
            now = clock()
            issued = False
            while free and due <= now:
                self._issue(free.pop())
                due += arrivals.next_gap_ns()
                issued = True
            if issued or queue.in_flight:
                done = queue.submit_and_reap()
                now = clock()
                free.extend(slot for slot, _ in done)
            else:
                done = []
                time.sleep(max(min(due, checkpoint) - now, 0) / 1e9)
                now = clock()
            if now >= checkpoint:
                checkpoint = self._at_checkpoint(now, done)
                if not checkpoint:
                    return now
            elif done:
                self._note(done, now)

    def _note(self, done: list[tuple[int, int]], now: int) -> None:
        stamps, slots, was_read, length = self._queue.submitted_ns, self._slots, self._was_read, self._length
        for slot, result in done:
            if result != length:
                raise failed_transfer(result, length)
            state = slots[slot]
            (state.read_ns if was_read[slot] else state.write_ns).append(now - stamps[slot])
