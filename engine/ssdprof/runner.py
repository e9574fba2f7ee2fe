"""Runs sweeps (a single run is a sweep of one point): picks the engine, prepares the target
once, measures each point, checks validity, commits each finished point, cleans up.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol

import psutil

from ssdprof.ceph import parse_rbd
from ssdprof.environment import capture_environment
from ssdprof.events import LayoutDone, PointFinished, PointProgress, PointStarted, RunEvent, SweepFinished, SweepStarted
from ssdprof.fio import FioEngine, FioError, detect_fio
from ssdprof.fio_output import combine
from ssdprof.hosts import HostError, SshSettings, parse_host
from ssdprof.multihost import DEFAULT_REMOTE_DIR, MultiHostEngine, RemoteOptions, cluster_warnings
from ssdprof.portable import PortableUnavailable, portable_engine
from ssdprof.results import EngineInfo, Environment, Measurement, ProgressSample, RunResult
from ssdprof.store import Store
from ssdprof.sweep import POINT_OVERHEAD_S, SweepSpec, estimate_s
from ssdprof.targets import (
    TargetKind,
    TargetPlan,
    direct_io_refusal,
    hold_device,
    plan_target,
    remove_stale_test_files,
    remove_test_file,
    widest,
)
from ssdprof.validity import check_validity
from ssdprof.workload import FIELD_RULES, EngineChoice, FieldProblem, Workload, WorkloadError

__all__ = ["EngineUnavailable", "PointEngine", "Runner", "SweepOutcome", "choose_engine"]


RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs", "hugetlbfs"})


class EngineUnavailable(WorkloadError):
    pass


class PointEngine(Protocol):
    name: str
    reason: str

    @property
    def tool_versions(self) -> dict[str, str]: ...

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float: ...

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement: ...


def choose_engine(choice: EngineChoice, fio_executable: str = "fio") -> PointEngine:
    """fio where it is installed; the portable engine when asked for, or when fio is missing."""
    fio = detect_fio(fio_executable) if choice is not EngineChoice.PORTABLE else None
    if fio is not None:
        reason = "fio was requested" if choice is EngineChoice.FIO else f"fio found at {fio.path}"
        return FioEngine(fio, reason)
    if choice is EngineChoice.FIO:
        raise _engine_error("fio is not installed (not on PATH); install it (apt install fio, brew install fio, "
                            "winget install fio) or use --engine portable")
    reason = "the portable engine was requested" if choice is EngineChoice.PORTABLE else "fio is not installed"
    try:
        return portable_engine(reason)
    except PortableUnavailable as exc:
        raise _engine_error(str(exc)) from None


def _engine_error(message: str) -> EngineUnavailable:
    return EngineUnavailable([FieldProblem(field="engine", flag=FIELD_RULES["engine"][0], message=message)])


@dataclass(frozen=True)
class SweepOutcome:
    sweep_id: int | None
    status: str
    results: list[RunResult]
    wall_s: float
    layout_s: float
    reason: str = ""
    """Why a sweep stopped before its end ("stopped": a host was lost; resume when it is back)."""


@dataclass(frozen=True)
class _Point:
    workload: Workload
    number: int
    total: int
    sweep_id: int | None
    repeat: int
    tags: dict[str, str]


@dataclass
class _Clock:
    """Remaining time for the ETA: durations of points not yet run plus their overhead."""

    remaining_s: float

    def finish(self, workload: Workload) -> None:
        self.remaining_s = max(self.remaining_s - workload.duration_s() - POINT_OVERHEAD_S, 0.0)


class _Site(Protocol):
    engine: PointEngine
    environment: Environment
    path: Path
    is_device: bool

    def set_up(self, emit: Callable[[RunEvent], None]) -> float: ...

    def vanished(self) -> str | None: ...

    def lost(self, result: RunResult) -> str | None:
        """Why the sweep cannot go on after this point, or None."""
        ...

    def tear_down(self, *, keep: bool) -> None: ...


class _LocalSite:
    """This machine: a directory (with our test file), a file or a block device."""

    def __init__(self, spec: SweepSpec, engine: PointEngine, default_dir: Path | None):
        self.engine = engine
        self.size_bytes = max(p.size_bytes for p in spec.points)
        self.direct = spec.points[0].direct
        self.plan = plan_target(widest(spec.points), default_dir)
        if self.plan.kind is TargetKind.DIRECTORY:
            remove_stale_test_files(self.plan.path.parent)
        where = self.plan.path.parent if self.plan.kind is TargetKind.DIRECTORY else self.plan.path
        self.environment = capture_environment(where, engine.tool_versions, block_device=self.plan.device)
        self.path = self.plan.path
        self.is_device = self.plan.kind is TargetKind.BLOCK_DEVICE
        self._check_points(spec, self.plan, self.environment)
        self._folder = _hold(self.plan.path.parent) if self.plan.kind is TargetKind.DIRECTORY else None
        # Held for the whole sweep: nothing can mount or claim a device that is being written.
        self._claim = hold_device(self.plan.path) if self.is_device and any(p.does_write for p in spec.points) else None

    def set_up(self, emit: Callable[[RunEvent], None]) -> float:
        if self.plan.kind is not TargetKind.DIRECTORY:
            return 0.0
        seconds = self.engine.layout(self.plan.path, self.size_bytes, direct=self.direct)
        emit(LayoutDone(path=str(self.plan.path), size_bytes=self.size_bytes, seconds=seconds))
        return seconds

    def vanished(self) -> str | None:
        """Why the next point cannot run where the sweep was laid out: the target (or our test file in
        it) is gone. fio would otherwise create a fresh file, and even its folder, and measure that."""
        if self.plan.path.exists():
            return None
        where = "the test file in " + str(self.plan.path.parent) if self.plan.kind is TargetKind.DIRECTORY else str(self.plan.path)
        gone = "" if self.plan.path.parent.exists() else " (its folder was removed)"
        return f"{where} vanished during the sweep{gone}; the finished points are kept; check the target and resume"

    def lost(self, result: RunResult) -> str | None:
        return None  # a failed point says why; the next point checks the target again (vanished)

    def tear_down(self, *, keep: bool) -> None:
        if self._claim is not None:
            os.close(self._claim)
            self._claim = None
        if not keep:
            remove_test_file(self.plan)
        if self._folder is not None:
            held, self._folder = self._folder, None
            try:
                if os.fstat(held).st_nlink == 0 and self.plan.path.parent.exists():
                    # The user's folder was deleted mid-sweep and fio made a new one in its place before
                    # failing (our open handle kept the old one's identity): remove that one if empty.
                    with contextlib.suppress(OSError):
                        self.plan.path.parent.rmdir()
            finally:
                os.close(held)

    def _check_points(self, spec: SweepSpec, plan: TargetPlan, environment: Environment) -> None:
        """Rules that need the target: direct I/O support and the device's block size."""
        problems: list[FieldProblem] = []
        if any(p.direct for p in spec.points) and plan.kind is not TargetKind.BLOCK_DEVICE:
            refusal = direct_io_refusal(plan.path.parent)
            if refusal:
                problems.append(FieldProblem(field="direct", flag="--buffered", message=(
                    f"the filesystem at {plan.path.parent} refuses direct I/O ({refusal}), e.g. tmpfs lives in RAM; "
                    "choose a folder on the SSD, or pass --buffered to measure the page cache, labelled as such")))
        if environment.filesystem in RAM_FILESYSTEMS and any(p.direct for p in spec.points):
            problems.append(FieldProblem(field="target", flag="--target", message=(
                f"{plan.path.parent} is on {environment.filesystem}, which lives in RAM: no device would be measured; "
                "choose a folder on the SSD (or pass --buffered to measure memory, labelled as such)")))
        logical = environment.logical_block_bytes or 512
        for name, flag in (("block_size_bytes", "--bs"), ("offset_bytes", "--offset")):
            odd = sorted({getattr(p, name) for p in spec.points if p.direct and getattr(p, name) % logical})
            if odd:
                problems.append(FieldProblem(field=name, flag=flag, message=(
                    f"{', '.join(map(str, odd))} B is not a multiple of the device's {logical} B logical block, "
                    "which direct I/O requires")))
        if len({p.target for p in spec.points}) > 1:
            problems.append(FieldProblem(field="target", flag="--target", message="all points of a sweep share one target"))
        if problems:
            raise WorkloadError(problems)



