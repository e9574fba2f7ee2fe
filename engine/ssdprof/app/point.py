"""One point of a sweep measured: the engine's measurement with what ssdprof reads around it (the
machine's CPU each second, how much of the queue reached the device, the drive's own word before
and after), checked for validity and made a :class:`RunResult`. The sweep runner
(:mod:`ssdprof.app.runner`), the PTS runner and the sustained-write test all measure their points here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import psutil

from ssdprof.app.engines import PointEngine
from ssdprof.app.sites import LocalSite, Site
from ssdprof.fio.output import combine
from ssdprof.fio.runner import FioError
from ssdprof.model.drive_state import DriveState
from ssdprof.model.events import Count, PointProgress, RunEvent
from ssdprof.model.results import EngineInfo, Measurement, ProgressSample, RunResult
from ssdprof.model.sweep import POINT_OVERHEAD_S
from ssdprof.model.validity import check_validity
from ssdprof.model.workload import Workload
from ssdprof.remote.addresses import HostError
from ssdprof.remote.host_results import cluster_warnings
from ssdprof.target.device_queue import DeviceQueueProbe, device_queue_warnings
from ssdprof.target.health_run import HealthWatch, health_warnings

__all__ = ["Clock", "Point", "measure_point", "now_iso"]


@dataclass(frozen=True)
class Point:
    workload: Workload
    number: int
    count: Count
    """Points finished before this one, of how many: what its progress events say."""
    sweep_id: int | None
    repeat: int
    tags: dict[str, str]
    drive_state: DriveState | None = None


@dataclass
class Clock:
    """Remaining time for the ETA: durations of points not yet run plus their overhead."""

    remaining_s: float

    def finish(self, workload: Workload) -> None:
        self.remaining_s = max(self.remaining_s - workload.duration_s() - POINT_OVERHEAD_S, 0.0)


def measure_point(site: Site, point: Point, *, emit: Callable[[RunEvent], None], cancel: threading.Event,
                  clock: Clock, sys_root: Path = Path("/sys")) -> RunResult | None:
    """One point on ``site``: the engine's measurement with what is read around it (CPU, the device's
    queue, the drive's own word), checked for validity; None when cancelled."""
    engine, environment = site.engine, site.environment
    workload = point.workload
    started_at = now_iso()
    point_start = time.monotonic()

    def progress(sample: ProgressSample) -> None:
        elapsed = time.monotonic() - point_start
        eta = clock.remaining_s - min(elapsed, workload.duration_s())
        emit(PointProgress(number=point.number, count=point.count, sample=sample,
                           point_elapsed_s=elapsed, point_duration_s=workload.duration_s(),
                           eta_s=max(eta, 0.0),
                           drive_temperature_c=health.latest_c if health is not None else None))

    cpu = _CpuSampler()
    cpu.start()
    # Paced runs keep the queue shallow on purpose; buffered I/O reaches the disk as the page cache decides.
    queue = (DeviceQueueProbe(site.counted_disk, block_size_bytes=workload.block_size_bytes,
                              requested_outstanding=workload.outstanding_ios,
                              duration_s=workload.duration_s())
             if site.counted_disk and workload.direct and not workload.rate_iops else None)
    if queue is not None:
        queue.start()
    health = _health_watch(site, sys_root)
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
    failed = not (read.active or write.active)
    device_queue = queue.finish(read, write) if queue is not None and not failed else None
    warnings = check_validity(workload, measurement, read, write, environment=environment,
                              cpu_busy_pct=cpu_busy, device_queue=device_queue)
    warnings += cluster_warnings(environment.cluster)
    warnings += device_queue_warnings(device_queue)
    drive_health = health.finish(read, write, cancel) if health is not None else None
    warnings += health_warnings(drive_health, workload.duration_s())
    if drive_health is None and len(measurement.hosts) == 1:  # one SSH host: its drive is the run's
        drive_health = measurement.hosts[0].drive_health  # (its warnings came with the measurement)
    return RunResult(
        sweep_id=point.sweep_id, repeat=point.repeat, started_at=started_at, finished_at=now_iso(),
        status="failed" if failed else "partial" if any(h.error for h in measurement.hosts) else "ok",
        engine=measurement.engine, workload=workload, environment=environment, warnings=warnings,
        hosts=measurement.hosts, read=read, write=write, progress=measurement.progress, tags=point.tags,
        cpu_busy_pct=cpu_busy, raw_output=measurement.raw_output, job_text=measurement.job_text,
        monitor=measurement.monitor, watched=measurement.watched,
        start_skew_ms=measurement.start_skew_ms,
        fio_steadystate=measurement.fio_steadystate, drive_state=point.drive_state, device_queue=device_queue,
        drive_health=drive_health,
    )


def _health_watch(site: Site, sys_root: Path) -> HealthWatch | None:
    """The drive beneath this machine's target, asked before the point (a host's drive is asked by its
    session: remote/drive_word.py)."""
    if not isinstance(site, LocalSite) or not site.environment.device:
        return None
    watch = HealthWatch(site.environment.device, sys_root=sys_root)
    watch.start()
    return watch


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


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
