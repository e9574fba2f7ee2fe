"""fio job files ssdprof writes: how a workload maps onto fio (the I/O engine and the job count that realise
its queue) and a plain job file that reproduces the point on its own."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ssdprof.model.results import RunResult
from ssdprof.model.workload import Workload

__all__ = ["FioOptions", "FioPlan", "escape_filename", "job_file", "job_options", "poisson_offered_iops",
           "reproducible_job"]


@dataclass(frozen=True)
class FioPlan:
    """How a workload maps onto fio: the I/O engine and the job count that realise its queue."""

    ioengine: str
    iodepth: int
    numjobs: int
    reason: str


@dataclass(frozen=True)
class FioOptions:
    """One fio job's options (``name=value``), written once and rendered either as a job file or as
    fio's command-line options, so neither is parsed back from the other."""

    label: str
    options: tuple[str, ...]

    def as_job_file(self) -> str:
        return "\n".join(["; written by ssdprof: " + self.label, "[global]", *self.options, "", "[ssdprof]", ""])

    def as_argv(self) -> list[str]:
        """fio's command line for one job named ssdprof, reporting json+ every second."""
        return ["fio", "--output-format=json+", "--status-interval=1", "--name=ssdprof",
                *(f"--{option}" for option in self.options)]


def job_file(workload: Workload, filename: str | None, plan: FioPlan, *, is_device: bool = False,
             extra_options: tuple[str, ...] = (), create_file: bool = True, hosts: int = 1) -> str:
    """A plain fio job file that reproduces the measurement on its own (see :func:`job_options`)."""
    return job_options(workload, filename, plan, is_device=is_device, extra_options=extra_options,
                       create_file=create_file, hosts=hosts).as_job_file()


def job_options(workload: Workload, filename: str | None, plan: FioPlan, *, is_device: bool = False,
                extra_options: tuple[str, ...] = (), create_file: bool = True, hosts: int = 1) -> FioOptions:
    """The options of the fio job that measures ``workload``.

    ``filename`` None leaves the target to ``extra_options`` (e.g. the rbd engine's pool and image).
    ``create_file`` False makes fio fail where the file is missing instead of creating it.
    ``hosts`` is how many hosts run this job at once: an offered rate is split across them.
    """
    lines = [
        f"ioengine={plan.ioengine}",
        f"direct={1 if workload.direct else 0}",
        *([f"filename={escape_filename(filename)}"] if filename is not None else []),
        *extra_options,
        f"rw={workload.pattern.value}",
        f"bs={workload.block_size_bytes}",
        f"iodepth={plan.iodepth}",
        f"numjobs={plan.numjobs}",
        # A byte-bounded write ends after its bytes (io_size wraps around the region), its runtime a cap.
        *(["time_based=1"] if workload.io_bytes_limit is None else [f"io_size={_io_size(workload, plan)}"]),
        f"runtime={_fio_seconds(workload.runtime_s)}",
        f"ramp_time={_fio_seconds(workload.ramp_s)}",
        "norandommap=1",
        "randrepeat=0",
        # Fresh random data, changed per write so no block repeats: enough against compression and
        # dedupe. refill_buffers (new random data per I/O) costs fio ~0.3 ms of CPU per 1 MiB write and
        # would cap fio, not the drive, on fast large writes.
        "scramble_buffers=1",
        "group_reporting=0",
        # Total latency (submission to completion) is what ssdprof reports; with these fio's json+ carries
        # histogram bins for lat as well as clat, so both percentiles are exact and merge by adding bins.
        "lat_percentiles=1",
        "clat_percentiles=1",
        # The vDSO clock is as exact as the TSC for microsecond I/O and spares fio's 70 ms calibration per point.
        "clocksource=clock_gettime",
    ]
    if workload.pattern.fixed_read_pct is None:
        lines.append(f"rwmixread={workload.read_pct}")
    lines += _rate(workload, plan, hosts)
    lines += _region(workload, plan)
    if workload.offset_bytes:
        lines.append(f"offset={workload.offset_bytes}")
    if is_device:
        lines.append("allow_mounted_write=0")
    if not create_file:
        lines.append("allow_file_create=0")
    return FioOptions(workload.label, tuple(lines))


