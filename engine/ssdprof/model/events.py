"""Events a run emits while it goes: the one contract shared by the CLI, the RPC and the GUI."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.model.workload import Workload

__all__ = ["LayoutDone", "PointFinished", "PointProgress", "PointStarted", "RunEvent", "SweepFinished", "SweepStarted"]


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


RunEvent = SweepStarted | LayoutDone | PointStarted | PointProgress | PointFinished | SweepFinished