class _RemoteSite:
    """Several hosts over SSH: every host checked and prepared before any point starts."""

    def __init__(self, spec: SweepSpec, ssh: SshSettings):
        assert spec.remote is not None
        remote = spec.remote
        rbd = parse_rbd(remote.rbd, remote.ceph_user, remote.ceph_conf) if remote.rbd else None
        options = RemoteOptions(hosts=[parse_host(h) for h in remote.hosts], ssh=ssh, rbd=rbd,
                                target_dir=remote.target_dir or DEFAULT_REMOTE_DIR, target_dirs=remote.target_dirs,
                                devices=remote.devices)
        self.hosts = MultiHostEngine(options)
        self.engine: PointEngine = self.hosts
        self._spec = spec
        self.environment = Environment()
        self.path = Path(options.target_dir)
        self.is_device = False

    def set_up(self, emit: Callable[[RunEvent], None]) -> float:
        started = time.monotonic()
        self.environment = self.hosts.prepare(self._spec)
        seconds = time.monotonic() - started
        emit(LayoutDone(path=", ".join(f"{h}:{t}" for h, t in self.hosts.targets.items()),
                        size_bytes=max(p.size_bytes for p in self._spec.points), seconds=seconds))
        return seconds

    def vanished(self) -> str | None:
        return None  # each host's target is checked by fio there; a lost host marks its part

    def lost(self, result: RunResult) -> str | None:
        # Later points on fewer hosts would not measure the same cluster, and without the host they
        # cannot start at all: stop, keep what was measured, and let the user resume.
        errors = [h.error for h in result.hosts if h.error]
        return "; ".join(errors) if errors else None

    def tear_down(self, *, keep: bool) -> None:
        try:
            if not keep:
                self.hosts.cleanup()
        finally:
            self.hosts.close()


