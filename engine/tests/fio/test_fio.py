"""The fio wrapper against the real fio binary."""

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import pytest
from conftest import requires_fio

from ssdprof.fio import runner
from ssdprof.fio.output import combine
from ssdprof.fio.runner import FioInstall, FioPlan, detect_fio, job_file, layout_file, plan_fio, run_fio
from ssdprof.model.workload import parse_workload

pytestmark = requires_fio


def short(**changes: object) -> object:
    base = {"runtime_s": 2, "ramp_s": 1, "size_bytes": "32MiB"}
    return parse_workload({**base, **changes})


@pytest.fixture(scope="module")
def fio() -> FioInstall:
    found = detect_fio()
    assert found is not None
    return found


def test_detection_finds_version_and_engines(fio: FioInstall) -> None:
    assert fio.version.startswith("fio-")
    assert {"psync", "libaio"} <= fio.engines


def test_linux_gets_an_asynchronous_engine_with_the_asked_queue_depth(fio: FioInstall) -> None:
    plan = plan_fio(fio, short(queue_depth=16), system="Linux")
    assert plan.ioengine in ("io_uring", "libaio")
    assert (plan.iodepth, plan.numjobs) == (16, 1)


def test_without_an_async_engine_queue_depth_becomes_jobs_and_says_so(fio: FioInstall) -> None:
    plan = plan_fio(fio, short(queue_depth=8, numjobs=2), system="Plan9")
    assert (plan.ioengine, plan.iodepth, plan.numjobs) == ("psync", 1, 16)
    assert "16 synchronous jobs" in plan.reason


def test_job_file_is_time_based_with_ramp_and_direct_io() -> None:
    text = job_file(short(), "/data/f", FioPlan("libaio", 1, 1, ""))
    for line in ("time_based=1", "runtime=2", "ramp_time=1", "direct=1", "rw=randread", "bs=4096", "size=33554432"):
        assert line in text.splitlines()


def test_sequential_jobs_get_disjoint_regions_with_offset_increment() -> None:
    text = job_file(short(pattern="read", numjobs=4), "/data/f", FioPlan("libaio", 1, 4, "")).splitlines()
    assert "size=8388608" in text
    assert "offset_increment=8388608" in text


def test_mixed_workloads_carry_the_read_share() -> None:
    assert "rwmixread=70" in job_file(short(pattern="randrw", read_pct=70), "/f", FioPlan("libaio", 1, 1, "")).splitlines()


def test_colons_in_file_names_are_escaped_for_fio() -> None:
    assert "filename=/data/a\\:b" in job_file(short(), "/data/a:b", FioPlan("libaio", 1, 1, "")).splitlines()


def test_a_real_run_streams_per_second_progress_and_parses_its_own_result(fio: FioInstall, disk_dir: Path) -> None:
    workload = short(queue_depth=4, runtime_s=3)
    path = disk_dir / "ssdprof-testfile-1-a.dat"
    layout_file(fio, path, workload.size_bytes, direct=True)
    seen = []
    run = run_fio(fio, job_file(workload, str(path), plan_fio(fio, workload)), workload=workload, on_progress=seen.append)
    read = combine(j.read for j in run.report.jobs)
    assert run.returncode == 0 and not run.cancelled
    assert read.io_count > 0 and read.lat_ns.from_bins and read.clat_ns.from_bins
    assert read.runtime_ms == pytest.approx(3000, abs=150)
    measured = [s for s in seen if not s.ramping]
    assert len(measured) >= 2
    assert sum(s.read_iops for s in measured) / len(measured) == pytest.approx(read.iops, rel=0.35)


def test_cancel_stops_fio_early_and_still_yields_its_partial_result(fio: FioInstall, disk_dir: Path) -> None:
    workload = short(runtime_s=30, ramp_s=0)
    path = disk_dir / "ssdprof-testfile-1-b.dat"
    layout_file(fio, path, workload.size_bytes, direct=True)
    cancel = threading.Event()
    threading.Timer(1.5, cancel.set).start()
    run = run_fio(fio, job_file(workload, str(path), plan_fio(fio, workload)), workload=workload, cancel=cancel)
    assert run.cancelled
    assert combine(j.read for j in run.report.jobs).runtime_ms < 10_000


