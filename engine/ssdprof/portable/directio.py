"""Keeping the operating system's cache out of the path, per OS.

- Linux: ``O_DIRECT``; offsets, sizes and buffer addresses aligned to the logical block size.
- macOS: ``F_NOCACHE`` on the descriptor (no alignment rule, aligned anyway); it does not evict
  pages already cached, which is why the test file is laid out with it set. ``F_FULLFSYNC``
  when a flush to the media is asked for (plain fsync stops at the drive's cache there).
- Windows: ``CreateFileW`` with ``FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH``; offsets,
  sizes and buffers aligned to the sector size (see :mod:`ssdprof.portable.winio`).

Buffers come from anonymous ``mmap``, which is page-aligned on every OS, and a page is a
multiple of every logical block size in use (512 or 4096 bytes).
"""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import platform
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = [
    "BUFFER_ALIGNMENT",
    "DirectIoRefused",
    "IoCall",
    "IoFile",
    "PosixFile",
    "aligned_buffer",
    "alignment_problem",
    "buffer_address",
    "contiguous_buffers",
    "io_method",
    "logical_block_bytes",
    "memory_filesystem",
    "open_io_file",
    "posix_open_flags",
]

BUFFER_ALIGNMENT = mmap.PAGESIZE
HUGE_PAGE_BYTES = 2 << 20
# os.O_DIRECT only exists on Linux builds; the x86 value lets the Linux flag logic be tested elsewhere.
_O_DIRECT = getattr(os, "O_DIRECT", 0o40000)
_F_NOCACHE = 48  # <sys/fcntl.h> on macOS
_F_FULLFSYNC = 51
# Filesystems that live in RAM: Linux 6.6+ tmpfs accepts O_DIRECT and still answers from memory.
MEMORY_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs", "hugetlbfs"})

IoCall = Callable[[int, Sequence[memoryview], int], int]
"""``call(descriptor, buffers, offset) -> bytes transferred``, the shape of os.preadv/os.pwritev."""


class DirectIoRefused(OSError):
    """The filesystem refuses to bypass the cache (tmpfs refuses O_DIRECT)."""


class IoFile(Protocol):
    """An open test file: what an I/O thread needs and nothing more."""

    @property
    def descriptor(self) -> int: ...

    @property
    def read(self) -> IoCall: ...

    @property
    def write(self) -> IoCall: ...

    def sync(self, *, full: bool = False) -> None: ...

    def close(self) -> None: ...


def io_method(system: str, *, direct: bool) -> str:
    """The label results carry as ``engine.ioengine``."""
    if system == "Windows":
        return "ReadFile/WriteFile+NO_BUFFERING|WRITE_THROUGH" if direct else "ReadFile/WriteFile (buffered)"
    if not direct:
        return "pread/pwrite (buffered)"
    return "pread/pwrite+F_NOCACHE" if system == "Darwin" else "pread/pwrite+O_DIRECT"


def posix_open_flags(system: str, *, direct: bool, write: bool, create: bool = False) -> int:
    """os.open flags; on macOS the cache is bypassed after opening, with fcntl."""
    flags = (os.O_RDWR if write else os.O_RDONLY) | getattr(os, "O_CLOEXEC", 0)
    if create:
        flags |= os.O_CREAT
    if direct and system == "Linux":
        flags |= _O_DIRECT
    return flags


def alignment_problem(*, block_size_bytes: int, offset_bytes: int, logical_block_bytes: int, direct: bool) -> str | None:
    """Why direct I/O of this size at this region start would fail, or None when it is aligned."""
    if not direct:
        return None
    if block_size_bytes % logical_block_bytes:
        return f"the access size {block_size_bytes} B is not a multiple of the {logical_block_bytes} B logical block"
    if offset_bytes % logical_block_bytes:
        return f"the offset {offset_bytes} B is not a multiple of the {logical_block_bytes} B logical block"
    return None


