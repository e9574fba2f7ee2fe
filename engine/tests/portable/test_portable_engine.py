"""The portable engine's Python loop (its last resort where no compiled loop runs) for real, on this machine's disk
(the Linux path runs for real). The compiled loop's runs: test_portable_native_engine.py."""

from __future__ import annotations

import json
import platform
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from ssdprof import __version__
from ssdprof.model.results import Measurement, ProgressSample
from ssdprof.model.workload import Workload, WorkloadError, parse_workload
from ssdprof.portable import engine as engine_module
from ssdprof.portable import portable_engine
from ssdprof.portable.engine import PortableEngine
from ssdprof.portable.pool import WorkerPool

linux_only = pytest.mark.skipif(platform.system() != "Linux", reason="the Linux path runs for real; others are unit-tested")
MIB = 1 << 20


def workload(scratch: Path, **fields: Any) -> Workload:
    raw: dict[str, Any] = {"target": str(scratch), "size_bytes": 32 * MIB, "runtime_s": 1, "ramp_s": 0.3}
    raw.update(fields)
    return parse_workload(raw)


def measure(path: Path, w: Workload, engine: PortableEngine | None = None,
            cancel: threading.Event | None = None) -> tuple[Measurement, list[ProgressSample]]:
    samples: list[ProgressSample] = []
    result = (engine or PortableEngine("test", loop="python")).measure(w, path, is_device=False, on_progress=samples.append,
                                                        cancel=cancel or threading.Event())
    return result, samples


@pytest.mark.parametrize(("start_method", "cores", "outstanding", "workers"), [
    ("forkserver", 2, 1, 1), ("forkserver", 2, 4, 4), ("forkserver", 2, 32, 8), ("forkserver", 64, 1024, 64),
    ("spawn", 8, 32, 16), ("spawn", 8, 4, 4),
])
def test_lanes_get_their_own_processes_up_to_a_few_per_core(monkeypatch: pytest.MonkeyPatch, start_method: str, cores: int,
                                                           outstanding: int, workers: int) -> None:
    monkeypatch.setattr(engine_module.os, "cpu_count", lambda: cores)
    assert PortableEngine("test", loop="python", start_method=start_method).worker_count(outstanding) == workers


def test_a_chosen_worker_count_is_kept() -> None:
    assert PortableEngine("test", loop="python", workers=3).worker_count(32) == 3
    assert PortableEngine("test", loop="python", workers=3).worker_count(2) == 2


def test_the_entry_point_builds_the_portable_engine_with_its_reason() -> None:
    engine = portable_engine("fio is not installed")
    assert engine.name == "portable"
    assert engine.reason.startswith("fio is not installed; ")
    assert "compiled I/O loop ssdprof-io" in engine.reason or "Python I/O loop, the last resort" in engine.reason
    assert engine.tool_versions["ssdprof-portable"] == __version__


@linux_only
def test_a_random_read_run_has_the_fio_runners_shape(scratch: Path, test_file: Path) -> None:
    w = workload(scratch, queue_depth=2)
    result, samples = measure(test_file, w)
    assert result.errors == []
    assert (result.engine.name, result.engine.version, result.engine.ioengine) == ("portable", __version__, "io_uring+O_DIRECT")
    assert result.engine.effective_queue_depth == 2 and result.engine.direct
    [host] = result.hosts
    read = host.read
    assert host.host == "local" and not host.write.active
    assert read.io_count > 100 and read.io_bytes == read.io_count * 4096
    assert read.runtime_ms == pytest.approx(1000, abs=50)
    assert read.iops == pytest.approx(read.io_count / (read.runtime_ms / 1000))
    assert sum(read.lat_bins_ns.values()) == read.io_count == read.lat_ns.samples
    assert read.lat_ns.min is not None and read.lat_ns.min <= read.lat_ns.p50 <= read.lat_ns.p99 <= read.lat_ns.max  # type: ignore[operator]
    assert samples == result.progress and [s.elapsed_s for s in samples] == [1.0, 1.3]
    assert "ioengine=io_uring" in result.job_text and "iodepth=2" in result.job_text and "direct=1" in result.job_text
    raw = json.loads(result.raw_output)
    assert (raw["lanes"], raw["backend"]) == (2, "io_uring")
    assert f"io_uring: 2 I/O(s) kept in flight by {raw['workers']} worker process(es): one core " in result.engine.reason
    assert "engine CPU" in result.engine.reason


