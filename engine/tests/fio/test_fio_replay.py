"""Traces of every format replayed by the real fio on a file: every I/O issued once, at its time, with its bytes."""

import random
import re
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from conftest import requires_fio
from trace_files import Io, write_blktrace, write_iolog_v2, write_iolog_v3, write_msr

from ssdprof.fio.install import FioInstall, detect_fio
from ssdprof.fio.replay import FioReplay, fio_refusal, iolog_text
from ssdprof.model.replay import OffsetMapping, ReplayTiming, TraceSelection
from ssdprof.trace.plan import ReplayPlan, plan_replay
from ssdprof.trace.reader import load_trace

pytestmark = requires_fio

REGION = 16 << 20
SECTOR = 512
WRITERS: dict[str, Callable[[Path, list[Io]], Path]] = {
    "iolog v2": lambda folder, ios: write_iolog_v2(folder / "t.log", ios),
    "iolog v3": lambda folder, ios: write_iolog_v3(folder / "t.log", ios),
    "blktrace": write_blktrace,
    "msr csv": lambda folder, ios: write_msr(folder / "t.csv", ios),
}


def unique_ios(count: int, span_s: float, seed: int) -> list[Io]:
    """I/Os at distinct offsets (so each can be told apart in fio's per-I/O log), the last at the span."""
    rng = random.Random(seed)
    slots = rng.sample(range(REGION // 65536), count)
    times = sorted(rng.randrange(1, int(span_s * 1e6)) for _ in range(count - 2))
    return [Io(t, rng.random() < 0.35, slot * 65536, rng.choice((4096, 16384, 65536)))
            for t, slot in zip([0, *times, int(span_s * 1e6)], slots, strict=True)]


@pytest.fixture(scope="module")
def fio() -> FioInstall:
    found = detect_fio()
    assert found is not None
    return found


@pytest.fixture
def target(disk_dir: Path) -> Path:
    path = disk_dir / "target.dat"
    path.write_bytes(bytes(REGION))  # zeros: a write shows where it landed
    return path


def replay(fio: FioInstall, plan: ReplayPlan, target: Path, logs: Path) -> tuple[object, dict[tuple[bool, int, int], int]]:
    """The measurement and, from fio's per-I/O submission log, each I/O (write?, offset, size) -> its issue time in
    ms. The submission log, not the latency log: fio 3.33 leaves out of its latency log the completions it reaps
    at the job's end (the last queue-depth-minus-one I/Os), while it logs every submission."""
    played = FioReplay(fio, plan).run(str(target), direct=True, is_device=False, on_progress=None,
                                      cancel=threading.Event(), log_dir=logs)
    issued: Counter[tuple[bool, int, int]] = Counter()
    times: dict[tuple[bool, int, int], int] = {}
    for log in logs.glob("lane_slat.*.log"):
        for line in log.read_text().splitlines():
            issued_ms, _slat_ns, direction, size, offset = (int(f) for f in line.split(",")[:5])
            key = (direction == 1, offset, size)
            issued[key] += 1
            times[key] = issued_ms
    assert set(issued.values()) == {1}, "an I/O issued more than once"
    assert played.issued_ns is not None and (played.issued_ns >= 0).all()  # the replay's own reading of the logs
    assert sorted(played.issued_ns.tolist()) == sorted(t * 1_000_000 for t in times.values())
    return played.measurement, times


def plan_for(path: Path, timing: ReplayTiming, depth: int) -> ReplayPlan:
    return plan_replay(load_trace(path), selection=TraceSelection(), timing=timing, queue_depth=depth,
                       target_bytes=REGION, mapping=OffsetMapping.EXACT, align_bytes=SECTOR)


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_a_trace_replayed_as_recorded_issues_every_io_once_at_its_time_with_its_bytes(
        fio: FioInstall, fmt: str, target: Path, tmp_path: Path) -> None:
    ios = unique_ios(160, span_s=3.0, seed=len(fmt))
    (tmp_path / "logs").mkdir()
    plan = plan_for(WRITERS[fmt](tmp_path, ios), ReplayTiming.AS_RECORDED, 8)
    measured, issued = replay(fio, plan, target, tmp_path / "logs")

    assert sorted(issued) == sorted((io.write, io.offset, io.size) for io in ios)
    reads, writes = [io for io in ios if not io.write], [io for io in ios if io.write]
    host = measured.hosts[0]  # type: ignore[attr-defined]
    assert (host.read.io_count, host.read.io_bytes) == (len(reads), sum(io.size for io in reads))
    assert (host.write.io_count, host.write.io_bytes) == (len(writes), sum(io.size for io in writes))
    span_ms = 3000.0
    late = [issued[(io.write, io.offset, io.size)] - io.time_us / 1000 for io in ios]
    assert max(abs(d) for d in late) <= 0.05 * span_ms, f"issued up to {max(late):.0f} ms off its time"
    assert abs(host.read.runtime_ms - span_ms) <= 0.05 * span_ms
    assert_writes_landed_where_recorded(target, writes)


def test_a_trace_replayed_as_fast_as_possible_issues_every_io_once_sooner_than_recorded(
        fio: FioInstall, target: Path, tmp_path: Path) -> None:
    ios = unique_ios(200, span_s=3.0, seed=11)
    (tmp_path / "logs").mkdir()
    plan = plan_for(write_iolog_v3(tmp_path / "t.log", ios), ReplayTiming.FASTEST, 8)
    measured, issued = replay(fio, plan, target, tmp_path / "logs")
    assert sorted(issued) == sorted((io.write, io.offset, io.size) for io in ios)
    host = measured.hosts[0]  # type: ignore[attr-defined]
    assert host.write.io_bytes == sum(io.size for io in ios if io.write)
    assert max(host.read.runtime_ms, host.write.runtime_ms) < 1500
    assert_writes_landed_where_recorded(target, [io for io in ios if io.write])


def assert_writes_landed_where_recorded(target: Path, writes: list[Io]) -> None:
    """Every sector a write covered holds data now; every other sector is still zero."""
    sectors = np.frombuffer(target.read_bytes(), dtype=np.uint8).reshape(-1, SECTOR).any(axis=1)
    expected = np.zeros(REGION // SECTOR, dtype=bool)
    for io in writes:
        expected[io.offset // SECTOR:(io.offset + io.size) // SECTOR] = True
    assert np.array_equal(sectors, expected)


def test_each_lane_log_starts_its_clock_at_one_microsecond(tmp_path: Path) -> None:
    ios = unique_ios(6, span_s=1.0, seed=1)
    plan = plan_for(write_iolog_v3(tmp_path / "t.log", ios), ReplayTiming.AS_RECORDED, 2)
    lines = iolog_text(plan, 1).splitlines()
    assert lines[:3] == ["fio version 3 iolog", "1 ssdprof-trace add", "1 ssdprof-trace open"]
    assert re.fullmatch(r"\d+ ssdprof-trace (read|write) \d+ \d+", lines[3])
    assert int(lines[3].split()[0]) == ios[1].time_us + 1


def test_a_fio_without_timed_iologs_is_refused_with_the_reason() -> None:
    assert fio_refusal(FioInstall("/usr/bin/fio", "fio-3.33", frozenset())) is None
    assert "older than fio 3.31" in (fio_refusal(FioInstall("/usr/bin/fio", "fio-3.28", frozenset())) or "")
