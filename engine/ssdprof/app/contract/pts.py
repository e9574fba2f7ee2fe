"""The SNIA PTS tests' part of the contract: estimate, start (events follow as ``pts.event``), resume,
cancel, status, list, fetch and report, with their params and results."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ssdprof.app.contract.base import Params, Result
from ssdprof.app.contract.kind import JobFace
from ssdprof.app.contract.runs import DeviceEffect, PlannedPoint
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.pts_planner import PtsRequest
from ssdprof.model.events import (
    LayoutDone,
    PointFinished,
    PointProgress,
    PointStarted,
    PreconditionProgress,
    PtsFinished,
    PtsStarted,
    PurgeDone,
    RoundFinished,
)
from ssdprof.model.pts_results import PtsInfo, PtsParameters, PtsResult

__all__ = ["FACE", "TOPIC", "PtsEstimate", "PtsIdParams", "PtsListResult", "PtsReportParams", "PtsResumeParams",
           "PtsWhere"]


class PtsEstimate(DeviceEffect):
    """What a test will do and how long it may take, said before it starts (PTS defaults run for hours)."""

    test: str
    name: str
    profile: str
    pts_compliant: bool
    compliance_note: str = Field(description="says NOT PTS-compliant for the laptop profile and changed settings")
    parameters: PtsParameters
    points: list[PlannedPoint] = Field(description="one round's points, in the order they run")
    points_per_round: int
    round_s: float = Field(description="one round: every point's time plus per-point overhead")
    min_rounds: int
    max_rounds: int
    tracking: str = Field(description="the gating tracking variable, e.g. '4KiB random 0/100 IOPS'")
    precondition_bytes: int = Field(description="bytes the preconditioning writes (0 without it)")
    precondition_s: float = Field(description="its time at a conservative write rate")
    estimated_min_s: float = Field(description="purge, preconditioning and min_rounds rounds")
    estimated_s: float = Field(description="purge, preconditioning and max_rounds rounds: the longest it can take")
    duration_note: str = Field(description="e.g. 'PTS defaults run for hours: up to 23h22m (25 rounds of 56 points)'")
    purge: str = Field(description="what --purge will do, or '' without it")
    purge_refusal: str = Field(default="", description="why a purge cannot be done here ('' when it can)")
    notes: list[str] = Field(default_factory=list)


class PtsResumeParams(Params):
    pts_id: int | None = Field(default=None, description="default: the last unfinished PTS test")


class PtsIdParams(Params):
    pts_id: int


class PtsWhere(Result):
    """Where a running PTS test is: the fields its status adds."""

    test: str = ""
    phase: str = Field(default="", description="purge, precondition or rounds")
    round: int = Field(default=0, description="the round under way")
    max_rounds: int = 0


class PtsListResult(Result):
    tests: list[PtsInfo] = Field(description="newest first")


class PtsReportParams(Params):
    pts_id: int
    title: str | None = Field(default=None, max_length=200)


PtsEventUnion = Annotated[
    PtsStarted | PurgeDone | PreconditionProgress | LayoutDone | PointStarted | PointProgress | PointFinished
    | RoundFinished | PtsFinished,
    Field(discriminator="kind"),
]


FACE = JobFace.made("pts", "PTS test", PtsEventUnion, where=PtsWhere, title="Pts", doc=(
    "``pts.event``: one event of the running PTS test, in order: started, purge, preconditioning progress,\n"
    "then each point's start, progress and end, each round's steady-state check, and the end."))
"""PtsStatus, PtsCancelResult and PtsEventNotification, and its place in the job layer."""

TOPIC = FACE.topic(
    listed=PtsListResult, plural="PTS tests", kept="rounds",
    estimate=(PtsRequest, PtsEstimate,
              "a PTS test's rounds, points and duration (PTS defaults run for hours); runs nothing"),
    start=(PtsRequest, PtsStarted, "start a PTS test: purge, preconditioning, rounds; events follow as pts.event"),
    resume=(PtsResumeParams, PtsStarted, "continue an interrupted PTS test"),
    get=(PtsIdParams, PtsResult, "a PTS test: steady state, rounds, matrix, drive state and parameters"),
    report=(PtsReportParams, ReportResult, "a PTS test's PDF report (base64)"))
