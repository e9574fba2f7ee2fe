"""Profile small, predict large: an all-flash array's IOPS and CPU from a chassis and one enclosure.

The framework (Ajdari, Montazerzohour, Abdi, Asadi: "Empirical architectural analysis on performance
scalability of petascale all-flash storage systems", IEEE Computer Architecture Letters, 2024)
profiles a chassis full of SSDs in software-RAID arrays, and the chassis with one disk-array
enclosure, then:

- **chassis IOPS** = the mean of the highest IOPS measured over array counts and the IOPS at the
  largest array count (45 K at 1 array, best 193 K at 6, 155 K at 8 → 174 K);
- **enclosures**: each enclosure in a SAS daisy chain lowers the whole chain's IOPS by a percentage:
  the profiled one (10 % published) up to the first enclosure, 20 % for the second, and 20 % assumed
  for each farther one (real chains may lose more). Adding enclosures to one chain *lowers* its
  IOPS: the 240-SSD daisy chain is predicted at 174 K × 0.9 × 0.8⁸ ≈ 26 K writes;
- **CPU**: cores busy per IOPS is a line over the number of arrays, CPUFactor_N = a·N + b, fitted to
  the profiling samples; CPUUtil_N = IOPS_N · CPUFactor_N.

Its predictions were within 10.9–13.2 % (IOPS) and 11.1–13.5 % (CPU) of a real 72-SSD system; every
prediction here carries that band and the profiling points it came from. :mod:`scale_up_space`
applies the model to every way of attaching the chassis and enclosures to SAS controllers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from pydantic import Field

from ssdprof.analysis.fit_quality import FitQuality, fit_quality
from ssdprof.analysis.scale_up_inputs import (
    PUBLISHED_FARTHER_DROP_PCT,
    PUBLISHED_FIRST_DROP_PCT,
    PUBLISHED_SECOND_DROP_PCT,
    ScaleUpInputs,
    ScaleUpPoint,
    runs_text,
)
from ssdprof.model.quantities import format_number as number
from ssdprof.model.value import Value

__all__ = [
    "ScaleUpCpuFactor",
    "ScaleUpCpuSample",
    "ScaleUpFigure",
    "ScaleUpProfile",
    "build_profile",
    "chain_factor",
    "chassis_iops",
    "fit_cpu_factor",
]


class ScaleUpFigure(Value):
    """One number of the model with where it came from, in words and as run ids."""

    value: float
    source: str = Field(
        description="e.g. 'mean of 193 K (6 arrays, runs 3, 4) and 155 K (8 arrays, "
        "run 7)', 'published default' or 'given'"
    )
    run_ids: list[int] = Field(default_factory=list)


class ScaleUpCpuSample(Value):
    arrays: int
    cores_per_iops: float = Field(description="CPU cores busy per IOPS at this array count")
    run_ids: list[int] = Field(default_factory=list)


class ScaleUpCpuFactor(Value):
    """CPUFactor_N = a·N + b: CPU cores busy per IOPS against the number of arrays N."""

    slope_cores_per_iops_per_array: float = Field(description="a")
    intercept_cores_per_iops: float = Field(description="b")
    samples: list[ScaleUpCpuSample]
    quality: FitQuality = Field(description="two array counts fit a line exactly: no check then")
    source: str

    def at(self, arrays: int) -> float:
        return self.slope_cores_per_iops_per_array * arrays + self.intercept_cores_per_iops


class ScaleUpProfile(Value):
    """The model's parameters, each with its source."""

    label: str = Field(description="what was profiled, e.g. 'write IOPS, 4KiB random write QD32'")
    chassis_iops: ScaleUpFigure
    first_drop_pct: ScaleUpFigure = Field(
        description="IOPS lost adding the first enclosure to a chain"
    )
    second_drop_pct: ScaleUpFigure
    farther_drop_pct: ScaleUpFigure = Field(
        description="IOPS lost for each enclosure beyond the second"
    )
    arrays_per_unit: ScaleUpFigure = Field(
        description="software-RAID arrays in the chassis and in each enclosure"
    )
    ssds_per_unit: int
    cpu_factor: ScaleUpCpuFactor | None = Field(
        description="None: the profile holds no CPU figures"
    )
    points: list[ScaleUpPoint]
    run_ids: list[int] = Field(description="every run the profile came from")

    def drop_pct(self, position: int) -> float:
        """The IOPS drop for the enclosure ``position`` places down a chain (1: right after its
        head)."""
        if position == 1:
            return self.first_drop_pct.value
        return self.second_drop_pct.value if position == 2 else self.farther_drop_pct.value


def _by_arrays(points: Sequence[ScaleUpPoint]) -> dict[int, tuple[float, list[int]]]:
    """Repeats at one array count as their mean IOPS, with every run id."""
    grouped: dict[int, list[ScaleUpPoint]] = defaultdict(list)
    for point in points:
        grouped[point.arrays].append(point)
    return {
        arrays: (
            float(np.mean([p.iops for p in found])),
            sorted({i for p in found for i in p.run_ids}),
        )
        for arrays, found in sorted(grouped.items())
    }


