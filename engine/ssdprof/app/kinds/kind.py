"""What a kind of test is to the engine: one protocol, filled in by each kind's module, as each of
fio's I/O engines fills in ``struct ioengine_ops``.

:class:`TestKind` is what every face asks of a kind: its plan from a request (every bad field named at
once, nothing stored), its estimate, a stored test's result, the stored tests listed, a report, and
which of the contract's methods answer each. :class:`JobKind` is a kind that runs as a job of its own
(sweeps, PTS tests, sustained writes): how it runs and resumes, and how its job looks from outside
(the event it starts with, the status a page opened mid-run shows, the end it sends when it fails).
Its methods and its face (status, cancel answer, notification) are its contract's, declared once in
``app/contract/<kind>.py`` from the template of ``app/contract/kind.py``.
Curves and latency-target searches plan their own sweeps and run as sweep jobs (``runs_as``).

The job itself (one at a time, started, cancelled, its events sent) is ``app/jobs.py``'s, for every
kind alike; the faces (``app/service/kinds.py`` for the RPC, the CLI's modules) reach kinds through
it and the registry (``app/kinds/__init__.py``) only.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel

from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.app.contract.kind import JobFace, JobStatus, Methods
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store

__all__ = ["Context", "Emit", "JobFace", "JobKind", "Methods", "Report", "RunnerKind", "StoredPlan", "TestKind", "TestRunner"]

PlanT = TypeVar("PlanT")
OutcomeT = TypeVar("OutcomeT")
StatusT = TypeVar("StatusT", bound=JobStatus)
NewT = TypeVar("NewT")
ResultT = TypeVar("ResultT", bound=BaseModel)
OutcomeT_co = TypeVar("OutcomeT_co", covariant=True)
ResultT_co = TypeVar("ResultT_co", bound=BaseModel, covariant=True)
Emit = Callable[[Any], None]
"""Hands one of a job's events on, in order."""


def _bundled_and_own_specs() -> SpecLibrary:
    return SpecLibrary.load((bundled_spec_dir(), default_user_spec_dir()))


@dataclass(frozen=True)
class Context:
    """Where a kind plans, runs and reads: the store, the default scratch folder, fio, SSH settings."""

    store: Store
    db_path: Path | None = None
    """Where a job in its own thread opens its own connection (None: it uses ``store``)."""
    default_dir: Path | None = None
    fio_executable: str = "fio"
    ssh: SshSettings = field(default_factory=SshSettings)
    library: Callable[[], SpecLibrary] = _bundled_and_own_specs
    """The spec sheets a result is drawn beside (the session's, cached; the CLI's, loaded once asked)."""

    def own_store(self) -> Context:
        """This context for a job's thread: its own connection to the same store."""
        return self if self.db_path is None else replace(self, store=Store(self.db_path))


@dataclass(frozen=True)
class Report:
    """A stored test's report: the PDF, the file name offered for it, the runs it draws on."""

    pdf: bytes
    filename: str
    runs: int


class TestKind(ABC, Generic[PlanT]):
    """A kind of test as every face sees it. Operations a kind does not offer (``methods`` names
    none for them) are left as they are here."""

    __test__ = False  # not a pytest class, whatever its name

    name: ClassVar[str]
    """The kind's one word: ``sweep``, ``curve``, ``slo``, ``pts``, ``sustain``."""
    noun: ClassVar[str]
    """How messages name one: "the {noun} did not start"."""
    methods: ClassVar[Methods]
    """The contract's methods it answers (its part of the contract declares them)."""
    runs_as: ClassVar[str | None] = None
    """Another kind whose job runs this one's plans (curves and searches are sweeps)."""

    @abstractmethod
    def plan(self, request: Any, ctx: Context, *, to_run: bool) -> PlanT:
        """The request planned, every bad field named at once (``WorkloadError``); nothing stored.
        ``to_run``: also what a start needs (the target writable, a purge possible)."""

    def estimate(self, plan: PlanT, ctx: Context) -> BaseModel:
        """What the test will do and how long it may take; runs nothing."""
        raise NotImplementedError(f"{self.name} offers no estimate")

    def resume(self, params: Any, ctx: Context) -> PlanT:
        """The plan that continues a stored test (KeyError: none to continue)."""
        raise NotImplementedError(f"{self.name} offers no resume")

    def result(self, params: Any, ctx: Context) -> BaseModel:
        """A stored test as every face shows it (KeyError: no such test)."""
        raise NotImplementedError(f"{self.name} offers no result")

    def listed(self, ctx: Context, running_id: int | None) -> BaseModel:
        """The stored tests, newest first (``running_id``: the one running now, if any)."""
        raise NotImplementedError(f"{self.name} offers no list")

    def report(self, params: Any, ctx: Context) -> Report:
        """A stored test's PDF report."""
        raise NotImplementedError(f"{self.name} offers no report")


