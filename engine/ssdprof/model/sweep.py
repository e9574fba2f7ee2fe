"""Sweeps: many points from one base workload, one factor at a time or as a full grid, with
repeats; a preset built (the ready-made sweeps themselves: :mod:`ssdprof.model.presets`); and an
honest duration estimate before starting.
"""

from __future__ import annotations

import enum
import itertools

from pydantic import Field

from ssdprof.model.cooldown import CoolDownSpec
from ssdprof.model.curves import CurveSpec, SloSpec
from ssdprof.model.presets import PRESETS
from ssdprof.model.quantities import format_duration
from ssdprof.model.replay import ReplaySpec
from ssdprof.model.sustain import SustainPlan
from ssdprof.model.value import Value
from ssdprof.model.workload import FIELD_RULES, FieldProblem, Workload, WorkloadError, parse_workload

__all__ = [
    "LAYOUT_BYTES_PER_S",
    "MAX_REPEATS",
    "POINT_OVERHEAD_S",
    "RemoteSpec",
    "SweepMode",
    "SweepSpec",
    "build_sweep",
    "cool_down_s",
    "cool_down_words",
    "estimate_s",
    "preset",
]

POINT_OVERHEAD_S = 0.3
"""fio start-up and teardown per point, measured by bench/sweep_overhead.py on this project's machines."""
LAYOUT_BYTES_PER_S = 300e6
"""A conservative write rate for laying out the test file (not measured; only for the estimate)."""

MAX_POINTS = 10_000


class SweepMode(str, enum.Enum):
    ONE_AT_A_TIME = "one-at-a-time"
    GRID = "grid"


class RemoteSpec(Value):
    """Where a sweep runs when not locally: hosts (ssh aliases or user@host:port) and their target."""

    hosts: list[str] = Field(min_length=1, max_length=256)
    target_dir: str = ""
    target_dirs: dict[str, str] = Field(default_factory=dict, description="per-host directories, overriding target_dir")
    devices: dict[str, str] = Field(default_factory=dict, description="host -> a block device measured there instead of a test file")
    rbd: str = ""
    """POOL/IMAGE, with {host} for one image per host."""
    ceph_conf: str = ""
    ceph_user: str = "admin"


MAX_REPEATS = 1000
"""Repeats of every point one sweep may ask for."""


class SweepSpec(Value):
    """An explicit, ordered list of points (so a stored sweep resumes exactly) and repeats."""

    name: str
    description: str = ""
    points: list[Workload] = Field(min_length=1, max_length=MAX_POINTS)
    repeats: int = Field(default=1, ge=1, le=MAX_REPEATS)
    tags: dict[str, str] = Field(default_factory=dict)
    remote: RemoteSpec | None = None
    curve: CurveSpec | None = Field(default=None, description="a curve under offered load: points added as it runs")
    slo: SloSpec | None = Field(default=None, description="a search for the queue depth with the most IOPS within a latency target")
    sustain: SustainPlan | None = Field(default=None, description="a sustained-write test: the fill, then recovery writes")
    replay: ReplaySpec | None = Field(default=None, description="a trace replay: its one point plays the trace")
    cool_down: CoolDownSpec | None = Field(
        default=None,
        description="before each point after the first, wait for the drive to cool or idle")

    def total_points(self) -> int:
        return len(self.points) * self.repeats


def preset(name: str, base: Workload, repeats: int = 1) -> SweepSpec:
    if name not in PRESETS:
        raise WorkloadError([FieldProblem(field="preset", flag="--preset",
                                          message=f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")])
    description, build = PRESETS[name]
    return SweepSpec(name=name, description=description, points=build(base), repeats=repeats)


def build_sweep(base: Workload, factors: dict[str, list[str]], mode: SweepMode, repeats: int = 1,
                name: str = "sweep") -> SweepSpec:
    """Points varying each factor (a workload field) over its values, alone or as a grid."""
    problems = [FieldProblem(field=f, flag="--vary", message=f"cannot vary {f!r}; vary one of {', '.join(FIELD_RULES)}")
                for f in factors if f not in FIELD_RULES or f == "target"]
    problems += [FieldProblem(field=f, flag="--vary", message="needs at least one value") for f, v in factors.items() if not v]
    if problems:
        raise WorkloadError(problems)
    if mode is SweepMode.GRID:
        combos = itertools.product(*factors.values())
        points = [parse_workload(dict(zip(factors, combo, strict=True)), base=base) for combo in combos]
    else:
        points = [parse_workload({f: v}, base=base) for f, values in factors.items() for v in values]
    if len(points) * repeats > MAX_POINTS:
        raise WorkloadError([FieldProblem(field="repeat", flag="--repeat", message=f"{len(points) * repeats} points exceed {MAX_POINTS}")])
    return SweepSpec(name=name, points=points, repeats=repeats)


def estimate_s(spec: SweepSpec, layout_bytes: int = 0) -> float:
    """Expected wall time: every point's ramp + runtime, the per-point overhead, the cool-down's
    idle time between points (a wait for a temperature may end at once: not counted), and the
    layout."""
    per_round = sum(p.duration_s() + POINT_OVERHEAD_S for p in spec.points)
    return per_round * spec.repeats + cool_down_s(spec) + layout_bytes / LAYOUT_BYTES_PER_S


def cool_down_s(spec: SweepSpec) -> float:
    """The idle time the cool-down adds for certain: one wait before each point after the first."""
    gaps = spec.total_points() - 1
    return spec.cool_down.counted_s * gaps if spec.cool_down is not None else 0.0


def cool_down_words(spec: SweepSpec) -> str:
    """What the cool-down does to the duration, in words; '' without one."""
    cool, gaps = spec.cool_down, spec.total_points() - 1
    if cool is None or gaps < 1:
        return ""
    each = f"{cool.longest_s:g} s before each of the {gaps} point(s) after the first"
    if cool.counted_s:
        return f"includes {each} to idle ({format_duration(cool_down_s(spec))})"
    return (f"plus up to {each} while the drive cools to {cool.to_c:g} °C (up to "
            f"{format_duration(cool.longest_s * gaps)} more)")


def describe(spec: SweepSpec, layout_bytes: int = 0) -> str:
    cooling = cool_down_words(spec)
    return (f"{spec.name}: {len(spec.points)} point(s) x {spec.repeats} repeat(s), "
            f"estimated {format_duration(estimate_s(spec, layout_bytes))}"
            + (f"; {cooling}" if cooling else ""))


