"""How a recorded trace is played back: which part of it (disks, hosts, a time window), with what timing, and
how its offsets land on the target. Times in seconds from the trace's first I/O, sizes in bytes."""

from __future__ import annotations

import enum

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["OffsetMapping", "ReplayTiming", "TraceSelection"]

MAX_REPLAY_DEPTH = 1024


class ReplayTiming(str, enum.Enum):
    AS_RECORDED = "as-recorded"
    FASTEST = "fastest"

    @property
    def label(self) -> str:
        return {"as-recorded": "as recorded (each I/O at its recorded time)",
                "fastest": "as fast as possible (in order, at a chosen queue depth)"}[self.value]


class OffsetMapping(str, enum.Enum):
    """What happens to a trace that reaches past the end of the target."""

    EXACT = "exact"
    WRAP = "wrap"
    SCALE = "scale"

    @property
    def label(self) -> str:
        return {"exact": "exact (refuse a trace larger than the target)",
                "wrap": "wrap (offsets modulo the target's size)",
                "scale": "scale (offsets shrunk in proportion onto the target)"}[self.value]


class TraceSelection(BaseModel):
    """The part of a trace replayed: some of its disks or hosts, and a window of its time."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hosts: list[str] = Field(default_factory=list, description="keep these recording hosts (MSR's Hostname); empty: all")
    disks: list[str] = Field(default_factory=list, description="keep these disks (MSR's DiskNumber, blktrace's "
                                                               "major,minor, an iolog's file); empty: all")
    start_s: float = Field(default=0.0, ge=0, description="the window's start, seconds from the trace's first I/O")
    end_s: float | None = Field(default=None, gt=0, description="the window's end; null: the trace's end")

    @model_validator(mode="after")
    def _window(self) -> TraceSelection:
        if self.end_s is not None and self.end_s <= self.start_s:
            raise ValueError(f"end_s: the window's end ({self.end_s:g} s) is not after its start ({self.start_s:g} s)")
        return self

    @property
    def whole(self) -> bool:
        return not self.hosts and not self.disks and self.start_s == 0 and self.end_s is None
