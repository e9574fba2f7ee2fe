"""What a result was measured on: OS, kernel, CPU, tools, device, interface and filesystem.

Recorded with every run so results from different machines can be compared honestly.
Linux reads sysfs; elsewhere the platform module and psutil give what they can.
"""

from __future__ import annotations

import os
import platform
import socket
import sys
from pathlib import Path
from typing import Any

import psutil

from ssdprof import __version__
from ssdprof.model.results import Environment
from ssdprof.target.devices import BlockDevice, interface_of

__all__ = ["block_device_of", "capture_environment", "disk_node", "interface_limit_bytes_per_s"]

# Usable payload per PCIe lane after line coding, by link rate (GT/s): bytes/s.
_PCIE_LANE_BYTES_PER_S = {2.5: 250e6, 5.0: 500e6, 8.0: 984.6e6, 16.0: 1969e6, 32.0: 3938e6, 64.0: 7877e6}
_SATA_BYTES_PER_S = {1.5: 150e6, 3.0: 300e6, 6.0: 600e6}
_SYS_BLOCK = Path("/sys/class/block")


def capture_environment(target: Path, tool_versions: dict[str, str] | None = None, *,
                        block_device: BlockDevice | None = None) -> Environment:
    """The machine and the device under ``target``; a block device target describes itself (and
    what lies beneath it) instead of the filesystem holding its node."""
    if block_device is not None:
        return _machine(tool_versions).model_copy(update=device_environment(block_device))
    device = block_device_of(target)
    facts = _device_facts(device) if device else {}
    mount = _mount_of(target)
    return _machine(tool_versions).model_copy(update={
        "device": device or "", "filesystem": mount.fstype if mount else "", "mount_options": mount.opts if mount else "",
        "mount_point": mount.mountpoint if mount else "", **facts})


def device_environment(device: BlockDevice) -> dict[str, object]:
    """Environment fields for a block device target: the device itself, and the disk at the bottom of its stack."""
    base = device.base
    interface = interface_of(base.get("name", ""), base.get("hw_path", ""))
    link = ""
    if interface == "NVMe" and base.get("pcie_speed") and base.get("pcie_width"):
        link = f"{base['pcie_speed'].replace(' PCIe', '')} PCIe x{base['pcie_width']}"
    elif interface == "SATA" and base.get("sata_speed", "<unknown>") != "<unknown>":
        link = base.get("sata_speed", "")
    scheduler = base.get("scheduler", "")
    active = scheduler[scheduler.find("[") + 1 : scheduler.find("]")] if "[" in scheduler else scheduler
    return {
        "target_device": device.path, "target_device_kind": device.kind, "target_device_bytes": device.size_bytes,
        "backing_file": device.backing_file, "device_stack": list(device.stack), "device": base.get("name", ""),
        "device_model": base.get("model", ""), "device_serial": base.get("serial", ""), "device_firmware": base.get("firmware", ""),
        "interface": interface, "pcie_link": link, "interface_limit_bytes_per_s": interface_limit_bytes_per_s(interface, link),
        "rotational": {"1": True, "0": False}.get(base.get("rotational", "")),
        "logical_block_bytes": device.logical_block_bytes, "physical_block_bytes": _int(base.get("physical_block_size", "")),
        "scheduler": active, "queue_depth_limit": _int(base.get("nr_requests", "")),
        "device_queue_depth": _int(base.get("device_queue_depth", "")),
    }


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _machine(tool_versions: dict[str, str] | None) -> Environment:
    return Environment(
        os=platform.platform(),
        kernel=platform.release(),
        hostname=socket.gethostname(),
        cpu_model=_cpu_model(),
        cpu_count=os.cpu_count() or 0,
        memory_bytes=psutil.virtual_memory().total,
        python=sys.version.split()[0],
        ssdprof=__version__,
        tool_versions=dict(tool_versions or {}),
    )


