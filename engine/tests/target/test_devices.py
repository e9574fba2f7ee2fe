"""Whole block devices measured end to end, on real loop devices with direct I/O over files on the disk
(infra/block_devices.py): reads and confirmed writes on both engines, the region, and every refusal (no
confirmation, region too large, mounted, held, swap, RAM), each leaving the device's data as it was."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import requires_fio
from infra import InfraUnavailable
from infra.block_devices import digest, dm_linear, in_fresh_mount, loop_device, mounted_elsewhere, require, swap_on, zram_device

from ssdprof.target.devices import parse_probe, probe_device

pytestmark = requires_fio

ENGINES = ["fio", "portable"]
DEVICE_BYTES = 64 << 20


def ssdprof(*args: str | Path, db: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ssdprof", *(str(a) for a in args), "--db", str(db)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)


@pytest.fixture
def loop(disk_dir: Path) -> Iterator[tuple[Path, Path]]:
    """(device, backing file): 64 MiB of random data behind a direct-I/O loop device."""
    backing = disk_dir / "device.img"
    backing.write_bytes(os.urandom(DEVICE_BYTES))
    try:
        with loop_device(backing) as device:
            yield device, backing
    except InfraUnavailable as reason:
        require(str(reason))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_read_names_the_loop_device_and_its_backing_file_and_writes_nothing(loop: tuple[Path, Path], engine: str,
                                                                              tmp_path: Path) -> None:
    device, backing = loop
    before = digest(backing)
    done = ssdprof("run", "--target", device, "--size", "64MiB", "--rw", "randread", "--bs", "4k", "--qd", "4", "--runtime", "2",
                   "--engine", engine, "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    environment = run["environment"]
    assert run["status"] == "ok" and run["read"]["io_count"] > 0 and run["engine"]["name"] == engine
    assert environment["target_device"] == str(device) and environment["target_device_kind"] == "loop"
    assert environment["backing_file"] == str(backing) and environment["target_device_bytes"] == DEVICE_BYTES
    assert any(str(backing) in layer and "direct I/O on" in layer for layer in environment["device_stack"])
    assert environment["filesystem"] == "" and environment["device"]  # the disk holding the file, not /dev's devtmpfs
    assert "reads 64MiB" in done.stderr and "nothing is written" in done.stderr
    assert digest(backing) == before


def test_the_default_region_is_the_whole_device(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, _ = loop
    done = ssdprof("sweep", "--target", device, "--vary", "qd=1,4", "--runtime", "1", "--estimate", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert f"reads 64MiB ({DEVICE_BYTES} bytes) from offset 0" in done.stdout
    done = ssdprof("sweep", "--target", device, "--offset", "16MiB", "--vary", "qd=1,4", "--estimate", db=tmp_path / "r.db")
    assert f"reads 48MiB ({48 << 20} bytes) from offset {16 << 20}" in done.stdout


def test_a_write_without_allow_overwrite_is_refused_and_nothing_is_written(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, backing = loop
    before = digest(backing)
    done = ssdprof("run", "--target", device, "--size", "64MiB", "--rw", "randwrite", "--runtime", "2", db=tmp_path / "r.db")
    assert done.returncode == 2, done.stderr
    assert "allow overwrite (--allow-overwrite)" in done.stderr and "pass --allow-overwrite to confirm" in done.stderr
    assert digest(backing) == before


def test_a_region_beyond_the_device_is_refused_with_both_numbers(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, backing = loop
    before = digest(backing)
    done = ssdprof("run", "--target", device, "--size", "48MiB", "--offset", "32MiB", "--rw", "write", "--allow-overwrite",
                   db=tmp_path / "r.db")
    assert done.returncode == 2, done.stderr
    assert "test size (--size)" in done.stderr and str(48 << 20) in done.stderr and str(DEVICE_BYTES) in done.stderr
    assert digest(backing) == before


@pytest.mark.parametrize("engine", ENGINES)
def test_a_confirmed_write_overwrites_its_region_and_nothing_else(loop: tuple[Path, Path], engine: str, tmp_path: Path) -> None:
    device, backing = loop
    head, region, tail = digest(backing, 0, 16 << 20), digest(backing, 16 << 20, 16 << 20), digest(backing, 32 << 20)
    done = ssdprof("run", "--target", device, "--offset", "16MiB", "--size", "16MiB", "--rw", "write", "--bs", "1m",
                   "--allow-overwrite", "--runtime", "1", "--ramp", "0", "--engine", engine, "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["write"]["io_bytes"] > 0
    assert f"OVERWRITES 16MiB ({16 << 20} bytes) from offset {16 << 20}" in done.stderr
    assert digest(backing, 0, 16 << 20) == head and digest(backing, 32 << 20) == tail
    assert digest(backing, 16 << 20, 16 << 20) != region


def test_a_confirmed_write_on_a_mounted_device_is_refused_and_its_files_stay_byte_identical(loop: tuple[Path, Path],
                                                                                           tmp_path: Path) -> None:
    device, _ = loop
    subprocess.run(["mkfs.ext4", "-q", "-F", str(device)], check=True)
    mount = tmp_path / "mnt"
    write = ["run", "--target", device, "--rw", "randwrite", "--allow-overwrite", "--runtime", "1"]
    sums = in_fresh_mount(device, mount, f"""
