"""A replay planned before anything runs: the trace's part chosen, its offsets laid on the target, and how its
I/Os are issued.

The I/Os are dealt to N lanes, lane k taking every Nth I/O in time order and issuing one at a time, so at most N
are in flight: the queue depth. As recorded, each I/O waits for its recorded time, and one still in flight when
its lane's next is due makes that one late (the replay then runs longer than the trace); as fast as possible,
each lane issues its next I/O as soon as its last completes.

Not one lane with a deep queue: fio 3.33 reaps no completion while it waits out a gap between I/Os, so each
completion would be timed when the next I/O was due (measured: every latency ~320 ms on a trace with 10 ms gaps at
depth 32); and replaying at a depth above 1 it counts every I/O but short of its bytes (measured at depth 8:
7,684,096 of the 7,827,456 bytes read, while every byte reached the file).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ssdprof.model.replay import OffsetMapping, ReplayTiming, TraceSelection
from ssdprof.trace.describe import peak_in_flight
from ssdprof.trace.mapping import ReplayRefused, map_offsets
from ssdprof.trace.records import TraceRecords
from ssdprof.trace.select import select

__all__ = ["ReplayPlan", "plan_replay", "split_plan"]

_NS = 1_000_000_000


@dataclass(frozen=True)
class ReplayPlan:
    records: TraceRecords
    timing: ReplayTiming
    lanes: int
    """Issuers working side by side, each taking every ``lanes``-th I/O and issuing one at a time."""
    notes: tuple[str, ...]

    @property
    def expected_s(self) -> float | None:
        """How long the replay takes if the target keeps up (as recorded: to its last I/O's time, counted from the
        replay's start); None as fast as possible."""
        if self.timing is not ReplayTiming.AS_RECORDED:
            return None
        return int(self.records.time_ns.max()) / _NS if len(self.records) else 0.0

    def lane(self, index: int) -> npt.NDArray[np.intp]:
        """The positions (in time order) of the I/Os lane ``index`` issues."""
        return np.arange(index, len(self.records), self.lanes)


def plan_replay(records: TraceRecords, *, selection: TraceSelection, timing: ReplayTiming, queue_depth: int,
                target_bytes: int, mapping: OffsetMapping, align_bytes: int | None) -> ReplayPlan:
    """The plan, or a :class:`ReplayRefused` / ``TraceError`` saying why the trace cannot be replayed so."""
    if timing is ReplayTiming.AS_RECORDED and not records.timed:
        raise ReplayRefused("the trace records no time (a version 2 iolog without 'wait' lines): replay it as fast as "
                            "possible", about="timing")
    chosen = map_offsets(select(records, selection), target_bytes, mapping, align_bytes=align_bytes)
    lanes = max(1, min(queue_depth, len(chosen)))
    when = "at its time" if timing is ReplayTiming.AS_RECORDED else "as soon as the lane's last completes"
    each = f"each I/O {when}" if lanes == 1 else f"each issuing every {_ordinal(lanes)} I/O {when}, one at a time"
    notes = [*chosen.notes, f"{timing.value}: {lanes} lane{'s' if lanes != 1 else ''}, {each} (at most {lanes} in flight)"]
    if timing is ReplayTiming.FASTEST:
        return ReplayPlan(chosen, timing, lanes, tuple(notes))
    peak = peak_in_flight(chosen)
    if peak is not None and peak > lanes:
        notes.append(f"the trace had up to {peak} I/Os in flight, more than the {lanes} allowed: expect I/Os issued "
                     "late (raise the queue depth)")
    return ReplayPlan(chosen, timing, lanes, tuple(notes))


def split_plan(plan: ReplayPlan, parts: int) -> list[ReplayPlan]:
    """The plan dealt into ``parts`` (one per host): part k takes every ``parts``-th I/O from the k-th, in time order,
    each I/O in exactly one part, their times still counted from the replay's start (the hosts start together);
    each part keeps the plan's queue depth. A ReplayRefused when the trace has fewer I/Os than parts."""
    records = plan.records
    if len(records) < parts:
        raise ReplayRefused(f"the trace's {len(records)} I/O{'s' if len(records) != 1 else ''} cannot be split across "
                            f"{parts} hosts: replay the whole trace on each", about="hosts")
    split = []
    for part in range(parts):
        share = records.take(np.arange(part, len(records), parts),
                             note=f"this host's share: every {_ordinal(parts)} I/O from the {_ordinal(part + 1)}")
        lanes = max(1, min(plan.lanes, len(share)))
        split.append(ReplayPlan(share, plan.timing, lanes, plan.notes))
    return split


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
