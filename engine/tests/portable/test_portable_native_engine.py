"""The portable engine measuring through its compiled loop, for real on this machine's disk; and what it
does when that loop is killed, missing or built for another machine."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from ssdprof.model.results import Measurement, ProgressSample
from ssdprof.model.workload import Workload, parse_workload
from ssdprof.portable.engine import PortableEngine
from ssdprof.portable.native import NATIVE_ENV

pytestmark = pytest.mark.skipif(platform.system() != "Linux", reason="the Linux path runs for real; others are unit-tested")
MIB = 1 << 20


def workload(folder: Path, **fields: Any) -> Workload:
    raw: dict[str, Any] = {"target": str(folder), "size_bytes": 32 * MIB, "runtime_s": 1, "ramp_s": 0.3}
    raw.update(fields)
    return parse_workload(raw)


def measure(path: Path, w: Workload, engine: PortableEngine | None = None,
            cancel: threading.Event | None = None) -> tuple[Measurement, list[ProgressSample]]:
    samples: list[ProgressSample] = []
    result = (engine or PortableEngine("test", loop="native")).measure(w, path, is_device=False, on_progress=samples.append,
                                                                       cancel=cancel or threading.Event())
    return result, samples


def native_children() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if p.name() == "ssdprof-io"]


def test_a_random_read_run_has_the_fio_runners_shape(native_program: Path, scratch: Path, test_file: Path) -> None:
    result, samples = measure(test_file, workload(scratch, queue_depth=4))
    assert result.errors == []
    assert (result.engine.name, result.engine.ioengine, result.engine.loop) == ("portable", "io_uring+O_DIRECT", "native")
    assert "compiled I/O loop ssdprof-io; io_uring: one thread and one io_uring per job" in result.engine.reason
    assert "engine CPU" in result.engine.reason
    [host] = result.hosts
    read = host.read
    assert not host.write.active and read.io_count > 100 and read.io_bytes == read.io_count * 4096
    assert read.runtime_ms == pytest.approx(1000, abs=20)
    assert sum(read.lat_bins_ns.values()) == read.io_count == read.lat_ns.samples
    assert read.lat_ns.min is not None and read.lat_ns.max is not None and read.lat_ns.p50 is not None
    assert read.lat_ns.min <= read.lat_ns.p50 <= read.lat_ns.max and read.clat_ns == read.lat_ns
    assert samples == result.progress and [s.elapsed_s for s in samples] == [1.0, 1.3]
    assert not samples[0].ramping and samples[0].read_iops > 0  # ramping: a second ending within the ramp + 0.5 s
    assert "ioengine=io_uring" in result.job_text and "iodepth=4" in result.job_text
    kinds = [json.loads(line)["type"] for line in result.raw_output.splitlines()]
    assert kinds == ["start", "progress", "progress", "result"]


def test_device_latency_even_when_the_file_sits_in_the_page_cache(native_program: Path, scratch: Path) -> None:
    path = scratch / "ssdprof-testfile-cached.dat"
    PortableEngine("test", loop="python").layout(path, 16 * MIB, direct=True)
    path.read_bytes()  # the whole file is now in the page cache
    device, _ = measure(path, workload(scratch, size_bytes=16 * MIB, runtime_s=1, ramp_s=0.2))
    cached, _ = measure(path, workload(scratch, size_bytes=16 * MIB, runtime_s=0.5, ramp_s=0.1, direct=False))
    device_p50, cached_p50 = device.hosts[0].read.lat_ns.p50, cached.hosts[0].read.lat_ns.p50
    assert device_p50 is not None and cached_p50 is not None
    assert device_p50 > 10_000, f"4K reads at {device_p50 / 1000:.1f} µs: the page cache answered"
    assert cached_p50 < device_p50 / 3
    assert cached.engine.ioengine == "io_uring (buffered)" and not cached.engine.direct


def test_a_70_30_mix_and_sequential_jobs_measure_what_was_asked(native_program: Path, scratch: Path, test_file: Path) -> None:
    mixed, _ = measure(test_file, workload(scratch, pattern="randrw", read_pct=70, queue_depth=16, ramp_s=0.2))
    read, write = mixed.hosts[0].read, mixed.hosts[0].write
    assert 0.6 < read.io_count / (read.io_count + write.io_count) < 0.8
    assert not [w for w in mixed.extra_warnings if w.code == "cache_answered"]
    jobs, _ = measure(test_file, workload(scratch, pattern="read", block_size_bytes="128k", numjobs=2, queue_depth=8,
                                          ramp_s=0.2))
    assert jobs.hosts[0].jobs == 2 and jobs.hosts[0].read.io_count > 0 and "offset_increment=" in jobs.job_text


def test_a_byte_bounded_write_ends_after_its_bytes(native_program: Path, scratch: Path, test_file: Path) -> None:
    w = workload(scratch, pattern="write", block_size_bytes="128k", queue_depth=4, runtime_s=60, ramp_s=0).model_copy(
        update={"io_bytes_limit": 8 * MIB})
    began = time.monotonic()
    result, _ = measure(test_file, w)
    assert result.hosts[0].write.io_bytes == 8 * MIB and time.monotonic() - began < 30


def test_an_offered_rate_is_paced(native_program: Path, scratch: Path, test_file: Path) -> None:
    result, _ = measure(test_file, workload(scratch, queue_depth=8, rate_iops=800, runtime_s=2, ramp_s=0))
    assert result.hosts[0].read.iops == pytest.approx(800, rel=0.15)


def test_cancel_stops_promptly_and_leaves_no_program_behind(native_program: Path, scratch: Path, test_file: Path) -> None:
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    began = time.monotonic()
    result, samples = measure(test_file, workload(scratch, queue_depth=32, runtime_s=60), cancel=cancel)
    assert result.cancelled and result.hosts == [] and samples
    assert time.monotonic() - began < 4
    assert native_children() == []


def test_the_loop_killed_mid_run_fails_the_point_with_the_reason(native_program: Path, scratch: Path,
                                                                  test_file: Path) -> None:
    outcome: list[Measurement] = []
    runner = threading.Thread(target=lambda: outcome.append(measure(test_file, workload(scratch, queue_depth=8,
                                                                                         runtime_s=60))[0]))
    runner.start()
    deadline = time.monotonic() + 10
    while not native_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    [child] = native_children()
    time.sleep(0.5)
    child.kill()
    runner.join(timeout=10)
    [result] = outcome
    assert result.hosts == [] and not result.cancelled
    assert result.errors == [f"the compiled I/O loop ({native_program}) ended without its result: killed by signal 9 "
                             "(SIGKILL)"]
    assert not child.is_running() and native_children() == []


def test_a_killed_loop_marks_the_run_failed_on_the_command_line(native_program: Path, scratch: Path) -> None:
    target = scratch / "cli"
    target.mkdir()
    command = [sys.executable, "-m", "ssdprof", "run", "--engine", "portable", "--target", str(target), "--size", "32MiB",
               "--runtime", "60", "--ramp", "0", "--json", "--db", str(scratch / "cli.sqlite")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    found: list[psutil.Process] = []
    while not found and time.monotonic() < deadline:
        found = [p for p in psutil.Process(process.pid).children(recursive=True) if p.name() == "ssdprof-io"]
        time.sleep(0.1)
    assert found, "the command never started the compiled loop"
    time.sleep(0.5)
    found[0].kill()
    out, err = process.communicate(timeout=60)
    assert process.returncode == 1, err
    run = json.loads(out)
    assert run["status"] == "failed" and run["engine"]["loop"] == "native"
    assert "ended without its result: killed by signal 9" in err
    assert list(target.iterdir()) == []  # the test file removed, nothing left open


def test_without_a_compiled_loop_the_python_loop_measures_and_says_why(monkeypatch: pytest.MonkeyPatch, scratch: Path,
                                                                        test_file: Path) -> None:
    monkeypatch.setenv(NATIVE_ENV, str(scratch / "no-such-ssdprof-io"))
    result, _ = measure(test_file, workload(scratch, queue_depth=2, runtime_s=0.5, ramp_s=0.1), PortableEngine("test"))
    assert result.engine.loop == "python" and result.hosts[0].read.io_count > 0
    assert f"Python I/O loop, the last resort (no compiled I/O loop at {scratch / 'no-such-ssdprof-io'}" in result.engine.reason


def test_a_loop_built_for_another_machine_is_named_as_such(monkeypatch: pytest.MonkeyPatch, cross_builds: dict[str, Path],
                                                          scratch: Path, test_file: Path) -> None:
    program = cross_builds["x86_64-windows-gnu"]
    monkeypatch.setenv(NATIVE_ENV, str(program))
    engine = PortableEngine("test")
    here = "Linux x86-64" if platform.machine() == "x86_64" else f"Linux {platform.machine()}"
    assert f"{program} is built for Windows x86-64, not this {here} machine" in engine.reason
    result, _ = measure(test_file, workload(scratch, queue_depth=2, runtime_s=0.3, ramp_s=0), engine)
    assert result.engine.loop == "python" and result.hosts[0].read.io_count > 0
    assert "built for Windows x86-64" in result.engine.reason
