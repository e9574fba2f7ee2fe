"""The asynchronous queues for real, on a disk-backed file: io_uring, libaio and POSIX AIO (glibc's,
the same API macOS runs) on Linux. Windows's completion port is tested in test_portable_iocp.py."""

from __future__ import annotations

import errno
import os
import platform
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssdprof.portable import aio
from ssdprof.portable.aio import SYNC, AsyncQueue, backend_label, choose_backend, open_queue
from ssdprof.portable.directio import aligned_buffer, buffer_address, contiguous_buffers
from ssdprof.portable.libaio import iocb_bytes
from ssdprof.portable.posixaio import DARWIN, GLIBC, slots_per_process

pytestmark = pytest.mark.skipif(platform.system() != "Linux", reason="the Linux interfaces run for real here")
LINUX_QUEUES = ["io_uring", "libaio", "posixaio"]
BLOCK = 4096
FILE_BYTES = 4 << 20


@pytest.fixture
def test_file(disk_dir: Path) -> Path:
    path = disk_dir / "aio.dat"
    path.write_bytes(os.urandom(FILE_BYTES))
    return path


class Opened:
    """A queue with its read buffers (which must live as long as the queue)."""

    def __init__(self, name: str, path: Path, depth: int, *, write: bool = False):
        self.buffers = [aligned_buffer(BLOCK) for _ in range(depth)]
        self.queue: AsyncQueue = open_queue(name, path, direct=True, write=write, system="Linux", length_bytes=BLOCK,
                                            read_addresses=[buffer_address(b) for b in self.buffers])

    def reap_all(self) -> list[tuple[int, int]]:
        """Submit what is queued and reap until nothing is in flight."""
        done = self.queue.submit_and_reap()
        while self.queue.in_flight:
            done += self.queue.submit_and_reap()
        return done


@pytest.fixture(params=LINUX_QUEUES)
def name(request: pytest.FixtureRequest) -> Iterator[str]:
    problem = aio._refusal(request.param)
    if problem:
        pytest.skip(f"{request.param} cannot run here: {problem}")
    yield request.param


def test_each_slot_reads_its_own_offset_into_its_own_buffer(name: str, test_file: Path) -> None:
    data = test_file.read_bytes()
    opened = Opened(name, test_file, 8)
    offsets = [(slot * 37 % 1024) * BLOCK for slot in range(8)]
    for slot, offset in enumerate(offsets):
        opened.queue.queue(slot, offset)
    done = opened.reap_all()
    opened.queue.close()
    assert sorted(done) == [(slot, BLOCK) for slot in range(8)]
    for slot, offset in enumerate(offsets):
        assert bytes(opened.buffers[slot]) == data[offset : offset + BLOCK]


def test_writes_land_at_their_offsets(name: str, test_file: Path) -> None:
    opened = Opened(name, test_file, 4, write=True)
    sources = [aligned_buffer(BLOCK) for _ in range(4)]
    for slot, source in enumerate(sources):
        source[:] = bytes([slot + 1]) * BLOCK
        opened.queue.queue(slot, (100 + slot) * BLOCK, write_address=buffer_address(source))
    assert sorted(opened.reap_all()) == [(slot, BLOCK) for slot in range(4)]
    opened.queue.close()
    data = test_file.read_bytes()
    for slot in range(4):
        assert data[(100 + slot) * BLOCK : (101 + slot) * BLOCK] == bytes([slot + 1]) * BLOCK


