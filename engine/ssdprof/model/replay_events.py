"""Events a replay emits while it goes (``replay.event`` on the RPC, lines on the CLI): started, each second of
the replay beside the trace's recorded rate at that time, the end."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.events import Event
from ssdprof.model.results import ProgressSample
from ssdprof.model.status import SweepEnd

__all__ = ["ReplayEvent", "ReplayFinished", "ReplayProgress", "ReplayStarted"]


class ReplayStarted(Event):
    kind: Literal["replay_started"] = "replay_started"
    replay_id: int
    name: str
    label: str
    io_count: int
    expected_s: float | None = Field(description="the trace's span as recorded; null as fast as possible")
    engine: str
    engine_reason: str
    notes: list[str] = Field(default_factory=list)


class ReplayProgress(Event):
    """One second of the replay (of one host's part, on SSH hosts: ``sample.host``): its rates, and the recorded
    rates over the same second of what it plays (the trace, or that host's share of it)."""

    kind: Literal["replay_progress"] = "replay_progress"
    sample: ProgressSample
    recorded_read_iops: float | None = Field(default=None, description="null past the trace's end or for an untimed one")
    recorded_write_iops: float | None = None
    elapsed_s: float
    eta_s: float | None = Field(default=None, description="as recorded: the span left; null as fast as possible")


class ReplayFinished(Event):
    kind: Literal["replay_finished"] = "replay_finished"
    replay_id: int | None
    status: SweepEnd
    run_id: int | None = None
    wall_s: float
    reason: str = ""


ReplayEvent = ReplayStarted | ReplayProgress | ReplayFinished
