"""What the scale-up model (:mod:`scale_up`) takes: profiling points, measured or typed in, and the
question: how many SSDs, in chassis and enclosures of how many bays, within which limits.

Fields are checked once, here, in ssdprof's words (:mod:`ssdprof.model.problems`): the CLI, the RPC
and the Models view say the same thing about the same value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.model.problems import FieldRule, Problems, problem, register
from ssdprof.model.quantities import Count

__all__ = [
    "CPU_ERROR_BAND_PCT",
    "IOPS_ERROR_BAND_PCT",
    "MAX_UNITS",
    "PUBLISHED_FARTHER_DROP_PCT",
    "PUBLISHED_FIRST_DROP_PCT",
    "PUBLISHED_SECOND_DROP_PCT",
    "ScaleUpDesign",
    "ScaleUpInputs",
    "ScaleUpPoint",
    "check_inputs",
    "runs_text",
]

PUBLISHED_FIRST_DROP_PCT = 10.0
"""IOPS lost up to the first enclosure, as the framework profiled it."""
PUBLISHED_SECOND_DROP_PCT = 20.0
PUBLISHED_FARTHER_DROP_PCT = 20.0
"""Assumed by the framework for each enclosure beyond the second; real chains may lose more."""
IOPS_ERROR_BAND_PCT = (10.9, 13.2)
"""How far the framework's IOPS predictions were from a real 72-SSD system."""
CPU_ERROR_BAND_PCT = (11.1, 13.5)
MAX_UNITS = 30
"""Chassis plus enclosures: the architectures number the partitions of this count (5,604 for 30)."""

register(
    {
        "target_ssds": FieldRule(
            "--target-ssds",
            f"a multiple of the SSDs per chassis, up to {MAX_UNITS} chassis and enclosures",
            "target SSDs",
            "240",
        ),
        "ssds_per_unit": FieldRule(
            "--ssds-per-enclosure", "1–1000", "SSDs per chassis or enclosure", "24"
        ),
        "arrays_per_unit": FieldRule(
            "--arrays-per-enclosure", "1–1000", "arrays per chassis or enclosure", "8"
        ),
        "first_drop_pct": FieldRule(
            "--first-enclosure-drop",
            "0 to below 100 (%)",
            "IOPS drop for the first enclosure",
            "10",
        ),
        "second_drop_pct": FieldRule(
            "--second-enclosure-drop",
            "0 to below 100 (%)",
            "IOPS drop for the second enclosure",
            "20",
        ),
        "farther_drop_pct": FieldRule(
            "--farther-enclosure-drop",
            "0 to below 100 (%)",
            "IOPS drop for each farther enclosure",
            "20",
        ),
        "max_cpu_cores": FieldRule(
            "--max-cores", "above 0, at most 100000", "CPU cores available", "55"
        ),
        "max_pcie_slots": FieldRule(
            "--max-pcie-slots", f"1–{MAX_UNITS}", "PCIe slots for SAS controllers", "3"
        ),
        "min_array_iops": FieldRule("--min-array-iops", "above 0", "IOPS each array needs", "2000"),
        "points": FieldRule(
            "--point",
            "arrays, IOPS and optionally CPU cores and enclosures of a profiling run",
            "profiling points",
            "'arrays=8 iops=155k cores=9'",
        ),
    }
)


Iops = Annotated[Count, Field(gt=0, le=1e10, allow_inf_nan=False)]
"""IOPS as typed (155000, 155k): a positive, finite count."""


