"""A test kind's part of the contract, made from one template: the methods a kind answers, by
operation (:class:`Methods`, which also lays out their table), and for a kind that runs as a job
what every such kind has alike (:class:`JobFace`): its status, what a cancel answers and the
notification its events go out as, each with the field naming its tests (``<kind>_id``), and the
summaries of cancel, status and list, said the same way for every kind. A kind's module declares
only what is its own: its request, estimate, start event, events, the fields its status adds, its
stored tests, its result and what its own operations are."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from pydantic import BaseModel, Field, create_model

from ssdprof.app.contract.base import MethodTable, NoParams, Result, Topic

__all__ = ["JobFace", "JobStatus", "MethodName", "Methods", "Operation", "cancel_answer", "job_status"]

Operation = tuple[type[BaseModel], type[BaseModel], str]
"""One method's params, result and one-line summary."""
MethodName = str
"""A method's name in the contract, e.g. ``pts.start``."""


@dataclass(frozen=True)
class Methods:
    """The contract's methods a kind answers, by what they do (None: the kind does not offer it).
    A search for a method's name leads to its kind's part of the contract, then to its kind's
    module, which answers the operation (or leaves it to the job layer)."""

    estimate: MethodName | None = None
    start: MethodName | None = None
    resume: MethodName | None = None
    cancel: MethodName | None = None
    status: MethodName | None = None
    list: MethodName | None = None
    get: MethodName | None = None
    report: MethodName | None = None

    @classmethod
    def of_job(cls, kind: str) -> Methods:
        """Every operation, each as ``<kind>.<operation>``: the methods of a kind that runs as a job."""
        return cls(**{field.name: f"{kind}.{field.name}" for field in fields(cls)})

    def named(self) -> dict[MethodName, str]:
        """{method name: operation} for every method offered."""
        return {name: op for op, name in vars(self).items() if name is not None}

    def table(self, **operations: Operation) -> MethodTable:
        """The methods' table, in the order ``operations`` come (every operation offered, none other)."""
        if set(operations) != set(self.named().values()):
            raise ValueError(f"operations {sorted(operations)} are not the ones offered: {sorted(self.named().values())}")
        return {getattr(self, op): operation for op, operation in operations.items()}


class JobStatus(Result):
    """What every job kind's status begins with; its tests' id field and the kind's own fields follow."""

    running: bool


def job_status(name: str, id_field: str, where: type[Result] | None = None) -> type[JobStatus]:
    """A kind's status: whether one runs, its id while it does, then the fields of ``where`` (where it is)."""
    defined: dict[str, Any] = {id_field: (int | None, None)}
    defined.update({field: (info.annotation, info) for field, info in (where.model_fields if where else {}).items()})
    return create_model(name, __base__=JobStatus, **defined)


def cancel_answer(name: str, id_field: str, noun: str) -> type[Result]:
    """What a cancel of a kind's job answers: whether one was running, and its id."""
    defined: dict[str, Any] = {"cancelled": (bool, Field(description=f"false when no {noun} was running")),
                               id_field: (int | None, None)}
    return create_model(name, __base__=Result, **defined)


@dataclass(frozen=True)
class JobFace:
    """How a kind that runs as a job looks from outside, in the contract's own models: its name, its
    methods, its status, what a cancel answers and its events."""

    kind: str
    """The kind's one word: ``sweep``, ``pts``."""
    methods: Methods
    events: str
    """The notification its events go out as (``run.event``, ``pts.event``)..."""
    notification: type[BaseModel]
    """... carrying each in its ``event`` field."""
    status: type[JobStatus]
    """What a status answers; ``running=False`` while none of the kind runs."""
    cancelled: type[BaseModel]
    """What a cancel answers: ``cancelled`` and the stored test's id."""
    id_field: str
    """The field of the status and the cancel answer naming the stored test (``sweep_id``, ``pts_id``)."""
    noun: str
    """How summaries name one of its tests: "whether a {noun} is running"."""

    @classmethod
    def made(cls, kind: str, noun: str, events: Any, *, title: str, doc: str, where: type[Result] | None = None) -> JobFace:
        """The face of the job kind ``kind``: every operation as ``<kind>.<operation>``, its ``events``
        (a union) as ``<kind>.event`` in ``<title>EventNotification`` (``doc`` says what they are), its
        status ``<title>Status`` with the fields of ``where``, a cancel's answer ``<title>CancelResult``."""
        id_field = f"{kind}_id"
        notification = create_model(f"{title}EventNotification", __base__=Result, __doc__=doc, event=(events, ...))
        return cls(kind, Methods.of_job(kind), f"{kind}.event", notification, job_status(f"{title}Status", id_field, where),
                   cancel_answer(f"{title}CancelResult", id_field, noun), id_field, noun)

    def idle(self) -> BaseModel:
        return self.status(running=False)

    def job_id(self, status: BaseModel) -> int | None:
        found = getattr(status, self.id_field)
        return found if isinstance(found, int) else None

    def cancel_answer(self, cancelled: bool, job_id: int | None) -> BaseModel:
        return self.cancelled(cancelled=cancelled, **{self.id_field: job_id})

    def topic(self, *, listed: type[BaseModel], plural: str, kept: str, **own: Operation) -> Topic:
        """The kind's part of the contract: ``own`` the operations that are its own (estimate, start,
        resume, get, report: what each takes, answers and does), cancel, status and list said alike for
        every kind (``plural`` names its stored tests, ``kept`` what a cancel keeps of the one running)."""
        where = ", and where" if len(self.status.model_fields) > 2 else ""
        alike: dict[str, Operation] = {
            "cancel": (NoParams, self.cancelled, f"stop the {self.noun}; finished {kept} are kept"),
            "status": (NoParams, self.status, f"whether a {self.noun} is running{where}"),
            "list": (NoParams, listed, f"stored {plural}, newest first")}
        operations = {op: {**own, **alike}[op] for op in self.methods.named().values()}
        return Topic(self.methods.table(**operations), {self.events: self.notification})
