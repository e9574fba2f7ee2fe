"""The portable engine behind the runner's ``PointEngine`` interface.

One measurement: check that the cache can really be bypassed on this target, plan the lanes
(queue depth x jobs slots of an asynchronous queue, see :mod:`ssdprof.portable.aio`, or as
many synchronous I/O threads where no asynchronous interface can run) over worker processes, start them, release them
together, publish per-second progress, collect exact totals, and prove the result (device
byte counters, the engine's own CPU use). Results have the fio runner's shape and units.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ssdprof import __version__
from ssdprof.fio.jobfile import FioPlan, job_file
from ssdprof.model.quantities import format_size
from ssdprof.model.results import EngineInfo, HostResult, Measurement, ProgressSample, ValidityWarning
from ssdprof.model.workload import Workload, WorkloadError
from ssdprof.portable.aio import SYNC, BackendChoice, backend_label, choose_backend
from ssdprof.portable.collector import Collector
from ssdprof.portable.directio import DirectIoRefused, alignment_problem, io_method, logical_block_bytes, memory_filesystem, open_io_file
from ssdprof.portable.lanes import IoShape, LaneSpec, plan_lanes, spread_over_workers
from ssdprof.portable.layout import lay_out
from ssdprof.portable.messages import Schedule, WorkerSpec
from ssdprof.portable.native import LOOP_PYTHON, choose_loop
from ssdprof.portable.native_engine import measure_native
from ssdprof.portable.pool import WorkerPool, default_start_method
from ssdprof.portable.posixaio import slots_per_process
from ssdprof.portable.proof import DeviceProof, cpu_warnings, disk_of
from ssdprof.portable.sizing import ProbeShares, QueueSizing, hardware_queues, probe_queue, queue_bound_warnings, size_queue

__all__ = ["PortableEngine"]

_POLL_S = 0.1
_STARTUP_LIMIT_S = 120.0
_OVERRUN_LIMIT_S = 30.0
_PROCESSES_PER_CORE = {"forkserver": 4, "fork": 4}
_MAX_WORKERS = 64
_FIO_EQUIVALENT = {"Linux": "libaio", "Darwin": "posixaio", "Windows": "windowsaio", "io_uring": "io_uring",
                   "libaio": "libaio", "posixaio": "posixaio", "iocp": "windowsaio"}


@dataclass(frozen=True)
class _Outcome:
    collector: Collector
    cancelled: bool
    startup_error: str | None
    wall_s: float
    engine_cpu_s: float
    warnings: list[ValidityWarning]


class PortableEngine:
    """fio-compatible measurements where fio is missing: real cache bypass, real queue depth.

    The I/O loop is the compiled ``ssdprof-io`` (:mod:`ssdprof.portable.native`) wherever one runs
    here; the Python loop below it is the last resort, and a run says which measured it and why."""

    name = "portable"

    def __init__(self, reason: str, *, workers: int | None = None, start_method: str | None = None,
                 system: str | None = None, backend: str | None = None, loop: str | None = None):
        self.system = system or platform.system()
        self.start_method = start_method or default_start_method(self.system)
        self._workers = workers
        self._requested_backend = backend
        self._backend: BackendChoice | None = None
        self.native, self.native_refusal = choose_loop(loop)  # None: the Python loop, native_refusal says why
        self.reason = (f"{reason}; compiled I/O loop {self.native.path.name}" if self.native is not None
                       else f"{reason}; Python I/O loop, the last resort ({self.native_refusal})")

    @property
    def backend(self) -> BackendChoice:
        """The I/O interface this engine uses here (probed once: a ring or context is set up and closed)."""
        if self._backend is None:
            self._backend = choose_backend(self.system, self._requested_backend)
        return self._backend

    def backend_for(self, queue_depth: int, *, paced: bool = False) -> BackendChoice:
        """The interface for one measurement: at queue depth 1 a synchronous call, unless one was asked for
        or the load is offered at a rate (only an asynchronous queue paces arrivals, see :mod:`pacing`).

        With one I/O per job there is no queue to keep: a synchronous call is one system call
        where an asynchronous queue makes two (submit, wait), and measured here it is the one
        that matches fio io_uring's QD1 latency (bench/portable_vs_fio.py)."""
        if paced and self.backend.name == SYNC:
            raise WorkloadError.single("rate_iops", "--rate", (
                f"the portable engine paces arrivals only through an asynchronous queue, and none runs here "
                f"({self.backend.note}); leave the rate at 0, or install fio and use --engine fio"))
        if paced or queue_depth > 1 or self._requested_backend or self.backend.name == SYNC:
            return self.backend
        return BackendChoice(SYNC, (f"queue depth 1: one synchronous call per I/O, the shorter path than {self.backend.name}'s "
                                    "submit and wait",))

    @property
    def tool_versions(self) -> dict[str, str]:
        return {"ssdprof-portable": __version__, "python": platform.python_version(), "numpy": np.__version__}

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float:
        if direct:
            self._refuse_memory(path.parent)
        try:
            return lay_out(path, size_bytes, direct=direct, system=self.system)
        except DirectIoRefused as exc:
            raise _direct_refused(path, exc) from None

    def queue_sizing(self, backend: str, lanes: list[LaneSpec], path: Path, workload: Workload) -> QueueSizing:
        """Worker processes for the asynchronous queue: as asked, as an OS's per-process cap
        demands, or one unless a probe shows one core cannot keep the queue full."""
        outstanding = len(lanes)
        if self._workers:
            return QueueSizing(max(1, min(outstanding, self._workers)))
        cap = slots_per_process(self.system) if backend == "posixaio" else None
        if cap and outstanding > cap:
            return QueueSizing(-(-outstanding // cap))
        if outstanding == 1:
            return QueueSizing(1)
        probe = probe_queue(tuple(lanes), backend, path, direct=workload.direct, writes=workload.does_write,
                            system=self.system)
        queues = hardware_queues(path, self.system) if workload.direct else None  # buffered I/O copies from the cache
        return size_queue(probe, outstanding_ios=outstanding, cores=os.cpu_count() or 1, hardware_queues=queues)

    def worker_count(self, outstanding_ios: int) -> int:
        """Processes first, threads beyond a few processes per core.

        A lane sharing a process waits for the GIL after its I/O completes, a second
        scheduling step that stretches the latency tail; many processes cost start-up time
        and memory (much more under ``spawn``, where each imports Python anew). Measured on
        a 2-core machine at QD32 (bench/portable_vs_fio.py): 8 processes x 4 threads gave
        0.95-0.97x fio's IOPS against 0.90-0.93x for 2 x 16 or 32 x 1.
        """
        if self._workers:
            return max(1, min(outstanding_ios, self._workers))
        per_core = _PROCESSES_PER_CORE.get(self.start_method, 2)
        return max(1, min(outstanding_ios, per_core * (os.cpu_count() or 1), _MAX_WORKERS))

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        self._check_target(workload, path, is_device=is_device)
        if self.native is not None:
            return measure_native(self.native, workload, path, is_device=is_device, reason=self.reason, system=self.system,
                                  queue=self._requested_backend, on_progress=on_progress, cancel=cancel)
        shape = IoShape(block_size_bytes=workload.block_size_bytes, size_bytes=workload.size_bytes,
                        random=workload.pattern.is_random, read_pct=workload.read_pct,
                        queue_depth=workload.queue_depth, numjobs=workload.numjobs)
        backend = self.backend_for(workload.queue_depth, paced=workload.rate_iops > 0)
        lanes = [dataclasses.replace(lane, region_start_bytes=lane.region_start_bytes + workload.offset_bytes)
                 for lane in plan_lanes(shape, secrets.randbits(63))]  # the region starts at --offset, as fio's offset=
        sizing = (QueueSizing(self.worker_count(len(lanes))) if backend.name == SYNC
                  else self.queue_sizing(backend.name, lanes, path, workload))
        groups = spread_over_workers(lanes, sizing.workers)
        schedule = Schedule(ramp_ns=round(workload.ramp_s * 1e9), runtime_ns=round(workload.runtime_s * 1e9),
                            rate_iops_per_lane=workload.rate_iops / len(lanes))
        specs = [WorkerSpec(worker_id=i, path=str(path), direct=workload.direct, writes=workload.does_write, system=self.system,
                            lanes=tuple(lanes), schedule=schedule, parent_pid=os.getpid(), backend=backend.name)
                 for i, lanes in enumerate(groups)]
        collector = Collector(lanes=shape.outstanding_ios, block_size_bytes=shape.block_size_bytes, ramp_s=workload.ramp_s,
                              duration_s=workload.duration_s(), on_progress=on_progress)
        # A buffered run is labelled as such already; proving it reached the device would be moot.
        proof = DeviceProof(disk_of(path, self.system)) if workload.direct else None
        outcome = _run(specs, self.start_method, collector, cancel, proof)
        info = EngineInfo(name="portable", version=__version__, ioengine=self._ioengine(backend, workload.direct),
                          reason=f"{self.reason}; {_layout_note(backend, shape.outstanding_ios, sizing, outcome)}",
                          effective_queue_depth=workload.queue_depth, direct=workload.direct, loop=LOOP_PYTHON)
        return self._measurement(workload, path, is_device=is_device, info=info, outcome=outcome, specs=specs,
                                 backend=backend, probe=sizing.probe)

    def _ioengine(self, backend: BackendChoice, direct: bool) -> str:
        name = backend.name
        return io_method(self.system, direct=direct) if name == SYNC else backend_label(name, self.system, direct=direct)

    def _measurement(self, workload: Workload, path: Path, *, is_device: bool, info: EngineInfo, outcome: _Outcome,
                     specs: list[WorkerSpec], backend: BackendChoice, probe: ProbeShares | None) -> Measurement:
        fio_engine = _FIO_EQUIVALENT.get(backend.name) or _FIO_EQUIVALENT.get(self.system, "psync")
        plan = FioPlan(fio_engine, workload.queue_depth, workload.numjobs,
                       "the asynchronous fio engine that reproduces this queue")
        job_text = job_file(workload, str(path), plan, is_device=is_device)
        if outcome.cancelled:
            return Measurement(engine=info, hosts=[], cancelled=True, job_text=job_text)
        collector = outcome.collector
        errors = ([outcome.startup_error] if outcome.startup_error else []) + collector.errors
        read, write = collector.measured()
        host = HostResult(host="local", read=read, write=write, jobs=workload.numjobs, error="; ".join(errors) or None,
                          target=str(path))
        issued_read, issued_write = collector.issued_bytes()
        raw = {"engine": "portable", "method": info.ioengine, "backend": backend.name,
               "backend_refusals": list(backend.refusals), "start_method": self.start_method, "workers": len(specs),
               "lanes": sum(len(s.lanes) for s in specs), "wall_s": round(outcome.wall_s, 6),
               "engine_cpu_s": round(outcome.engine_cpu_s, 6), "probe_core_busy": probe and round(probe.busy, 3),
               "probe_core_python": probe and round(probe.user, 3), "probe_waiting": probe and round(probe.waiting, 3),
               "issued_read_bytes": issued_read,
               "issued_write_bytes": issued_write, "errors": errors}
        return Measurement(engine=info, hosts=[host], raw_output=json.dumps(raw, indent=2), errors=errors,
                           progress=collector.samples, job_text=job_text, extra_warnings=outcome.warnings)

    def _check_target(self, workload: Workload, path: Path, *, is_device: bool) -> None:
        if not is_device:
            size = path.stat().st_size
            if size < workload.offset_bytes + workload.size_bytes:
                where = f"from offset {workload.offset_bytes} ends beyond" if workload.offset_bytes else "is larger than"
                raise WorkloadError.single("size_bytes", "--size", (
                    f"{format_size(workload.size_bytes)} {where} the test file {str(path)!r} ({size} bytes)"))
            if workload.direct:
                self._refuse_memory(path)
        if not workload.direct:
            return
        problem = alignment_problem(block_size_bytes=workload.block_size_bytes, offset_bytes=workload.offset_bytes,
                                    logical_block_bytes=logical_block_bytes(path, self.system), direct=True)
        if problem:
            raise WorkloadError.single("block_size_bytes", "--bs", f"{problem}, which direct I/O requires")
        try:
            open_io_file(path, direct=True, write=False, system=self.system).close()
        except DirectIoRefused as exc:
            raise _direct_refused(path, exc) from None

    @staticmethod
    def _refuse_memory(path: Path) -> None:
        filesystem = memory_filesystem(path)
        if filesystem:
            raise WorkloadError.single("target", "--target", (
                f"{str(path)!r} is on {filesystem}, which lives in RAM: no device would be measured; choose a folder "
                "on the SSD, or pass --buffered to measure memory, labelled as such"))


def _layout_note(backend: BackendChoice, outstanding_ios: int, sizing: QueueSizing, outcome: _Outcome) -> str:
    """How the queue was kept, and what it cost: the engine's CPU over the run, in cores."""
    cpu = f"; engine CPU {outcome.engine_cpu_s / outcome.wall_s:.2f} core(s)" if outcome.wall_s > 0 else ""
    if backend.name == SYNC:
        return f"{backend.note}: {outstanding_ios} I/O thread(s) in {sizing.workers} worker process(es){cpu}"
    return f"{backend.note}: {outstanding_ios} I/O(s) kept in flight by {sizing.note}{cpu}"


def _direct_refused(path: Path, exc: DirectIoRefused) -> WorkloadError:
    return WorkloadError.single("direct", "--buffered", (
        f"{exc.strerror}; cache numbers are not reported as device numbers: choose a folder on the SSD, "
        f"or pass --buffered to measure the page cache, labelled as such ({path})"))


def _run(specs: list[WorkerSpec], start_method: str, collector: Collector, cancel: threading.Event,
         proof: DeviceProof | None) -> _Outcome:
    """Start the workers, release them together, collect until they finish; always reap them."""
    pool = WorkerPool(specs, start_method)
    schedule = specs[0].schedule
    try:
        pool.start()
        startup_error = _await_ready(pool, collector, cancel)
        if startup_error or cancel.is_set():
            return _Outcome(collector, cancel.is_set(), startup_error, 0.0, 0.0, [])
        if proof is not None:
            proof.start()
        cpu_before = time.process_time()
        start_ns = pool.release()
        while pool.running:
            for message in pool.receive(_POLL_S):
                collector.handle(message)
            elapsed_s = (time.perf_counter_ns() - start_ns) / 1e9
            collector.publish_due(elapsed_s)
            if cancel.is_set() or elapsed_s > schedule.duration_ns / 1e9 + _OVERRUN_LIMIT_S:
                pool.stop()
                if cancel.is_set():
                    return _Outcome(collector, True, None, elapsed_s, 0.0, [])
        wall_s = (time.perf_counter_ns() - start_ns) / 1e9
        collector.publish_due(wall_s, final=True)
        engine_cpu_s = sum(collector.worker_cpu_s.values()) + time.process_time() - cpu_before
        warnings = cpu_warnings(engine_cpu_s, wall_s, os.cpu_count() or 1) + queue_bound_warnings(collector.worker_waited_s, wall_s)
        if proof is not None:
            issued_read, issued_write = collector.issued_bytes()
            warnings += proof.finish(issued_read_bytes=issued_read, issued_write_bytes=issued_write)
        return _Outcome(collector, False, None, wall_s, engine_cpu_s, warnings)
    finally:
        pool.close()


def _await_ready(pool: WorkerPool, collector: Collector, cancel: threading.Event) -> str | None:
    """Wait until every lane has its file open and buffers filled; an error message if one cannot."""
    deadline = time.monotonic() + _STARTUP_LIMIT_S
    while len(collector.ready) < collector.lanes:
        for message in pool.receive(_POLL_S):
            collector.handle(message)
        if collector.errors:
            return collector.errors[0]
        if cancel.is_set():
            return None
        if pool.closed_pipes or time.monotonic() > deadline:
            return f"only {len(collector.ready)} of {collector.lanes} I/O threads started (a worker process failed to start)"
    return None
