"""The one measurement running in this process, whatever its kind: the only place a test is launched,
cancelled and asked about.

One lock keeps it to one job at a time (a sweep, a curve, a search, a PTS test, a sustained-write
test: whichever asks second is told ``busy``). The RPC launches a job in its own thread with its own
store connection (:meth:`Jobs.launch` returns once the job has said it began); the CLI runs one in
its own thread, the main one (:meth:`Jobs.run`), so Ctrl-C reaches it. Either way each event folds
into the job's status (what a page opened mid-run is shown) and goes on to the listener: the RPC's
sends it as the kind's notification, the CLI's prints it. A job that fails after it began says so
(an ``engine.log`` error and the kind's failed end) rather than dying silently.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from ssdprof.app.contract.errors import RpcError
from ssdprof.app.contract.notifications import EngineLog
from ssdprof.app.kinds.kind import Context, Emit, JobKind
from ssdprof.model.problems import WorkloadError
from ssdprof.store.errors import StoreError

__all__ = ["BUSY_MESSAGE", "START_TIMEOUT_S", "Job", "Jobs", "Notify"]

Notify = Callable[[str, BaseModel], None]
"""Sends a notification (method name, payload) to the client; must be safe from any thread."""

START_TIMEOUT_S = 120.0
BUSY_MESSAGE = ("a sweep, PTS or sustained-write test is already running; cancel it or wait for it "
                "to finish")
"""What a start beside a running sweep, PTS or sustained-write test is told: one at a time."""

OutcomeT = TypeVar("OutcomeT")


class Job:
    """One test running: its kind and plan, the cancel it obeys, and its status as its events fold."""

    def __init__(self, kind: JobKind[Any, Any, Any], plan: Any, listen: Emit):
        self.kind = kind
        self.plan = plan
        self.cancel = threading.Event()
        self.began = threading.Event()
        self.announced: BaseModel | None = None
        """The event the job began with (what a start answers)."""
        self.status: BaseModel | None = None
        """The kind's status once the job began; None before."""
        self.error: BaseException | None = None
        self.thread: threading.Thread | None = None
        self._listen = listen

    def emit(self, event: Any) -> None:
        if self.status is None:
            self.status = self.kind.began(event, self.plan)
            if self.status is not None:
                self.announced = event
                self.began.set()
        else:
            self.status = self.kind.progressed(self.status, event)
        self._listen(event)

    @property
    def job_id(self) -> int | None:
        return self.kind.face.job_id(self.status) if self.status is not None else None


class Jobs:
    """The single active job of a session (the RPC's) or of a command (the CLI's)."""

    def __init__(self, ctx: Context, notify: Notify | None = None):
        self.ctx = ctx
        self.notify = notify or (lambda method, payload: None)
        self._lock = threading.Lock()
        self._job: Job | None = None

    def launch(self, kind: JobKind[Any, Any, Any], plan: Any) -> BaseModel:
        """Start ``plan`` in its own thread; the job's start event once it began (``busy`` beside another)."""
        job = self._claim(kind, plan, lambda event: self.notify(kind.face.events, kind.face.notification(event=event)))
        job.thread = threading.Thread(target=self._background, args=(job,), name=f"ssdprof-{kind.name}", daemon=True)
        job.thread.start()
        if not job.began.wait(START_TIMEOUT_S):
            job.cancel.set()
            raise RpcError("internal_error", f"the {kind.noun} did not start within {START_TIMEOUT_S:.0f} s")
        if job.announced is None:
            if isinstance(job.error, (WorkloadError, KeyError, StoreError)):  # answered as the session maps them
                raise job.error
            raise RpcError("internal_error", f"the {kind.noun} could not start: {job.error}")
        return job.announced

    def run(self, kind: JobKind[Any, OutcomeT, Any], plan: Any, listen: Emit) -> OutcomeT:
        """Run ``plan`` here, in the caller's thread, until it ends or :meth:`cancel` stops it."""
        job = self._claim(kind, plan, listen)
        job.thread = threading.current_thread()
        try:
            return kind.run(plan, self.ctx, job.emit, job.cancel)
        finally:
            self._release(job)

    def cancel(self, kind: JobKind[Any, Any, Any] | None = None) -> BaseModel | None:
        """Stop the running job (of ``kind`` only, when named): the kind's answer, or None with nothing to name."""
        job = self._running(kind)
        if job is not None:
            job.cancel.set()
        return kind.face.cancel_answer(job is not None, job.job_id if job else None) if kind is not None else None

    def status(self, kind: JobKind[Any, Any, Any]) -> BaseModel:
        job = self._running(kind)
        return job.status if job is not None and job.status is not None else kind.face.idle()

    def running_id(self, kind: JobKind[Any, Any, Any]) -> int | None:
        """The stored test the running job of ``kind`` is (None: none of that kind runs)."""
        job = self._running(kind)
        return job.job_id if job is not None else None

    def busy(self) -> bool:
        return self._running(None) is not None

    def close(self) -> None:
        """Cancel a running job and wait for it (fio is stopped by the PID that was started)."""
        job = self._job
        if job is not None and job.thread is not None and job.thread is not threading.current_thread():
            job.cancel.set()
            job.thread.join(timeout=60)

    # ------------------------------------------------------------------------------ the job

    def _claim(self, kind: JobKind[Any, Any, Any], plan: Any, listen: Emit) -> Job:
        with self._lock:
            if self._running(None) is not None:
                raise RpcError("busy", BUSY_MESSAGE)
            self._job = Job(kind, plan, listen)
            return self._job

    def _release(self, job: Job) -> None:
        with self._lock:
            if self._job is job:
                self._job = None

    def _running(self, kind: JobKind[Any, Any, Any] | None) -> Job | None:
        job = self._job
        if job is None or job.thread is None or not job.thread.is_alive():
            return None
        return job if kind is None or job.kind is kind else None

    def _background(self, job: Job) -> None:
        ctx = self.ctx.own_store()
        try:
            job.kind.run(job.plan, ctx, job.emit, job.cancel)
        except Exception as exc:  # reported to the client: a job's thread must never die silently
            job.error = exc
            if job.began.is_set():
                self.notify("engine.log", EngineLog(level="error", message=f"the {job.kind.noun} stopped: {exc}"))
                face = job.kind.face
                self.notify(face.events, face.notification(event=job.kind.failed(job.job_id, str(exc))))
        finally:
            job.began.set()
            if ctx is not self.ctx:
                ctx.store.close()
