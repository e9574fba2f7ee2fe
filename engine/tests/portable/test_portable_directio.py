from __future__ import annotations

import errno
import os
import platform
from pathlib import Path
from typing import Any

import pytest

from ssdprof.portable import directio
from ssdprof.portable.directio import (
    BUFFER_ALIGNMENT,
    DirectIoRefused,
    aligned_buffer,
    alignment_problem,
    buffer_address,
    io_method,
    logical_block_bytes,
    memory_filesystem,
    open_io_file,
    posix_open_flags,
)

linux_only = pytest.mark.skipif(platform.system() != "Linux", reason="the Linux path runs for real on Linux")
O_DIRECT = getattr(os, "O_DIRECT", 0o40000)


def test_linux_direct_opens_with_o_direct() -> None:
    assert posix_open_flags("Linux", direct=True, write=False) & O_DIRECT


def test_linux_buffered_opens_without_o_direct() -> None:
    assert not posix_open_flags("Linux", direct=False, write=True) & O_DIRECT


def test_macos_never_opens_with_o_direct_because_f_nocache_follows_the_open() -> None:
    assert not posix_open_flags("Darwin", direct=True, write=True) & O_DIRECT


def test_writes_open_read_write_and_create_only_when_asked() -> None:
    flags = posix_open_flags("Linux", direct=True, write=True, create=True)
    assert flags & os.O_RDWR and flags & os.O_CREAT
    assert not posix_open_flags("Linux", direct=True, write=False) & (os.O_RDWR | os.O_WRONLY | os.O_CREAT)


@pytest.mark.parametrize(("system", "direct", "label"), [
    ("Linux", True, "pread/pwrite+O_DIRECT"),
    ("Darwin", True, "pread/pwrite+F_NOCACHE"),
    ("Windows", True, "ReadFile/WriteFile+NO_BUFFERING|WRITE_THROUGH"),
    ("Linux", False, "pread/pwrite (buffered)"),
    ("Windows", False, "ReadFile/WriteFile (buffered)"),
])
def test_every_os_path_names_its_cache_bypass(system: str, direct: bool, label: str) -> None:
    assert io_method(system, direct=direct) == label


def test_an_access_size_off_the_logical_block_is_refused_for_direct_io() -> None:
    problem = alignment_problem(block_size_bytes=6144, offset_bytes=0, logical_block_bytes=4096, direct=True)
    assert problem is not None and "4096 B logical block" in problem


def test_an_offset_off_the_logical_block_is_refused_for_direct_io() -> None:
    assert alignment_problem(block_size_bytes=4096, offset_bytes=512, logical_block_bytes=4096, direct=True)


def test_aligned_sizes_and_offsets_pass_and_buffered_io_needs_no_alignment() -> None:
    assert alignment_problem(block_size_bytes=8192, offset_bytes=4096, logical_block_bytes=4096, direct=True) is None
    assert alignment_problem(block_size_bytes=512, offset_bytes=512, logical_block_bytes=4096, direct=False) is None


@pytest.mark.parametrize("size", [512, 4096, 4097, 1 << 20])
def test_buffers_start_on_a_page_and_span_whole_pages(size: int) -> None:
    buffer = aligned_buffer(size)
    assert buffer_address(buffer) % BUFFER_ALIGNMENT == 0
    assert len(buffer) >= size and len(buffer) % BUFFER_ALIGNMENT == 0
    assert BUFFER_ALIGNMENT % 4096 == 0  # a page covers every logical block size in use


