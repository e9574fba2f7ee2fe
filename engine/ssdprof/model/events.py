"""Events a run emits while it goes: the one contract shared by the CLI, the RPC and the GUI."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.model.pts_results import SteadyState
from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.model.workload import Workload

__all__ = [
    "LayoutDone",
    "PointFinished",
    "PointProgress",
    "PointStarted",
    "PreconditionProgress",
    "PtsFinished",
    "PtsStarted",
    "PurgeDone",
    "RoundFinished",
    "RunEvent",
    "SweepFinished",
    "SweepStarted",
]


class SweepStarted(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["sweep_started"] = "sweep_started"
    sweep_id: int | None
    name: str
    total_points: int
    already_done: int
    estimated_s: float
    engine: str
    engine_reason: str


class LayoutDone(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["layout_done"] = "layout_done"
    path: str
    size_bytes: int
    seconds: float


class PointStarted(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["point_started"] = "point_started"
    index: int
    repeat: int
    number: int
    total_points: int
    workload: Workload
    eta_s: float


class PointProgress(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["point_progress"] = "point_progress"
    number: int
    total_points: int
    sample: ProgressSample
    point_elapsed_s: float
    point_duration_s: float
    eta_s: float


class PointFinished(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["point_finished"] = "point_finished"
    number: int
    total_points: int
    result: RunResult


class SweepFinished(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["sweep_finished"] = "sweep_finished"
    sweep_id: int | None
    status: str = Field(description="done, cancelled, or stopped (a host was lost: resumable; see reason)")
    run_ids: list[int]
    wall_s: float
    layout_s: float
    reason: str = ""


class PtsStarted(BaseModel):
    """A PTS test began (or resumed); its purge, preconditioning and rounds follow."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["pts_started"] = "pts_started"
    pts_id: int | None
    test: str
    profile: str
    pts_compliant: bool
    compliance_note: str
    points_per_round: int
    max_rounds: int
    already_rounds: int = Field(description="rounds finished before a resume")
    estimated_s: float = Field(description="the remaining time if every round up to max_rounds runs")
    engine: str
    engine_reason: str


class PurgeDone(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["purge_done"] = "purge_done"
    method: str = Field(description="blkdiscard or new-file")
    detail: str
    limitation: str = ""
    seconds: float


class PreconditionProgress(BaseModel):
    """Workload-independent preconditioning (sequential writes over the region): not a measurement."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["precondition_progress"] = "precondition_progress"
    bytes_done: int
    bytes_total: int
    elapsed_s: float
    eta_s: float
    done: bool = False


class RoundFinished(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["round_finished"] = "round_finished"
    round: int
    max_rounds: int
    tracking_value: float | None
    steady_state: SteadyState = Field(description="the rule applied to the rounds so far")
    run_ids: list[int]
    bytes_written: int = Field(description="bytes the test had written by the end of this round")


class PtsFinished(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["pts_finished"] = "pts_finished"
    pts_id: int | None
    status: str = Field(description="done, cancelled, stopped or failed")
    attained: bool
    rounds: int
    wall_s: float
    reason: str = ""


RunEvent = (SweepStarted | LayoutDone | PointStarted | PointProgress | PointFinished | SweepFinished
            | PtsStarted | PurgeDone | PreconditionProgress | RoundFinished | PtsFinished)
