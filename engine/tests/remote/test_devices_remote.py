"""A block device as the target on an SSH test host (tests/infra: sshd in a network namespace, which shares
this machine's devices): the host describes its device with the same probe, and the same rules refuse."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra import InfraUnavailable
from infra.block_devices import digest, in_fresh_mount, loop_device, require
from infra.netns_hosts import ssdprof_on_hosts as ssdprof

pytestmark = requires_fio


@pytest.fixture
def loop(disk_dir: Path) -> Iterator[tuple[Path, Path]]:
    backing = disk_dir / "device.img"
    backing.write_bytes(os.urandom(64 << 20))
    try:
        with loop_device(backing) as device:
            yield device, backing
    except InfraUnavailable as reason:
        require(str(reason))


def test_a_device_on_a_host_is_read_and_named_in_the_environment(ssh_hosts: Any, loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, backing = loop
    before = digest(backing)
    done = ssdprof(ssh_hosts, "run", "--host", "h1", "--remote-device", str(device), "--size", "32MiB", "--rw", "randread",
                   "--qd", "4", "--runtime", "2", "--ramp", "0", "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert "test file" not in done.stderr, "a device is measured as it is: nothing is laid out"
    run = json.loads(done.stdout)
    assert run["status"] == "ok" and run["read"]["io_count"] > 0
    assert run["hosts"][0]["target"] == str(device)
    assert run["environment"]["target_device"] == str(device) and run["environment"]["backing_file"] == str(backing)
    assert "allow_mounted_write=0" in run["job_text"] and f"filename={device}" in run["job_text"]
    queue = run["hosts"][0]["device_queue"]  # the device's own counters on the host
    assert queue is not None and queue["disk"] == device.name and queue["requested_outstanding"] == 4
    assert 0 < queue["mean_in_flight"] <= 4 * 1.5
    assert digest(backing) == before


def test_a_write_on_a_host_needs_confirmation_and_then_overwrites_only_its_region(ssh_hosts: Any, loop: tuple[Path, Path],
                                                                                   tmp_path: Path) -> None:
    device, backing = loop
    before = digest(backing)
    args = ["run", "--host", "h1", "--remote-device", f"h1={device}", "--size", "16MiB", "--offset", "16MiB", "--rw", "write",
            "--bs", "1m", "--runtime", "1", "--ramp", "0", "--json"]
    refused = ssdprof(ssh_hosts, *args, db=tmp_path / "r.db")
    assert refused.returncode == 2 and "h1: writing destroys 16MiB" in refused.stderr, refused.stderr
    assert digest(backing) == before
    head, tail = digest(backing, 0, 16 << 20), digest(backing, 32 << 20)
    done = ssdprof(ssh_hosts, *args, "--allow-overwrite", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["write"]["io_bytes"] > 0
    assert digest(backing, 0, 16 << 20) == head and digest(backing, 32 << 20) == tail and digest(backing) != before


def test_a_region_beyond_a_hosts_device_is_refused_with_both_numbers(ssh_hosts: Any, loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, _ = loop
    done = ssdprof(ssh_hosts, "run", "--host", "h1", "--remote-device", str(device), "--size", "128MiB", "--runtime", "1",
                   db=tmp_path / "r.db")
    assert done.returncode == 2, done.stderr
    assert "h1: the region" in done.stderr and str(128 << 20) in done.stderr and str(64 << 20) in done.stderr


def test_a_confirmed_write_to_a_device_mounted_on_the_host_is_refused_and_its_files_stay_intact(ssh_hosts: Any, loop: tuple[Path, Path],
                                                                                               tmp_path: Path) -> None:
    device, _ = loop
    subprocess.run(["mkfs.ext4", "-q", "-F", str(device)], check=True)
    mount = Path(ssh_hosts.host_dirs["h1"]) / "mnt"
    mounted = subprocess.run(ssh_hosts.ssh_argv("h1", ["sh", "-c", f"mkdir -p {mount} && mount {device} {mount} && "
                                                                   f"head -c 1M /dev/urandom > {mount}/data.bin && sync && "
                                                                   f"sha256sum {mount}/data.bin"]),
                             capture_output=True, text=True, timeout=60, check=False)
    try:
        assert mounted.returncode == 0, mounted.stderr
        done = ssdprof(ssh_hosts, "run", "--host", "h1", "--remote-device", str(device), "--size", "16MiB", "--rw", "randwrite",
                       "--allow-overwrite", "--runtime", "1", db=tmp_path / "r.db")
    finally:
        subprocess.run(ssh_hosts.ssh_argv("h1", ["umount", str(mount)]), capture_output=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert f"h1: {device} is in use: it is mounted at {mount} (unmount it first: umount {mount})" in done.stderr
    again = in_fresh_mount(device, tmp_path / "check", f"sha256sum {mount}/data.bin".replace(str(mount), str(tmp_path / "check")))
    assert again.stdout.split()[0] == mounted.stdout.split()[0]  # read back from the device, not a cache
