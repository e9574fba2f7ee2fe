"""The SNIA Solid State Storage Performance Test Specification's tests (PTS Enterprise 1.1 / Client 1.2):
a planned test — its rounds of points, its tracking variable, its steady-state rule — and the scaled-down
"laptop" profile, which is labelled as not PTS-compliant wherever it appears.

A test runs in rounds; every round measures the same matrix of points (access size x read/write mix) for
``round_time_s`` each, and steady state is judged on one tracking variable per round
(:mod:`ssdprof.analysis.steady_state`). Write saturation has no steady-state stop: it writes until a
multiple of the region has been written.
"""

from __future__ import annotations

import enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ssdprof.model.quantities import format_size
from ssdprof.model.sweep import POINT_OVERHEAD_S
from ssdprof.model.value import Value
from ssdprof.model.workload import Workload, parse_workload

__all__ = [
    "KIB",
    "LAPTOP_NOTE",
    "PRECONDITION_BYTES_PER_S",
    "PTS_DEFAULTS",
    "PtsProfile",
    "PtsSpec",
    "PtsTest",
    "SteadyStateRule",
    "Tracking",
    "estimate_range_s",
    "mix_label",
    "precondition_bytes",
]

KIB = 1024


class PtsTest(str, enum.Enum):
    IOPS = "iops"
    THROUGHPUT = "throughput"
    LATENCY = "latency"
    WRITE_SATURATION = "write-saturation"


class PtsProfile(str, enum.Enum):
    PTS = "pts"
    LAPTOP = "laptop"


LAPTOP_NOTE = ("laptop profile: short rounds, a small region and fewer access sizes and mixes, for learning the method; "
               "NOT PTS-compliant, its numbers are not PTS results")

_IOPS_SIZES = [1024 * KIB, 128 * KIB, 64 * KIB, 32 * KIB, 16 * KIB, 8 * KIB, 4 * KIB, 512]
_IOPS_MIXES = [100, 95, 65, 50, 35, 5, 0]

PTS_DEFAULTS: dict[PtsTest, dict[PtsProfile, tuple[list[int], list[int]]]] = {
    # test -> profile -> (access sizes, largest first as the PTS runs them; read % of each mix)
    PtsTest.IOPS: {PtsProfile.PTS: (_IOPS_SIZES, _IOPS_MIXES), PtsProfile.LAPTOP: ([128 * KIB, 4 * KIB], [100, 65, 0])},
    PtsTest.THROUGHPUT: {PtsProfile.PTS: ([1024 * KIB, 128 * KIB], [100, 0]), PtsProfile.LAPTOP: ([1024 * KIB, 128 * KIB], [100, 0])},
    PtsTest.LATENCY: {PtsProfile.PTS: ([8 * KIB, 4 * KIB, 512], [100, 65, 0]), PtsProfile.LAPTOP: ([8 * KIB, 4 * KIB, 512], [100, 65, 0])},
    PtsTest.WRITE_SATURATION: {PtsProfile.PTS: ([4 * KIB], [0]), PtsProfile.LAPTOP: ([4 * KIB], [0])},
}


def mix_label(read_pct: int) -> str:
    """The PTS's R/W notation: 65 -> '65/35'."""
    return f"{read_pct}/{100 - read_pct}"


