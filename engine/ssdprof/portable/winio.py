"""Unbuffered file I/O on Windows through ctypes (no compiler, no pywin32).

``CreateFileW`` with ``FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH`` keeps the cache
manager out of the path; every offset, size and buffer address must then be a multiple of
the volume's sector size. Reads and writes are synchronous ``ReadFile``/``WriteFile`` calls
with the offset in an ``OVERLAPPED`` structure (a positional read, like pread). Windows
serialises synchronous I/O on one file object, so each I/O thread opens its own handle.

The argument logic is pure Python and tested on every OS; the calls run only on Windows.
"""

from __future__ import annotations

import ctypes
import ntpath
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdprof.portable.directio import IoCall

__all__ = [
    "FILE_FLAG_NO_BUFFERING",
    "FILE_FLAG_OVERLAPPED",
    "FILE_FLAG_WRITE_THROUGH",
    "CreateArgs",
    "Overlapped",
    "WindowsFile",
    "create_args",
    "kernel32",
    "offset_words",
    "raise_last_error",
    "sector_bytes",
    "volume_root",
]

GENERIC_READ = 0x80000000
GENERIC_WRITE = 0x40000000
FILE_SHARE_READ = 0x1
FILE_SHARE_WRITE = 0x2
OPEN_EXISTING = 3
OPEN_ALWAYS = 4
FILE_ATTRIBUTE_NORMAL = 0x80
FILE_FLAG_WRITE_THROUGH = 0x80000000
FILE_FLAG_NO_BUFFERING = 0x20000000
FILE_FLAG_OVERLAPPED = 0x40000000
_INVALID_HANDLE = ctypes.c_void_p(-1).value


@dataclass(frozen=True)
class CreateArgs:
    access: int
    share: int
    disposition: int
    flags: int


def create_args(*, direct: bool, write: bool, create: bool, overlapped: bool = False) -> CreateArgs:
    """CreateFileW's access, share mode, disposition and flags for a test file."""
    access = GENERIC_READ | (GENERIC_WRITE if write else 0)
    flags = FILE_ATTRIBUTE_NORMAL | (FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH if direct else 0)
    flags |= FILE_FLAG_OVERLAPPED if overlapped else 0
    return CreateArgs(access, FILE_SHARE_READ | FILE_SHARE_WRITE, OPEN_ALWAYS if create else OPEN_EXISTING, flags)


def offset_words(offset: int) -> tuple[int, int]:
    """OVERLAPPED.Offset and OffsetHigh: the low and high 32 bits of a byte offset."""
    if offset < 0:
        raise ValueError("offset cannot be negative")
    return offset & 0xFFFFFFFF, offset >> 32


def volume_root(absolute_path: str) -> str:
    """The root GetDiskFreeSpaceW needs for an absolute Windows path: ``C:\\`` or ``\\\\server\\share\\``."""
    drive, _ = ntpath.splitdrive(absolute_path)
    return drive.rstrip("\\/") + "\\"


class Overlapped(ctypes.Structure):
    _fields_ = [("Internal", ctypes.c_void_p), ("InternalHigh", ctypes.c_void_p),
                ("Offset", ctypes.c_uint32), ("OffsetHigh", ctypes.c_uint32), ("hEvent", ctypes.c_void_p)]


def kernel32() -> Any:
    return ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]


def raise_last_error(what: str) -> None:
    code = ctypes.get_last_error()  # type: ignore[attr-defined,unused-ignore]
    raise OSError(code, f"{what} failed: {ctypes.FormatError(code)}")  # type: ignore[attr-defined,unused-ignore]


def sector_bytes(path: Path) -> int:
    """The volume's bytes per sector: the alignment FILE_FLAG_NO_BUFFERING needs (512 if unknown)."""
    sectors_per_cluster, bytes_per_sector = ctypes.c_ulong(), ctypes.c_ulong()
    free_clusters, total_clusters = ctypes.c_ulong(), ctypes.c_ulong()
    ok = kernel32().GetDiskFreeSpaceW(ctypes.c_wchar_p(volume_root(os.path.abspath(path))), ctypes.byref(sectors_per_cluster),
                                       ctypes.byref(bytes_per_sector), ctypes.byref(free_clusters),
                                       ctypes.byref(total_clusters))
    return int(bytes_per_sector.value) if ok and bytes_per_sector.value else 512


@dataclass
class WindowsFile:
    """A Win32 handle with positional ReadFile/WriteFile in the shape of os.preadv/os.pwritev."""

    descriptor: int
    _kernel: Any = field(repr=False)
    _addresses: dict[int, tuple[memoryview, int]] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, path: Path, *, direct: bool, write: bool, create: bool = False) -> WindowsFile:
        kernel = kernel32()
        kernel.CreateFileW.restype = ctypes.c_void_p
        args = create_args(direct=direct, write=write, create=create)
        handle = kernel.CreateFileW(ctypes.c_wchar_p(str(path)), ctypes.c_uint32(args.access), ctypes.c_uint32(args.share),
                                    None, ctypes.c_uint32(args.disposition), ctypes.c_uint32(args.flags), None)
        if handle is None or handle == _INVALID_HANDLE:
            raise_last_error(f"CreateFileW({path})")
        return cls(int(handle), kernel)

    @property
    def read(self) -> IoCall:
        return self._transfer_with(self._kernel.ReadFile)

    @property
    def write(self) -> IoCall:
        return self._transfer_with(self._kernel.WriteFile)

    def _transfer_with(self, function: Any) -> IoCall:
        def transfer(handle: int, buffers: Sequence[memoryview], offset: int) -> int:
            buffer = buffers[0]
            done = ctypes.c_uint32()
            overlapped = Overlapped()
            overlapped.Offset, overlapped.OffsetHigh = offset_words(offset)
            if not function(ctypes.c_void_p(handle), ctypes.c_void_p(self._address(buffer)), ctypes.c_uint32(len(buffer)),
                            ctypes.byref(done), ctypes.byref(overlapped)):
                raise_last_error("ReadFile/WriteFile")
            return int(done.value)

        return transfer

    def _address(self, buffer: memoryview) -> int:
        # Lanes reuse the same few buffers, so each address is looked up once; the entry holds
        # the buffer too, so its id cannot be reused by another object while cached.
        known = self._addresses.get(id(buffer))
        if known is None:
            known = self._addresses[id(buffer)] = (buffer, ctypes.addressof(ctypes.c_char.from_buffer(buffer)))
        return known[1]

    def sync(self, *, full: bool = False) -> None:
        if not self._kernel.FlushFileBuffers(ctypes.c_void_p(self.descriptor)):
            raise_last_error("FlushFileBuffers")

    def close(self) -> None:
        self._kernel.CloseHandle(ctypes.c_void_p(self.descriptor))
