from __future__ import annotations

import ctypes
import mmap
from typing import Any

import pytest

from ssdprof.portable.winio import (
    FILE_FLAG_NO_BUFFERING,
    FILE_FLAG_WRITE_THROUGH,
    GENERIC_READ,
    GENERIC_WRITE,
    OPEN_ALWAYS,
    OPEN_EXISTING,
    WindowsFile,
    create_args,
    offset_words,
    volume_root,
)


def test_direct_io_opens_unbuffered_and_write_through() -> None:
    flags = create_args(direct=True, write=True, create=False).flags
    assert flags & FILE_FLAG_NO_BUFFERING and flags & FILE_FLAG_WRITE_THROUGH


def test_a_buffered_run_opens_through_the_cache() -> None:
    flags = create_args(direct=False, write=True, create=False).flags
    assert not flags & (FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH)


def test_reads_ask_for_read_access_only_and_never_create() -> None:
    args = create_args(direct=True, write=False, create=False)
    assert args.access == GENERIC_READ
    assert args.disposition == OPEN_EXISTING


def test_the_layout_creates_the_file_with_write_access() -> None:
    args = create_args(direct=True, write=True, create=True)
    assert args.access == GENERIC_READ | GENERIC_WRITE
    assert args.disposition == OPEN_ALWAYS


def test_offsets_split_into_overlapped_low_and_high_words() -> None:
    assert offset_words(0) == (0, 0)
    assert offset_words(4096) == (4096, 0)
    assert offset_words((5 << 32) + 8192) == (8192, 5)
    with pytest.raises(ValueError, match="negative"):
        offset_words(-1)


@pytest.mark.parametrize(("path", "root"), [
    ("C:\\Users\\student\\ssdprof", "C:\\"),
    ("d:/data/test.dat", "d:\\"),
    ("\\\\server\\share\\folder\\file", "\\\\server\\share\\"),
])
def test_the_volume_root_of_drive_letters_and_unc_paths(path: str, root: str) -> None:
    assert volume_root(path) == root


class _FakeKernel:
    """Stands in for kernel32: records what ReadFile/WriteFile were given, reports success."""

    def __init__(self) -> None:
        self.calls: list[dict[str, int]] = []

    def ReadFile(self, handle: Any, address: Any, length: Any, done: Any, overlapped: Any) -> int:
        struct = overlapped._obj
        self.calls.append({"handle": handle.value, "address": address.value, "length": length.value,
                           "offset": struct.Offset | (struct.OffsetHigh << 32)})
        done._obj.value = length.value
        return 1

    WriteFile = ReadFile


def test_a_positional_read_passes_the_aligned_buffer_address_and_the_64_bit_offset() -> None:
    kernel = _FakeKernel()
    file = WindowsFile(descriptor=77, _kernel=kernel)
    buffer = memoryview(mmap.mmap(-1, 4096))
    transferred = file.read(77, [buffer], (3 << 32) + 4096)
    assert transferred == 4096
    call = kernel.calls[0]
    assert call["handle"] == 77
    assert call["length"] == 4096
    assert call["offset"] == (3 << 32) + 4096
    assert call["address"] == ctypes.addressof(ctypes.c_char.from_buffer(buffer))
    assert call["address"] % 4096 == 0


def test_a_failed_transfer_raises_the_windows_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Failing(_FakeKernel):
        def WriteFile(self, *args: Any) -> int:
            return 0

    monkeypatch.setattr(ctypes, "get_last_error", lambda: 87, raising=False)
    monkeypatch.setattr(ctypes, "FormatError", lambda code: "The parameter is incorrect.", raising=False)
    file = WindowsFile(descriptor=1, _kernel=Failing())
    with pytest.raises(OSError, match="parameter is incorrect"):
        file.write(1, [memoryview(mmap.mmap(-1, 4096))], 0)
