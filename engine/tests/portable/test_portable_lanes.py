from __future__ import annotations

import numpy as np
import pytest

from ssdprof.fio.runner import FioPlan, job_file
from ssdprof.model.workload import Workload
from ssdprof.portable.lanes import IoShape, LaneSpec, OffsetStream, job_region, plan_lanes, spread_over_workers

MIB = 1 << 20


def shape(**overrides: object) -> IoShape:
    values: dict[str, object] = {"block_size_bytes": 4096, "size_bytes": 64 * MIB, "random": True, "read_pct": 100,
                                 "queue_depth": 1, "numjobs": 1}
    values.update(overrides)
    return IoShape(**values)  # type: ignore[arg-type]


def one_lane(**overrides: object) -> LaneSpec:
    return plan_lanes(shape(**overrides), seed=1)[0]


def test_a_workload_gets_queue_depth_times_jobs_lanes() -> None:
    lanes = plan_lanes(shape(queue_depth=8, numjobs=3), seed=1)
    assert len(lanes) == 24
    assert [lane.lane_id for lane in lanes] == list(range(24))
    assert {(lane.job, lane.slot) for lane in lanes} == {(j, s) for j in range(3) for s in range(8)}


def test_every_lane_draws_from_its_own_random_stream() -> None:
    lanes = plan_lanes(shape(queue_depth=16), seed=5)
    assert len({lane.seed for lane in lanes}) == 16


def test_random_offsets_are_block_aligned_and_inside_the_region() -> None:
    offsets, _ = OffsetStream(one_lane(block_size_bytes=8192)).next_batch()
    assert all(offset % 8192 == 0 for offset in offsets)
    assert min(offsets) >= 0 and max(offsets) <= 64 * MIB - 8192


def test_random_offsets_spread_uniformly_over_the_region() -> None:
    stream = OffsetStream(one_lane(size_bytes=16 * MIB))
    offsets = np.concatenate([stream.next_batch()[0] for _ in range(40)])
    counts, _ = np.histogram(offsets, bins=16, range=(0, 16 * MIB))
    expected = len(offsets) / 16
    chi_square = float(((counts - expected) ** 2 / expected).sum())
    assert chi_square < 40  # 15 degrees of freedom: p < 0.001 beyond ~37.7


def test_a_sequential_job_walks_its_blocks_in_order_wrapping_at_the_end() -> None:
    stream = OffsetStream(one_lane(random=False, size_bytes=16 * 4096), batch=40)
    offsets, _ = stream.next_batch()
    assert offsets[:16] == [i * 4096 for i in range(16)]
    assert offsets[16:20] == [0, 4096, 8192, 12288]


def test_the_lanes_of_one_sequential_job_interleave_like_one_job_at_that_queue_depth() -> None:
    lanes = plan_lanes(shape(random=False, queue_depth=4), seed=1)
    firsts = [OffsetStream(lane, batch=3).next_batch()[0] for lane in lanes]
    assert firsts == [[0, 16384, 32768], [4096, 20480, 36864], [8192, 24576, 40960], [12288, 28672, 45056]]


def test_sequential_jobs_get_the_disjoint_slices_fios_offset_increment_gives() -> None:
    s = shape(random=False, numjobs=3, size_bytes=10 * MIB)
    per_job = 10 * MIB // 3 // 4096 * 4096
    assert [job_region(s, j) for j in range(3)] == [(j * per_job, per_job // 4096) for j in range(3)]
    text = job_file(Workload(pattern="read", numjobs=3, size_bytes=10 * MIB), "f", FioPlan("libaio", 1, 3, ""))
    assert f"size={per_job}" in text and f"offset_increment={per_job}" in text


def test_random_jobs_all_cover_the_whole_region_as_in_fio() -> None:
    s = shape(numjobs=4, size_bytes=10 * MIB + 512)
    assert {job_region(s, j) for j in range(4)} == {(0, (10 * MIB + 512) // 4096)}


@pytest.mark.parametrize("read_pct", [70, 30])
def test_a_mix_reads_the_given_share_of_ios(read_pct: int) -> None:
    stream = OffsetStream(one_lane(read_pct=read_pct))
    reads = np.concatenate([stream.next_batch()[1] for _ in range(10)])
    assert abs(reads.mean() - read_pct / 100) < 0.02


def test_pure_patterns_never_draw_the_other_direction() -> None:
    assert all(OffsetStream(one_lane(read_pct=100)).next_batch()[1])
    assert not any(OffsetStream(one_lane(read_pct=0)).next_batch()[1])


def test_a_sequential_mix_keeps_separate_read_and_write_cursors_as_fio_does() -> None:
    offsets, reads = OffsetStream(one_lane(random=False, read_pct=50), batch=200).next_batch()
    read_offsets = [o for o, r in zip(offsets, reads, strict=True) if r]
    write_offsets = [o for o, r in zip(offsets, reads, strict=True) if not r]
    assert read_offsets == [i * 4096 for i in range(len(read_offsets))]
    assert write_offsets == [i * 4096 for i in range(len(write_offsets))]


def test_lanes_spread_over_workers_evenly() -> None:
    lanes = plan_lanes(shape(queue_depth=32), seed=1)
    groups = spread_over_workers(lanes, 3)
    assert [len(g) for g in groups] == [11, 11, 10]
    assert [lane for group in groups for lane in group] == lanes


def test_there_are_never_more_workers_than_lanes() -> None:
    assert len(spread_over_workers(plan_lanes(shape(queue_depth=2), seed=1), 8)) == 2
