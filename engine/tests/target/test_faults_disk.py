"""Disk faults caused for real: a small ext4 filesystem on a loop-mounted image, mounted in a
private mount namespace (``unshare -m``) so that it vanishes with the test's process even if the
test is killed. Full disk (refused up front, and filling up mid-run), a read-only filesystem and a
target deleted mid-sweep: each ends with a message that says what happened, the finished points
are kept, and nothing but ssdprof's own test file is touched. Both engines."""

from __future__ import annotations

import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import requires_fio

needs_root_tools = pytest.mark.skipif(
    shutil.which("unshare") is None or shutil.which("mkfs.ext4") is None or not Path("/dev/loop-control").exists(),
    reason="needs unshare, mkfs.ext4 and loop devices (run as root on Linux)")
pytestmark = [needs_root_tools, requires_fio]

ENGINES = ["fio", "portable"]


def ext4_image(folder: Path, size_mib: int = 40) -> Path:
    image = folder / "disk.img"
    subprocess.run(["truncate", "-s", f"{size_mib}M", str(image)], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-m", "0", str(image)], check=True)
    return image


def in_mounted(image: Path, mount: Path, script: str, *, read_only: bool = False,
               timeout_s: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh) with ``image`` mounted at ``mount`` in a private mount namespace."""
    mount.mkdir(exist_ok=True)
    options = "loop,ro" if read_only else "loop"
    wrapped = f"mount -o {options} {shlex.quote(str(image))} {shlex.quote(str(mount))} || exit 99\n{script}"
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", wrapped], capture_output=True, text=True,
                          timeout=timeout_s, check=False)


def ssdprof_sh(*args: str | Path) -> str:
    return shlex.join([sys.executable, "-m", "ssdprof", *(str(a) for a in args)])


@pytest.mark.parametrize("engine", ENGINES)
def test_too_little_free_space_is_refused_before_anything_is_written(disk_dir: Path, engine: str) -> None:
    mount = disk_dir / "mnt"
    done = in_mounted(ext4_image(disk_dir), mount, f"""
{ssdprof_sh("run", "--engine", engine, "--target", mount, "--size", "64MiB", "--runtime", "1", "--ramp", "0", "--db", disk_dir / "r.db")}
echo "exit=$?"; ls -A {shlex.quote(str(mount))}""")
    assert "exit=2" in done.stdout, done.stderr
    assert "test size (--size)" in done.stderr and "does not fit" in done.stderr
    assert done.stdout.split("exit=2")[1].split() == ["lost+found"]  # nothing written


@pytest.mark.parametrize("engine", ENGINES)
def test_a_disk_that_fills_up_mid_run_ends_with_the_reason_and_touches_nothing_else(disk_dir: Path, engine: str) -> None:
    mount = disk_dir / "mnt"
    sparse, filler = mount / "sparse.dat", mount / "other-data.bin"
    done = in_mounted(ext4_image(disk_dir), mount, f"""
head -c 8M /dev/urandom > {shlex.quote(str(filler))}; sum_before=$(md5sum < {shlex.quote(str(filler))})
truncate -s 96M {shlex.quote(str(sparse))}
{ssdprof_sh("run", "--engine", engine, "--target", sparse, "--allow-overwrite", "--rw", "write", "--bs", "1m", "--size", "96MiB",
            "--runtime", "20", "--ramp", "0", "--db", disk_dir / "r.db")}
echo "exit=$?"
[ "$(md5sum < {shlex.quote(str(filler))})" = "$sum_before" ] && echo "other data intact"; ls -A {shlex.quote(str(mount))}""")
    assert "exit=1" in done.stdout, (done.stdout, done.stderr)
    assert "No space left on device" in done.stderr or "no space" in done.stderr.lower(), done.stderr
    assert "other data intact" in done.stdout
    assert sorted(done.stdout.split("other data intact")[1].split()) == ["lost+found", "other-data.bin", "sparse.dat"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_read_only_filesystem_is_refused_with_what_to_do(disk_dir: Path, engine: str) -> None:
    mount = disk_dir / "mnt"
    done = in_mounted(ext4_image(disk_dir), mount, f"""
{ssdprof_sh("run", "--engine", engine, "--target", mount, "--size", "8MiB", "--runtime", "1", "--ramp", "0", "--db", disk_dir / "r.db")}
echo "exit=$?" """, read_only=True)
    assert "exit=2" in done.stdout, done.stderr
    assert "not writable" in done.stderr and "choose a folder you can write to" in done.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_a_target_deleted_mid_sweep_keeps_the_finished_points_and_says_why_the_rest_failed(disk_dir: Path, engine: str) -> None:
    target, db = disk_dir / "target", disk_dir / "r.db"
    target.mkdir()
    sweep = subprocess.Popen([sys.executable, "-m", "ssdprof", "sweep", "--engine", engine, "--vary", "qd=1,2,4,8", "--target", str(target),
                              "--size", "16MiB", "--runtime", "1", "--ramp", "0", "--db", str(db)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _stored_runs(db):
        time.sleep(0.1)
    while target.exists() and time.monotonic() < deadline:  # the engine may be creating its next test file meanwhile
        shutil.rmtree(target, ignore_errors=True)
    out, err = sweep.communicate(timeout=120)
    assert sweep.returncode == 1, (out, err)
    assert "vanished during the sweep" in err, err
    assert 1 <= _stored_runs(db, "ok") < 4  # the points finished before are kept
    assert _stored_runs(db, "failed") >= 1  # and the rest say why they failed
    # not re-created (fio makes a missing folder before it fails; ssdprof removes that)
    assert not target.exists(), (list(target.iterdir()), err)
    assert sorted(p.name for p in disk_dir.iterdir() if not p.name.startswith("r.db")) == []


def _stored_runs(db: Path, status: str | None = None) -> int:
    try:
        with sqlite3.connect(db) as connection:
            where, args = ("WHERE status = ?", (status,)) if status else ("", ())
            return int(connection.execute(f"SELECT COUNT(*) FROM runs {where}", args).fetchone()[0])
    except sqlite3.OperationalError:
        return 0