def _io_size(workload: Workload, plan: FioPlan) -> int:
    """Each job's share of the bytes to do, in whole accesses (at least one), so the jobs together do
    ``io_bytes_limit`` rounded up to an access per job."""
    per_job = -(-(workload.io_bytes_limit or 0) // plan.numjobs)
    return max(-(-per_job // workload.block_size_bytes), 1) * workload.block_size_bytes


def _rate(workload: Workload, plan: FioPlan, hosts: int) -> list[str]:
    """An offered load as fio's per-job rate with Poisson arrivals; a mix gets a rate per direction.

    fio's rate applies to each job (numjobs clones), so the total is divided by the jobs on every host.
    Latency stays fio's ``lat``: from the I/O's actual submission, not its scheduled arrival (a point that
    falls behind its schedule is marked saturated instead)."""
    if not workload.rate_iops:
        return []
    return [f"rate_iops={','.join(map(str, _job_rates(workload, plan.numjobs, hosts)))}", "rate_process=poisson"]


def _job_rates(workload: Workload, numjobs: int, hosts: int) -> list[int]:
    """Each job's rate as written: one, or reads and writes apart for a mix."""
    per_job = workload.rate_iops / (numjobs * hosts)
    if workload.pattern.fixed_read_pct is not None:
        return [max(1, round(per_job))]
    reads = per_job * workload.read_pct / 100
    return [max(1, round(r)) if r else 0 for r in (reads, per_job - reads)]


def poisson_offered_iops(workload: Workload, numjobs: int, hosts: int = 1) -> float:
    """The mean rate fio (3.x) actually offers for a workload's rate, over all jobs and hosts.

    fio draws each gap between arrivals as ``int(int(1e6 / rate) * -log(U))`` microseconds: the mean gap is
    whole microseconds, and each gap is cut down to one, so the mean gap is 1 / (e^(1/m) - 1) µs with
    m = int(1e6 / rate). Asked for 48,022 IOPS a job offers 51,271 (measured: 51,058); at 20,000 the
    difference is 1 %. A rate over 1e6 per job (m = 0) is not paced at all; it is returned as asked."""
    offered = 0.0
    for rate in _job_rates(workload, numjobs, hosts):
        gap_us = 1_000_000 // rate if rate else 0
        offered += rate if not gap_us else 1e6 * math.expm1(1 / gap_us)
    return offered * numjobs * hosts


def _region(workload: Workload, plan: FioPlan) -> list[str]:
    """Sequential jobs get disjoint slices so they do not re-read each other's blocks."""
    if workload.pattern.is_random or plan.numjobs == 1:
        return [f"size={workload.size_bytes}"]
    block = workload.block_size_bytes
    per_job = workload.size_bytes // plan.numjobs // block * block
    return [f"size={per_job}", f"offset_increment={per_job}"]


def _fio_seconds(seconds: float) -> str:
    return f"{round(seconds)}" if float(seconds).is_integer() else f"{round(seconds * 1000)}ms"


def escape_filename(name: str) -> str:
    # fio splits filename= on ':' (several files); a literal colon must be escaped.
    return name.replace(":", "\\:")


_ASYNC_ENGINE_BY_OS = (("linux", "libaio"), ("macos", "posixaio"), ("darwin", "posixaio"), ("windows", "windowsaio"))


def reproducible_job(run: RunResult) -> str:
    """The run's own job file, or for a run without one (imported), a plain job file written from what
    the run recorded alone: the same text on whichever machine asks for it."""
    if run.job_text:
        return run.job_text
    workload, engine = run.workload, run.engine
    realised_as_jobs = engine.effective_queue_depth < workload.queue_depth
    plan = FioPlan(
        ioengine=engine.ioengine if engine.name == "fio" and engine.ioengine else _async_engine(run),
        iodepth=1 if realised_as_jobs else workload.queue_depth,
        numjobs=workload.outstanding_ios if realised_as_jobs else workload.numjobs,
        reason=engine.reason,
    )
    device = run.environment.target_device
    target = device or workload.target or "ssdprof-repro.dat"
    return job_file(workload, target, plan, is_device=bool(device) or target.startswith("/dev/"))


def _async_engine(run: RunResult) -> str:
    """fio's asynchronous engine on the OS the run was measured on (psync where it is not recorded)."""
    recorded = run.environment.os.lower()
    return next((engine for name, engine in _ASYNC_ENGINE_BY_OS if name in recorded), "psync")
