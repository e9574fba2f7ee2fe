"""The sweep's part of the contract: its methods (estimate, start, resume, cancel, status, the stored
sweeps) and ``run.event``, each event of a running sweep in order (curves and latency-target searches
run as sweeps and send theirs here too). Its params and results are ``runs.py``'s."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ssdprof.app.contract.base import Result, Topic
from ssdprof.app.contract.runs import CancelResult, NoParams, ResumeParams, SweepEstimate, SweepsResult, SweepStatus
from ssdprof.app.planner import SweepRequest
from ssdprof.model.events import SweepEvent, SweepStarted

__all__ = ["TOPIC", "RunEventNotification"]

RunEventUnion = Annotated[SweepEvent, Field(discriminator="kind")]


class RunEventNotification(Result):
    """``run.event``: one event of the running sweep, in order."""

    event: RunEventUnion


TOPIC = Topic({
    "sweep.estimate": (SweepRequest, SweepEstimate, "points and duration; runs nothing"),
    "sweep.start": (SweepRequest, SweepStarted, "start a sweep; events follow as run.event"),
    "sweep.resume": (ResumeParams, SweepStarted, "continue an interrupted sweep"),
    "sweep.cancel": (NoParams, CancelResult, "stop fio; finished points are kept"),
    "sweep.status": (NoParams, SweepStatus, "whether a sweep is running"),
    "sweeps.list": (NoParams, SweepsResult, "stored sweeps, newest first"),
}, {"run.event": RunEventNotification})
