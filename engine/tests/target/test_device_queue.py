"""The device's side of the queue: Little's law on the OS's disk counters, and real runs on a real disk."""

import os
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.runner import Runner
from ssdprof.model.results import DeviceQueue, DirectionStats
from ssdprof.model.sweep import SweepMode, SweepSpec, build_sweep
from ssdprof.model.workload import parse_workload
from ssdprof.portable.proof import disk_of
from ssdprof.remote.keeper import _counted_device
from ssdprof.target.device_queue import DiskTimes, device_queue, device_queue_warnings, parse_diskstats, read_disk_times

_4K = 4096


def _times(*, reads: int = 0, writes: int = 0, read_ms: int = 0, write_ms: int = 0) -> DiskTimes:
    """Counters of 4 KiB requests, one per I/O."""
    return DiskTimes(reads, writes, reads * _4K, writes * _4K, read_ms, write_ms)


def test_littles_law_gives_the_mean_the_block_layer_held() -> None:
    # 100 000 reads of 4 KiB, 5 000 ms of block-layer time in all (50 µs each), at a run's 140 000 IOPS: 7 held.
    # The journal's 30 writes in the same time (1 ms in all) count towards the depth but get no time of their own.
    queue = device_queue("vda", _times(), _times(reads=100_000, read_ms=5_000, writes=30, write_ms=1),
                         read=DirectionStats(iops=140_000, io_count=100_000), write=DirectionStats(),
                         block_size_bytes=_4K, requested_outstanding=32)
    assert queue is not None
    assert queue.mean_in_flight == pytest.approx(140_000 * 5.001 / 100_030)
    assert queue.read_request_lat_ns_mean == pytest.approx(50_000)
    assert queue.write_request_lat_ns_mean is None and queue.requests == 100_030


def test_an_io_split_into_requests_counts_all_of_them_as_held_at_once() -> None:
    # 1 MiB I/O split by the block layer into 4 requests of 256 KiB, each 2 ms: one I/O outstanding holds 4.
    block = 1 << 20
    before, after = _times(), DiskTimes(4_000, 0, 1_000 * block, 0, 8_000, 0)
    queue = device_queue("sda", before, after, read=DirectionStats(iops=500, io_count=1_000), write=DirectionStats(),
                         block_size_bytes=block, requested_outstanding=1)
    assert queue is not None and queue.mean_in_flight == pytest.approx(4.0)
    assert queue.read_request_lat_ns_mean == pytest.approx(2e6)


def test_too_little_io_is_not_judged() -> None:
    assert device_queue("vda", _times(), _times(reads=10, read_ms=1), read=DirectionStats(iops=10), write=DirectionStats(),
                        block_size_bytes=_4K, requested_outstanding=32) is None


def test_a_queue_under_half_at_the_device_is_said_and_a_full_one_is_not() -> None:
    shallow = DeviceQueue(disk="vda", requested_outstanding=32, mean_in_flight=7.1, read_request_lat_ns_mean=48_000)
    [warning] = device_queue_warnings(shallow)
    assert warning.code == "device_queue_shallow" and warning.severity.value == "info"
    assert "7.1 of the 32" in warning.message and "48 µs per read request" in warning.message
    assert device_queue_warnings(shallow.model_copy(update={"mean_in_flight": 20.0})) == []
    assert device_queue_warnings(shallow.model_copy(update={"requested_outstanding": 2, "mean_in_flight": 0.5})) == []
    assert device_queue_warnings(None) == []


def _counted_disk(folder: Path) -> str:
    disk = disk_of(folder)
    if disk is None or read_disk_times(disk) is None:
        pytest.skip(f"the OS does not count the disk under {folder} (no /sys/dev/block entry or /proc/diskstats line)")
    return disk


def _point(target: Path, **changes: object) -> object:
    return parse_workload({"target": str(target), "runtime_s": 2, "ramp_s": 0.5, "size_bytes": "256MiB",
                           "pattern": "randread", **changes})