@linux_only
def test_on_a_file_small_enough_for_ram_it_still_reports_device_latency(scratch: Path) -> None:
    path = scratch / "ssdprof-testfile-small.dat"
    PortableEngine("test", loop="python").layout(path, 16 * MIB, direct=True)
    path.read_bytes()  # the whole file is now in the page cache
    device, _ = measure(path, workload(scratch, size_bytes=16 * MIB, runtime_s=1, ramp_s=0.2))
    cached, _ = measure(path, workload(scratch, size_bytes=16 * MIB, runtime_s=0.5, ramp_s=0.1, direct=False))
    device_p50, cached_p50 = device.hosts[0].read.lat_ns.p50, cached.hosts[0].read.lat_ns.p50
    assert device_p50 is not None and cached_p50 is not None
    assert device_p50 > 10_000, f"4K reads at {device_p50 / 1000:.1f} µs: the page cache answered"
    assert cached_p50 < device_p50 / 3  # the classic home-made benchmark's number, for contrast
    assert cached.engine.ioengine == "pread/pwrite (buffered)" and not cached.engine.direct


@linux_only
def test_a_70_30_mix_measures_both_directions_and_they_reach_the_device(scratch: Path, test_file: Path) -> None:
    result, _ = measure(test_file, workload(scratch, pattern="randrw", read_pct=70, queue_depth=4, ramp_s=0.2))
    read, write = result.hosts[0].read, result.hosts[0].write
    assert read.active and write.active
    assert 0.6 < read.io_count / (read.io_count + write.io_count) < 0.8
    assert not [w for w in result.extra_warnings if w.code == "cache_answered"]


@linux_only
def test_sequential_jobs_run_side_by_side(scratch: Path, test_file: Path) -> None:
    result, _ = measure(test_file, workload(scratch, pattern="read", block_size_bytes="128k", numjobs=2, ramp_s=0.2))
    assert result.hosts[0].jobs == 2
    assert result.hosts[0].read.io_count > 0
    assert "offset_increment=" in result.job_text


