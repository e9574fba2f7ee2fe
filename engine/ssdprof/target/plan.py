"""Where a workload writes, checked before anything is written.

A directory gets a test file that ssdprof creates, sizes and removes; an existing file is used
as it is (writes only with the user's consent); a block device (:mod:`ssdprof.target.devices`) is
read-only unless the user confirms writes, and a device in use (mounted, held, swap) is never
written. A file or device region starts at ``offset_bytes``; on a device it defaults to all of it.
"""

from __future__ import annotations

import enum
import os
import secrets
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import psutil

from ssdprof.model.quantities import format_amount, format_size, parse_size_bytes
from ssdprof.model.workload import FIELD_RULES, FieldProblem, Workload, WorkloadError
from ssdprof.target.devices import BlockDevice, claim_exclusively, device_problems, probe_device

__all__ = [
    "TEST_FILE_PREFIX",
    "DeviceRegion",
    "TargetKind",
    "TargetPlan",
    "default_target_dir",
    "device_region",
    "direct_io_refusal",
    "hold_device",
    "plan_target",
    "remove_stale_test_files",
    "remove_test_file",
    "whole_device_bytes",
    "widest",
    "with_whole_device",
]

TEST_FILE_PREFIX = "ssdprof-testfile-"
FREE_SPACE_MARGIN_BYTES = 64 << 20


class TargetKind(str, enum.Enum):
    DIRECTORY = "directory"
    FILE = "file"
    BLOCK_DEVICE = "block_device"


@dataclass(frozen=True)
class TargetPlan:
    kind: TargetKind
    path: Path
    """The file or device the engine opens."""
    created_by_us: bool
    size_bytes: int
    device: BlockDevice | None = None
    """The block device's facts, when the target is one."""


def default_target_dir() -> Path:
    """A folder on the local disk (not /tmp, which is RAM-backed tmpfs on many systems)."""
    return Path(platformdirs.user_cache_dir("ssdprof")) / "scratch"