def chassis_iops(points: Sequence[ScaleUpPoint]) -> ScaleUpFigure:
    """The framework's chassis IOPS: the mean of the highest IOPS over array counts and the IOPS at
    the largest array count (one chain, the same number of enclosures throughout)."""
    by_arrays = _by_arrays(points)
    if not by_arrays:
        raise ValueError("no profiling point of the chassis alone (enclosures=0)")
    best_arrays = max(by_arrays, key=lambda n: by_arrays[n][0])
    largest = max(by_arrays)
    (best, best_ids), (last, last_ids) = by_arrays[best_arrays], by_arrays[largest]
    if best_arrays == largest:
        source = (
            f"{number(best)} IOPS at {largest} arrays{runs_text(best_ids)}, the highest measured"
        )
    else:
        source = (
            f"mean of the highest, {number(best)} IOPS at {best_arrays} "
            f"arrays{runs_text(best_ids)}, "
            f"and {number(last)} IOPS at the most arrays, {largest}{runs_text(last_ids)}"
        )
    return ScaleUpFigure(
        value=(best + last) / 2, source=source, run_ids=sorted({*best_ids, *last_ids})
    )


def _drop(inputs: ScaleUpInputs, position: int, chain: dict[int, ScaleUpFigure]) -> ScaleUpFigure:
    """The drop for one enclosure position: given, else profiled, else the published figure."""
    given = (inputs.first_drop_pct, inputs.second_drop_pct, inputs.farther_drop_pct)[
        min(position, 3) - 1
    ]
    if given is not None:
        return ScaleUpFigure(value=given, source="given")
    if position in chain and position - 1 in chain:
        before, after = chain[position - 1], chain[position]
        measured = 100 * (1 - after.value / before.value)
        ids = sorted({*before.run_ids, *after.run_ids})
        shown = f"{number(before.value)} → {number(after.value)} IOPS{runs_text(ids)}"
        if measured < 0:
            return ScaleUpFigure(
                value=0.0,
                source=f"profiled: IOPS rose {-measured:.1f} % ({shown}), taken as no drop",
                run_ids=ids,
            )
        return ScaleUpFigure(value=measured, source=f"profiled: {shown}", run_ids=ids)
    published = {1: PUBLISHED_FIRST_DROP_PCT, 2: PUBLISHED_SECOND_DROP_PCT}.get(
        position, PUBLISHED_FARTHER_DROP_PCT
    )
    word = (
        "assumed by the framework (real chains may lose more)"
        if position > 2
        else "the framework's published figure"
    )
    return ScaleUpFigure(value=published, source=word)


def fit_cpu_factor(points: Sequence[ScaleUpPoint]) -> ScaleUpCpuFactor | None:
    """CPUFactor_N = a·N + b over the samples with CPU figures; None without two array counts."""
    from scipy import stats  # half a second to import: only when a profile is fitted

    grouped: dict[int, list[ScaleUpPoint]] = defaultdict(list)
    for point in points:
        if point.cpu_cores is not None:
            grouped[point.arrays].append(point)
    if len(grouped) < 2:
        return None
    samples = [
        ScaleUpCpuSample(
            arrays=n,
            cores_per_iops=float(
                np.mean([p.cpu_cores / p.iops for p in found if p.cpu_cores is not None])
            ),
            run_ids=sorted({i for p in found for i in p.run_ids}),
        )
        for n, found in sorted(grouped.items())
    ]
    xs = np.array([float(p.arrays) for found in grouped.values() for p in found])
    ys = np.array(
        [
            p.cpu_cores / p.iops
            for found in grouped.values()
            for p in found
            if p.cpu_cores is not None
        ]
    )
    line = stats.linregress(xs, ys)
    ids = sorted({i for s in samples for i in s.run_ids})
    source = f"a line through {len(xs)} samples at {len(samples)} array counts{runs_text(ids)}"
    return ScaleUpCpuFactor(
        slope_cores_per_iops_per_array=float(line.slope),
        intercept_cores_per_iops=float(line.intercept),
        samples=samples,
        quality=fit_quality(xs, ys, line.intercept + line.slope * xs, 2),
        source=source,
    )


def build_profile(inputs: ScaleUpInputs, label: str = "") -> ScaleUpProfile:
    """The model's parameters from profiling points (checked by :func:`check_inputs` first)."""
    by_enclosures: dict[int, list[ScaleUpPoint]] = defaultdict(list)
    for point in inputs.points:
        by_enclosures[point.enclosures].append(point)
    chain = {k: chassis_iops(found) for k, found in by_enclosures.items()}
    chassis = chain[0]
    largest = max(p.arrays for p in by_enclosures[0])
    arrays = (
        ScaleUpFigure(value=inputs.arrays_per_unit, source="given")
        if inputs.arrays_per_unit is not None
        else ScaleUpFigure(value=largest, source="the most arrays profiled on the chassis")
    )
    return ScaleUpProfile(
        label=label or inputs.label,
        chassis_iops=chassis,
        first_drop_pct=_drop(inputs, 1, chain),
        second_drop_pct=_drop(inputs, 2, chain),
        farther_drop_pct=_drop(inputs, 3, chain),
        arrays_per_unit=arrays,
        ssds_per_unit=inputs.ssds_per_unit,
        cpu_factor=fit_cpu_factor(inputs.points),
        points=list(inputs.points),
        run_ids=sorted({i for p in inputs.points for i in p.run_ids}),
    )


def chain_factor(profile: ScaleUpProfile, units: int) -> float:
    """What a chain of ``units`` (its head and ``units - 1`` enclosures after it) keeps of the
    chassis IOPS."""
    factor = 1.0
    for position in range(1, units):
        factor *= 1 - profile.drop_pct(position) / 100
    return factor