def test_layout_fills_the_file_to_its_size(fio: FioInstall, disk_dir: Path) -> None:
    path = disk_dir / "ssdprof-testfile-1-c.dat"
    layout_file(fio, path, 8 << 20, direct=True)
    assert path.stat().st_size == 8 << 20
    assert path.stat().st_blocks * 512 >= 8 << 20  # really written, not sparse


def test_fio_run_with_its_own_steady_state_detection_is_parsed(fio: FioInstall, tmp_path: Path) -> None:
    """Real fio 3.33 output made here with --ss=iops_slope: the steadystate object reaches the measurement."""
    import subprocess

    from ssdprof.fio.output import parse_report
    from ssdprof.fio.runner import measurement_from_report
    from ssdprof.model.results import EngineInfo

    target = tmp_path / "ss.dat"
    target.write_bytes(b"\1" * (8 << 20))
    args = [fio.path, "--name=ss", f"--filename={target}", "--size=8M", "--rw=randwrite", "--bs=4k", "--ioengine=psync",
            "--time_based", "--runtime=4", "--ss=iops_slope:50%", "--ss_dur=2", "--ss_ramp=1", "--output-format=json+"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=True)
    steady = parse_report(done.stdout).jobs[0].steadystate
    assert steady is not None
    assert steady.ss.startswith("iops_slope:50") and steady.duration_s == 2 and steady.ramp_s == 1
    assert len(steady.iops_samples) == 2 and all(v > 0 for v in steady.iops_samples)
    measurement = measurement_from_report(parse_report(done.stdout), engine=EngineInfo(name="fio"), raw_output=done.stdout)
    assert measurement.fio_steadystate == steady


def test_a_fio_left_running_by_a_dead_ssdprof_is_ended_with_its_job_folder(fio: FioInstall, disk_dir: Path) -> None:
    """fio 3.33 can deadlock in its own SIGTERM handler, so a killed ssdprof's death signal may not end it (seen in CI).
    Here a real fio runs a long job from a job folder named for a process that has exited (the dead ssdprof, as a
    name: the deadlock itself cannot be caused on demand); the next run's clean-up kills that fio and its job process
    by PID and removes the folder, and leaves a fio of a live folder alone."""
    exited = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead_pid = int(exited.stdout)
    assert not psutil.pid_exists(dead_pid)
    started = []
    for owner in (dead_pid, os.getpid()):
        folder = Path(tempfile.mkdtemp(prefix=f"ssdprof-job-{owner}-"))
        (folder / "job.fio").write_text(f"[hung]\nfilename={disk_dir / f'hung-{owner}.dat'}\nsize=8m\nrw=randread\n"
                                        "runtime=60\ntime_based=1\n")
        process = subprocess.Popen([fio.path, "--output-format=json", str(folder / "job.fio")], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        started.append((folder, process))
    try:
        deadline = time.monotonic() + 20  # until each fio has forked its job process
        while time.monotonic() < deadline and any(len(psutil.Process(p.pid).children()) < 1 for _, p in started):
            time.sleep(0.1)
        (dead_folder, dead_fio), (live_folder, live_fio) = started
        jobs = psutil.Process(dead_fio.pid).children()
        assert jobs
        runner._remove_stale_job_folders()
        assert dead_fio.wait(timeout=10) is not None and not dead_folder.exists()
        psutil.wait_procs(jobs, timeout=10)
        assert not any(job.is_running() and job.status() != psutil.STATUS_ZOMBIE for job in jobs)
        assert live_fio.poll() is None and live_folder.exists()
    finally:
        for folder, process in started:  # fio's job processes start sessions of their own: each is ended by its PID
            if process.poll() is None:
                for job in psutil.Process(process.pid).children():
                    job.kill()
                process.kill()
                process.wait()
            subprocess.run(["rm", "-rf", str(folder)], check=False)
