"""Windows's completion-port queue at its seams. It has not run on Windows here: kernel32 is
replaced by a stand-in that does the I/O for real on a file (os.pread/os.pwrite) and queues each
completion to its "port" the way Windows does when FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is not
set, so the queue's own bookkeeping (OVERLAPPED per slot, offsets, reaping, errors) runs for real."""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ssdprof.portable.directio import aligned_buffer, buffer_address
from ssdprof.portable.iocp import ERROR_IO_PENDING, IocpQueue, OverlappedEntry
from ssdprof.portable.winio import FILE_FLAG_NO_BUFFERING, FILE_FLAG_OVERLAPPED, Overlapped, create_args

BLOCK = 4096
STATUS_END_OF_FILE = 0xC0000011
ERROR_HANDLE_EOF = 38


class FileKernel:
    """The kernel32 calls IocpQueue makes, over a real file descriptor."""

    def __init__(self, descriptor: int, *, fail_offsets: frozenset[int] = frozenset()):
        self.descriptor = descriptor
        self.fail_offsets = fail_offsets
        self.port: list[tuple[int, int]] = []
        self.offsets: list[int] = []
        self.calls: list[str] = []

    def _transfer(self, buffer: Any, length: Any, overlapped: Any, *, write: bool) -> int:
        entry = Overlapped.from_address(overlapped.value)
        offset = entry.Offset | entry.OffsetHigh << 32
        self.offsets.append(offset)
        if offset in self.fail_offsets:
            entry.Internal, moved = STATUS_END_OF_FILE, 0
        elif write:
            moved = os.pwrite(self.descriptor, ctypes.string_at(buffer.value, length.value), offset)
        else:
            data = os.pread(self.descriptor, length.value, offset)
            ctypes.memmove(buffer.value, data, len(data))
            moved = len(data)
        self.port.append((overlapped.value, moved))
        return 0  # "failed" with ERROR_IO_PENDING: the completion comes through the port

    def ReadFile(self, handle: Any, buffer: Any, length: Any, transferred: Any, overlapped: Any) -> int:
        return self._transfer(buffer, length, overlapped, write=False)

    def WriteFile(self, handle: Any, buffer: Any, length: Any, transferred: Any, overlapped: Any) -> int:
        return self._transfer(buffer, length, overlapped, write=True)

    def GetQueuedCompletionStatusEx(self, port: Any, entries: Any, count: int, removed: Any, timeout: int,  # noqa: PLR0917
                                    alertable: bool) -> int:
        taken, self.port = self.port[:count], self.port[count:]
        for index, (address, moved) in enumerate(taken):
            entries[index].lpOverlapped = address
            entries[index].dwNumberOfBytesTransferred = moved
        removed._obj.value = len(taken)
        return 1

    def RtlNtStatusToDosError(self, status: int) -> int:
        return {STATUS_END_OF_FILE: ERROR_HANDLE_EOF}.get(status, 317)

    def CancelIoEx(self, handle: Any, overlapped: Any) -> int:
        self.calls.append("CancelIoEx")
        return 1

    def CloseHandle(self, handle: Any) -> int:
        self.calls.append(f"CloseHandle({handle.value})")
        return 1


@pytest.fixture
def descriptor(disk_dir: Path) -> Iterator[int]:
    path = disk_dir / "iocp.dat"
    path.write_bytes(os.urandom(1 << 20))
    fd = os.open(path, os.O_RDWR)
    yield fd
    os.close(fd)


def make_queue(kernel: FileKernel, depth: int) -> tuple[IocpQueue, list[Any]]:
    buffers = [aligned_buffer(BLOCK) for _ in range(depth)]
    queue = IocpQueue(11, 22, kernel, length_bytes=BLOCK, read_addresses=[buffer_address(b) for b in buffers],
                      last_error=lambda: ERROR_IO_PENDING)
    return queue, buffers


def test_each_slot_reads_its_offset_into_its_buffer_and_is_reaped_by_its_overlapped(descriptor: int) -> None:
    kernel = FileKernel(descriptor)
    queue, buffers = make_queue(kernel, 4)
    for slot in range(4):
        queue.queue(slot, (3 - slot) * BLOCK)
    done = queue.submit_and_reap()
    assert sorted(done) == [(slot, BLOCK) for slot in range(4)] and queue.in_flight == 0
    for slot in range(4):
        assert bytes(buffers[slot]) == os.pread(descriptor, BLOCK, (3 - slot) * BLOCK)


def test_writes_go_from_the_given_buffer(descriptor: int) -> None:
    queue, _ = make_queue(FileKernel(descriptor), 1)
    source = aligned_buffer(BLOCK)
    source[:] = b"\x5a" * BLOCK
    queue.queue(0, 8 * BLOCK, write_address=buffer_address(source))
    assert queue.submit_and_reap() == [(0, BLOCK)]
    assert os.pread(descriptor, BLOCK, 8 * BLOCK) == b"\x5a" * BLOCK


def test_offsets_beyond_4_gib_use_the_high_word(descriptor: int) -> None:
    kernel = FileKernel(descriptor, fail_offsets=frozenset({5 << 30}))
    queue, _ = make_queue(kernel, 1)
    queue.queue(0, 5 << 30)
    queue.submit_and_reap()
    assert kernel.offsets == [5 << 30]


def test_a_failed_transfer_comes_back_as_a_negative_windows_error(descriptor: int) -> None:
    queue, _ = make_queue(FileKernel(descriptor, fail_offsets=frozenset({BLOCK})), 2)
    queue.queue(0, 0)
    queue.queue(1, BLOCK)
    assert sorted(queue.submit_and_reap()) == [(0, BLOCK), (1, -ERROR_HANDLE_EOF)]


def test_submission_stamps_precede_reaping_and_close_cancels_first(descriptor: int) -> None:
    kernel = FileKernel(descriptor)
    queue, _ = make_queue(kernel, 2)
    queue.queue(0, 0)
    queue.queue(1, BLOCK)
    queue.submit_and_reap()
    assert 0 < queue.submitted_ns[0] <= queue.submitted_ns[1]
    queue.close()
    assert kernel.calls == ["CancelIoEx", "CloseHandle(22)", "CloseHandle(11)"]


def test_the_file_is_opened_overlapped_and_unbuffered() -> None:
    args = create_args(direct=True, write=True, create=False, overlapped=True)
    assert args.flags & FILE_FLAG_OVERLAPPED and args.flags & FILE_FLAG_NO_BUFFERING
    assert not create_args(direct=True, write=True, create=False).flags & FILE_FLAG_OVERLAPPED


def test_the_structures_have_the_win64_layout() -> None:
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        pytest.skip("the Win64 layout is checked on a 64-bit Python")
    assert ctypes.sizeof(Overlapped) == 32 and Overlapped.Offset.offset == 16
    assert ctypes.sizeof(OverlappedEntry) == 32 and OverlappedEntry.dwNumberOfBytesTransferred.offset == 24
