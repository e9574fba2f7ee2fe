"""PTS tests in the app: planned (``plan_pts``, as on the command line), estimated, started in their own
thread with their own store connection, resumed, cancelled, listed, fetched and reported; their events
go out as ``run.event`` like a sweep's."""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable
from pathlib import Path

from ssdprof.app.contract.base import Params
from ssdprof.app.contract.notifications import EngineLog, PtsEventNotification
from ssdprof.app.contract.pts import (
    PtsCancelResult,
    PtsEstimate,
    PtsIdParams,
    PtsListResult,
    PtsReportParams,
    PtsResumeParams,
    PtsStatus,
)
from ssdprof.app.contract.runs import PlannedPoint, target_device
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.app.pts_runner import PtsRunner, pts_parameters
from ssdprof.app.service.registry import RpcError, handles
from ssdprof.app.service.sweeps import BUSY_MESSAGE, START_TIMEOUT_S, Notify, Sweeps
from ssdprof.model.events import PointStarted, PtsFinished, PtsStarted, RunEvent
from ssdprof.model.pts import PtsProfile, PtsSpec, estimate_range_s, precondition_bytes
from ssdprof.model.pts_results import PtsInfo, PtsResult
from ssdprof.model.quantities import format_duration
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store
from ssdprof.store.errors import StoreError
from ssdprof.target.plan import device_region, plan_target
from ssdprof.target.purge import FILE_LIMITATION, purge_refusal

__all__ = ["PtsTests", "estimate_pts", "list_tests"]


def estimate_pts(spec: PtsSpec, default_dir: Path | None = None) -> PtsEstimate:
    """What the test will do and how long it may take; checks the target's purge safety, runs nothing."""
    region = device_region([spec.base])
    layout = 0 if region else spec.base.size_bytes
    shortest, longest = estimate_range_s(spec, layout)
    points = spec.points()
    purge, refusal = "", ""
    if spec.purge:
        if region is not None:
            purge = f"blkdiscard of {spec.base.size_bytes} bytes from offset {spec.base.offset_bytes} of {region.device.path}"
        else:
            purge = f"the test file is replaced by a new one; {FILE_LIMITATION}"
        refusal = purge_refusal(spec.base, region.device if region else None,
                                is_file=bool(spec.base.target) and region is None)
    hours = "PTS defaults run for hours: " if spec.profile is PtsProfile.PTS and longest >= 3600 else ""
    note = (f"{hours}{format_duration(shortest)} to {format_duration(longest)} ({spec.rule.min_rounds}-{spec.rule.max_rounds} "
            f"rounds of {len(points)} point(s) x {spec.base.runtime_s:g} s)")
    tracking = spec.trackings()[0]
    return PtsEstimate(
        test=spec.test.value, name=spec.name, profile=spec.profile.value, pts_compliant=spec.pts_compliant,
        compliance_note=spec.compliance_note(), parameters=pts_parameters(spec, spec.base.engine.value),
        points=[PlannedPoint(label=p.label, workload=p) for p in points], points_per_round=len(points),
        round_s=spec.round_s(), min_rounds=spec.rule.min_rounds, max_rounds=spec.rule.max_rounds,
        tracking=tracking.label(spec.sequential), precondition_bytes=precondition_bytes(spec),
        precondition_s=estimate_range_s(spec.model_copy(update={"rule": spec.rule}), 0)[0] - spec.rule.min_rounds * spec.round_s()
        if spec.test.value != "write-saturation" else 0.0,
        estimated_min_s=shortest, estimated_s=longest, duration_note=note, purge=purge, purge_refusal=refusal,
        device=target_device(region.device) if region else None,
        overwrite_bytes=region.size_bytes if region else 0, region=region.sentence() if region else "",
        notes=[n for n in (spec.compliance_note() if not spec.pts_compliant else "", refusal) if n])


def list_tests(store: Store) -> list[PtsInfo]:
    """Stored PTS tests, newest first, with whether each reached steady state."""
    runner = PtsRunner(store)
    tests = []
    for row in store.list_pts():
        spec = row["spec"]
        try:
            attained = runner.result(row["id"]).steady_state.attained
        except KeyError:
            attained = False
        tests.append(PtsInfo(id=row["id"], created_at=row["created_at"], name=row["name"], test=row["test"],
                             profile=row["profile"], pts_compliant=spec.pts_compliant, status=row["status"],
                             rounds=row["rounds"], attained=attained, target=spec.base.target))
    return tests


class _ActiveTest:
    def __init__(self) -> None:
        self.cancel = threading.Event()
        self.started = threading.Event()
        self.announced: PtsStarted | None = None
        self.error: BaseException | None = None
        self.phase = ""
        self.round = 0
        self.thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()


