"""Where each I/O goes: lanes, their regions and their offset streams.

A *lane* is one synchronous I/O thread, so a workload needs queue depth x jobs lanes to keep
that many I/Os outstanding. Lanes are spread over worker processes (the GIL caps one
process's Python work at one core) and run as threads inside them.

Offsets follow fio's rules: random offsets are block-aligned and uniform over the job's
region; sequential jobs with several jobs get disjoint slices (``offset_increment``, as
:func:`ssdprof.fio.jobfile.job_file` writes it), and the lanes of one sequential job interleave
block by block (lane k of QD takes blocks k, k+QD, ...), so together they walk the slice in
order the way one fio job with that iodepth does; reads and writes keep separate cursors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["BATCH_IOS", "IoShape", "LaneSpec", "OffsetStream", "job_region", "plan_lanes", "spread_over_workers"]

BATCH_IOS = 4096
"""Offsets are drawn this many at a time: numpy's per-call cost vanishes per I/O."""


@dataclass(frozen=True)
class IoShape:
    """The workload reduced to what the I/O threads need (worker processes never load pydantic)."""

    block_size_bytes: int
    size_bytes: int
    random: bool
    read_pct: int
    queue_depth: int
    numjobs: int

    @property
    def outstanding_ios(self) -> int:
        return self.queue_depth * self.numjobs


@dataclass(frozen=True)
class LaneSpec:
    lane_id: int
    job: int
    slot: int
    """This lane's place among its job's ``slots`` lanes (the job's queue depth)."""
    slots: int
    region_start_bytes: int
    region_blocks: int
    block_size_bytes: int
    random: bool
    read_pct: int
    seed: int


def job_region(shape: IoShape, job: int) -> tuple[int, int]:
    """(start byte, whole blocks) of one job's region, exactly as fio's job file lays it out."""
    block = shape.block_size_bytes
    if shape.random or shape.numjobs == 1:
        return 0, shape.size_bytes // block
    per_job = shape.size_bytes // shape.numjobs // block * block
    return job * per_job, per_job // block


def plan_lanes(shape: IoShape, seed: int) -> list[LaneSpec]:
    seeds = np.random.SeedSequence(seed).generate_state(shape.outstanding_ios, dtype=np.uint64)
    lanes = []
    for job in range(shape.numjobs):
        start, blocks = job_region(shape, job)
        for slot in range(shape.queue_depth):
            lane_id = job * shape.queue_depth + slot
            lanes.append(LaneSpec(lane_id=lane_id, job=job, slot=slot, slots=shape.queue_depth, region_start_bytes=start,
                                  region_blocks=blocks, block_size_bytes=shape.block_size_bytes, random=shape.random,
                                  read_pct=shape.read_pct, seed=int(seeds[lane_id])))
    return lanes


def spread_over_workers(lanes: list[LaneSpec], workers: int) -> list[list[LaneSpec]]:
    """Split lanes into ``workers`` groups whose sizes differ by at most one."""
    workers = max(1, min(workers, len(lanes)))
    base, extra = divmod(len(lanes), workers)
    groups, start = [], 0
    for index in range(workers):
        size = base + (1 if index < extra else 0)
        groups.append(lanes[start : start + size])
        start += size
    return groups


class OffsetStream:
    """Batches of (byte offsets, is-read flags) for one lane."""

    def __init__(self, lane: LaneSpec, batch: int = BATCH_IOS):
        self._lane = lane
        self._batch = batch
        self._rng = np.random.default_rng(lane.seed)
        self._cursor = {True: 0, False: 0}
        self._all_reads = [True] * batch
        self._all_writes = [False] * batch

    def next_batch(self) -> tuple[list[int], list[bool]]:
        reads = self._directions()
        lane = self._lane
        if lane.random:
            blocks = self._rng.integers(0, lane.region_blocks, self._batch, dtype=np.int64)
        else:
            blocks = self._sequential_blocks(np.asarray(reads, dtype=bool))
        offsets = lane.region_start_bytes + blocks * lane.block_size_bytes
        return offsets.tolist(), reads

    def _directions(self) -> list[bool]:
        pct = self._lane.read_pct
        if pct >= 100:
            return self._all_reads
        if pct <= 0:
            return self._all_writes
        draws: list[bool] = (self._rng.integers(0, 100, self._batch) < pct).tolist()
        return draws

    def _sequential_blocks(self, reads: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        lane = self._lane
        steps = np.empty(self._batch, dtype=np.int64)
        for direction in (True, False):
            mask = reads == direction
            count = int(mask.sum())
            steps[mask] = np.arange(self._cursor[direction], self._cursor[direction] + count, dtype=np.int64)
            self._cursor[direction] += count
        return (lane.slot + steps * lane.slots) % lane.region_blocks