def test_io_uring_registers_the_file_and_the_buffers_region_and_moves_the_same_data(test_file: Path) -> None:
    """Fixed buffers and a fixed file (fio's fixedbufs, registerfiles): reads land in each slot's buffer, writes
    leave from anywhere in the region, exactly as with plain reads and writes."""
    if aio._refusal("io_uring"):
        pytest.skip(f"io_uring cannot run here: {aio._refusal('io_uring')}")
    data = test_file.read_bytes()
    region = contiguous_buffers([BLOCK] * 8)
    reads, sources = region[:4], region[4:]
    first = buffer_address(region[0])
    queue = open_queue("io_uring", test_file, direct=True, write=True, system="Linux", length_bytes=BLOCK,
                       read_addresses=[buffer_address(b) for b in reads], memory=(first, 8 * BLOCK))
    assert getattr(queue, "registered", None) is True
    for slot in range(4):
        sources[slot][:] = bytes([0xA0 + slot]) * BLOCK
        queue.queue(slot, (200 + slot) * BLOCK, write_address=buffer_address(sources[slot]))
    done = queue.submit_and_reap()
    while queue.in_flight:
        done += queue.submit_and_reap()
    for slot in range(4):
        queue.queue(slot, slot * 3 * BLOCK)
    done += queue.submit_and_reap()
    while queue.in_flight:
        done += queue.submit_and_reap()
    queue.close()
    assert sorted(done) == sorted([(slot, BLOCK) for slot in range(4)] * 2)
    written = test_file.read_bytes()
    for slot in range(4):
        assert bytes(reads[slot]) == data[slot * 3 * BLOCK : (slot * 3 + 1) * BLOCK]
        assert written[(200 + slot) * BLOCK : (201 + slot) * BLOCK] == bytes([0xA0 + slot]) * BLOCK


def test_io_uring_runs_plain_reads_where_the_region_cannot_be_registered(test_file: Path) -> None:
    if aio._refusal("io_uring"):
        pytest.skip(f"io_uring cannot run here: {aio._refusal('io_uring')}")
    buffer = aligned_buffer(BLOCK)
    address = buffer_address(buffer)
    queue = open_queue("io_uring", test_file, direct=True, write=False, system="Linux", length_bytes=BLOCK,
                       read_addresses=[address], memory=(address, 2 << 30))  # over io_uring's 1 GiB per buffer
    assert getattr(queue, "registered", None) is False
    queue.queue(0, 5 * BLOCK)
    assert queue.submit_and_reap() == [(0, BLOCK)]
    queue.close()
    assert bytes(buffer) == test_file.read_bytes()[5 * BLOCK : 6 * BLOCK]


def test_the_whole_queue_is_in_flight_before_any_completion_is_reaped(name: str, test_file: Path) -> None:
    opened = Opened(name, test_file, 16)
    for slot in range(16):
        opened.queue.queue(slot, slot * 7 * BLOCK)
    first = opened.queue.submit_and_reap()
    assert opened.queue.in_flight + len(first) == 16 and first
    rest = []
    while opened.queue.in_flight:
        rest += opened.queue.submit_and_reap()
    assert sorted(first + rest) == [(slot, BLOCK) for slot in range(16)]
    opened.queue.close()


def test_a_refused_io_comes_back_as_a_negative_errno(name: str, test_file: Path) -> None:
    opened = Opened(name, test_file, 1)
    opened.queue.queue(0, 512 + BLOCK)  # off the 4 KiB grid that O_DIRECT needs here, or EINVAL for any misalignment
    [(slot, result)] = opened.reap_all()
    opened.queue.close()
    assert slot == 0 and result in (-errno.EINVAL, BLOCK)  # a 512 B-sector disk accepts it
    if result != BLOCK:
        assert os.strerror(-result) == "Invalid argument"


def test_submission_times_are_taken_before_completion(name: str, test_file: Path) -> None:
    import time

    opened = Opened(name, test_file, 2)
    before = time.perf_counter_ns()
    opened.queue.queue(0, 0)
    opened.queue.queue(1, BLOCK)
    opened.reap_all()
    after = time.perf_counter_ns()
    opened.queue.close()
    assert all(before <= stamp <= after for stamp in opened.queue.submitted_ns)


def test_linux_prefers_io_uring_and_names_what_it_passed_over() -> None:
    choice = choose_backend("Linux")
    assert choice.name in ("io_uring", "libaio", SYNC)
    assert choose_backend("Linux", "posixaio").name == "posixaio"
    forced = choose_backend("Linux", SYNC)
    assert forced.name == SYNC and "synchronous calls" in forced.note