class PtsTests:
    """The ``pts.*`` methods; one test at a time, never beside a running sweep or sustained-write
    test (``busy`` otherwise)."""

    def __init__(self, store: Store, db_path: Path, notify: Notify, *, default_dir: Path | None, fio_executable: str,
                 sweeps: Sweeps):
        self.store = store
        self.db_path = db_path
        self.notify = notify
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.sweeps = sweeps
        self.other_busy: Callable[[], bool] = lambda: False
        """A sustained-write test running (set by the engine, which holds both)."""
        self._test: _ActiveTest | None = None

    @handles("pts.estimate")
    def estimate(self, params: PtsRequest) -> PtsEstimate:
        return estimate_pts(plan_pts(params, check_target=True, default_dir=self.default_dir), self.default_dir)

    @handles("pts.start")
    def start(self, params: PtsRequest) -> PtsStarted:
        spec = plan_pts(params, check_target=True, default_dir=self.default_dir)
        estimate = estimate_pts(spec, self.default_dir)
        if spec.purge and estimate.purge_refusal:
            raise WorkloadError.single("purge", "--purge", f"cannot purge: {estimate.purge_refusal}")
        plan_target(spec.base, self.default_dir)  # fail fast, before a test is stored
        return self._launch(spec, None)

    @handles("pts.resume")
    def resume(self, params: PtsResumeParams) -> PtsStarted:
        stored = self.store.pts(params.pts_id) if params.pts_id is not None else self.store.last_unfinished_pts()
        if stored is None:
            raise KeyError("no unfinished PTS test to resume" if params.pts_id is None else f"PTS test {params.pts_id} does not exist")
        return self._launch(None, stored.id)

    @handles("pts.cancel")
    def cancel(self, _: Params) -> PtsCancelResult:
        active = self._test
        if active is None or not active.running:
            return PtsCancelResult(cancelled=False)
        active.cancel.set()
        return PtsCancelResult(cancelled=True, pts_id=active.announced.pts_id if active.announced else None)

    @handles("pts.status")
    def status(self, _: Params) -> PtsStatus:
        active = self._test
        if active is None or not active.running or active.announced is None:
            return PtsStatus(running=False)
        return PtsStatus(running=True, pts_id=active.announced.pts_id, test=active.announced.test, phase=active.phase,
                         round=active.round, max_rounds=active.announced.max_rounds)

    @handles("pts.list")
    def list(self, _: Params) -> PtsListResult:
        return PtsListResult(tests=list_tests(self.store))

    @handles("pts.get")
    def get(self, params: PtsIdParams) -> PtsResult:
        return PtsRunner(self.store).result(params.pts_id)

    @handles("pts.report")
    def report(self, params: PtsReportParams) -> ReportResult:
        from ssdprof.report.pts import build_pts_pdf

        result = PtsRunner(self.store).result(params.pts_id)
        pdf = build_pts_pdf(result, title=params.title)
        return ReportResult(pdf_base64=base64.b64encode(pdf).decode("ascii"), filename=f"ssdprof-pts-{result.id}.pdf",
                            bytes=len(pdf), runs=sum(len(r.runs) for r in result.rounds))

    def busy(self) -> bool:
        return self._test is not None and self._test.running

    def close(self) -> None:
        active = self._test
        if active is not None and active.thread is not None:
            active.cancel.set()
            active.thread.join(timeout=60)

    def _launch(self, spec: PtsSpec | None, resume_id: int | None) -> PtsStarted:
        if self.busy() or self.sweeps.busy() or self.other_busy():
            raise RpcError("busy", BUSY_MESSAGE)
        active = _ActiveTest()
        active.thread = threading.Thread(target=self._run, args=(active, spec, resume_id), name="ssdprof-pts", daemon=True)
        self._test = active
        active.thread.start()
        if not active.started.wait(START_TIMEOUT_S):
            active.cancel.set()
            raise RpcError("internal_error", f"the PTS test did not start within {START_TIMEOUT_S:.0f} s")
        if active.announced is None:
            if isinstance(active.error, (WorkloadError, KeyError, StoreError)):  # answered as the session maps them
                raise active.error
            raise RpcError("internal_error", f"the PTS test could not start: {active.error}")
        return active.announced

    def _run(self, active: _ActiveTest, spec: PtsSpec | None, resume_id: int | None) -> None:
        def on_event(event: RunEvent) -> None:
            if isinstance(event, PtsStarted):
                active.announced = event
                active.phase = "purge" if (spec and spec.purge) else "precondition"
                active.started.set()
            elif isinstance(event, PointStarted):
                active.phase, active.round = "rounds", event.repeat + 1
            self.notify("pts.event", PtsEventNotification(event=event))

        store = Store(self.db_path)
        try:
            PtsRunner(store, default_dir=self.default_dir, fio_executable=self.fio_executable).run(
                spec, resume_id=resume_id, on_event=on_event, cancel=active.cancel)
        except Exception as exc:  # reported to the client: a test's thread must never die silently
            active.error = exc
            if active.started.is_set():
                self.notify("engine.log", EngineLog(level="error", message=f"the PTS test stopped: {exc}"))
                self.notify("pts.event", PtsEventNotification(event=PtsFinished(
                    pts_id=active.announced.pts_id if active.announced else None, status="failed", attained=False,
                    rounds=0, wall_s=0.0, reason=str(exc))))
        finally:
            active.started.set()
            store.close()