class JobKind(TestKind[PlanT], Generic[PlanT, OutcomeT, StatusT]):
    """A kind that runs as a job of its own: what ``app/jobs.py`` asks of it."""

    face: ClassVar[JobFace]
    """Its part of the contract, which also gives its ``name`` and ``methods``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        face = vars(cls).get("face")
        if face is not None:
            cls.name, cls.methods = face.kind, face.methods

    @abstractmethod
    def resume(self, params: Any, ctx: Context) -> PlanT:
        """The plan that continues a stored test (KeyError: none to continue)."""

    @abstractmethod
    def run(self, plan: PlanT, ctx: Context, emit: Emit, cancel: threading.Event) -> OutcomeT:
        """Measure, in the job's thread with its own store; the first event is the start."""

    @abstractmethod
    def began(self, event: Any, plan: PlanT) -> StatusT | None:
        """The status once ``event`` says the test began (None: not its start event)."""

    def progressed(self, status: StatusT, event: Any) -> StatusT:
        """The status after one more event: what a page opened mid-run shows."""
        return status

    @abstractmethod
    def failed(self, job_id: int | None, reason: str) -> BaseModel:
        """The end sent when the job stopped on an error after it began."""


@dataclass(frozen=True)
class StoredPlan(Generic[NewT]):
    """A test its kind's own runner stores: a new one (``new``, what the runner takes), or the stored
    test it continues (``resume_id``)."""

    new: NewT | None
    resume_id: int | None = None


StoredPlanT = TypeVar("StoredPlanT", bound=StoredPlan[Any])


class TestRunner(Protocol[OutcomeT_co, ResultT_co]):
    """A kind's own runner, as its kind uses it: a test run (new, or a stored one continued) and read back."""

    def run(self, new: Any = None, /, *, resume_id: int | None = None, on_event: Emit | None = None,
            cancel: threading.Event | None = None) -> OutcomeT_co: ...

    def result(self, test_id: int, /) -> ResultT_co: ...


class RunnerKind(JobKind[StoredPlanT, OutcomeT, JobStatus], Generic[StoredPlanT, OutcomeT, ResultT]):
    """A job kind with a runner of its own that stores its tests (PTS tests, sustained writes, replays):
    each runs, is read back and reported through the runner alike, by the id its params name (the
    field ``face.id_field``)."""

    @abstractmethod
    def runner(self, ctx: Context) -> TestRunner[OutcomeT, ResultT]:
        """Its runner, on the context's store, scratch folder, fio and SSH settings."""

    @abstractmethod
    def pdf(self, result: ResultT, title: str | None) -> tuple[bytes, int]:
        """A stored test's report and the runs it draws on (its builder loads here: matplotlib for a report only)."""

    def run(self, plan: StoredPlanT, ctx: Context, emit: Emit, cancel: threading.Event) -> OutcomeT:
        return self.runner(ctx).run(plan.new, resume_id=plan.resume_id, on_event=emit, cancel=cancel)

    def result(self, params: Any, ctx: Context) -> ResultT:
        return self.runner(ctx).result(getattr(params, self.face.id_field))

    def report(self, params: Any, ctx: Context) -> Report:
        test_id = getattr(params, self.face.id_field)
        pdf, runs = self.pdf(self.runner(ctx).result(test_id), params.title)
        return Report(pdf, f"ssdprof-{self.name}-{test_id}.pdf", runs)
