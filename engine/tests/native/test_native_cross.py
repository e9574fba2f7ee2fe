"""The compiled I/O loop cross-built for Windows and macOS with zig: every target builds and its header
names its OS and processor; the Windows build refuses bad input under wine64 as the Linux one does.
Its runs on a file (right bytes at the right offsets, every I/O counted once) are the "iocp under wine"
cases of test_native_program.py. The macOS builds are not run here (no macOS on these machines)."""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from infra.native_builds import Wine
from native.stamps import MIB, Launcher, ProgramRun, check_counts

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


def test_windows_bad_arguments_and_a_missing_file_are_refused_with_the_reason(windows: Launcher, folder: Path) -> None:
    bad = windows.run(folder / "missing.dat", "--size", str(1 * MIB), "--bs", "1000")
    assert bad.returncode == 2 and bad.of("refused")[0]["field"] == "block_size_bytes"
    missing = windows.run(folder / "missing.dat", "--size", str(1 * MIB), "--bs", "4096", "--runtime", "1")
    assert missing.returncode == 3
    [refused] = missing.of("refused")
    assert refused["field"] == "target" and "cannot open" in refused["message"] and "Windows error 2" in refused["message"]


def test_windows_the_engine_going_away_drains_the_queue_and_still_reports(windows: Launcher, folder: Path) -> None:
    """Standard input closing (the engine gone) stops the Windows build as CTRL_BREAK does: nothing new issued,
    every I/O in flight waited for, the result printed."""
    path = folder / "stop.dat"
    path.write_bytes(bytes(4 * MIB))
    process = subprocess.Popen(windows.argv(path, "--size", str(4 * MIB), "--bs", "4096", "--iodepth", "16",
                                            "--runtime", "60", "--ramp", "0", "--watch-stdin"),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=windows.env)
    assert process.stdin is not None and process.stdout is not None
    try:
        assert '"type":"start"' in process.stdout.readline()
        time.sleep(1.5)
        process.stdin.close()
        process.wait(timeout=30)
    finally:
        process.kill()
    run = ProgramRun(process.returncode, [json.loads(line) for line in process.stdout.read().splitlines()], "")
    assert run.result["stopped"] == "stdin"
    check_counts(run, 4096)
    assert run.result["read"]["ios"] > 0
