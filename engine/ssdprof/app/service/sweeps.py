"""Sweeps in the app: planned (``plan_sweep``, as on the command line), estimated, started in their own
thread with their own store connection, resumed, cancelled; their events go out as ``run.event``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from pydantic import BaseModel

from ssdprof.app.contract.base import Params
from ssdprof.app.contract.notifications import EngineLog, RunEventNotification
from ssdprof.app.contract.runs import (
    CancelResult,
    PlannedPoint,
    ResumeParams,
    SweepEstimate,
    SweepInfo,
    SweepsResult,
    SweepStatus,
    target_device,
)
from ssdprof.app.planner import SweepRequest, plan_sweep, preflight
from ssdprof.app.runner import Runner
from ssdprof.app.service.registry import RpcError, handles
from ssdprof.model.events import (
    Count,
    PointFinished,
    PointStarted,
    RunEvent,
    SweepFinished,
    SweepStarted,
)
from ssdprof.model.sweep import SweepSpec, cool_down_words, estimate_s
from ssdprof.model.workload import WorkloadError
from ssdprof.remote.ceph import RbdTarget
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.store.errors import StoreError
from ssdprof.target.plan import TargetPlan, device_region, plan_target, widest

__all__ = ["Notify", "Sweeps"]

Notify = Callable[[str, BaseModel], None]
"""Sends a notification (method name, payload) to the client; must be safe from any thread."""

START_TIMEOUT_S = 120.0
BUSY_MESSAGE = ("a sweep, PTS or sustained-write test is already running; cancel it or wait for it "
                "to finish")
"""What a start beside a running sweep, PTS or sustained-write test is told: one at a time."""


class _ActiveSweep:
    """The sweep running in its own thread, with its own store connection."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cancel = threading.Event()
        self.started = threading.Event()
        self.announced: SweepStarted | None = None
        self.error: BaseException | None = None
        self.count: Count | None = None
        """The latest count its events gave: what a page opened mid-sweep shows."""
        self.thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()