def test_macos_sets_f_nocache_on_the_descriptor(disk_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fcntl = pytest.importorskip("fcntl")
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(fcntl, "fcntl", lambda fd, command, arg=0: calls.append((command, arg)) or 0)
    (disk_dir / "f").write_bytes(b"\0" * 4096)
    io = open_io_file(disk_dir / "f", direct=True, write=False, system="Darwin")
    io.sync(full=True)
    io.close()
    assert calls[0] == (getattr(fcntl, "F_NOCACHE", 48), 1)
    assert calls[1][0] == getattr(fcntl, "F_FULLFSYNC", 51)


def test_macos_buffered_run_leaves_the_cache_alone(disk_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fcntl = pytest.importorskip("fcntl")
    calls: list[Any] = []
    monkeypatch.setattr(fcntl, "fcntl", lambda *args: calls.append(args) or 0)
    (disk_dir / "f").write_bytes(b"\0" * 4096)
    open_io_file(disk_dir / "f", direct=False, write=False, system="Darwin").close()
    assert calls == []


def test_einval_on_a_direct_open_becomes_a_clear_refusal(disk_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> int:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(directio.os, "open", refuse)
    with pytest.raises(DirectIoRefused, match="refuses direct I/O"):
        open_io_file(disk_dir / "f", direct=True, write=False, system="Linux")


@linux_only
def test_linux_direct_io_reads_into_an_aligned_buffer_for_real(disk_dir: Path) -> None:
    path = disk_dir / "f"
    path.write_bytes(os.urandom(1 << 16))
    io = open_io_file(path, direct=True, write=True, system="Linux")
    try:
        buffer = memoryview(aligned_buffer(4096))
        assert io.read(io.descriptor, [buffer], 8192) == 4096
        assert bytes(buffer) == path.read_bytes()[8192:12288]
        assert io.write(io.descriptor, [buffer], 0) == 4096
    finally:
        io.close()


@linux_only
def test_linux_direct_io_rejects_a_misaligned_buffer(disk_dir: Path) -> None:
    path = disk_dir / "f"
    path.write_bytes(os.urandom(1 << 16))
    io = open_io_file(path, direct=True, write=False, system="Linux")
    try:
        misaligned = memoryview(aligned_buffer(8192))[1 : 1 + 4096]
        with pytest.raises(OSError) as raised:
            io.read(io.descriptor, [misaligned], 0)
        assert raised.value.errno == errno.EINVAL
    finally:
        io.close()


@linux_only
def test_the_logical_block_of_a_real_disk_is_512_or_4096(disk_dir: Path) -> None:
    assert logical_block_bytes(disk_dir) in (512, 4096)


@linux_only
def test_tmpfs_is_recognised_as_living_in_ram(disk_dir: Path) -> None:
    if Path("/dev/shm").is_dir():
        assert memory_filesystem(Path("/dev/shm")) == "tmpfs"
    assert memory_filesystem(disk_dir) is None


def test_contiguous_buffers_are_page_aligned_zeroed_and_disjoint() -> None:
    from ssdprof.portable.directio import BUFFER_ALIGNMENT, buffer_address, contiguous_buffers

    buffers = contiguous_buffers([4096, 131072, 5000, 4096])
    addresses = [buffer_address(b) for b in buffers]
    assert [len(b) for b in buffers] == [4096, 131072, 5000, 4096]
    assert all(a % BUFFER_ALIGNMENT == 0 for a in addresses)
    assert all(later >= earlier + len(b) for earlier, later, b in zip(addresses, addresses[1:], buffers, strict=False))
    assert all(bytes(b) == bytes(len(b)) for b in buffers)


def _huge_kib_of_mapping_at(address: int) -> int:
    """AnonHugePages of the mapping holding ``address``, from this process's /proc/self/smaps."""
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        first = line.split(maxsplit=1)[0]
        if "-" in first and ":" not in first:  # a mapping's header: "start-end perms ..."
            start, end = (int(x, 16) for x in first.split("-"))
            inside = start <= address < end
        elif inside and first == "AnonHugePages:":
            return int(line.split()[1])
    raise AssertionError(f"no mapping holds {address:#x}")


@linux_only
def test_contiguous_buffers_sit_in_huge_pages_where_linux_gives_them_on_request() -> None:
    """A 128 KiB I/O in scattered pages is 32 segments, and a virtio disk then holds 7 of a QD32 queue:
    the buffers must get the transparent huge pages that ``MADV_HUGEPAGE`` asks for. Python's anonymous
    mmap is shared (shmem) by default, which ignores that advice; this caught it."""
    from ssdprof.portable.directio import HUGE_PAGE_BYTES, buffer_address, contiguous_buffers

    mode = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
    # 4 MiB (QD32): two whole huge pages; 1 MiB (QD8): less than one, still in one
    for count, pages in ((32, 2), (8, 1), (1, 1)):
        buffers = contiguous_buffers([131072] * count)
        huge_kib = _huge_kib_of_mapping_at(buffer_address(buffers[0]))
        if "[never]" in mode:  # huge pages switched off on this machine: plain pages, nothing to find
            assert huge_kib == 0
        else:
            assert huge_kib >= pages * HUGE_PAGE_BYTES // 1024, (mode, count, huge_kib)
