"""Block devices as targets: what a device is, what lies beneath it, who uses it, and when ssdprof
refuses to touch it.

The facts come from sysfs through ``device_probe.sh``, the same script on this machine and (over
SSH) on remote hosts, so a local and a remote device are judged by one set of rules. Locally the
kernel is asked too: an exclusive open fails while anything has claimed the device (a mount in any
mount namespace, device-mapper, md, swap), and ssdprof keeps that claim for a write run.
"""

from __future__ import annotations

import errno
import os
import subprocess
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ssdprof.model.quantities import format_size
from ssdprof.model.workload import FIELD_RULES, FieldProblem, Workload

__all__ = ["BlockDevice", "claim_exclusively", "device_problems", "interface_of", "list_devices",
           "parse_probe", "probe_device", "probe_script"]

RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "hugetlbfs", "devtmpfs"})
_PROBE_TIMEOUT_S = 20.0


@cache
def probe_script() -> str:
    """The POSIX sh program that prints a device's facts (run with the device path as $1)."""
    return Path(__file__).with_name("device_probe.sh").read_text()


@dataclass(frozen=True)
class BlockDevice:
    path: str
    name: str = ""
    kind: str = ""
    """disk, partition, loop, zram, ram (brd), dm or md."""
    size_bytes: int = 0
    logical_block_bytes: int = 512
    stack: tuple[str, ...] = ()
    """From the device down to the disk holding its data, one readable line per layer."""
    backing_file: str = ""
    backing_filesystem: str = ""
    loop_direct_io: bool | None = None
    base: dict[str, str] = field(default_factory=dict)
    """The disk at the bottom: model, serial, firmware, queue limits, link (sysfs names)."""
    mounts: tuple[str, ...] = ()
    holders: tuple[str, ...] = ()
    swaps: tuple[str, ...] = ()
    error: str = ""

    @property
    def model(self) -> str:
        return self.base.get("model", "")

    def describe(self) -> str:
        """e.g. ``/dev/loop3 (loop device over /var/tmp/a.img on vda, 64 MiB)``."""
        what = {"loop": f"loop device over {self.backing_file}" + (f" on {self.base_name}" if self.base_name else ""),
                "partition": f"partition of {self.base_name}", "zram": "zram RAM disk", "ram": "RAM disk (brd)",
                "dm": f"device-mapper device over {self.base_name}", "md": f"md array over {self.base_name}"}.get(self.kind, "")
        details = ", ".join(part for part in (self.model, what, _capacity(self.size_bytes)) if part)
        return f"{self.path} ({details})"

    @property
    def base_name(self) -> str:
        return self.base.get("name", "")

    def ram_reason(self) -> str | None:
        """Why measuring this device would measure memory, or None."""
        if self.kind == "zram" or self.base.get("kind") == "zram":
            return f"{self.path} is a zram device, a compressed RAM disk"
        if self.kind == "ram" or self.base.get("kind") == "ram":
            return f"{self.path} is a RAM disk (brd)"
        if self.backing_filesystem in RAM_FILESYSTEMS:
            return f"{self.path} is a loop device backed by {self.backing_file} on {self.backing_filesystem}, which lives in RAM"
        return None

    def uses(self) -> list[str]:
        """What makes writing unsafe, each with what to do about it."""
        found = []
        for mount in self.mounts:
            point, _, source = mount.partition(" ")
            whose = "it is" if source in ("", self.path, f"/dev/{self.name}") else f"its partition {source} is"
            found.append(f"{whose} mounted at {point} (unmount it first: umount {point})")
        for holder in self.holders:
            name, mapped, source = ([*holder.split(" "), "", ""])[:3]
            label = f"{name} ({mapped})" if mapped else name
            whose = "it" if source in ("", f"/dev/{self.name}") else f"its partition {source}"
            found.append(f"{whose} is held by {label}, an LVM, md, dm-crypt or other device-mapper device built on it "
                         f"(remove or deactivate {label} first, e.g. dmsetup remove, vgchange -an, mdadm --stop)")
        for swap in self.swaps:
            found.append(f"{swap} is in use as swap (swapoff {swap} first)")
        return found


