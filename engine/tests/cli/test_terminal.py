"""What the terminal says of a run through the real command line: a test file kept with --keep-file is
named, with its size, at the end; one removed afterwards is not; a report written is said one way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.cli.terminal import say_written

RUN = ["--size", "16MiB", "--runtime", "1s", "--engine", "fio"]


def ssdprof(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ssdprof", "run", *args], capture_output=True, text=True, timeout=300,
                          check=False)


def test_a_written_report_is_said_with_its_size_in_units_and_what_it_reports(capsys: pytest.CaptureFixture[str]) -> None:
    say_written(Path("pts.pdf"), 55534, "PTS test 7")
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "wrote pts.pdf (54.23 KiB, PTS test 7)\n")


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