def interface_limit_bytes_per_s(interface: str, link: str) -> float | None:
    """The most the link can carry: SATA 600 MB/s at 6 Gb/s; PCIe lanes x per-lane rate."""
    words = link.replace("GT/s", " GT/s").replace("Gb/s", " Gb/s").split()
    try:
        rate = float(words[0])
    except (IndexError, ValueError):
        return 600e6 if interface == "SATA" else None
    if interface == "NVMe":
        width = next((int(w.lstrip("x")) for w in words if w.startswith("x") and w[1:].isdigit()), 1)
        return _PCIE_LANE_BYTES_PER_S.get(rate, 0) * width or None
    if interface == "SATA":
        return _SATA_BYTES_PER_S.get(rate)
    return None


def disk_node(target: Path) -> Path | None:
    """The sysfs node of the block device holding ``target`` (Linux): a partition's whole disk, a
    device-mapper or md device itself; None where there is none."""
    try:
        info = target.stat()
    except OSError:
        return None
    import stat as stat_mode

    dev = info.st_rdev if stat_mode.S_ISBLK(info.st_mode) else info.st_dev
    sys_dev = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    if not sys_dev.exists():
        return None
    node = sys_dev.resolve()
    return node.parent if (node / "partition").exists() else node


def block_device_of(target: Path) -> str | None:
    """The whole-disk block device (e.g. ``nvme0n1``) that holds ``target`` (Linux)."""
    if (node := disk_node(target)) is None:
        return None
    slaves = sorted((node / "slaves").iterdir()) if (node / "slaves").is_dir() else []
    if slaves:  # device-mapper / md: describe the first underlying disk
        first = slaves[0].resolve()
        node = first.parent if (first / "partition").exists() else first
    return node.name


def _device_facts(device: str) -> dict[str, object]:
    node = _SYS_BLOCK / device
    hardware = (node / "device").resolve() if (node / "device").exists() else None
    path = str(hardware) if hardware else ""
    interface = interface_of(device, path)
    link = _pcie_link(hardware) if interface == "NVMe" and hardware else _sata_link(hardware) if interface == "SATA" else ""
    return {
        "device_model": _read(node / "device" / "model"),
        "device_serial": (_read(node / "device" / "serial") or _read(node / "serial")
                          or _vpd_serial(node / "device")),
        "device_firmware": _read(node / "device" / "firmware_rev") or _read(node / "device" / "rev"),
        "interface": interface,
        "pcie_link": link,
        "interface_limit_bytes_per_s": interface_limit_bytes_per_s(interface, link),
        "rotational": _read(node / "queue" / "rotational") == "1" if (node / "queue" / "rotational").exists() else None,
        "logical_block_bytes": int(_read(node / "queue" / "logical_block_size") or 0) or None,
    }


def _pcie_link(hardware: Path) -> str:
    pci = (hardware / "device").resolve()
    speed = _read(pci / "current_link_speed")
    width = _read(pci / "current_link_width")
    return f"{speed.replace(' PCIe', '')} PCIe x{width}" if speed and width else ""


def _sata_link(hardware: Path | None) -> str:
    if hardware is None:
        return ""
    for parent in hardware.parents:
        if parent.name.startswith("ata") and parent.name[3:].isdigit():
            links = sorted((parent / "link" / "ata_link").glob("*")) if (parent / "link").exists() else []
            for link in links or sorted(parent.glob("link*/ata_link/link*")):
                speed = _read(link / "sata_spd")
                if speed and speed != "<unknown>":
                    return speed
    return ""


def _vpd_serial(device: Path) -> str:
    """SCSI VPD page 0x80 (libata answers it for ATA disks, which have no serial file): a 4-byte
    header, then the serial."""
    try:
        raw = (device / "vpd_pg80").read_bytes()
    except OSError:
        return ""
    return raw[4:].decode("ascii", errors="replace").strip(" \x00")


def _mount_of(target: Path) -> Any:
    real = os.path.realpath(target)
    best = None
    for part in psutil.disk_partitions(all=True):
        mountpoint = part.mountpoint.rstrip("/") or "/"
        if (real == mountpoint or real.startswith(mountpoint.rstrip("/") + "/") or mountpoint == "/") and (
            best is None or len(mountpoint) > len(best.mountpoint)
        ):
            best = part
    return best


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return ""