def aligned_buffer(size_bytes: int) -> mmap.mmap:
    """Zeroed memory at a page boundary, rounded up to whole pages."""
    pages = max(1, -(-size_bytes // BUFFER_ALIGNMENT))
    return mmap.mmap(-1, pages * BUFFER_ALIGNMENT)


def contiguous_buffers(sizes_bytes: list[int]) -> list[memoryview]:
    """Page-aligned buffers carved from one region that Linux may back with transparent huge pages.

    A direct I/O's buffer reaches the device as a list of physically contiguous segments: in
    scattered 4 KiB pages a 128 KiB I/O is 32 segments, and a virtio disk whose ring holds 256
    descriptors then takes only 7 such I/Os at once (measured here: 7 in flight at QD8 and at
    QD32). A 2 MiB huge page is one segment. Where huge pages are unavailable the buffers are
    plain pages, as :func:`aligned_buffer`'s. (fio's buffers are malloc'd, in huge pages only
    where they are "always" on; how many it gets to the device then depends on how its pages
    happen to lie: 128 KiB QD32 io_uring held 28 in one CI run and 6 in a run here.)

    The region is private: Python's anonymous ``mmap`` is shared by default, and shared anonymous
    memory is shmem, whose huge pages follow ``shmem_enabled`` (``never`` on most systems), not
    ``MADV_HUGEPAGE``. Shared, the region got none, and a 128 KiB QD32 run held 7 at the device
    when its pages happened to be scattered, at a third of the IOPS it got when they were not."""
    rounded = [-(-size // BUFFER_ALIGNMENT) * BUFFER_ALIGNMENT for size in sizes_bytes]
    total = max(sum(rounded), BUFFER_ALIGNMENT)
    # whole huge pages from an aligned start: a huge page is only given where all of it lies inside the mapping
    mapped = -(-total // HUGE_PAGE_BYTES) * HUGE_PAGE_BYTES + HUGE_PAGE_BYTES
    private = getattr(mmap, "MAP_PRIVATE", None)  # POSIX; Windows has no flags (and no huge pages on request)
    region = mmap.mmap(-1, mapped) if private is None else mmap.mmap(-1, mapped, flags=private)
    start = -buffer_address(region) % HUGE_PAGE_BYTES
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is not None:
        with contextlib.suppress(OSError):  # huge pages switched off: plain pages still work
            region.madvise(advice, start, len(region) - start)
    view = memoryview(region)
    view[start : start + total] = bytes(total)  # fault the pages in now, not during the measurement
    buffers, at = [], start
    for size, step in zip(sizes_bytes, rounded, strict=True):
        buffers.append(view[at : at + size])
        at += step
    return buffers


def buffer_address(buffer: memoryview | mmap.mmap) -> int:
    """The address of a writable buffer's first byte (to prove and check alignment)."""
    import ctypes

    return ctypes.addressof(ctypes.c_char.from_buffer(buffer))


@dataclass
class PosixFile:
    """A descriptor with the cache bypassed for this OS; reads and writes are os.preadv/os.pwritev."""

    descriptor: int
    system: str
    read: IoCall
    write: IoCall

    def sync(self, *, full: bool = False) -> None:
        if full and self.system == "Darwin":
            import fcntl

            fcntl.fcntl(self.descriptor, getattr(fcntl, "F_FULLFSYNC", _F_FULLFSYNC))
        else:
            os.fsync(self.descriptor)

    def close(self) -> None:
        os.close(self.descriptor)


def open_io_file(path: Path, *, direct: bool, write: bool, create: bool = False, system: str | None = None) -> IoFile:
    """Open ``path`` for the measurement; raises DirectIoRefused where the cache cannot be bypassed."""
    system = system or platform.system()
    if system == "Windows":
        from ssdprof.portable.winio import WindowsFile

        return WindowsFile.open(path, direct=direct, write=write, create=create)
    try:
        descriptor = os.open(path, posix_open_flags(system, direct=direct, write=write, create=create), 0o600)
    except OSError as exc:
        if direct and exc.errno == errno.EINVAL:
            raise DirectIoRefused(exc.errno, f"the filesystem holding {path} refuses direct I/O (O_DIRECT)") from None
        raise
    if direct and system == "Darwin":
        _set_nocache(descriptor)
    return PosixFile(descriptor, system, _preadv(), _pwritev())


def _set_nocache(descriptor: int) -> None:
    import fcntl

    try:
        fcntl.fcntl(descriptor, getattr(fcntl, "F_NOCACHE", _F_NOCACHE), 1)
    except OSError as exc:
        os.close(descriptor)
        raise DirectIoRefused(exc.errno, "the filesystem refuses F_NOCACHE") from None


def _preadv() -> IoCall:
    if hasattr(os, "preadv"):
        return os.preadv

    def pread_into(descriptor: int, buffers: Sequence[memoryview], offset: int) -> int:  # macOS before 11
        data = os.pread(descriptor, len(buffers[0]), offset)
        buffers[0][: len(data)] = data
        return len(data)

    return pread_into


def _pwritev() -> IoCall:
    if hasattr(os, "pwritev"):
        return os.pwritev

    def pwrite_from(descriptor: int, buffers: Sequence[memoryview], offset: int) -> int:
        return os.pwrite(descriptor, buffers[0], offset)

    return pwrite_from


def logical_block_bytes(path: Path, system: str | None = None) -> int:
    """The alignment direct I/O needs on the device holding ``path`` (512 when unknown)."""
    system = system or platform.system()
    if system == "Windows":
        from ssdprof.portable.winio import sector_bytes

        return sector_bytes(path)
    if system != "Linux":
        return 512
    try:
        info = os.stat(path)
    except OSError:
        return 512
    device = info.st_rdev if stat.S_ISBLK(info.st_mode) else info.st_dev
    node = Path(f"/sys/dev/block/{os.major(device)}:{os.minor(device)}")
    for queue in (node / "queue", node / ".." / "queue"):  # a partition's queue is its disk's
        try:
            return int((queue / "logical_block_size").read_text().strip())
        except (OSError, ValueError):
            continue
    return 512


def memory_filesystem(path: Path) -> str | None:
    """The type of the RAM-backed filesystem holding ``path`` (e.g. tmpfs), or None."""
    import psutil

    real = os.path.realpath(path)
    best: tuple[int, str] | None = None
    for part in psutil.disk_partitions(all=True):
        mount = os.path.realpath(part.mountpoint)
        inside = real == mount or real.startswith(mount.rstrip(os.sep) + os.sep)
        if inside and (best is None or len(mount) > best[0]):
            best = (len(mount), part.fstype)
    return best[1] if best and best[1] in MEMORY_FILESYSTEMS else None