@requires_fio
def test_fio_runs_record_how_deep_the_devices_queue_was(disk_dir: Path) -> None:
    disk = _counted_disk(disk_dir)
    spec = build_sweep(_point(disk_dir), {"queue_depth": [1, 16]}, SweepMode.ONE_AT_A_TIME)  # type: ignore[arg-type]
    shallow, deep = Runner(None).run_sweep(spec).results
    assert shallow.device_queue is not None and deep.device_queue is not None
    assert shallow.device_queue.disk == disk and deep.device_queue.requested_outstanding == 16
    # One I/O outstanding cannot fill more than one slot at the device (other I/O on the disk may add a little).
    assert 0.5 < shallow.device_queue.mean_in_flight < 1.5
    assert deep.device_queue.mean_in_flight > 1.5 * shallow.device_queue.mean_in_flight
    assert shallow.device_queue.read_request_lat_ns_mean is not None and shallow.device_queue.read_request_lat_ns_mean > 0
    assert shallow.summary_json()["device_queue"]["disk"] == disk


def test_the_portable_queue_reaches_the_device_and_paced_or_buffered_runs_are_not_counted(disk_dir: Path) -> None:
    _counted_disk(disk_dir)
    points = [_point(disk_dir, engine="portable", queue_depth=1),
              _point(disk_dir, engine="portable", queue_depth=32),
              _point(disk_dir, engine="portable", queue_depth=8, rate_iops=500),
              _point(disk_dir, engine="portable", queue_depth=8, direct=False)]
    shallow, deep, paced, buffered = Runner(None).run_sweep(SweepSpec(name="queue", points=points)).results  # type: ignore[arg-type]
    assert shallow.device_queue is not None and deep.device_queue is not None
    assert 0.5 < shallow.device_queue.mean_in_flight < 1.5
    # The asynchronous queue puts more than one I/O on the device at once (how many depends on how fast the
    # device answers: I/O it has completed waits for the engine's thread and no longer counts there).
    assert deep.device_queue.mean_in_flight > 2 * shallow.device_queue.mean_in_flight
    assert paced.device_queue is None and buffered.device_queue is None


def test_diskstats_as_a_host_sends_it_parse_to_the_counters_psutil_reads(disk_dir: Path) -> None:
    disk = _counted_disk(disk_dir)
    device = os.stat(disk_dir).st_dev
    text = Path("/proc/diskstats").read_text()
    parsed = parse_diskstats(";".join(text.splitlines()))  # the line the host's session sends: lines joined by ';'
    name, ours = parsed[os.major(device), os.minor(device)]
    later = read_disk_times(disk)
    assert name == disk and later is not None
    for field in ("read_count", "write_count", "read_bytes", "write_bytes", "read_ms", "write_ms"):
        assert 0 <= getattr(later, field) - getattr(ours, field) < max(getattr(ours, field) // 100, 10_000_000), field
    assert parse_diskstats("8 0 sda garbage;") == {}


def test_the_keepers_device_line_names_a_files_filesystem_or_a_devices_own_numbers() -> None:
    number = os.makedev(253, 17)
    assert _counted_device(f"probe=1\nssdprof-counted dev {number}\nssdprof-laid-out 0") == (253, 17)
    assert _counted_device("ssdprof-counted rdev 7 1f") == (7, 31)
    assert _counted_device("ssdprof-counted dev banana") is None
    assert _counted_device("ssdprof-laid-out 0") is None


def test_the_disks_busy_time_over_the_span_is_its_utilisation() -> None:
    # 10 000 reads of 4 KiB in a 5 s span, the disk with a request in flight for 4.6 s of it (io_ticks): 92 % busy.
    before, after = _times(), DiskTimes(10_000, 0, 10_000 * _4K, 0, 4_000, 0, busy_ms=4_600)
    read = DirectionStats(iops=2_000, io_count=10_000)
    queue = device_queue("vda", before, after, read=read, write=DirectionStats(), block_size_bytes=_4K,
                         requested_outstanding=1, span_s=5.0)
    assert queue is not None and queue.busy_pct == pytest.approx(92.0)
    untimed = device_queue("vda", before, after, read=read, write=DirectionStats(), block_size_bytes=_4K,
                           requested_outstanding=1)
    assert untimed is not None and untimed.busy_pct is None
    line = "253 0 vda 10000 0 80000 4000 0 0 0 0 0 4600 4000"  # reads, merged, sectors, ms, writes ×4, in flight, ticks
    assert parse_diskstats(line)[253, 0][1].busy_ms == 4_600