class Sweeps:
    def __init__(self, store: Store, db_path: Path, notify: Notify, *, default_dir: Path | None, fio_executable: str,
                 ssh: SshSettings):
        self.store = store
        self.db_path = db_path
        self.notify = notify
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.ssh = ssh
        self._sweep: _ActiveSweep | None = None
        self.other_busy: Callable[[], bool] = lambda: False
        """Whether another measurement (a PTS test) is running: only one measures at a time."""

    @handles("sweep.estimate")
    def estimate(self, params: SweepRequest) -> SweepEstimate:
        spec = plan_sweep(params)
        region = device_region(spec.points) if spec.remote is None else None
        layout = 0 if region else max(p.size_bytes for p in spec.points)
        return SweepEstimate(name=spec.name, points=[PlannedPoint(label=p.label, workload=p) for p in spec.points],
                             repeats=spec.repeats, total_points=spec.total_points(), estimated_s=estimate_s(spec, layout),
                             layout_bytes=layout, device=target_device(region.device) if region else None,
                             overwrite_bytes=region.size_bytes if region and region.writes else 0,
                             region=region.sentence() if region else "",
                             cool_down=cool_down_words(spec))

    @handles("sweep.start")
    def start(self, params: SweepRequest) -> SweepStarted:
        # the target is checked with every other field (all problems at once), before a sweep is stored
        planned = preflight(params, default_dir=self.default_dir)
        return self._launch(planned.spec, None, params.tags, planned.target, planned.rbd)

    @handles("sweep.resume")
    def resume(self, params: ResumeParams) -> SweepStarted:
        """A sweep by its id (an interrupted or a cancelled one, anyone's not running now), else the
        caller's own last interrupted one."""
        stored = self.store.sweep(params.sweep_id) if params.sweep_id is not None else self.store.resumable("sweep")
        if stored is None:
            raise KeyError(f"sweep {params.sweep_id} does not exist")
        return self._launch(stored.spec, stored.id, {})

    @handles("sweep.cancel")
    def cancel(self, _: Params) -> CancelResult:
        active = self._sweep
        if active is None or not active.running:
            return CancelResult(cancelled=False)
        active.cancel.set()
        return CancelResult(cancelled=True, sweep_id=active.announced.sweep_id if active.announced else None)

    @handles("sweep.status")
    def status(self, _: Params) -> SweepStatus:
        active = self._sweep
        if active is None or not active.running or active.announced is None:
            return SweepStatus(running=False)
        return SweepStatus(running=True, sweep_id=active.announced.sweep_id, name=active.name,
                           count=active.count or active.announced.count)

    @handles("sweeps.list")
    def stored(self, _: Params) -> SweepsResult:
        sweeps, last_interrupted, last_finished = self._sweeps()
        return SweepsResult(sweeps=sweeps, last_finished=last_finished,
                            interrupted=last_interrupted)

    def _sweeps(self) -> tuple[list[SweepInfo], SweepInfo | None, SweepInfo | None]:
        """Every stored sweep, newest first, with who holds it and whether it runs; the caller's own
        newest interrupted one (resumed unasked), and the newest that ended done or cancelled with
        runs kept (what Results opens). PTS tests and sustained writes resume in their own views."""
        sweeps = [SweepInfo(**asdict(s)) for s in self.store.list_sweeps()]
        try:
            mine = self.store.resumable("sweep").id
        except KeyError:
            mine = None
        stopped = (s for s in sweeps if s.id == mine)
        ended = (s for s in sweeps if s.status in ("done", "cancelled") and s.runs > 0 and s.kind == "sweep")
        return sweeps, next(stopped, None), next(ended, None)

    def busy(self) -> bool:
        return self._sweep is not None and self._sweep.running

    def close(self) -> None:
        """Cancel a running sweep and wait for it (fio is stopped by the PID we started)."""
        active = self._sweep
        if active is not None and active.thread is not None:
            active.cancel.set()
            active.thread.join(timeout=60)

    def launch(self, spec: SweepSpec, tags: dict[str, str]) -> SweepStarted:
        """Start a planned sweep (a curve or a search too) in its own thread; checked like ``sweep.start``."""
        # fail fast, before a sweep is stored; the site then uses the target as checked here
        target = plan_target(widest(spec.points), self.default_dir) if spec.remote is None else None
        return self._launch(spec, None, tags, target)

    def _launch(self, spec: SweepSpec, resume_id: int | None, tags: dict[str, str],
                target: TargetPlan | None = None, rbd: RbdTarget | None = None) -> SweepStarted:
        if self.busy() or self.other_busy():
            raise RpcError("busy", BUSY_MESSAGE)
        active = _ActiveSweep(spec.name)
        active.thread = threading.Thread(target=self._run_sweep, args=(active, spec, resume_id, tags),
                                         kwargs={"target": target, "rbd": rbd}, name="ssdprof-sweep",
                                         daemon=True)
        self._sweep = active
        active.thread.start()
        if not active.started.wait(START_TIMEOUT_S):
            active.cancel.set()
            raise RpcError("internal_error", f"the sweep did not start within {START_TIMEOUT_S:.0f} s")
        if active.error is not None:
            if isinstance(active.error, (WorkloadError, KeyError, StoreError)):  # answered as the session maps them
                raise active.error
            raise RpcError("internal_error", f"the sweep could not start: {active.error}")
        assert active.announced is not None
        return active.announced

    def _run_sweep(self, active: _ActiveSweep, spec: SweepSpec, resume_id: int | None, tags: dict[str, str],
                   *, target: TargetPlan | None, rbd: RbdTarget | None) -> None:
        def on_event(event: RunEvent) -> None:
            if isinstance(event, SweepStarted):
                active.announced = event
                active.started.set()
            elif isinstance(event, (PointStarted, PointFinished)):
                active.count = event.count
            self.notify("run.event", RunEventNotification(event=event))

        store = Store(self.db_path)
        try:
            runner = Runner(store, default_dir=self.default_dir, fio_executable=self.fio_executable, ssh=self.ssh)
            runner.run_sweep(spec, resume_id=resume_id, tags=tags, on_event=on_event, cancel=active.cancel,
                             target=target, rbd=rbd)
        except Exception as exc:  # reported to the client: a sweep thread must never die silently
            active.error = exc
            if active.started.is_set():
                self.notify("engine.log", EngineLog(level="error", message=f"the sweep stopped: {exc}"))
                self.notify("run.event", RunEventNotification(event=SweepFinished(
                    sweep_id=active.announced.sweep_id if active.announced else None, status="failed", run_ids=[],
                    wall_s=0.0, layout_s=0.0)))
        finally:
            active.started.set()
            store.close()