class SteadyStateRule(BaseModel):
    """The PTS steady-state rule, settable: the last ``window`` rounds' values have a max - min within
    ``data_limit_pct`` of their mean, and their least-squares line changes by at most ``slope_limit_pct``
    of the mean across the window; judged from ``min_rounds`` on, given up after ``max_rounds``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    window: int = Field(default=5, ge=2, le=100)
    data_limit_pct: float = Field(default=20.0, gt=0, le=100)
    slope_limit_pct: float = Field(default=10.0, gt=0, le=100)
    min_rounds: int = Field(default=5, ge=1, le=10_000)
    max_rounds: int = Field(default=25, ge=1, le=10_000)

    @model_validator(mode="after")
    def _ordered(self) -> SteadyStateRule:
        if self.min_rounds < self.window:
            # "field: ..." names the field for model.problems.from_validation
            raise ValueError(f"min_rounds: {self.min_rounds} is below the window ({self.window} rounds)")
        if self.max_rounds < self.min_rounds:
            raise ValueError(f"max_rounds: {self.max_rounds} is below the fewest rounds ({self.min_rounds})")
        return self

    @property
    def is_pts(self) -> bool:
        return (self.window, self.data_limit_pct, self.slope_limit_pct, self.min_rounds, self.max_rounds) == (5, 20.0, 10.0, 5, 25)


Metric = Literal["iops", "bw", "lat_mean", "lat_max"]
_UNITS: dict[str, str] = {"iops": "IOPS", "bw": "MB/s", "lat_mean": "µs", "lat_max": "µs"}
_WHAT: dict[str, str] = {"iops": "IOPS", "bw": "MB/s", "lat_mean": "mean total latency", "lat_max": "max total latency"}


class Tracking(Value):
    """A tracking variable: one metric of one point of the round."""

    metric: Metric
    block_size_bytes: int
    read_pct: int
    gating: bool = Field(default=True, description="false: reported and plotted, but steady state does not wait for it")

    @property
    def unit(self) -> str:
        return _UNITS[self.metric]

    def label(self, sequential: bool = False) -> str:
        kind = "sequential" if sequential else "random"
        return f"{format_size(self.block_size_bytes)} {kind} {mix_label(self.read_pct)} {_WHAT[self.metric]}"


class PtsSpec(Value):
    """A planned PTS test, stored so a crashed or cancelled test resumes exactly."""

    name: str
    test: PtsTest
    profile: PtsProfile
    base: Workload = Field(description="target, region, engine, queue depth and jobs; runtime_s is the round time")
    rule: SteadyStateRule
    block_sizes_bytes: list[int] = Field(min_length=1)
    mixes_read_pct: list[int] = Field(min_length=1)
    precondition: Literal["auto", "none"] = "auto"
    precondition_passes: float = 2.0
    purge: bool = False
    saturation_multiple: float = Field(default=4.0, description="write saturation: write this multiple of the region")
    tags: dict[str, str] = Field(default_factory=dict)

    @property
    def sequential(self) -> bool:
        return self.test is PtsTest.THROUGHPUT

    @property
    def pts_compliant(self) -> bool:
        return self.profile is PtsProfile.PTS and self.rule.is_pts and self.base.runtime_s >= 60

    def compliance_note(self) -> str:
        if self.profile is PtsProfile.LAPTOP:
            return LAPTOP_NOTE
        if not self.pts_compliant:
            return ("PTS profile with changed settings (round time under 60 s, or a steady-state rule other than "
                    "window 5, 20 %/10 %, 5-25 rounds): NOT PTS-compliant")
        return "PTS settings: 60 s per point, window 5, data excursion 20 %, slope excursion 10 %, 5-25 rounds"

    def points(self) -> list[Workload]:
        """One round: for each mix, each access size, largest first (the PTS's order)."""
        return [self.point(bs, mix) for mix in self.mixes_read_pct for bs in self.block_sizes_bytes]

    def point(self, block_size_bytes: int, read_pct: int) -> Workload:
        pure = {100: "read", 0: "write"}.get(read_pct, "rw")
        pattern = pure if self.sequential else f"rand{pure}"
        return parse_workload({"pattern": pattern, "read_pct": read_pct, "block_size_bytes": block_size_bytes}, base=self.base)

    def trackings(self) -> list[Tracking]:
        """The gating tracking variable first, then any reported beside it."""
        if self.test is PtsTest.THROUGHPUT:
            return [Tracking(metric="bw", block_size_bytes=max(self.block_sizes_bytes), read_pct=0)]
        if self.test is PtsTest.LATENCY:
            return [Tracking(metric="lat_mean", block_size_bytes=4 * KIB, read_pct=0),
                    Tracking(metric="lat_max", block_size_bytes=4 * KIB, read_pct=0, gating=False)]
        return [Tracking(metric="iops", block_size_bytes=4 * KIB, read_pct=0)]

    def convergence_metric(self) -> Metric:
        """What the convergence plot shows for every access size (at the tracking mix)."""
        return self.trackings()[0].metric

    def round_s(self) -> float:
        return sum(p.duration_s() + POINT_OVERHEAD_S for p in self.points())

    @property
    def region_bytes(self) -> int:
        return self.base.size_bytes


PRECONDITION_BYTES_PER_S = 300e6
"""A conservative sequential write rate, only for the estimate (the progress events carry the real ETA)."""


def precondition_bytes(spec: PtsSpec) -> int:
    return int(spec.precondition_passes * spec.region_bytes) if spec.precondition == "auto" else 0


def estimate_range_s(spec: PtsSpec, layout_bytes: int = 0) -> tuple[float, float]:
    """(shortest, longest): preparation plus min_rounds rounds, and plus max_rounds rounds."""
    prepare = (precondition_bytes(spec) + layout_bytes) / PRECONDITION_BYTES_PER_S
    first = 1 if spec.test is PtsTest.WRITE_SATURATION else spec.rule.min_rounds
    return prepare + first * spec.round_s(), prepare + spec.rule.max_rounds * spec.round_s()
