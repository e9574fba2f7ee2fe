from __future__ import annotations

import os
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssdprof.portable.directio import IoFile, open_io_file
from ssdprof.portable.lane import Lane, WriteBuffers
from ssdprof.portable.lanes import IoShape, LaneSpec, plan_lanes
from ssdprof.portable.messages import Chunk, Schedule

MS = 1_000_000


@pytest.fixture
def test_file(disk_dir: Path) -> Path:
    path = disk_dir / "lane.dat"
    path.write_bytes(os.urandom(4 << 20))
    return path


@pytest.fixture
def readable(test_file: Path) -> Iterator[IoFile]:
    io = open_io_file(test_file, direct=False, write=True)
    yield io
    io.close()


def lane_spec(read_pct: int = 100, block: int = 4096) -> LaneSpec:
    return plan_lanes(IoShape(block, 4 << 20, True, read_pct, 1, 1), seed=11)[0]


def run_lane(io: IoFile, schedule: Schedule, *, read_pct: int = 100,
             stopped: threading.Event | None = None) -> tuple[Lane, list[object]]:
    sent: list[object] = []
    flag = stopped or threading.Event()
    lane = Lane(lane_spec(read_pct), io, schedule, writes=read_pct < 100, send=sent.append, stopped=flag.is_set)
    lane.run(time.perf_counter_ns())
    return lane, sent


def chunks(sent: list[object]) -> list[Chunk]:
    return [m for m in sent if isinstance(m, Chunk)]


def counts(sent: list[object]) -> tuple[int, int, int, int]:
    """(reads, ramp reads, writes, ramp writes) over everything a lane handed over."""
    cs = chunks(sent)
    return (sum(len(c.read_ns) // 8 for c in cs), sum(c.read_ramp for c in cs),
            sum(len(c.write_ns) // 8 for c in cs), sum(c.write_ramp for c in cs))


def test_ramp_io_is_handed_over_marked_so_it_is_not_measured(readable: IoFile) -> None:
    lane, sent = run_lane(readable, Schedule(ramp_ns=200 * MS, runtime_ns=200 * MS, checkpoint_ns=50 * MS))
    reads, ramp_reads, _, _ = counts(sent)
    assert lane.done.error is None
    assert 0 < ramp_reads < reads
    assert lane.done.measured_ns == pytest.approx(200 * MS, abs=20 * MS)


def test_only_chunks_before_the_ramps_end_carry_ramp_io(readable: IoFile) -> None:
    _, sent = run_lane(readable, Schedule(ramp_ns=120 * MS, runtime_ns=100 * MS, checkpoint_ns=20 * MS, handover_ns=40 * MS))
    ramp_flags = [c.read_ramp > 0 for c in chunks(sent)]
    assert ramp_flags == sorted(ramp_flags, reverse=True) and any(ramp_flags) and not all(ramp_flags)


def test_without_a_ramp_every_io_is_measured(readable: IoFile) -> None:
    _, sent = run_lane(readable, Schedule(ramp_ns=0, runtime_ns=150 * MS, checkpoint_ns=50 * MS))
    reads, ramp_reads, _, _ = counts(sent)
    assert reads > 0 and ramp_reads == 0


def test_latencies_are_handed_over_each_second_and_at_the_end(readable: IoFile) -> None:
    _, sent = run_lane(readable, Schedule(ramp_ns=0, runtime_ns=2_250 * MS))
    assert [c.upto_ns for c in chunks(sent)] == [1_000 * MS, 2_000 * MS, 2_200 * MS]


def test_a_mixed_lane_times_reads_and_writes_apart(readable: IoFile) -> None:
    _, sent = run_lane(readable, Schedule(ramp_ns=0, runtime_ns=150 * MS), read_pct=70)
    reads, _, writes, _ = counts(sent)
    assert reads > 0 and writes > 0
    assert 0.6 < reads / (reads + writes) < 0.8


def test_the_stop_flag_ends_a_long_run_at_the_next_checkpoint(readable: IoFile) -> None:
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    started = time.monotonic()
    _, sent = run_lane(readable, Schedule(ramp_ns=0, runtime_ns=60_000 * MS), stopped=stop)
    assert time.monotonic() - started < 1.0
    assert counts(sent)[0] > 0


def test_an_io_error_ends_the_lane_and_is_reported(test_file: Path) -> None:
    read_only = open_io_file(test_file, direct=False, write=False)
    try:
        lane, _ = run_lane(read_only, Schedule(ramp_ns=0, runtime_ns=1_000 * MS), read_pct=0)
    finally:
        read_only.close()
    assert lane.done.error is not None and "failed" in lane.done.error


def test_write_buffers_never_repeat_a_sector() -> None:
    buffers = WriteBuffers(128 << 10, seed=3)
    sectors = set()
    for _ in range(40):
        data = bytes(buffers.next()[0])
        sectors.update(data[i : i + 4096] for i in range(0, len(data), 4096))
    assert len(sectors) == 40 * 32


def test_write_data_is_incompressible() -> None:
    data = bytes(WriteBuffers(1 << 20, seed=4).next()[0])
    assert len(zlib.compress(data)) > 0.99 * len(data)


def test_small_write_buffers_are_stamped_too() -> None:
    buffers = WriteBuffers(512, seed=5)
    blocks = {bytes(buffers.next()[0]) for _ in range(100)}
    assert len(blocks) == 100