def plan_target(workload: Workload, default_dir: Path | None = None, *, test_file: Path | None = None) -> TargetPlan:
    """Check the target and decide the path to open; raises WorkloadError naming the field.

    ``test_file`` reuses a test file laid out earlier in the same sweep.
    """
    raw = workload.target or str(default_dir or default_target_dir())
    path = Path(raw).expanduser().absolute()  # fio runs in a scratch folder of its own: a relative path is ours
    if not workload.target:
        path.mkdir(parents=True, exist_ok=True)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise _error("target", f"{raw!r} does not exist; give an existing directory, file or block device") from None
    except PermissionError:
        raise _error("target", f"{raw!r} cannot be read (permission denied)") from None
    except OSError as exc:  # a name too long, a loop of links, a dead network mount...
        raise _error("target", f"{raw[:200]!r} cannot be used: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        if workload.offset_bytes:
            raise _error("offset_bytes", "an offset applies to an existing file or a block device; a directory gets a "
                                         "test file of --size laid out for the run: leave --offset out")
        return _directory(workload, path, test_file)
    if stat.S_ISREG(info.st_mode):
        return _existing_file(workload, path, info.st_size)
    if stat.S_ISBLK(info.st_mode):
        return _block_device(workload, path)
    raise _error("target", f"{raw!r} is neither a directory, a regular file nor a block device")


def remove_test_file(plan: TargetPlan) -> None:
    """Remove the test file if, and only if, ssdprof created it."""
    if plan.created_by_us and plan.path.name.startswith(TEST_FILE_PREFIX):
        plan.path.unlink(missing_ok=True)


def remove_stale_test_files(directory: Path) -> list[Path]:
    """Test files left by an ssdprof process that died (kill -9, power loss); ours by name and PID."""
    removed = []
    for path in directory.glob(f"{TEST_FILE_PREFIX}*.dat"):
        pid_text = path.name.removeprefix(TEST_FILE_PREFIX).split("-", 1)[0]
        if pid_text.isdigit() and not psutil.pid_exists(int(pid_text)):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _directory(workload: Workload, directory: Path, test_file: Path | None) -> TargetPlan:
    if test_file is not None and test_file.parent == directory and test_file.exists():
        return TargetPlan(TargetKind.DIRECTORY, test_file, True, workload.size_bytes)
    if not _can_create_in(directory):
        raise _error("target", f"directory {str(directory)!r} is not writable; choose a folder you can write to")
    free = shutil.disk_usage(directory).free
    if workload.size_bytes + FREE_SPACE_MARGIN_BYTES > free:
        raise _error("size_bytes", f"{format_size(workload.size_bytes)} does not fit: {str(directory)!r} has "
                                   f"{format_amount(free)} free (keeping {format_size(FREE_SPACE_MARGIN_BYTES)} spare)")
    name = f"{TEST_FILE_PREFIX}{os.getpid()}-{secrets.token_hex(4)}.dat"
    return TargetPlan(TargetKind.DIRECTORY, directory / name, True, workload.size_bytes)


def _can_create_in(directory: Path) -> bool:
    """Really try: permission bits say nothing for root, read-only mounts or pseudo-filesystems."""
    probe = directory / f"{TEST_FILE_PREFIX}probe-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        probe.touch(exist_ok=False)
    except OSError:
        return False
    probe.unlink(missing_ok=True)
    return True


def _existing_file(workload: Workload, path: Path, file_size: int) -> TargetPlan:
    if workload.offset_bytes + workload.size_bytes > file_size:
        where = f" from offset {workload.offset_bytes} ends beyond" if workload.offset_bytes else " is larger than"
        raise _error("size_bytes", f"{format_size(workload.size_bytes)}{where} the file {str(path)!r} ({file_size} bytes); "
                                   "use a region within the file, or a directory as target")
    ours = path.name.startswith(TEST_FILE_PREFIX)
    if workload.does_write and not ours and not workload.allow_overwrite:
        raise _error("allow_overwrite", f"writing would overwrite the contents of {str(path)!r}; "
                                           "pass --allow-overwrite to confirm, or target a directory")
    if workload.does_write and not os.access(path, os.W_OK):
        raise _error("target", f"file {str(path)!r} is not writable")
    return TargetPlan(TargetKind.FILE, path, False, workload.size_bytes)


def _block_device(workload: Workload, path: Path) -> TargetPlan:
    device = probe_device(path)
    problems = device_problems(device, workload)
    if not problems and workload.does_write:
        claim = claim_exclusively(path)  # the kernel knows of mounts in other namespaces too
        if isinstance(claim, str):
            problems.append(FieldProblem(field="target", flag="--target", message=claim))
        else:
            os.close(claim)
    if problems:
        raise WorkloadError(problems)
    if not os.access(path, os.R_OK | (os.W_OK if workload.does_write else 0)):
        raise _error("target", f"no permission to open {path}; run with access to the device (e.g. the disk group)")
    return TargetPlan(TargetKind.BLOCK_DEVICE, path, False, workload.size_bytes, device)


def hold_device(path: Path) -> int:
    """An exclusive claim on a device about to be written, kept until closed; raises WorkloadError if taken."""
    claim = claim_exclusively(path)
    if isinstance(claim, str):
        raise _error("target", claim)
    return claim


def whole_device_bytes(target: str, offset_bytes: int = 0) -> int | None:
    """The default region on a block device: from ``offset_bytes`` to its end; None for other targets."""
    if (path := _block_device_path(target)) is None:
        return None
    size = probe_device(path).size_bytes
    return max(size - offset_bytes, 0) // 512 * 512 if size else None


def widest(points: list[Workload]) -> Workload:
    """The sweep's points as one check: a writing point if any (writes need consent), over the largest region."""
    first = next((p for p in points if p.does_write), points[0])
    return first.model_copy(update={"size_bytes": max(p.size_bytes for p in points)})


def with_whole_device(raw: dict[str, Any]) -> dict[str, Any]:
    """Loose workload input with the default region on a block device: from the offset to its end,
    when no size was given. Every front end (CLI, RPC) plans a workload through this."""
    if raw.get("size_bytes") is not None or not isinstance(raw.get("target"), str):
        return raw
    try:
        offset = parse_size_bytes(raw.get("offset_bytes", 0))
    except ValueError:
        return raw  # parse_workload names the bad offset
    size = whole_device_bytes(raw["target"], offset)
    return raw if size is None or size < 512 else {**raw, "size_bytes": size}


@dataclass(frozen=True)
class DeviceRegion:
    """What a sweep will do to a block device, said before it starts."""

    device: BlockDevice
    offset_bytes: int
    size_bytes: int
    writes: bool

    def sentence(self) -> str:
        region = f"{format_size(self.size_bytes)} ({self.size_bytes} bytes) from offset {self.offset_bytes}"
        if self.writes:
            return f"target {self.device.describe()}: OVERWRITES {region}; the data there is destroyed"
        return f"target {self.device.describe()}: reads {region} (nothing is written)"


def device_region(points: list[Workload]) -> DeviceRegion | None:
    """The region of the block device the points use (the largest of them), or None for other targets."""
    if (path := _block_device_path(points[0].target)) is None:
        return None
    return DeviceRegion(probe_device(path), points[0].offset_bytes, max(p.size_bytes for p in points),
                        any(p.does_write for p in points))


def _block_device_path(target: str) -> Path | None:
    """``target`` as a path when it names a block device; None for anything else (or nothing there)."""
    path = Path(target).expanduser()
    try:
        return path if target and stat.S_ISBLK(path.stat().st_mode) else None
    except OSError:
        return None


def _error(field: str, message: str) -> WorkloadError:
    return WorkloadError([FieldProblem(field=field, flag=FIELD_RULES[field][0], message=message)])


def direct_io_refusal(directory: Path) -> str | None:
    """Why the filesystem at ``directory`` refuses O_DIRECT (tmpfs does), or None if it accepts it."""
    flag = getattr(os, "O_DIRECT", 0)
    if not flag:
        return None  # macOS/Windows bypass the cache by other means, per open file
    probe = directory / f"{TEST_FILE_PREFIX}probe-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        descriptor = os.open(probe, os.O_CREAT | os.O_WRONLY | flag, 0o600)
        os.close(descriptor)
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        probe.unlink(missing_ok=True)
    return None
