"""The contract's methods of every test kind, answered the same way for each: plans and estimates by
the kind, starts, resumes, cancels and statuses by the one job layer (``app/jobs.py``), stored tests
read back, listed and reported by the kind. Which method is which operation each kind's part of the
contract says (``Methods``, under ``app/contract/``; a job kind's are ``<kind>.<operation>``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.jobs import Jobs
from ssdprof.app.kinds import job_kind_of, kinds
from ssdprof.app.kinds.kind import Context, JobKind, TestKind
from ssdprof.app.service.registry import Handler

__all__ = ["KindMethods", "kind_handlers"]


@dataclass
class KindMethods:
    """One kind's methods; ``job`` is the kind whose job runs its plans (itself, or the one it runs as)."""

    kind: TestKind[Any]
    job: JobKind[Any, Any, Any]
    jobs: Jobs
    ctx: Context

    def estimate(self, params: Any) -> BaseModel:
        return self.kind.estimate(self.kind.plan(params, self.ctx, to_run=False), self.ctx)

    def start(self, params: Any) -> BaseModel:
        return self.jobs.launch(self.job, self.kind.plan(params, self.ctx, to_run=True))

    def resume(self, params: Any) -> BaseModel:
        return self.jobs.launch(self.job, self.kind.resume(params, self.ctx))

    def cancel(self, _: Any) -> BaseModel:
        answer = self.jobs.cancel(self.job)
        assert answer is not None
        return answer

    def status(self, _: Any) -> BaseModel:
        return self.jobs.status(self.job)

    def list(self, _: Any) -> BaseModel:
        return self.kind.listed(self.ctx, self.jobs.running_id(self.job))

    def get(self, params: Any) -> BaseModel:
        return self.kind.result(params, self.ctx)

    def report(self, params: Any) -> ReportResult:
        report = self.kind.report(params, self.ctx)
        return ReportResult.of(report.pdf, report.filename, report.runs)


def kind_handlers(jobs: Jobs, ctx: Context) -> dict[str, Handler]:
    """Every kind's methods, by the contract's name."""
    found: dict[str, Handler] = {}
    for kind in kinds().values():
        methods = KindMethods(kind, job_kind_of(kind), jobs, ctx)
        for name, operation in kind.methods.named().items():
            found[name] = getattr(methods, operation)
    return found
