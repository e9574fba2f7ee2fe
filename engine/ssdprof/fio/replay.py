"""A planned trace replay run by fio: one iolog (version 3, each I/O with its time in microseconds) per lane,
read by that lane's job clone (``read_iolog`` with the files joined by ':'), every I/O sent to the target by
``replay_redirect``; as fast as possible adds ``replay_no_stall``. The clones are processes: fio 3.33 crashes
(SIGSEGV) replaying iologs in clones that are threads (``thread=1``).

Every log starts its clock at 1 µs: fio times an entry from the previous one's time and treats a previous time
of 0 as "none", so a log starting at 0 would issue its second I/O without waiting.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ssdprof.fio.install import FioInstall, plan_fio
from ssdprof.fio.jobfile import FioOptions
from ssdprof.fio.replay_log import LOG_NAME, PER_IO_LOG_LIMIT, issue_times_ns
from ssdprof.fio.runner import FioRun, measurement_from_report, run_fio
from ssdprof.model.replay import ReplayTiming
from ssdprof.model.results import EngineInfo, Measurement, ProgressSample
from ssdprof.model.workload import MAX_RUNTIME_S, Workload
from ssdprof.trace.plan import ReplayPlan

__all__ = ["TIMED_IOLOG_FIO", "FioReplay", "ReplayRun", "fio_refusal", "iolog_text", "lane_files", "replay_limit_s",
           "replay_options", "version_refusal"]

TIMED_IOLOG_FIO = (3, 31)
_FILE = "ssdprof-trace"
_GRACE_S = 60.0
_SLOWEST_IOPS = 50


def fio_refusal(install: FioInstall) -> str | None:
    """Why this fio cannot replay a trace, or None."""
    return version_refusal(install.version)


def version_refusal(version: str) -> str | None:
    """Why a fio of this version (as ``fio --version`` says it) cannot replay a trace, or None."""
    found = re.search(r"(\d+)\.(\d+)", version)
    number = (int(found[1]), int(found[2])) if found else (0, 0)
    if number < TIMED_IOLOG_FIO:
        return (f"{version} is older than fio 3.31, whose iolog version 3 gives each I/O its time: install a "
                "newer fio to replay traces")
    return None


def iolog_text(plan: ReplayPlan, lane: int) -> str:
    """The version 3 iolog of one lane: its I/Os at their times, on the one file the job redirects."""
    records = plan.records
    at = plan.lane(lane)
    times_us = (records.time_ns[at] // 1000 + 1).tolist()
    actions = ["write" if w else "read" for w in records.is_write[at].tolist()]
    lines = [f"{t} {_FILE} {a} {o} {s}" for t, a, o, s in zip(times_us, actions, records.offset_bytes[at].tolist(),
                                                               records.size_bytes[at].tolist(), strict=True)]
    end = times_us[-1] if times_us else 1
    return "\n".join(["fio version 3 iolog", f"1 {_FILE} add", f"1 {_FILE} open", *lines, f"{end} {_FILE} close", ""])


def replay_options(plan: ReplayPlan, target: str, *, ioengine: str, direct: bool, is_device: bool,
                   extra: tuple[str, ...] = ()) -> FioOptions:
    """The job that replays ``plan`` onto ``target`` (a file or device that exists: nothing is created)."""
    lines = [
        f"ioengine={ioengine}",
        f"direct={1 if direct else 0}",
        f"numjobs={plan.lanes}",
        "iodepth=1",
        "read_iolog=" + ":".join(lane_files(plan.lanes)),
        f"replay_redirect={target}",
        *(["replay_no_stall=1"] if plan.timing is ReplayTiming.FASTEST else []),
        "group_reporting=0",
        "lat_percentiles=1",
        "clat_percentiles=1",
        "clocksource=clock_gettime",
        "allow_file_create=0",
        *(["allow_mounted_write=0"] if is_device else []),
        *extra,
    ]
    return FioOptions(f"replay of {plan.records.source} ({len(plan.records)} I/Os)", tuple(lines))


def lane_files(lanes: int) -> list[str]:
    return [f"replay-{lane}.iolog" for lane in range(lanes)]


@dataclass(frozen=True)
class ReplayRun:
    measurement: Measurement
    fio: FioRun
    issued_ns: npt.NDArray[np.int64] | None
    """Each I/O's issue time in the plan's order (ns from its lane's start; -1: not issued); None: not logged."""


class FioReplay:
    """fio replaying one plan: the job realised on this machine's I/O engine, run with per-second progress."""

    def __init__(self, install: FioInstall, plan: ReplayPlan):
        self.install = install
        self.plan = plan
        fio_plan = plan_fio(install, Workload())
        self.ioengine = fio_plan.ioengine
        self.reason = fio_plan.reason

    def job(self, target: str, *, direct: bool, is_device: bool, extra: tuple[str, ...] = ()) -> FioOptions:
        return replay_options(self.plan, target, ioengine=self.ioengine, direct=direct, is_device=is_device, extra=extra)

    def run(self, target: str, *, direct: bool, is_device: bool, on_progress: Callable[[ProgressSample], None] | None,
            cancel: threading.Event, log_dir: Path | None = None) -> ReplayRun:
        """fio's measurement, and when each I/O was issued (None past PER_IO_LOG_LIMIT I/Os); fio's per-I/O logs
        are kept in ``log_dir`` where given (else in a folder removed after)."""
        job = self.job(target, direct=direct, is_device=is_device)
        files = {name: iolog_text(self.plan, lane) for lane, name in enumerate(lane_files(self.plan.lanes))}
        logged = len(self.plan.records) <= PER_IO_LOG_LIMIT
        with tempfile.TemporaryDirectory(prefix=f"ssdprof-replay-{os.getpid()}-") as scratch:
            logs = log_dir or Path(scratch)
            per_io = (f"write_lat_log={logs / LOG_NAME}", "log_offset=1") if logged else ()
            run = run_fio(self.install, self.job(target, direct=direct, is_device=is_device,
                                                 extra=per_io).as_job_file(),
                          workload=Workload(runtime_s=replay_limit_s(self.plan), ramp_s=0), on_progress=on_progress,
                          cancel=cancel, files=files)
            issued = issue_times_ns(logs, self.plan) if logged else None
        engine = EngineInfo(name="fio", version=self.install.version, ioengine=self.ioengine,
                            reason=f"fio read_iolog, {self.plan.lanes} lanes of one I/O; {self.reason}",
                            effective_queue_depth=1, direct=direct)
        measured = measurement_from_report(run.report, engine=engine, raw_output=run.raw_output, stderr=run.stderr,
                                           cancelled=run.cancelled, progress=run.progress, job_text=job.as_job_file())
        return ReplayRun(measured, run, issued)


def replay_limit_s(plan: ReplayPlan) -> float:
    """How long fio may take before it is stopped: the trace's span and a half as recorded, or a rate no
    working target falls below as fast as possible."""
    expected = plan.expected_s
    limit = expected * 1.5 + _GRACE_S if expected is not None else len(plan.records) / _SLOWEST_IOPS + _GRACE_S
    return min(limit, MAX_RUNTIME_S)
