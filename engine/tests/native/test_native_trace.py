"""The compiled I/O loop replaying a trace (--trace, engine/native/trace.c) for real on the disk: this machine's build
and the Windows build (zig) under wine64: every I/O once, at its offset, with its bytes, at its recorded time from
the start (or back to back, as fast as possible); a trace it cannot play refused by its line."""

from __future__ import annotations

import platform
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from infra.native_builds import Wine
from native.stamps import MIB, Launcher, ProgramRun, sector_stamps, zeroed_file
from trace_files import Io, random_ios, write_iolog_v3

pytestmark = pytest.mark.skipif(platform.system() != "Linux", reason="this machine's build is tested where it runs: Linux")
REGION = 8 * MIB
SPAN_S = 2.0


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ssdprof-native-trace-", dir="/var/tmp"))  # direct I/O needs the disk
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(params=["this machine", "windows under wine"])
def launch(request: pytest.FixtureRequest, native_program: Path) -> Launcher:
    if request.param == "this machine":
        return Launcher("sync", [str(native_program)])
    if platform.machine() != "x86_64":
        pytest.skip("the Windows x86-64 build runs under wine64 on x86-64 only")
    wine: Wine = request.getfixturevalue("wine")
    program = request.getfixturevalue("cross_builds")["x86_64-windows-gnu"]
    return Launcher("iocp", wine.argv(program), env=wine.environment(), name_path=Wine.path)


def play(launch: Launcher, target: Path, trace: Path, *args: str, qd: int = 4) -> tuple[ProgramRun, list[int]]:
    log = trace.with_suffix(".issued")
    run = launch.run(target, "--size", str(REGION), "--bs", str(64 * 1024), "--iodepth", str(qd), "--runtime", "60",
                     "--trace", launch.name_path(trace), "--issue-log", launch.name_path(log), *args)
    return run, [int(line) for line in log.read_text().split()] if log.exists() else []


def totals(ios: list[Io], write: bool) -> tuple[int, int]:
    chosen = [io for io in ios if io.write == write]
    return len(chosen), sum(io.size for io in chosen)


def test_a_trace_is_played_every_io_once_at_its_offset_and_recorded_time(launch: Launcher, folder: Path) -> None:
    ios = random_ios(80, span_s=SPAN_S, seed=41, region=REGION, write_share=0.4)
    trace = write_iolog_v3(folder / f"{launch.name}.iolog", ios, name="ssdprof-trace")
    target = zeroed_file(folder / f"{launch.name}.dat", REGION)
    run, issued = play(launch, target, trace)
    assert run.returncode == 0, run.stderr
    result = run.result
    assert run.start["engine"] == "sync" and run.start["threads"] == 4 and result["errors"] == []
    for direction, write in (("read", False), ("write", True)):
        count, size = totals(ios, write)
        assert (result[direction]["ios"], result[direction]["bytes"]) == (count, size), direction
        assert sum(result[direction]["bins"].values()) == count
        assert result[f"issued_{direction}_ios"] == count
    assert len(issued) == len(ios) and min(issued) >= 0, "every I/O issued once"
    late_ms = (np.array(issued) - np.array([io.time_us * 1000 for io in ios])) / 1e6
    assert float(np.median(late_ms)) < 20 and float(late_ms.min()) > -1, sorted(late_ms.tolist())[-5:]
    assert abs(result["runtime_ns"] / 1e9 - SPAN_S) <= 0.05 * SPAN_S
    # Each write landed where the trace put it: every sector it wrote carries its own offset's stamp, no other does.
    written = {io.offset + at for io in ios if io.write for at in range(0, io.size, 512)}
    stamps = sector_stamps(target)
    assert {position for position, _, _ in stamps} == written
    assert all(offset == position for position, offset, _ in stamps)


def test_as_fast_as_possible_each_lane_issues_back_to_back(native_program: Path, folder: Path) -> None:
    ios = random_ios(200, span_s=30, seed=42, region=REGION)
    trace = write_iolog_v3(folder / "fast.iolog", ios, name="ssdprof-trace")
    run, issued = play(Launcher("sync", [str(native_program)]), zeroed_file(folder / "fast.dat", REGION), trace,
                       "--trace-timing", "fastest", qd=2)
    assert run.returncode == 0, run.stderr
    assert run.result["read"]["ios"] + run.result["write"]["ios"] == len(ios)
    assert run.result["runtime_ns"] < 10e9, "not held to the trace's 30 s"
    assert min(issued) >= 0 and len(issued) == len(ios)


@pytest.mark.parametrize(("line", "says"), [
    ("5 ssdprof-trace trim 0 4096", "line 4: 'trim' is not replayed"),
    (f"5 ssdprof-trace write {REGION - 4096} 8192", "line 4: bytes 8384512 to 8392704 lie past the region's 8388608"),
    ("5 ssdprof-trace read 100 4096", "line 4: offset 100, length 4096: direct I/O needs multiples of 512 bytes"),
    ("5 ssdprof-trace read 0", "line 4: give OFFSET and a LENGTH"),
])
def test_a_line_it_cannot_play_is_refused_by_its_number(native_program: Path, folder: Path, line: str, says: str) -> None:
    trace = folder / "bad.iolog"
    trace.write_text(f"fio version 3 iolog\n1 ssdprof-trace add\n1 ssdprof-trace read 0 4096\n{line}\n")
    run, _ = play(Launcher("sync", [str(native_program)]), zeroed_file(folder / "bad.dat", REGION), trace)
    assert run.returncode == 2
    [refused] = run.of("refused")
    assert refused["field"] == "trace" and says in refused["message"], refused