head -c 4M /dev/urandom > {mount}/data.bin; echo notes > {mount}/notes.txt; sync
{shlex.join([sys.executable, "-m", "ssdprof", *map(str, write), "--db", str(tmp_path / "r.db")])}
echo "exit=$?"; sha256sum {mount}/data.bin {mount}/notes.txt""")
    assert "exit=2" in sums.stdout, sums.stderr
    assert f"{device} is in use: it is mounted at {mount} (unmount it first: umount {mount})" in sums.stderr
    with mounted_elsewhere(device, mount):  # invisible to this process's mount table; the kernel still knows
        done = ssdprof(*write, db=tmp_path / "r.db")
    assert done.returncode == 2 and "in use (an exclusive open fails)" in done.stderr, done.stderr
    again = in_fresh_mount(device, mount, f"sha256sum {mount}/data.bin {mount}/notes.txt")  # read back from the device
    assert again.stdout.strip() == sums.stdout.split("exit=2", 1)[1].strip()


@pytest.mark.kernel_feature("device-mapper (CONFIG_BLK_DEV_DM); the holder rule is also tested on probe lines below")
def test_a_write_to_a_device_held_by_device_mapper_is_refused(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, backing = loop
    before = digest(backing)
    try:
        with dm_linear(device, f"ssdprof-test-{os.getpid()}") as mapped:
            done = ssdprof("run", "--target", device, "--rw", "write", "--allow-overwrite", "--runtime", "1", db=tmp_path / "r.db")
            assert mapped.exists()
    except InfraUnavailable as reason:
        require(str(reason))
    assert done.returncode == 2, done.stderr
    assert "is held by dm-" in done.stderr and "dmsetup remove" in done.stderr
    assert digest(backing) == before


def test_a_write_to_a_swap_device_is_refused(loop: tuple[Path, Path], tmp_path: Path) -> None:
    device, backing = loop
    try:
        with swap_on(device):
            # The kernel may page out to an active swap device at any moment, but never over its first page (the
            # swap header); a write from ssdprof would start there, at offset 0.
            before = digest(backing, 0, 4096)
            done = ssdprof("run", "--target", device, "--rw", "write", "--allow-overwrite", "--runtime", "1", db=tmp_path / "r.db")
            after = digest(backing, 0, 4096)
    except InfraUnavailable as reason:
        require(str(reason))
    assert done.returncode == 2, done.stderr
    assert f"is in use as swap (swapoff {device} first)" in done.stderr
    assert after == before


def test_a_zram_device_is_refused_because_it_is_ram(tmp_path: Path) -> None:
    try:
        with zram_device(DEVICE_BYTES, tmp_path) as device:
            done = ssdprof("run", "--target", device, "--size", "16MiB", "--runtime", "1", db=tmp_path / "r.db")
    except InfraUnavailable as reason:
        require(str(reason))
    assert done.returncode == 2
    assert "is a zram device, a compressed RAM disk: no SSD would be measured" in done.stderr, done.stderr


def test_a_loop_device_is_judged_by_what_backs_it(tmp_path: Path) -> None:
    with tempfile.TemporaryDirectory(dir="/dev/shm") as ram:  # tmpfs: the loop device lives in RAM
        backing = Path(ram) / "in-ram.img"
        backing.write_bytes(bytes(16 << 20))
        try:
            with loop_device(backing, direct_io=False) as device:
                done = ssdprof("run", "--target", device, "--size", "8MiB", "--runtime", "1", db=tmp_path / "r.db")
                assert probe_device(device).backing_filesystem == "tmpfs"
        except InfraUnavailable as reason:
            require(str(reason))
    assert done.returncode == 2
    assert f"is a loop device backed by {backing} on tmpfs, which lives in RAM" in done.stderr, done.stderr


def test_a_mounted_partition_keeps_the_whole_disk_from_being_written() -> None:
    # This kernel has no partition tables (no CONFIG_*_PARTITION), so the probe's lines for one are written out here.
    device = parse_probe("/dev/sdb", "target=sdb disk 1000204886016 512\nbase.name=sdb\nbase.model=Samsung SSD 870\n"
                                     "mount=/home /dev/sdb1\nholder=dm-0 cryptroot /dev/sdb2\n")
    assert device.uses() == [
        "its partition /dev/sdb1 is mounted at /home (unmount it first: umount /home)",
        "its partition /dev/sdb2 is held by dm-0 (cryptroot), an LVM, md, dm-crypt or other device-mapper device built on it "
        "(remove or deactivate dm-0 (cryptroot) first, e.g. dmsetup remove, vgchange -an, mdadm --stop)",
    ]
    assert device.describe() == "/dev/sdb (Samsung SSD 870, 931.5GiB)"


def test_an_ata_disks_full_model_serial_and_firmware_come_from_its_identify_data() -> None:
    # Bytes 20-93 of ATA IDENTIFY data, each pair of bytes swapped, as device_probe.sh reads them from VPD
    # page 0x89: the SCSI model file keeps only 16 characters of a 40-character model.
    def ata(text: str, width: int) -> bytes:
        raw = text.ljust(width).encode()
        return b"".join(raw[i + 1 : i + 2] + raw[i : i + 1] for i in range(0, width, 2))

    identify = ata("S6PNNS0T123456", 20) + bytes(6) + ata("SVT02B6Q", 8) + ata("Samsung SSD 870 EVO 1TB", 40)
    device = parse_probe("/dev/sdb", "target=sdb disk 1000204886016 512\nbase.name=sdb\nbase.model=Samsung SSD 870\n"
                                     f"base.serial=\nbase.firmware=2B6Q\nbase.ata_identify={identify.hex()}\n")
    assert (device.base["model"], device.base["serial"], device.base["firmware"]) == (
        "Samsung SSD 870 EVO 1TB", "S6PNNS0T123456", "SVT02B6Q")
    assert "ata_identify" not in device.base
    unreadable = parse_probe("/dev/sdb", "target=sdb disk 1000 512\nbase.name=sdb\nbase.model=M\nbase.ata_identify=zz\n")
    assert unreadable.base["model"] == "M"


def test_an_md_array_and_a_striped_volume_name_their_level_chunk_and_every_members_interface() -> None:
    # device_probe.sh's lines for arrays in the lab node (tests/remote/test_lab_node.py runs the real ones).
    virtio = "/sys/devices/pci0000:00/0000:00:06.0/virtio3"
    sata = "/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"
    md = parse_probe("/dev/md0", "target=md0 md 804782080 512\nlayer=md0 md raid5 65536\n"
                                 f"member=md0 vda {virtio}\nmember=md0 sda1 {sata}\nbase.name=vda\n")
    assert md.stack[0] == "md0: md RAID 5, chunk 64KiB, over vda (virtio), sda1 (SATA)"
    mirror = parse_probe("/dev/md1", "target=md1 md 1000 512\nlayer=md1 md raid1 0\nmember=md1 vdb /x/virtio4\n")
    assert mirror.stack[0] == "md1: md RAID 1, over vdb (virtio)"
    lvm = parse_probe("/dev/dm-0", "target=dm-0 dm 134217728 512\nlayer=dm-0 dm vg-lv\n"
                                   "dmtable=dm-0 striped 2 128 254:0 2048 254:16 2048\n"
                                   f"member=dm-0 vda {virtio}\nmember=dm-0 vdb {virtio}\n")
    assert lvm.stack[0] == "dm-0: device-mapper vg-lv, striped over 2 (chunk 64KiB), over vda (virtio), vdb (virtio)"
    linear = parse_probe("/dev/dm-1", "target=dm-1 dm 1000 512\nlayer=dm-1 dm vg-one\ndmtable=dm-1 linear 254:0 2048\n")
    assert linear.stack[0] == "dm-1: device-mapper vg-one, linear"