def probe_device(path: Path) -> BlockDevice:
    """This machine's facts about the block device at ``path`` (Linux; elsewhere only its size)."""
    if not Path("/sys/dev/block").is_dir():
        return BlockDevice(path=str(path), name=path.name, kind="disk", size_bytes=_seek_size(path))
    try:
        done = subprocess.run(["sh", "-c", probe_script(), "device_probe", str(path)], capture_output=True, text=True,
                              timeout=_PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return BlockDevice(path=str(path), error=f"cannot describe {path}: {exc}")
    return parse_probe(str(path), done.stdout or f"error={done.stderr.strip()[:300]}")


def list_devices(sys_class_block: Path = Path("/sys/class/block")) -> list[BlockDevice]:
    """This machine's block devices and partitions that have a size (unused loop devices have none)."""
    found = []
    for entry in sorted(sys_class_block.iterdir()) if sys_class_block.is_dir() else []:
        try:
            sectors = int((entry / "size").read_text().strip() or 0)
        except (OSError, ValueError):
            continue
        node = Path("/dev") / entry.name
        if sectors and node.exists():
            found.append(probe_device(node))
    return found


def interface_of(device: str, hardware_path: str) -> str:
    """NVMe, SATA, USB, virtio, SCSI/SAS or memory/loop, from a disk's name and sysfs hardware path."""
    if device.startswith("nvme"):
        return "NVMe"
    markers = (("/ata", "SATA"), ("/usb", "USB"), ("virtio", "virtio"), ("/host", "SCSI/SAS"))
    for marker, name in markers:
        if marker in hardware_path:
            return name
    if device.startswith(("loop", "zram", "ram")):
        return "memory/loop"
    return ""


def parse_probe(path: str, text: str) -> BlockDevice:
    """The device from device_probe.sh's key=value lines."""
    values: dict[str, list[str]] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values.setdefault(key.strip(), []).append(value.strip())
    if "target" not in values:
        return BlockDevice(path=path, error=(values.get("error") or [f"no facts about {path}"])[0])
    name, kind, size, logical = ([*values["target"][0].split(), "", "", "0", "512"])[:4]
    base = _with_ata_identity({key.removeprefix("base."): items[0] for key, items in values.items()
                               if key.startswith("base.")})
    stack, backing, backing_fs, dio = [], "", "", None
    for layer in values.get("layer", []):
        words = layer.split(" ", 4)
        if len(words) >= 4 and words[1] == "loop":
            dio = words[2] == "1"
            backing_fs = "ext4" if words[3] == "ext2/ext3" else words[3]
            backing = words[4] if len(words) > 4 else ""
            stack.append(f"{words[0]}: loop device over {backing} ({backing_fs}, direct I/O {'on' if dio else 'off'})")
        elif len(words) >= 3 and words[1] == "filesystem":
            backing_fs = words[2]
        elif len(words) >= 2 and words[1] in ("md", "dm"):
            stack.append(_array_layer(words, values))
        else:
            stack.append(f"{words[0]}: {' '.join(words[1:])}")
    if base:
        stack.append(f"{base.get('name')}: {base.get('model') or base.get('kind', 'disk')}, holding the data")
    return BlockDevice(path=path, name=name, kind=kind, size_bytes=_int(size), logical_block_bytes=_int(logical) or 512,
                       stack=tuple(stack), backing_file=backing, backing_filesystem=backing_fs, loop_direct_io=dio, base=base,
                       mounts=tuple(dict.fromkeys(values.get("mount", []))), holders=tuple(dict.fromkeys(values.get("holder", []))),
                       swaps=tuple(dict.fromkeys(values.get("swap", []))))


def _array_layer(words: list[str], values: dict[str, list[str]]) -> str:
    """An md or dm layer in words: its RAID level and chunk, or its device-mapper target, and every
    member with its interface, e.g. ``md0: md RAID 5, chunk 512KiB, over vda (virtio), vdb (virtio)``."""
    name = words[0]
    members = [m.split(" ", 2) for m in values.get("member", []) if m.split(" ", 1)[0] == name]
    over = ", ".join(f"{m[1]} ({interface_of(m[1], m[2] if len(m) > 2 else '') or 'unknown'})"
                     for m in members if len(m) > 1)
    if words[1] == "md":
        level = words[2] if len(words) > 2 else ""
        chunk = _int(words[3]) if len(words) > 3 else 0
        raid = level.startswith("raid")
        what = "md " + (f"RAID {level.removeprefix('raid')}" if raid else level or "array")
        what += f", chunk {format_size(chunk)}" if chunk and level not in ("raid1", "linear") else ""
    else:
        tables = [t.split()[1:] for t in values.get("dmtable", []) if t.split(" ", 1)[0] == name]
        table = tables[0] if tables else []
        what = "device-mapper " + " ".join(words[2:3])
        if table[:1] == ["striped"] and len(table) >= 3:
            what += f", striped over {table[1]} (chunk {format_size(_int(table[2]) * 512)})"
        elif table:
            what += f", {table[0]}"
    return f"{name}: {what}" + (f", over {over}" if over else "")


def _with_ata_identity(base: dict[str, str]) -> dict[str, str]:
    """An ATA disk's own serial, firmware and model from its IDENTIFY data (bytes 20-93, as hex), in
    place of the SCSI translation's (whose model file keeps 16 characters and revision 4)."""
    raw = base.pop("ata_identify", "")
    try:
        data = bytes.fromhex(raw)
    except ValueError:
        return base
    if len(data) < 74:
        return base
    swapped = b"".join(data[i + 1 : i + 2] + data[i : i + 1] for i in range(0, len(data) - 1, 2))

    def text(start: int, end: int) -> str:  # offsets in IDENTIFY data
        return swapped[start - 20 : end - 20].decode("ascii", errors="replace").strip(" \x00")

    found = {"serial": text(20, 40), "firmware": text(46, 54), "model": text(54, 94)}
    return {**base, **{key: value for key, value in found.items() if value}}


def device_problems(device: BlockDevice, workload: Workload) -> list[FieldProblem]:
    """Every reason not to run ``workload`` on ``device``, each naming the field and what to do."""
    if device.error:
        return [_problem("target", f"{device.error}; give a block device this user can read")]
    problems = []
    end_bytes = workload.offset_bytes + workload.size_bytes
    if end_bytes > device.size_bytes:
        problems.append(_problem("size_bytes", (
            f"the region ({format_size(workload.size_bytes)} = {workload.size_bytes} bytes from offset {workload.offset_bytes}) "
            f"ends beyond the device {device.describe()}, which has {device.size_bytes} bytes; choose --size and --offset "
            f"within it, or leave --size out to use the whole device")))
    ram = device.ram_reason()
    if ram and workload.direct:
        problems.append(_problem("target", f"{ram}: no SSD would be measured; choose a device on the SSD "
                                           "(or pass --buffered to measure memory, labelled as such)"))
    if workload.does_write:
        if not workload.allow_overwrite:
            problems.append(_problem("allow_overwrite", (
                f"writing destroys {format_size(workload.size_bytes)} of data on {device.describe()} from offset "
                f"{workload.offset_bytes}; pass --allow-overwrite to confirm (reads need no confirmation)")))
        uses = device.uses()
        if uses:
            problems.append(_problem("target", f"{device.path} is in use: {'; '.join(uses)}; ssdprof never writes to a device in use"))
    return problems


def claim_exclusively(path: Path) -> int | str:
    """An exclusive descriptor on the device (nothing can mount or claim it while held), or why not."""
    try:
        return os.open(path, os.O_RDONLY | getattr(os, "O_EXCL", 0))
    except OSError as exc:
        if exc.errno == errno.EBUSY:
            return (f"the kernel reports {path} in use (an exclusive open fails): it is mounted, perhaps in another "
                    "mount namespace or container, or claimed by device-mapper, md or swap; free it first")
        return f"cannot open {path}: {exc.strerror}"


def _problem(name: str, message: str) -> FieldProblem:
    return FieldProblem(field=name, flag=FIELD_RULES[name][0], message=message)


def _seek_size(path: Path) -> int:
    try:
        with path.open("rb") as device:
            return device.seek(0, os.SEEK_END)
    except OSError:
        return 0


def _capacity(size_bytes: int) -> str:
    """A device's size as people say it: ``931.5GiB``, ``64MiB`` (exact counts are given where they matter)."""
    if size_bytes < 1 << 30 or size_bytes % (1 << 30) == 0:
        return format_size(size_bytes)
    unit, factor = ("TiB", 1 << 40) if size_bytes >= 1 << 40 else ("GiB", 1 << 30)
    return f"{size_bytes / factor:.1f}{unit}"


def _int(text: str) -> int:
    return int(text) if text.strip().isdigit() else 0
