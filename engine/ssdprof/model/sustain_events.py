"""Events a sustained-write test emits while it goes (``sustain.event`` on the RPC, lines on the CLI):
started, each second of a write, idle time, each write finished, the end."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.events import Event
from ssdprof.model.status import SweepEnd
from ssdprof.model.sustain_results import RecoveryRow, SustainSample

__all__ = ["SustainEvent", "SustainFinished", "SustainIdle", "SustainSampled", "SustainStarted",
           "SustainStep", "SustainStepDone", "SustainStepStarted"]

SustainStep = Literal["fill", "recovery"]


class SustainStarted(Event):
    kind: Literal["sustain_started"] = "sustain_started"
    sustain_id: int
    name: str
    label: str
    write_bytes: int
    idle_s: list[float]
    fill_done: bool = Field(description="a resumed test whose fill was kept")
    recovery_done: int = Field(description="recovery writes finished before this start")
    estimated_s: float = Field(description="what is left, at the assumed speed")
    engine: str
    engine_reason: str
    notes: list[str] = Field(default_factory=list, description="e.g. 'the fill was cut short; it is re-run'")


class SustainStepStarted(Event):
    kind: Literal["sustain_step_started"] = "sustain_step_started"
    step: SustainStep
    recovery_step: int = Field(default=0, description="1 for the first recovery write; 0 for the fill")
    bytes_total: int = Field(description="what this write will write")


class SustainSampled(Event):
    """One second of the write under way: drawn live against bytes written."""

    kind: Literal["sustain_sample"] = "sustain_sample"
    step: SustainStep
    recovery_step: int = 0
    sample: SustainSample
    bytes_total: int
    eta_s: float = Field(description="this write's time left at its speed so far")


class SustainIdle(Event):
    """Idle before a recovery write: sent as it begins and about every 5 s."""

    kind: Literal["sustain_idle"] = "sustain_idle"
    recovery_step: int
    idle_s: float
    remaining_s: float


class SustainStepDone(Event):
    kind: Literal["sustain_step_done"] = "sustain_step_done"
    step: SustainStep
    recovery_step: int = 0
    run_id: int | None
    bytes_written: int
    seconds: float
    recovery: RecoveryRow | None = Field(default=None, description="a recovery write's row")
    cache_bytes: int | None = Field(default=None, description="the fill: the cache found, if any")


class SustainFinished(Event):
    kind: Literal["sustain_finished"] = "sustain_finished"
    sustain_id: int | None
    status: SweepEnd
    wall_s: float
    reason: str = ""


SustainEvent = (SustainStarted | SustainStepStarted | SustainSampled | SustainIdle | SustainStepDone
                | SustainFinished)
