"""What the terminal says of a run through the real command line: a test file kept with --keep-file is
named, with its size, at the end; one removed afterwards is not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import requires_fio

RUN = ["--size", "16MiB", "--runtime", "1s", "--engine", "fio"]


def ssdprof(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ssdprof", "run", *args], capture_output=True, text=True, timeout=300,
                          check=False)


@requires_fio
def test_a_run_with_keep_file_names_the_file_it_kept_and_its_size(disk_dir: Path) -> None:
    done = ssdprof("--target", str(disk_dir), *RUN, "--keep-file", "--db", str(disk_dir / "r.db"))
    assert done.returncode == 0, done.stderr
    [kept] = disk_dir.glob("ssdprof-testfile-*.dat")
    assert kept.stat().st_size == 16 << 20
    assert done.stderr.rstrip().endswith(f"kept the test file {kept} (16.00 MiB)")
    kept.unlink()


@requires_fio
def test_a_run_without_keep_file_says_nothing_was_kept(disk_dir: Path) -> None:
    done = ssdprof("--target", str(disk_dir), *RUN, "--db", str(disk_dir / "r.db"))
    assert done.returncode == 0, done.stderr
    assert not list(disk_dir.glob("ssdprof-testfile-*.dat")) and "kept the test file" not in done.stderr
