"""fio as a measuring instrument: write the job, run it with live per-second progress, and stop it
by the PID we started (found, with its I/O engine chosen, by :mod:`ssdprof.fio.install`).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import psutil

from ssdprof.fio.install import FioInstall, detect_fio, plan_fio
from ssdprof.fio.jobfile import FioPlan, escape_filename, job_file
from ssdprof.fio.output import FioReport, combine, parse_report
from ssdprof.fio.progress import DocumentStream, ProgressTracker
from ssdprof.model.results import EngineInfo, HostResult, Measurement, ProgressSample
from ssdprof.model.workload import Workload
from ssdprof.target.processes import Watchdog, end_with_parent

__all__ = [
    "FioEngine",
    "FioError",
    "FioInstall",
    "FioPlan",
    "FioRun",
    "detect_fio",
    "job_file",
    "layout_file",
    "measurement_from_report",
    "plan_fio",
    "run_fio",
]

_GRACE_S = 30.0


class FioError(RuntimeError):
    """fio could not be run or produced no result."""


@dataclass(frozen=True)
class FioRun:
    report: FioReport
    raw_output: str
    stderr: str
    returncode: int
    cancelled: bool
    progress: list[ProgressSample]
    job_text: str


def layout_file(fio: FioInstall, path: Path, size_bytes: int, *, direct: bool) -> float:
    """Fill the test file with incompressible data before measuring; returns seconds taken."""
    started = time.monotonic()
    args = [fio.path, "--name=layout", f"--filename={escape_filename(str(path))}", f"--size={size_bytes}",
            "--rw=write", "--bs=1M", "--ioengine=psync", f"--direct={1 if direct else 0}", "--refill_buffers=1",
            "--end_fsync=1", "--output-format=json"]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise FioError(f"could not lay out the test file {path}: {_first_error(done.stderr or done.stdout)}")
    return time.monotonic() - started


_JOB_PREFIX = "ssdprof-job-"


def _remove_stale_job_folders() -> None:
    """Job folders of ssdprof processes that were killed (kill -9 skips their clean-up), by PID, and any fio still
    running from one of them."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_JOB_PREFIX}*-*"):
        pid = folder.name.removeprefix(_JOB_PREFIX).split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not psutil.pid_exists(int(pid)):
            _end_fio_of(folder)
            shutil.rmtree(folder, ignore_errors=True)


def _end_fio_of(folder: Path) -> None:
    """fio processes (main and forked jobs) started on the job file in a dead ssdprof's ``folder``, killed by PID.

    The death signal (SIGTERM) normally ends them, but fio 3.33 can deadlock in its own SIGTERM handler: a CI run
    left a fio and its job process asleep on a futex, SIGTERM blocked, long after the 1 s job's end."""
    job = str(folder / "job.fio")
    for process in psutil.process_iter(["name", "cmdline"]):
        try:
            if process.info["name"] == "fio" and job in (process.info["cmdline"] or []):
                process.kill()
        except psutil.Error:
            continue


def run_fio(
    fio: FioInstall,
    job_text: str,
    *,
    workload: Workload,
    on_progress: Callable[[ProgressSample], None] | None = None,
    cancel: threading.Event | None = None,
    files: Mapping[str, str] | None = None,
) -> FioRun:
    """Run one job with 1 s cumulative status documents turned into per-second samples; ``files`` (name -> text)
    are written beside the job file, where fio runs, for the job to name (a replay's iologs)."""
    cancel = cancel or threading.Event()
    _remove_stale_job_folders()
    with tempfile.TemporaryDirectory(prefix=f"{_JOB_PREFIX}{os.getpid()}-") as scratch:
        job_path = Path(scratch) / "job.fio"
        job_path.write_text(job_text)
        for name, text in (files or {}).items():
            (Path(scratch) / name).write_text(text)
        args = [fio.path, "--output-format=json+", "--status-interval=1", str(job_path)]
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True, cwd=scratch,
                                   preexec_fn=end_with_parent())  # noqa: PLW1509 - one prctl syscall, no locks taken
        stderr_chunks: list[str] = []
        err_thread = threading.Thread(target=lambda: stderr_chunks.append(process.stderr.read() if process.stderr else ""),
                                      daemon=True)
        err_thread.start()
        tracker = ProgressTracker(ramp_s=workload.ramp_s)
        stream = DocumentStream()
        samples: list[ProgressSample] = []
        stop = _Watchdog(process, cancel, workload.duration_s() + _GRACE_S)
        stop.start()
        assert process.stdout is not None
        for line in process.stdout:
            for document in stream.feed(line):
                for sample in tracker.update(document):
                    samples.append(sample)
                    if on_progress:
                        on_progress(sample)
        returncode = process.wait()
        stop.finish()
        err_thread.join(timeout=5)
    raw = stream.text
    stderr = "".join(stderr_chunks)
    try:
        report = parse_report(raw)
    except ValueError as exc:
        raise FioError(f"fio exited with status {returncode}: {_first_error(stderr or raw)}") from exc
    return FioRun(report=report, raw_output=raw, stderr=stderr, returncode=returncode,
                  cancelled=stop.cancelled, progress=samples, job_text=job_text)