@linux_only
@pytest.mark.parametrize("backend", ["io_uring", "sync"])
def test_cancel_stops_promptly_and_leaves_no_worker_behind(scratch: Path, test_file: Path, backend: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    original_start = WorkerPool.start

    def recording_start(pool: WorkerPool) -> None:
        original_start(pool)
        started.extend(pool.pids)

    monkeypatch.setattr(WorkerPool, "start", recording_start)
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    began = time.monotonic()
    result, _ = measure(test_file, workload(scratch, queue_depth=4, runtime_s=60), cancel=cancel,
                        engine=PortableEngine("test", loop="python", backend=backend, workers=None if backend == "sync" else 1))
    assert result.cancelled and result.hosts == []
    assert time.monotonic() - began < 4
    assert len(started) == (4 if backend == "sync" else 1)  # a process per lane at this depth, or the one asked for
    deadline = time.monotonic() + 2
    while any(psutil.pid_exists(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(psutil.pid_exists(pid) for pid in started)


@linux_only
def test_the_spawn_start_method_of_macos_and_windows_works_too(scratch: Path, test_file: Path) -> None:
    engine = PortableEngine("test", loop="python", start_method="spawn", workers=2)
    result, _ = measure(test_file, workload(scratch, queue_depth=2, runtime_s=0.5, ramp_s=0.1), engine=engine)
    assert result.errors == [] and result.hosts[0].read.io_count > 0


@linux_only
def test_tmpfs_is_refused_for_device_numbers_but_measured_when_buffered_is_asked() -> None:
    if not Path("/dev/shm").is_dir():
        pytest.skip("no tmpfs at /dev/shm")
    with tempfile.TemporaryDirectory(dir="/dev/shm") as ram:
        path = Path(ram) / "ssdprof-testfile-ram.dat"
        with pytest.raises(WorkloadError, match="lives in RAM"):
            PortableEngine("test", loop="python").layout(path, 4 * MIB, direct=True)
        PortableEngine("test", loop="python").layout(path, 4 * MIB, direct=False)
        with pytest.raises(WorkloadError, match="lives in RAM"):
            measure(path, workload(Path(ram), size_bytes=4 * MIB))
        result, _ = measure(path, workload(Path(ram), size_bytes=4 * MIB, direct=False, runtime_s=0.3, ramp_s=0))
        assert result.hosts[0].read.io_count > 0 and not result.engine.direct


@linux_only
def test_an_access_size_off_the_logical_block_is_refused(scratch: Path, test_file: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_module, "logical_block_bytes", lambda path, system=None: 4096)
    with pytest.raises(WorkloadError, match="4096 B logical block") as raised:
        measure(test_file, workload(scratch, block_size_bytes=2048))
    assert raised.value.problems[0].field == "block_size_bytes"


@linux_only
def test_a_file_smaller_than_the_region_is_refused(scratch: Path, test_file: Path) -> None:
    with pytest.raises(WorkloadError, match="larger than the test file"):
        measure(test_file, workload(scratch, size_bytes=64 * MIB))


@linux_only
def test_queue_depth_1_takes_the_synchronous_call_and_says_why(scratch: Path, test_file: Path) -> None:
    result, _ = measure(test_file, workload(scratch, queue_depth=1, runtime_s=0.3, ramp_s=0.1))
    assert result.engine.ioengine == "pread/pwrite+O_DIRECT"
    assert "queue depth 1: one synchronous call per I/O" in result.engine.reason
    asked, _ = measure(test_file, workload(scratch, queue_depth=1, runtime_s=0.3, ramp_s=0.1),
                       engine=PortableEngine("test", loop="python", backend="io_uring"))
    assert asked.engine.ioengine == "io_uring+O_DIRECT"


@linux_only
def test_a_ram_speed_queue_gets_a_process_per_core_and_says_why() -> None:
    if not Path("/dev/shm").is_dir():
        pytest.skip("no tmpfs at /dev/shm")
    with tempfile.TemporaryDirectory(dir="/dev/shm") as ram:
        path = Path(ram) / "ssdprof-testfile-ram.dat"
        PortableEngine("test", loop="python").layout(path, 16 * MIB, direct=False)
        result, _ = measure(path, workload(Path(ram), size_bytes=16 * MIB, direct=False, queue_depth=32, runtime_s=0.5,
                                           ramp_s=0.1))
    raw = json.loads(result.raw_output)
    assert "probe:" in result.engine.reason and "engine CPU" in result.engine.reason
    assert raw["probe_core_busy"] >= raw["probe_core_python"] > 0 and raw["engine_cpu_s"] > 0
    assert (raw["workers"] > 1) == (raw["probe_waiting"] < 0.25)


@linux_only
def test_a_queue_the_engine_could_not_keep_ahead_of_is_flagged_and_one_that_waited_for_the_device_is_not(
        scratch: Path, test_file: Path) -> None:
    """Page-cache reads through libaio complete inside their submission, so one queue thread never waits: the engine
    set the pace. (Not io_uring here: it hands buffered tmpfs reads to kernel worker threads, and on a machine busy with
    other work, as this suite's Ceph daemons make it, the thread waits for those workers to get a CPU: measured 27-59 %
    of the run against 4 % through libaio.) 1 MiB direct reads keep the disk busy for far longer than the thread needs
    to refill the queue."""
    if not Path("/dev/shm").is_dir():
        pytest.skip("no tmpfs at /dev/shm")
    with tempfile.TemporaryDirectory(dir="/dev/shm") as ram:
        path = Path(ram) / "ssdprof-testfile-ram.dat"
        PortableEngine("test", loop="python").layout(path, 16 * MIB, direct=False)
        cached, _ = measure(path, workload(Path(ram), size_bytes=16 * MIB, direct=False, queue_depth=8, runtime_s=0.5,
                                           ramp_s=0.1), PortableEngine("test", loop="python", workers=1, backend="libaio"))
    [flag] = [w for w in cached.extra_warnings if w.code == "engine_queue_bound"]
    assert "waited for the device only" in flag.message and "compare with fio" in flag.message
    device, _ = measure(test_file, workload(scratch, queue_depth=2, block_size_bytes="1m", runtime_s=0.5, ramp_s=0.1))
    assert device.errors == [] and not [w for w in device.extra_warnings if w.code == "engine_queue_bound"]