def test_an_interface_that_cannot_run_falls_back_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    refusals = {"io_uring": "io_uring_setup refused: Operation not permitted (/proc/sys/kernel/io_uring_disabled is 2)",
                "libaio": "libaio.so.1: cannot open shared object file"}
    monkeypatch.setattr(aio, "_refusal", refusals.get)
    choice = choose_backend("Linux")
    assert choice.name == SYNC
    assert "io_uring_disabled is 2" in choice.note and "libaio.so.1" in choice.note
    monkeypatch.setattr(aio, "_refusal", lambda name: refusals.get(name) if name == "io_uring" else None)
    fallback = choose_backend("Linux")
    assert fallback.name == "libaio" and "io_uring: io_uring_setup refused" in fallback.note


def test_labels_name_the_interface_and_how_the_cache_is_bypassed() -> None:
    assert backend_label("io_uring", "Linux", direct=True) == "io_uring+O_DIRECT"
    assert backend_label("posixaio", "Darwin", direct=True) == "aio_read/aio_write+F_NOCACHE"
    assert backend_label("iocp", "Windows", direct=True) == "ReadFile/WriteFile overlapped+IOCP+NO_BUFFERING|WRITE_THROUGH"
    assert backend_label("libaio", "Linux", direct=False) == "libaio (buffered)"


def test_an_iocb_has_the_kernels_layout() -> None:
    raw = iocb_bytes(slot=3, descriptor=7, address=0x1000, length_bytes=4096, offset=8192, write=True)
    assert len(raw) == 64
    assert int.from_bytes(raw[0:8], "little") == 3 and int.from_bytes(raw[16:18], "little") == 1
    assert int.from_bytes(raw[20:24], "little") == 7 and int.from_bytes(raw[24:32], "little") == 0x1000
    assert int.from_bytes(raw[32:40], "little") == 4096 and int.from_bytes(raw[40:48], "little") == 8192


def test_the_aiocb_layouts_match_the_c_headers() -> None:
    assert (GLIBC.size, GLIBC.offset, GLIBC.sigev_none, GLIBC.einprogress) == (168, 128, 1, errno.EINPROGRESS)
    assert (DARWIN.size, DARWIN.offset, DARWIN.buf, DARWIN.lio_opcode, DARWIN.sigev_none) == (80, 8, 16, 72, 0)
    assert slots_per_process("Darwin") == 16 and slots_per_process("Linux") is None


def test_deep_queues_are_reaped_in_batches_of_a_quarter_and_shallow_ones_one_by_one() -> None:
    assert [aio.reap_batch(depth) for depth in (1, 4, 8, 15, 16, 32, 128)] == [1, 1, 1, 1, 4, 8, 32]


def test_shallow_queues_submit_each_io_and_deep_ones_a_wake_ups_refills_together() -> None:
    assert [aio.submit_each(depth) for depth in (1, 4, 15, 16, 32)] == [True, True, True, False, False]


@pytest.mark.parametrize("depth", [4, 16])
@pytest.mark.parametrize("submitting", ["io_uring", "libaio"])  # POSIX AIO's aio_read always starts the I/O at once
def test_a_queued_io_is_in_flight_at_once_only_on_a_shallow_queue(submitting: str, depth: int, test_file: Path) -> None:
    problem = aio._refusal(submitting)
    if problem:
        pytest.skip(f"{submitting} cannot run here: {problem}")
    opened = Opened(submitting, test_file, depth)
    opened.queue.queue(0, 0)
    opened.queue.queue(1, BLOCK)
    assert opened.queue.in_flight == (2 if aio.submit_each(depth) else 0)
    assert sorted(opened.reap_all()) == [(0, BLOCK), (1, BLOCK)]
    opened.queue.close()


@pytest.mark.parametrize("batched", ["io_uring", "libaio"])  # POSIX AIO reaps whatever aio_suspend wakes it for
def test_a_batched_queue_never_waits_for_more_than_is_in_flight(batched: str, test_file: Path) -> None:
    problem = aio._refusal(batched)
    if problem:
        pytest.skip(f"{batched} cannot run here: {problem}")
    opened = Opened(batched, test_file, 32)
    for slot in range(3):  # far fewer than the batch of 8 a 32-deep queue waits for
        opened.queue.queue(slot, slot * BLOCK)
    assert sorted(opened.reap_all()) == [(0, BLOCK), (1, BLOCK), (2, BLOCK)]
    opened.queue.close()