class _Watchdog(Watchdog):
    """Ends fio on cancel, or when it overruns its time by far: SIGINT first (fio stops cleanly and still
    prints its JSON), SIGKILL if it does not. Signals go to fio's own process group (fio forks its jobs;
    we started the group), so no job process survives to hold the output pipe open."""

    def run(self) -> None:
        interrupted_at: float | None = None
        exited_at: float | None = None
        while not self._done.wait(0.1):
            now = time.monotonic()
            if interrupted_at is None and self._due(now):
                self._signal_group(signal.SIGINT)
                interrupted_at = now
            elif interrupted_at is not None and now - interrupted_at > 10:
                self._signal_group(signal.SIGKILL)
            if self._process.poll() is not None:
                exited_at = exited_at or now
                if now - exited_at > 5:  # fio is gone but a job process still holds stdout
                    self._signal_group(signal.SIGKILL)

    def _signal_group(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if hasattr(os, "killpg"):
                os.killpg(self._process.pid, sig)  # start_new_session made fio the leader of its group
            elif self._process.poll() is None:
                os.kill(self._process.pid, sig)


_ERROR_LINE = re.compile(r"(error|fio:|invalid|denied|no space|not supported)", re.IGNORECASE)


def _first_error(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if _ERROR_LINE.search(line)]
    return (errors or lines or ["no output"])[0][:500]


class FioEngine:
    """fio behind the runner's engine interface: lay out, measure one point."""

    name = "fio"

    def __init__(self, install: FioInstall, reason: str):
        self.install = install
        self.reason = reason

    @property
    def tool_versions(self) -> dict[str, str]:
        return {"fio": self.install.version}

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float:
        return layout_file(self.install, path, size_bytes, direct=direct)

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        plan = plan_fio(self.install, workload)
        text = job_file(workload, str(path), plan, is_device=is_device)
        # The file was laid out (or chosen) before: if it has vanished, fio must fail rather than create
        # a new one (and its folder) and measure that. Not part of the job a user reproduces.
        guarded = job_file(workload, str(path), plan, is_device=is_device, create_file=False)
        run = run_fio(self.install, guarded, workload=workload, on_progress=on_progress, cancel=cancel)
        return measurement_from_report(run.report, engine=EngineInfo(
            name="fio", version=self.install.version, ioengine=plan.ioengine, reason=f"{self.reason}; {plan.reason}",
            effective_queue_depth=plan.iodepth, direct=workload.direct,
        ), raw_output=run.raw_output, stderr=run.stderr, cancelled=run.cancelled, progress=run.progress, job_text=text)


def measurement_from_report(report: FioReport, *, engine: EngineInfo, raw_output: str, stderr: str = "",
                            cancelled: bool = False, progress: list[ProgressSample] | None = None,
                            job_text: str = "") -> Measurement:
    """Per-host results from one fio group; the errors fio printed or recorded per job."""
    hosts = []
    for host in report.hosts:
        jobs = [j for j in report.jobs if j.host == host]
        codes = sorted({j.error for j in jobs if j.error})
        hosts.append(HostResult(host=host, jobs=len(jobs), read=combine(j.read for j in jobs),
                                write=combine(j.write for j in jobs),
                                error=f"fio error {', '.join(map(str, codes))} ({os.strerror(codes[0])})" if codes else None))
    lines = [line.strip() for line in (stderr + "\n" + "\n".join(report.notes)).splitlines() if line.strip()]
    errors = [line for line in lines if _ERROR_LINE.search(line) and "terminating on signal" not in line]
    errors += [h.error for h in hosts if h.error]
    notes = [line for line in lines if line not in errors]
    steady = next((j.steadystate for j in report.jobs if j.steadystate is not None), None)
    return Measurement(engine=engine, hosts=hosts, raw_output=raw_output, errors=errors, notes=notes,
                       cancelled=cancelled, progress=progress or [], job_text=job_text, fio_steadystate=steady)
