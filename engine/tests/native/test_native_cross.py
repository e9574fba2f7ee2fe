"""The compiled I/O loop cross-built for Windows and macOS with zig, and the Windows build run under
wine64 on a file: right bytes at the right offsets for each pattern, aligned buffers, every I/O
counted once, bins that add up (correctness, not speed: wine is not a Windows drive). The macOS builds
are built and their headers read; they are not run here (no macOS on these machines)."""

from __future__ import annotations

import platform
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from infra.native_builds import Wine
from native.stamps import MIB, Launcher, check_counts, zeroed_file

from native import scenarios
from ssdprof.portable.native import binary_machine

pytestmark = pytest.mark.skipif(platform.system() != "Linux" or platform.machine() != "x86_64",
                                reason="the Windows build runs under wine64 on x86-64 Linux")


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ssdprof-wine-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def windows(cross_builds: dict[str, Path], wine: Wine) -> Launcher:
    program = cross_builds["x86_64-windows-gnu"]
    return Launcher("iocp", wine.argv(program), env=wine.environment(), name_path=Wine.path)


def test_every_target_builds_and_its_header_names_its_os_and_processor(cross_builds: dict[str, Path]) -> None:
    assert {target: binary_machine(path) for target, path in cross_builds.items()} == {
        "x86_64-windows-gnu": ("Windows", "x86-64"), "x86_64-macos": ("macOS", "x86-64"),
        "aarch64-macos": ("macOS", "arm64")}


def test_the_windows_build_opens_the_file_unbuffered_on_a_completion_port(windows: Launcher, folder: Path) -> None:
    path = zeroed_file(folder / "open.dat", 4 * MIB)
    run = windows.run(path, "--size", str(4 * MIB), "--bs", "4096", "--iodepth", "8", "--jobs", "2", "--runtime", "0.5",
                      "--ramp", "0")
    check_counts(run, 4096)
    assert (run.start["engine"], run.start["cache_bypass"], run.start["threads"]) == ("iocp", "NO_BUFFERING|WRITE_THROUGH", 2)
    assert run.result["read"]["ios"] > 0


def test_windows_a_sequential_write_stamps_every_sector_of_its_region_once(windows: Launcher, folder: Path) -> None:
    scenarios.sequential_write_stamps_every_sector_once(windows, folder)


def test_windows_random_writes_land_on_whole_blocks_inside_the_region(windows: Launcher, folder: Path) -> None:
    scenarios.random_writes_land_on_whole_blocks_in_the_region(windows, folder)


def test_windows_sequential_jobs_write_disjoint_slices(windows: Launcher, folder: Path) -> None:
    scenarios.sequential_jobs_write_disjoint_slices(windows, folder)


def test_windows_a_mix_reads_the_bytes_each_offset_was_written_with(windows: Launcher, folder: Path) -> None:
    stamped = scenarios.stamped_file(windows, folder)
    scenarios.mixed_reads_find_their_own_offsets(windows, stamped)
    scenarios.the_read_check_catches_a_wrong_offset(windows, stamped)


def test_windows_bad_arguments_and_a_missing_file_are_refused_with_the_reason(windows: Launcher, folder: Path) -> None:
    bad = windows.run(folder / "missing.dat", "--size", str(1 * MIB), "--bs", "1000")
    assert bad.returncode == 2 and bad.of("refused")[0]["field"] == "block_size_bytes"
    missing = windows.run(folder / "missing.dat", "--size", str(1 * MIB), "--bs", "4096", "--runtime", "1")
    assert missing.returncode == 3
    [refused] = missing.of("refused")
    assert refused["field"] == "target" and "cannot open" in refused["message"] and "Windows error 2" in refused["message"]
