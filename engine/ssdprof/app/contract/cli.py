"""What the CLI's ``--json`` prints, as models beside the RPC answers they mirror: each command
prints ``model_dump_json``, so its keys are the contract's and a test reads them back with the
model (no hand-built dict as a second schema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, PlainSerializer, RootModel

from ssdprof.app.contract.base import Result
from ssdprof.app.contract.imports import ImportedSource
from ssdprof.app.contract.runs import RunsListResult
from ssdprof.model.problems import FieldProblem
from ssdprof.model.results import RunResult
from ssdprof.model.status import SweepEnd
from ssdprof.model.workload import Workload

__all__ = ["CliRun", "CurvePdfWritten", "InvalidInput", "JobFileRead", "JobRead", "OneRun",
           "PdfWritten", "ReportWritten", "RunsImported", "RunsListed", "SweepRan", "TableImported"]


def _summary(run: RunResult) -> dict[str, Any]:
    return run.summary_json()


CliRun = Annotated[RunResult, PlainSerializer(_summary, return_type=dict[str, Any], when_used="json")]
"""A run as ``--json`` prints it: every field but the histogram bins and per-second progress
(``RunResult.summary_json``: a script's stable shape; ``runs show --raw`` and ``export`` have the
rest). Read back, the left-out fields take their empty defaults."""


class OneRun(RootModel[CliRun]):
    """``run --json`` (one point), ``runs show --json``, ``runs tag --json``: the run itself."""


class SweepRan(Result):
    """``sweep --json`` (and ``run --json`` with repeats), ``import-job --run --json``: how the sweep
    ended (as ``run.event``'s SweepFinished says it) and its runs, in the order measured."""

    sweep_id: int | None
    status: SweepEnd
    reason: str = ""
    runs: list[CliRun]


class RunsListed(RunsListResult):
    """``runs list --json``: the RPC's ``runs.list`` answer, each run as ``--json`` prints it."""

    runs: list[CliRun]


class RunsImported(Result):
    """``import --json``: the runs stored now, and per file or folder what it was recognised as,
    the runs stored from it before (not stored again) and what to know about its figures."""

    runs: list[CliRun]
    sources: list[ImportedSource] = Field(default_factory=list)


class TableImported(Result):
    """``import-table --json``: the runs stored from a table, with what was assumed and each unit
    cross-check that failed."""

    runs: list[CliRun]
    assumptions: list[str]
    unit_warnings: list[str]


class JobRead(Result):
    name: str
    workload: Workload


class JobFileRead(Result):
    """``import-job --json`` without ``--run``: each job as the workload ssdprof would measure."""

    jobs: list[JobRead]
    notes: list[str]


class PdfWritten(Result):
    output: str
    bytes: int


class ReportWritten(PdfWritten):
    """``report --json``: the PDF written (as ``report.pdf`` answers, with the file in place of
    its bytes)."""

    runs: int


class CurvePdfWritten(PdfWritten):
    """``curve|slo --show ID --format pdf --json``: the page written and its points."""

    points: int


class InvalidInput(Result):
    """Any command's ``--json`` on bad input (exit 2): every bad field at once."""

    error: Literal["invalid input"] = "invalid input"
    problems: list[FieldProblem]
