"""Purging before a PTS test on a real loop device (a loop device over a file supports discard: blkdiscard
punches holes in the file, so the device reads back zeros) and on files; refused wherever it is not safe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import requires_fio
from infra import InfraUnavailable
from infra.block_devices import loop_device, mounted_elsewhere, require

from ssdprof.model.workload import WorkloadError, parse_workload
from ssdprof.target.devices import probe_device
from ssdprof.target.purge import FILE_LIMITATION, discard_max_bytes, purge_device, purge_file, purge_refusal, target_identity

DEVICE_BYTES = 64 << 20


@pytest.fixture
def loop(disk_dir: Path) -> Iterator[tuple[Path, Path]]:
    backing = disk_dir / "device.img"
    backing.write_bytes(os.urandom(DEVICE_BYTES))
    try:
        with loop_device(backing) as device:
            yield device, backing
    except InfraUnavailable as reason:
        require(str(reason))


def ssdprof(*args: str | Path, db: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ssdprof", *(str(a) for a in args), "--db", str(db)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)


def test_a_loop_device_over_a_file_supports_discard_as_lsblk_shows(loop: tuple[Path, Path]) -> None:
    device, _ = loop
    shown = subprocess.run(["lsblk", "-bndDo", "DISC-GRAN,DISC-MAX", str(device)], capture_output=True, text=True, check=True)
    granularity, maximum = (int(v) for v in shown.stdout.split())
    assert granularity > 0 and maximum > 0
    assert discard_max_bytes(probe_device(device)) == maximum


def test_blkdiscard_purges_the_region_and_the_device_reads_back_zeros(loop: tuple[Path, Path]) -> None:
    device, backing = loop
    workload = parse_workload({"target": str(device), "size_bytes": DEVICE_BYTES, "pattern": "write", "allow_overwrite": True})
    record = purge_device(probe_device(device), workload)
    assert record.method == "blkdiscard"
    assert record.detail.startswith(f"blkdiscard of all 64MiB of {device}") and record.limitation == ""
    with device.open("rb") as data:
        assert data.read(1 << 20) == bytes(1 << 20)
    assert target_identity(device, probe_device(device)) == f"file:{backing}"


def test_a_purge_without_allow_overwrite_is_refused_naming_the_reason(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, backing = loop
    before = backing.read_bytes()[:4096]
    done = ssdprof("pts", "latency", "--target", device, "--purge", "--json", db=tmp_path / "r.db")
    assert done.returncode == 2
    problem = json.loads(done.stdout)["problems"][0]
    assert problem["field"] == "purge" and "pass --allow-overwrite to confirm" in problem["message"]
    assert backing.read_bytes()[:4096] == before


def test_a_purge_of_a_mounted_device_is_refused_and_nothing_is_discarded(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, _ = loop
    subprocess.run(["mkfs.ext4", "-q", "-F", str(device)], check=True)
    workload = parse_workload({"target": str(device), "size_bytes": DEVICE_BYTES, "pattern": "write", "allow_overwrite": True})
    with mounted_elsewhere(device, tmp_path / "mnt"):  # invisible to this process's mount table; the kernel still knows
        with pytest.raises(WorkloadError, match="in use") as refused:
            purge_device(probe_device(device), workload)
        assert refused.value.problems[0].field == "purge"
        done = ssdprof("pts", "latency", "--target", device, "--purge", "--allow-overwrite", db=tmp_path / "r.db")
        # the CLI's target check refuses it first, before any purge is tried
        assert done.returncode == 2 and "in use" in done.stderr, done.stderr
    with device.open("rb") as data:
        data.seek(1024 + 56)
        assert data.read(2) == b"\x53\xef"  # the ext4 superblock is still there: nothing was discarded


@requires_fio
def test_a_pts_test_with_purge_records_blkdiscard_in_its_drive_state(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, _ = loop
    done = ssdprof("pts", "latency", "--target", device, "--allow-overwrite", "--purge", "--precondition", "none",
                   "--profile", "laptop", "--round-time", "1s", "--window", "2", "--min-rounds", "2", "--max-rounds", "2",
                   "--bs", "4k", "--mixes", "0", "--engine", "fio", "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["drive_state"]
    assert state["preparation"] == "purge" and state["purge"]["method"] == "blkdiscard"
    assert state["ledger_since"] == "purge" and state["bytes_written_since_purge"] == 0
    assert "purged: blkdiscard of all 64MiB" in done.stderr


def test_a_file_is_purged_by_a_new_file_and_says_what_that_cannot_reach(tmp_path: Path) -> None:
    target = tmp_path / "ssdprof-testfile-pts9.dat"
    target.write_bytes(b"old" * 1000)
    record = purge_file(target, 8192, lambda path, size: float(path.write_bytes(os.urandom(size))))
    assert record.method == "new-file" and record.limitation == FILE_LIMITATION
    assert "cannot be purged below the filesystem" in record.limitation
    assert target.stat().st_size == 8192


def test_purging_a_users_file_needs_allow_overwrite(tmp_path: Path) -> None:
    mine = tmp_path / "data.bin"
    mine.write_bytes(bytes(8192))
    workload = parse_workload({"target": str(mine), "size_bytes": 8192})
    assert "pass --allow-overwrite" in purge_refusal(workload, None, is_file=True)
    assert purge_refusal(workload.model_copy(update={"allow_overwrite": True}), None, is_file=True) == ""