class Runner:
    def __init__(self, store: Store | None, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None):
        self.store = store
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.ssh = ssh or SshSettings()

    def run_sweep(self, spec: SweepSpec, *, resume_id: int | None = None, tags: dict[str, str] | None = None,
                  on_event: Callable[[RunEvent], None] | None = None, cancel: threading.Event | None = None) -> SweepOutcome:
        emit = on_event or (lambda event: None)
        cancel = cancel or threading.Event()
        started = time.monotonic()
        site = self._site(spec)
        sweep_id, done = self._open_sweep(spec, resume_id)
        todo = [(r, i) for r in range(spec.repeats) for i in range(len(spec.points)) if (i, r) not in done]
        clock = _Clock(sum(spec.points[i].duration_s() + POINT_OVERHEAD_S for _, i in todo))
        emit(SweepStarted(sweep_id=sweep_id, name=spec.name, total_points=spec.total_points(), already_done=len(done),
                          estimated_s=estimate_s(spec) * len(todo) / max(spec.total_points(), 1),
                          engine=site.engine.name, engine_reason=site.engine.reason))
        results: list[RunResult] = []
        layout_s = 0.0
        status, reason = "done", ""
        try:
            layout_s = site.set_up(emit) if todo else 0.0
            for number, (repeat, index) in enumerate(todo, start=len(done) + 1):
                workload = spec.points[index]
                emit(PointStarted(index=index, repeat=repeat, number=number, total_points=spec.total_points(),
                                  workload=workload, eta_s=clock.remaining_s))
                point = _Point(workload, number, spec.total_points(), sweep_id, repeat, {**spec.tags, **(tags or {})})
                result = None if cancel.is_set() else self._measure_point(site, point, emit=emit, cancel=cancel, clock=clock)
                if result is None:
                    status = "cancelled"
                    break
                if self.store is not None:
                    result = self.store.add_run(result, point_index=index)
                results.append(result)
                clock.finish(workload)
                emit(PointFinished(number=number, total_points=spec.total_points(), result=result))
                if number < spec.total_points() and (lost := site.lost(result)) is not None:
                    status = "stopped"
                    reason = (f"stopped after point {number} of {spec.total_points()}: {lost}. Its data and the other "
                              "hosts' are kept; resume when the host is back")
                    break
        finally:
            site.tear_down(keep=spec.points[0].keep_file)
            if self.store is not None and sweep_id is not None:
                self.store.set_sweep_status(sweep_id, status)
        wall_s = time.monotonic() - started
        emit(SweepFinished(sweep_id=sweep_id, status=status, run_ids=[r.id for r in results if r.id is not None],
                           wall_s=wall_s, layout_s=layout_s, reason=reason))
        return SweepOutcome(sweep_id, status, results, wall_s, layout_s, reason)

    def _site(self, spec: SweepSpec) -> _Site:
        """Check everything that can be checked before anything is written anywhere."""
        if spec.remote is not None:
            return _RemoteSite(spec, self.ssh)
        return _LocalSite(spec, choose_engine(spec.points[0].engine, self.fio_executable), self.default_dir)

    def _open_sweep(self, spec: SweepSpec, resume_id: int | None) -> tuple[int | None, set[tuple[int, int]]]:
        if self.store is None:
            return None, set()
        if resume_id is None:
            return self.store.create_sweep(spec), set()
        stored = self.store.sweep(resume_id)
        if stored is None:
            raise KeyError(f"sweep {resume_id} does not exist")
        self.store.set_sweep_status(resume_id, "running")
        return resume_id, stored.done

    def _measure_point(self, site: _Site, point: _Point, *, emit: Callable[[RunEvent], None], cancel: threading.Event,
                       clock: _Clock) -> RunResult | None:
        engine, environment = site.engine, site.environment
        workload = point.workload
        started_at = _now()
        point_start = time.monotonic()

        def progress(sample: ProgressSample) -> None:
            elapsed = time.monotonic() - point_start
            eta = clock.remaining_s - min(elapsed, workload.duration_s())
            emit(PointProgress(number=point.number, total_points=point.total, sample=sample, point_elapsed_s=elapsed,
                               point_duration_s=workload.duration_s(), eta_s=max(eta, 0.0)))

        cpu = _CpuSampler()
        cpu.start()
        try:
            if (gone := site.vanished()) is not None:
                raise FileNotFoundError(gone)
            measurement = engine.measure(workload, site.path, is_device=site.is_device, on_progress=progress, cancel=cancel)
        except (FioError, HostError) as exc:
            measurement = Measurement(engine=_engine_info(engine, workload), hosts=[], errors=[str(exc)])
        except OSError as exc:  # the target vanished, filled up or became unwritable under the engine
            reason = exc.args[0] if isinstance(exc, FileNotFoundError) and len(exc.args) == 1 else f"{exc.strerror or exc}"
            measurement = Measurement(engine=_engine_info(engine, workload), hosts=[],
                                      errors=[f"{reason}{f': {exc.filename}' if exc.filename else ''}"])
        finally:
            cpu_busy = cpu.stop()
        if measurement.cancelled or cancel.is_set():
            return None
        read = combine(h.read for h in measurement.hosts)
        write = combine(h.write for h in measurement.hosts)
        warnings = check_validity(workload, measurement, read, write, environment=environment, cpu_busy_pct=cpu_busy)
        warnings += cluster_warnings(environment.cluster)
        failed = not (read.active or write.active)
        return RunResult(
            sweep_id=point.sweep_id, repeat=point.repeat, started_at=started_at, finished_at=_now(),
            status="failed" if failed else "partial" if any(h.error for h in measurement.hosts) else "ok",
            engine=measurement.engine, workload=workload, environment=environment, warnings=warnings,
            hosts=measurement.hosts, read=read, write=write, progress=measurement.progress, tags=point.tags,
            cpu_busy_pct=cpu_busy, raw_output=measurement.raw_output, job_text=measurement.job_text,
            monitor=measurement.monitor, start_skew_ms=measurement.start_skew_ms,
        )


def _engine_info(engine: PointEngine, workload: Workload) -> EngineInfo:
    return EngineInfo(name=engine.name, reason=engine.reason, effective_queue_depth=workload.queue_depth,
                      direct=workload.direct)


class _CpuSampler(threading.Thread):
    """Mean machine-wide CPU busy % over the point, sampled each second."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self._stop_event = threading.Event()
        self._samples: list[float] = []

    def run(self) -> None:
        psutil.cpu_percent(interval=None)
        while not self._stop_event.wait(1.0):
            self._samples.append(psutil.cpu_percent(interval=None))

    def stop(self) -> float | None:
        self._stop_event.set()
        self.join(timeout=2)
        return sum(self._samples) / len(self._samples) if self._samples else None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _hold(folder: Path) -> int | None:
    """An open handle on the target folder for the sweep, to tell later whether it is still the same
    folder (a deleted one keeps its identity while held, with no links left). None where folders
    cannot be opened (Windows)."""
    try:
        return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
