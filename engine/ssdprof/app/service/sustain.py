"""Sustained-write tests in the app: planned (``plan_sustain``, as on the command line), estimated,
started in their own thread with their own store connection, resumed, cancelled, listed and fetched;
their events go out as ``sustain.event``."""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable
from pathlib import Path

from ssdprof.app.contract.base import Params
from ssdprof.app.contract.notifications import EngineLog, SustainEventNotification
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.contract.sustain import (
    SustainCancelResult,
    SustainEstimate,
    SustainIdParams,
    SustainListResult,
    SustainReportParams,
    SustainResumeParams,
    SustainStatus,
)
from ssdprof.app.service.registry import RpcError, handles
from ssdprof.app.service.sweeps import BUSY_MESSAGE, START_TIMEOUT_S, Notify
from ssdprof.app.sustain import SustainRunner
from ssdprof.app.sustain_estimate import estimate_sustain, list_sustain
from ssdprof.app.sustain_planner import SustainRequest, plan_sustain
from ssdprof.model.problems import WorkloadError
from ssdprof.model.sustain_events import SustainEvent, SustainFinished, SustainIdle, SustainStarted, SustainStepStarted
from ssdprof.model.sustain_results import SustainResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.store.errors import StoreError

__all__ = ["SustainTests"]


class _Active:
    def __init__(self) -> None:
        self.cancel = threading.Event()
        self.started = threading.Event()
        self.announced: SustainStarted | None = None
        self.error: BaseException | None = None
        self.step = ""
        self.recovery_step = 0
        self.thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()


class SustainTests:
    """The ``sustain.*`` methods; one test at a time, never beside a running sweep or PTS test."""

    def __init__(self, store: Store, db_path: Path, notify: Notify, *, default_dir: Path | None, fio_executable: str,
                 ssh: SshSettings, others_busy: Callable[[], bool]):
        self.store = store
        self.db_path = db_path
        self.notify = notify
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.ssh = ssh
        self.others_busy = others_busy
        self._test: _Active | None = None

    @handles("sustain.estimate")
    def estimate(self, params: SustainRequest) -> SustainEstimate:
        return estimate_sustain(plan_sustain(params, check_target=True, default_dir=self.default_dir), self.default_dir)

    @handles("sustain.start")
    def start(self, params: SustainRequest) -> SustainStarted:
        return self._launch(plan_sustain(params, check_target=True, default_dir=self.default_dir), None)

    @handles("sustain.resume")
    def resume(self, params: SustainResumeParams) -> SustainStarted:
        return self._launch(None, params.sustain_id)

    @handles("sustain.cancel")
    def cancel(self, _: Params) -> SustainCancelResult:
        active = self._test
        if active is None or not active.running:
            return SustainCancelResult(cancelled=False)
        active.cancel.set()
        return SustainCancelResult(cancelled=True, sustain_id=active.announced.sustain_id if active.announced else None)

    @handles("sustain.status")
    def status(self, _: Params) -> SustainStatus:
        active = self._test
        if active is None or not active.running or active.announced is None:
            return SustainStatus(running=False)
        return SustainStatus(running=True, sustain_id=active.announced.sustain_id, step=active.step,
                             recovery_step=active.recovery_step)

    @handles("sustain.list")
    def list(self, _: Params) -> SustainListResult:
        return SustainListResult(tests=list_sustain(self.store))

    @handles("sustain.get")
    def get(self, params: SustainIdParams) -> SustainResult:
        return SustainRunner(self.store).result(params.sustain_id)

    @handles("sustain.report")
    def report(self, params: SustainReportParams) -> ReportResult:
        from ssdprof.report.sustain import build_sustain_pdf  # matplotlib loads for a report only

        result = SustainRunner(self.store).result(params.sustain_id)
        pdf = build_sustain_pdf(result, title=params.title)
        runs = (result.fill_run_id is not None) + sum(r.run_id is not None for r in result.recovery)
        return ReportResult(pdf_base64=base64.b64encode(pdf).decode("ascii"), bytes=len(pdf), runs=runs,
                            filename=f"ssdprof-sustain-{result.id}.pdf")

    def busy(self) -> bool:
        return self._test is not None and self._test.running

    def close(self) -> None:
        active = self._test
        if active is not None and active.thread is not None:
            active.cancel.set()
            active.thread.join(timeout=60)

    def _launch(self, spec: SweepSpec | None, resume_id: int | None) -> SustainStarted:
        if self.busy() or self.others_busy():
            raise RpcError("busy", BUSY_MESSAGE)
        active = _Active()
        active.thread = threading.Thread(target=self._run, args=(active, spec, resume_id), name="ssdprof-sustain",
                                         daemon=True)
        self._test = active
        active.thread.start()
        if not active.started.wait(START_TIMEOUT_S):
            active.cancel.set()
            raise RpcError("internal_error", f"the sustained-write test did not start within {START_TIMEOUT_S:.0f} s")
        if active.announced is None:
            if isinstance(active.error, (WorkloadError, KeyError, StoreError)):  # answered as the session maps them
                raise active.error
            raise RpcError("internal_error", f"the sustained-write test could not start: {active.error}")
        return active.announced

    def _run(self, active: _Active, spec: SweepSpec | None, resume_id: int | None) -> None:
        def on_event(event: SustainEvent) -> None:
            if isinstance(event, SustainStarted):
                active.announced = event
                active.started.set()
            elif isinstance(event, SustainStepStarted):
                active.step, active.recovery_step = event.step, event.recovery_step
            elif isinstance(event, SustainIdle):
                active.step, active.recovery_step = "idle", event.recovery_step
            self.notify("sustain.event", SustainEventNotification(event=event))

        store = Store(self.db_path)
        try:
            SustainRunner(store, default_dir=self.default_dir, fio_executable=self.fio_executable, ssh=self.ssh).run(
                spec, resume_id=resume_id, on_event=on_event, cancel=active.cancel)
        except Exception as exc:  # reported to the client: a test's thread must never die silently
            active.error = exc
            if active.started.is_set():
                self.notify("engine.log", EngineLog(level="error", message=f"the sustained-write test stopped: {exc}"))
                self.notify("sustain.event", SustainEventNotification(event=SustainFinished(
                    sustain_id=active.announced.sustain_id if active.announced else None, status="failed",
                    wall_s=0.0, reason=str(exc))))
        finally:
            active.started.set()
            store.close()
