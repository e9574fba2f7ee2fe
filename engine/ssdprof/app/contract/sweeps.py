"""The sweep's part of the contract: its methods (estimate, start, resume, cancel, status, the stored
sweeps) and ``run.event``, each event of a running sweep in order (curves and latency-target searches
run as sweeps and send theirs here too). Its params and results are ``runs.py``'s."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ssdprof.app.contract.base import Result
from ssdprof.app.contract.kind import JobFace, Methods
from ssdprof.app.contract.runs import CancelResult, ResumeParams, SweepEstimate, SweepsResult, SweepStatus
from ssdprof.app.planner import SweepRequest
from ssdprof.model.events import SweepEvent, SweepStarted

__all__ = ["FACE", "TOPIC", "RunEventNotification"]

RunEventUnion = Annotated[SweepEvent, Field(discriminator="kind")]


class RunEventNotification(Result):
    """``run.event``: one event of the running sweep, in order."""

    event: RunEventUnion


FACE = JobFace("sweep", Methods(estimate="sweep.estimate", start="sweep.start", resume="sweep.resume", cancel="sweep.cancel",
                                status="sweep.status", list="sweeps.list"),
               "run.event", RunEventNotification, SweepStatus, CancelResult, "sweep_id", "sweep")
"""The sweep's place in the job layer: its events go out as ``run.event``."""

TOPIC = FACE.topic(
    listed=SweepsResult, plural="sweeps", kept="points",
    estimate=(SweepRequest, SweepEstimate, "points and duration; runs nothing"),
    start=(SweepRequest, SweepStarted, "start a sweep; events follow as run.event"),
    resume=(ResumeParams, SweepStarted, "continue an interrupted sweep"))
