"""The sustained-write test: a long write that finds where a drive's write speed falls (an SLC cache
filling up), how far, and how much comes back after idle time.

A test is stored as a sweep of kind ``sustain`` whose points are the fill, then one recovery write per
idle interval; :class:`SustainPlan` rides on that sweep's spec. The fill and each recovery write stop
after a byte count, not a time: a point's ``runtime_s`` is only the bound past which the engine is
stopped anyway (:func:`bound_runtime_s`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.value import Value

__all__ = [
    "ASSUMED_WRITE_BYTES_PER_S",
    "DEFAULT_BLOCK_SIZE_BYTES",
    "DEFAULT_IDLE_S",
    "DEFAULT_QUEUE_DEPTH",
    "FREE_SPACE_MARGIN_BYTES",
    "FREE_SPACE_MARGIN_FRACTION",
    "SustainPattern",
    "SustainPlan",
    "SustainWear",
    "bound_runtime_s",
]

SustainPattern = Literal["write", "randwrite"]
DEFAULT_BLOCK_SIZE_BYTES = 1 << 20
DEFAULT_QUEUE_DEPTH = 8
DEFAULT_IDLE_S = (10.0, 30.0, 60.0, 300.0)
FREE_SPACE_MARGIN_FRACTION = 0.10
"""A file test leaves this share of the filesystem's free space free (and at least the bytes below)."""
FREE_SPACE_MARGIN_BYTES = 1 << 30
ASSUMED_WRITE_BYTES_PER_S = 200e6
"""Only for the estimate before a drive was measured: a slow drive's write speed after its cache
(the events carry the real time left once the fill runs)."""
MIN_BOUND_S = 120.0


def bound_runtime_s(write_bytes: int, max_runtime_s: float) -> float:
    """How long a byte-bounded write may run before the engine is stopped anyway: ten times the
    estimate at the assumed speed, at least two minutes, within a workload's limit."""
    return min(max(10 * write_bytes / ASSUMED_WRITE_BYTES_PER_S, MIN_BOUND_S), max_runtime_s)


class SustainPlan(Value):
    """What makes a stored sweep a sustained-write test: its first point is the fill, each further
    point the recovery write after ``idle_s[i]`` seconds idle."""

    write_bytes: int = Field(gt=0, description="the fill: bytes written in one go")
    region_bytes: int = Field(gt=0, description="the file or device region written (the fill wraps "
                                                 "around it when larger)")
    idle_s: list[float] = Field(default_factory=lambda: list(DEFAULT_IDLE_S),
                                description="idle time before each recovery write, in order")
    recovery_bytes: int | None = Field(
        default=None, gt=0,
        description="bytes each recovery write writes; null: 1.5x the cache found (10 % of the fill "
                    "without a cliff); like the fill, it wraps around the region when larger")


class SustainWear(Value):
    """The bytes a test writes against the drive's rated endurance, where its spec sheet has one."""

    bytes_written: int = Field(description="the fill and every recovery write")
    rated_tbw: float | None = Field(default=None, description="terabytes written (10^12 bytes) the "
                                                              "drive is rated for; null: not known")
    rated_pct: float | None = Field(default=None, description="bytes_written as % of the rating")
    spec_id: str = Field(default="", description="the spec sheet the rating came from")
    text: str = Field(description="in words, e.g. '1.00 TB: 0.17 % of the 600 TBW rating (Samsung "
                                  "970 EVO Plus 1TB)'")
