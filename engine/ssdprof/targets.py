"""Where a workload writes, checked before anything is written.

A directory gets a test file that ssdprof creates, sizes and removes; an existing file is used
as it is (writes only with the user's consent); a block device is read-only unless the user
confirms writes, and a mounted device is never written.
"""

from __future__ import annotations

import enum
import os
import secrets
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs
import psutil

from ssdprof.quantities import format_size
from ssdprof.workload import FIELD_RULES, FieldProblem, Workload, WorkloadError

__all__ = [
    "TEST_FILE_PREFIX",
    "TargetKind",
    "TargetPlan",
    "default_target_dir",
    "direct_io_refusal",
    "plan_target",
    "remove_stale_test_files",
    "remove_test_file",
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


def default_target_dir() -> Path:
    """A folder on the local disk (not /tmp, which is RAM-backed tmpfs on many systems)."""
    return Path(platformdirs.user_cache_dir("ssdprof")) / "scratch"


def plan_target(workload: Workload, default_dir: Path | None = None, *, test_file: Path | None = None) -> TargetPlan:
    """Check the target and decide the path to open; raises WorkloadError naming the field.

    ``test_file`` reuses a test file laid out earlier in the same sweep.
    """
    raw = workload.target or str(default_dir or default_target_dir())
    path = Path(raw).expanduser()
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
                                   f"{format_size(free // 1048576 * 1048576)} free (keeping {format_size(FREE_SPACE_MARGIN_BYTES)} spare)")
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
    if workload.size_bytes > file_size:
        raise _error("size_bytes", f"{format_size(workload.size_bytes)} is larger than the file {str(path)!r} "
                                   f"({file_size} bytes); use a size up to the file's, or a directory as target")
    ours = path.name.startswith(TEST_FILE_PREFIX)
    if workload.does_write and not ours and not workload.allow_overwrite:
        raise _error("allow_overwrite", f"writing would overwrite the contents of {str(path)!r}; "
                                           "pass --allow-overwrite to confirm, or target a directory")
    if workload.does_write and not os.access(path, os.W_OK):
        raise _error("target", f"file {str(path)!r} is not writable")
    return TargetPlan(TargetKind.FILE, path, False, workload.size_bytes)


def _block_device(workload: Workload, path: Path) -> TargetPlan:
    device_size = _device_size_bytes(path)
    if workload.size_bytes > device_size:
        raise _error("size_bytes", f"{format_size(workload.size_bytes)} is larger than the device ({device_size} bytes)")
    if workload.does_write:
        if not workload.allow_overwrite:
            raise _error("allow_overwrite", f"writing to {path} destroys its data; pass --allow-overwrite "
                                               "to confirm (reads need no confirmation)")
        mounted = _mounted_parts(path)
        if mounted:
            raise _error("target", f"{path} is in use ({', '.join(mounted)}); ssdprof never writes to a mounted device")
    if not os.access(path, os.R_OK | (os.W_OK if workload.does_write else 0)):
        raise _error("target", f"no permission to open {path}; run with access to the device (e.g. the disk group)")
    return TargetPlan(TargetKind.BLOCK_DEVICE, path, False, workload.size_bytes)


def _device_size_bytes(path: Path) -> int:
    try:
        with path.open("rb") as device:
            return device.seek(0, os.SEEK_END)
    except OSError as exc:
        raise _error("target", f"cannot open {path}: {exc.strerror}") from None


def _mounted_parts(path: Path) -> list[str]:
    """Mount points on the device or any of its partitions, and holders such as LVM or md."""
    real = os.path.realpath(path)
    name = os.path.basename(real)
    uses = [f"mounted at {p.mountpoint}" for p in psutil.disk_partitions(all=True)
            if os.path.realpath(p.device) == real or os.path.basename(os.path.realpath(p.device)).startswith(name)]
    sys_block = Path("/sys/class/block") / name
    holders = sys_block / "holders"
    if holders.is_dir():
        uses += [f"held by {h.name}" for h in holders.iterdir()]
    for swap in _swaps():
        if os.path.realpath(swap).startswith(real):
            uses.append("used as swap")
    return uses


def _swaps() -> list[str]:
    try:
        lines = Path("/proc/swaps").read_text().splitlines()[1:]
    except OSError:
        return []
    return [line.split()[0] for line in lines if line.strip()]


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
