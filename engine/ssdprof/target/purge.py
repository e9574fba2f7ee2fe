"""Purging a target before a PTS test, where it is possible and safe, and the target's identity for the
per-target ledger of bytes written.

A block device is purged with ``blkdiscard`` over the test region (every logical block reported unmapped:
the SSD's flash translation layer starts again from empty), after the same confirmation as raw writes and
never on a device in use. A file cannot be purged below the filesystem: it is replaced by a new file,
and the record says that the SSD's own mapping of the old blocks is not reset by that.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from ssdprof.model.drive_state import PurgeRecord
from ssdprof.model.quantities import format_size
from ssdprof.model.workload import FieldProblem, Workload, WorkloadError
from ssdprof.target.devices import BlockDevice, claim_exclusively, device_problems

__all__ = ["FILE_LIMITATION", "discard_max_bytes", "purge_device", "purge_file", "purge_refusal", "target_identity"]

FILE_LIMITATION = ("a file cannot be purged below the filesystem: the SSD keeps its own mapping of the blocks the old "
                   "file used (unless the filesystem discards freed blocks); only a purge of the whole device resets the drive")
_BLKDISCARD_TIMEOUT_S = 3600.0


def target_identity(path: Path, device: BlockDevice | None, *, folder: bool = False) -> str:
    """A stable key for the ledger: a disk by model and serial (its name can change between boots), a loop
    device by its backing file, a partition or mapped device by its disk and name, a file or folder by path."""
    if device is None:
        return f"{'folder' if folder else 'file'}:{path.expanduser().resolve()}"
    if device.kind == "loop" and device.backing_file:
        return f"file:{device.backing_file}"
    model, serial = device.base.get("model", "").strip(), device.base.get("serial", "").strip()
    if not serial:
        return f"device:{Path(device.path).resolve()}"
    return f"device:{model}:{serial}" + (f":{device.name}" if device.kind not in ("disk", "") else "")


def discard_max_bytes(device: BlockDevice, sys_class_block: Path = Path("/sys/class/block")) -> int:
    """What the kernel says the device discards at once; 0 when it cannot discard (``lsblk -D``'s DISC-MAX)."""
    entry = sys_class_block / device.name
    queue = entry / "queue" if (entry / "queue").is_dir() else entry.resolve().parent / "queue"
    try:
        return int((queue / "discard_max_bytes").read_text().strip() or 0)
    except (OSError, ValueError):
        return 0


def purge_refusal(workload: Workload, device: BlockDevice | None, is_file: bool) -> str:
    """Why --purge cannot run on this target ('' when it can), in words the user can act on."""
    if device is None:
        if is_file and not workload.allow_overwrite and not Path(workload.target).name.startswith("ssdprof-testfile-"):
            return f"purging replaces the file {workload.target} by a new one: pass --allow-overwrite to confirm"
        return ""
    problems = device_problems(device, workload.model_copy(update={"pattern": "write", "read_pct": 0}))
    if problems:
        return "; ".join(p.message for p in problems)
    return _discard_refusal(device)


def _discard_refusal(device: BlockDevice) -> str:
    if shutil.which("blkdiscard") is None:
        return "blkdiscard is not installed (Debian/Ubuntu: apt install util-linux); cannot purge the device"
    if not discard_max_bytes(device):
        return (f"{device.describe()} does not support discard (lsblk -D shows DISC-MAX 0), so blkdiscard cannot purge it; "
                "use the drive's own secure erase or format command, then run without --purge")
    claim = claim_exclusively(Path(device.path))  # the kernel knows of mounts in other namespaces too
    if isinstance(claim, str):
        return claim
    os.close(claim)
    return ""


def purge_device(device: BlockDevice, workload: Workload) -> PurgeRecord:
    """``blkdiscard`` over the region, after the checks; raises WorkloadError (field purge) with the reason."""
    refusal = purge_refusal(workload, device, is_file=False)
    if refusal:
        raise _refused(refusal)
    args = ["blkdiscard", "--offset", str(workload.offset_bytes), "--length", str(workload.size_bytes), device.path]
    started = time.monotonic()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=_BLKDISCARD_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise _refused(f"blkdiscard could not run: {exc}") from None
    if done.returncode != 0:
        raise _refused(f"blkdiscard failed: {(done.stderr or done.stdout).strip()[:300]}")
    whole = workload.offset_bytes == 0 and workload.size_bytes >= device.size_bytes
    what = f"all {format_size(device.size_bytes)}" if whole else \
        f"{format_size(workload.size_bytes)} from offset {workload.offset_bytes}"
    return PurgeRecord(method="blkdiscard", at=_now(), detail=f"blkdiscard of {what} of {device.path} "
                       f"({time.monotonic() - started:.1f} s)",
                       limitation="" if whole else "only the test region was discarded; the rest of the device keeps its state")


def purge_file(path: Path, size_bytes: int, layout: Callable[[Path, int], float]) -> PurgeRecord:
    """Replace the file by a new one of ``size_bytes``, laid out by ``layout``."""
    started = time.monotonic()
    path.unlink(missing_ok=True)
    layout(path, size_bytes)
    return PurgeRecord(method="new-file", at=_now(), limitation=FILE_LIMITATION,
                       detail=f"{path} removed and laid out anew ({format_size(size_bytes)}, {time.monotonic() - started:.1f} s)")


def _refused(message: str) -> WorkloadError:
    return WorkloadError([FieldProblem(field="purge", flag="--purge", message=f"cannot purge: {message}")])


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")