class ScaleUpPoint(BaseModel):
    """One profiling measurement: the chassis (and ``enclosures`` enclosures in its chain) holding
    ``arrays`` software-RAID arrays, all loaded at once."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arrays: int = Field(ge=1, le=1000)
    enclosures: int = Field(
        default=0, ge=0, le=MAX_UNITS - 1, description="enclosures daisy-chained after the chassis"
    )
    iops: Iops = Field(description="e.g. 155000 or 155k")
    cpu_cores: float | None = Field(
        default=None,
        ge=0,
        le=100_000,
        allow_inf_nan=False,
        description="CPU cores busy during the run (busy % × cores / 100)",
    )
    run_ids: list[int] = Field(default_factory=list, max_length=5000, description="empty: typed in")


class ScaleUpDesign(BaseModel):
    """The question: the SSD count to reach, the shelves that hold them, and the limits to meet."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    target_ssds: int = Field(ge=1, le=100_000, description="SSDs in the array to size")
    ssds_per_unit: int = Field(
        default=24, ge=1, le=1000, description="bays of the chassis and of each enclosure"
    )
    arrays_per_unit: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="arrays per chassis or enclosure; default the most profiled",
    )
    first_drop_pct: float | None = Field(
        default=None,
        ge=0,
        lt=100,
        description="default: profiled (chassis vs chassis + 1 enclosure), else 10",
    )
    second_drop_pct: float | None = Field(
        default=None, ge=0, lt=100, description="default: profiled, else 20"
    )
    farther_drop_pct: float | None = Field(
        default=None, ge=0, lt=100, description="default 20, assumed"
    )
    max_cpu_cores: float | None = Field(default=None, gt=0, le=100_000, allow_inf_nan=False)
    max_pcie_slots: int | None = Field(
        default=None, ge=1, le=MAX_UNITS, description="one per SAS controller"
    )
    min_array_iops: Iops | None = Field(default=None, description="per-array QoS: the IOPS every array must get")


class ScaleUpInputs(ScaleUpDesign):
    points: list[ScaleUpPoint] = Field(min_length=1, max_length=10_000)
    label: str = Field(
        default="", max_length=200, description="what was profiled, e.g. 'write IOPS'"
    )


def runs_text(run_ids: Sequence[int], lead: str = "") -> str:
    """' (runs 3, 4)'-style provenance; '' for typed-in points."""
    ids = sorted(set(run_ids))
    if not ids:
        return ""
    listed = ", ".join(map(str, ids[:8])) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
    text = f"run {listed}" if len(ids) == 1 else f"runs {listed}"
    return f" ({text})" if not lead else f"{lead}{text}"


def check_inputs(inputs: ScaleUpInputs) -> None:
    """Every problem the fields' own bounds cannot see, at once (raises WorkloadError)."""
    problems = Problems()
    target = _target_problem(inputs.target_ssds, inputs.ssds_per_unit)
    if target:
        problems.add(problem("target_ssds", target))
    if not any(p.enclosures == 0 for p in inputs.points):
        problems.add(
            problem(
                "points",
                "no profiling point of the chassis alone (enclosures=0): the model starts "
                "from the chassis IOPS",
            )
        )
    cpu_counts = {p.arrays for p in inputs.points if p.cpu_cores is not None}
    if inputs.max_cpu_cores is not None and len(cpu_counts) < 2:
        problems.add(
            problem(
                "max_cpu_cores",
                "cannot be checked: the profile needs CPU figures at two or more array "
                "counts for the CPU factor; give them, or leave the CPU limit out",
                with_rule=False,
            )
        )
    problems.raise_any()


def _target_problem(target_ssds: int, per_unit: int) -> str:
    """What is wrong with the SSD count, or ''."""
    units, left = divmod(target_ssds, per_unit)
    if units < 1:
        return f"{target_ssds} is fewer than one chassis of {per_unit} SSDs"
    if units + (left > 0) > MAX_UNITS:
        return (
            f"{target_ssds} needs {units + (left > 0)} chassis and enclosures of {per_unit} SSDs, "
            "more than "
            f"the {MAX_UNITS} this model enumerates"
        )
    if left:
        return (
            f"{target_ssds} does not fill whole chassis and enclosures of {per_unit} SSDs; "
            f"{units * per_unit} or {(units + 1) * per_unit} do"
        )
    return ""
