"""The contract's notifications: what the engine sends unasked (a running sweep's, PTS test's and
sustained-write test's events in order, its log lines) and the desktop shell's word on the engine."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ssdprof.app.contract.base import Result
from ssdprof.app.contract.replay import ReplayEventNotification
from ssdprof.model.events import (
    Cooling,
    LayoutDone,
    PointFinished,
    PointProgress,
    PointStarted,
    PreconditionProgress,
    PtsFinished,
    PtsStarted,
    PurgeDone,
    RoundFinished,
    SweepFinished,
    SweepStarted,
)
from ssdprof.model.sustain_events import (
    SustainFinished,
    SustainIdle,
    SustainSampled,
    SustainStarted,
    SustainStepDone,
    SustainStepStarted,
)

__all__ = ["NOTIFICATIONS", "EngineLog", "EngineStatus", "PtsEventNotification", "RunEventNotification",
           "SustainEventNotification"]


RunEventUnion = Annotated[
    SweepStarted | LayoutDone | PointStarted | PointProgress | PointFinished | SweepFinished
    | Cooling,
    Field(discriminator="kind"),
]


class RunEventNotification(Result):
    """``run.event``: one event of the running sweep, in order."""

    event: RunEventUnion


PtsEventUnion = Annotated[
    PtsStarted | PurgeDone | PreconditionProgress | LayoutDone | PointStarted | PointProgress | PointFinished
    | RoundFinished | PtsFinished,
    Field(discriminator="kind"),
]


class PtsEventNotification(Result):
    """``pts.event``: one event of the running PTS test, in order: started, purge, preconditioning progress,
    then each point's start, progress and end, each round's steady-state check, and the end."""

    event: PtsEventUnion


SustainEventUnion = Annotated[
    SustainStarted | SustainStepStarted | SustainSampled | SustainIdle | SustainStepDone | SustainFinished,
    Field(discriminator="kind"),
]


class SustainEventNotification(Result):
    """``sustain.event``: one event of the running sustained-write test, in order: started, the fill's
    start and each second, its end, then per recovery step idle time, its start, seconds and end; the end."""

    event: SustainEventUnion


class EngineLog(Result):
    """``engine.log``: something the user should know that belongs to no request."""

    level: Literal["info", "warning", "error"]
    message: str


class EngineStatus(Result):
    """``engine.status``: sent by the desktop shell when the engine process stops or restarts."""

    state: Literal["ready", "restarting", "stopped"]
    message: str


NOTIFICATIONS: dict[str, type[BaseModel]] = {
    "run.event": RunEventNotification,
    "pts.event": PtsEventNotification,
    "sustain.event": SustainEventNotification,
    "replay.event": ReplayEventNotification,
    "engine.log": EngineLog,
    "engine.status": EngineStatus,
}
