"""Real block devices for the device tests: loop devices with direct I/O over files on the disk, a
mount held in a private mount namespace, a device-mapper linear target, swap, and a zram RAM disk.

Each is a context manager that removes what it made when the block ends, test failure or not; a
part this machine cannot make raises InfraUnavailable with the reason (``require`` turns that into a
skip, which infra/ci_rule.py makes a failure under CI=true).

PYTEST_DONT_REWRITE
"""

from __future__ import annotations

import hashlib
import os
import shlex
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from . import InfraError, InfraUnavailable, run, which

__all__ = ["dm_linear", "loop_device", "mounted_elsewhere", "require", "swap_on", "zram_device"]


def require(reason: str | None) -> None:
    """Skip without the real part, saying why (under CI=true, infra/ci_rule.py makes that a failure)."""
    if reason is not None:
        pytest.skip(reason)


def loop_unavailable_reason() -> str | None:
    if os.geteuid() != 0:
        return "loop devices need root"
    if which("losetup") is None or not Path("/dev/loop-control").exists():
        return "loop devices need losetup (util-linux) and /dev/loop-control"
    return None


@contextmanager
def loop_device(backing: Path, *, direct_io: bool = True) -> Iterator[Path]:
    """A loop device over ``backing`` (with direct I/O unless told otherwise), detached afterwards."""
    reason = loop_unavailable_reason()
    if reason:
        raise InfraUnavailable(reason)
    argv = ["losetup", *(["--direct-io=on"] if direct_io else []), "--find", "--show", str(backing)]
    device = Path(run(argv).stdout.strip())
    try:
        yield device
    finally:
        run(["losetup", "--detach", str(device)], check=False)


@contextmanager
def mounted_elsewhere(device: Path, mount_point: Path) -> Iterator[None]:
    """``device`` mounted at ``mount_point`` in a private mount namespace, held by a process that waits on
    stdin: the mount is invisible to this process's mount table and vanishes when that process ends."""
    mount_point.mkdir(exist_ok=True)
    script = f"mount {shlex.quote(str(device))} {shlex.quote(str(mount_point))} || exit 99; echo mounted; read _"
    holder = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c", script], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        if holder.stdout.readline().strip() != "mounted":
            raise InfraError(f"could not mount {device}: {holder.communicate(timeout=10)[1].strip()}")
        yield
    finally:
        if holder.poll() is None:
            holder.communicate(input="\n", timeout=30)


def dm_unavailable_reason() -> str | None:
    if which("dmsetup") is None:
        return "a device-mapper target needs dmsetup (apt install dmsetup)"
    probe = run(["dmsetup", "version"], check=False)
    if probe.returncode != 0 or "Driver version" not in probe.stdout:
        return f"this kernel has no device-mapper driver (CONFIG_BLK_DEV_DM): {(probe.stderr or probe.stdout).strip()[:200]}"
    return None


@contextmanager
def dm_linear(device: Path, name: str) -> Iterator[Path]:
    """A device-mapper linear target over all of ``device`` (so ``device`` is held), removed afterwards."""
    reason = dm_unavailable_reason()
    if reason:
        raise InfraUnavailable(reason)
    sectors = run(["blockdev", "--getsz", str(device)]).stdout.strip()
    run(["dmsetup", "create", name, "--table", f"0 {sectors} linear {device} 0"])
    try:
        yield Path("/dev/mapper") / name
    finally:
        run(["dmsetup", "remove", "--retry", name], check=False)


@contextmanager
def swap_on(device: Path) -> Iterator[None]:
    """``device`` formatted and used as swap, switched off afterwards."""
    if which("mkswap") is None or which("swapon") is None:
        raise InfraUnavailable("swap needs mkswap and swapon (util-linux)")
    run(["mkswap", str(device)])
    enabled = run(["swapon", str(device)], check=False)
    if enabled.returncode != 0:
        raise InfraUnavailable(f"swapon {device} failed: {enabled.stderr.strip()}")
    try:
        yield
    finally:
        run(["swapoff", str(device)], check=False)


@contextmanager
def zram_device(size_bytes: int, folder: Path) -> Iterator[Path]:
    """A zram RAM disk of its own (hot-added), removed afterwards. Its node is made in ``folder`` when
    nothing (udev) makes one in /dev."""
    control = Path("/sys/class/zram-control")
    if os.geteuid() != 0 or not control.is_dir():
        raise InfraUnavailable("a zram device needs root and a kernel with zram (CONFIG_ZRAM)")
    number = (control / "hot_add").read_text().strip()
    try:
        Path(f"/sys/block/zram{number}/disksize").write_text(str(size_bytes))
        node = Path(f"/dev/zram{number}")
        if not node.exists():
            major, minor = Path(f"/sys/block/zram{number}/dev").read_text().split(":")
            node = folder / f"zram{number}"
            os.mknod(node, 0o600 | stat.S_IFBLK, os.makedev(int(major), int(minor)))
        yield node
    finally:
        Path(f"/sys/block/zram{number}/reset").write_text("1")
        (control / "hot_remove").write_text(number)


def digest(path: Path, start: int = 0, length: int | None = None) -> str:
    with path.open("rb") as file:
        file.seek(start)
        return hashlib.sha256(file.read(length) if length is not None else file.read()).hexdigest()


def in_fresh_mount(device: Path, mount: Path, script: str) -> subprocess.CompletedProcess[str]:
    mount.mkdir(exist_ok=True)
    wrapped = f"mount {shlex.quote(str(device))} {shlex.quote(str(mount))} || exit 99\n{script}"
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", wrapped], capture_output=True, text=True,
                          timeout=180, check=False)
