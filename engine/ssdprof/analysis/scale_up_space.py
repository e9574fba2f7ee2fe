"""The design space of a scale-up array: every way to attach the chassis and its enclosures to SAS
controllers for a target SSD count, each predicted by :mod:`scale_up`, the ones within the user's
limits marked, and the best for QoS-uniformity and for QoS-priority.

What counts as a distinct architecture: each SAS controller takes one PCIe slot and drives one daisy
chain; a chain is a head (the chassis backplane, or an enclosure cabled straight to the controller)
followed by enclosures. The model predicts a chain from its length alone (its head serves as the
profiled chassis did, each later enclosure lowers its IOPS by the drop for its place), and the
controllers are alike, so an architecture is a *multiset of chain lengths* summing to the unit count
(chassis + enclosures): a partition of that count. Which chain the chassis heads is cabling the
model cannot tell apart; by convention it heads the longest. Ten units (240 SSDs in 24-bay shelves)
have 42.

QoS-uniformity: the chains as even as the units allow (lengths differ by at most one), so every
array gets (nearly) the same IOPS; the best is the one with the most total IOPS within the limits.
QoS-priority: uneven chains, where the arrays on short chains get more IOPS; the best is again the
one with the most total IOPS within the limits.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import Field

from ssdprof.analysis.scale_up import ScaleUpProfile, build_profile, chain_factor
from ssdprof.analysis.scale_up_inputs import (
    CPU_ERROR_BAND_PCT,
    IOPS_ERROR_BAND_PCT,
    ScaleUpInputs,
    check_inputs,
    runs_text,
)
from ssdprof.analysis.scale_up_limits import (
    ScaleUpErrorBand,
    ScaleUpLimits,
    broken_limits,
    iops_text,
    none_fit,
    slots_text,
)
from ssdprof.model.quantities import format_number as number
from ssdprof.model.value import Value

__all__ = [
    "ScaleUpArchitecture",
    "ScaleUpChain",
    "ScaleUpResult",
    "design_space",
    "partitions",
    "predict_architecture",
]


def partitions(total: int, largest: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every multiset of positive whole numbers summing to ``total``, each in non-increasing
    order."""
    largest = total if largest is None else largest
    if total == 0:
        yield ()
        return
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, first):
            yield (first, *rest)


class ScaleUpChain(Value):
    units: int = Field(description="the head (chassis or enclosure) and the enclosures after it")
    has_chassis: bool
    arrays: int
    iops: float
    iops_per_array: float


class ScaleUpArchitecture(Value):
    key: str = Field(description="chain lengths, longest first: '4-3-3'")
    label: str = Field(description="'chassis + 3 enclosures | 3 enclosures | 3 enclosures'")
    pcie_slots: int = Field(description="SAS controllers, one PCIe slot each")
    chains: list[ScaleUpChain]
    arrays: int
    iops: float = Field(description="predicted total IOPS")
    iops_low: float = Field(description="less the published IOPS error band's upper end")
    iops_high: float
    iops_per_array_min: float
    iops_per_array_max: float
    cpu_cores: float | None = Field(description="None: the profile holds no CPU figures")
    cpu_cores_low: float | None
    cpu_cores_high: float | None
    even: bool = Field(description="chain lengths differ by at most one: QoS-uniformity")
    within_limits: bool
    broken: list[str] = Field(description="each limit missed, in words")
    basis: str = Field(description="the profiling figures this prediction came from")


class ScaleUpResult(Value):
    label: str
    target_ssds: int
    units: int = Field(description="the chassis and the enclosures")
    enclosures: int
    sized: str = Field(description="what is sized, as every face heads its answer: '48 SSDs in a chassis and 1 enclosure'")
    profile: ScaleUpProfile
    limits: ScaleUpLimits
    error_band: ScaleUpErrorBand
    count: int = Field(description="distinct architectures: the partitions of the unit count")
    architectures: list[ScaleUpArchitecture] = Field(
        description="those within the limits first, most total IOPS first in each")
    daisy_chain: ScaleUpArchitecture = Field(
        description="every enclosure in one chain behind the chassis"
    )
    best: ScaleUpArchitecture | None = Field(description="the most total IOPS within the limits")
    best_uniform: ScaleUpArchitecture | None = Field(
        description="QoS-uniformity: even chains, most IOPS, within limits"
    )
    best_priority: ScaleUpArchitecture | None = Field(
        description="QoS-priority: uneven chains, most IOPS, within limits"
    )
    none_fit: str = Field(description="why no architecture meets the limits; empty when some do")
    summary: list[str] = Field(
        description="the daisy chain and each pick in a sentence, as every face says them"
    )
    notes: list[str]


def _enclosures(n: int) -> str:
    return f"{n} enclosure" + ("" if n == 1 else "s")


def _label(chains: tuple[int, ...]) -> str:
    head = "chassis" + (f" + {_enclosures(chains[0] - 1)}" if chains[0] > 1 else "")
    return " | ".join([head, *(_enclosures(n) for n in chains[1:])])


def _drops_text(drops: list[float]) -> str:
    """'(1 − 10 %) × (1 − 20 %)^6': a chain's drops, repeats as a power."""
    runs: list[tuple[float, int]] = []
    for drop in drops:
        if runs and runs[-1][0] == drop:
            runs[-1] = (drop, runs[-1][1] + 1)
        else:
            runs.append((drop, 1))
    return " × ".join(f"(1 − {d:g} %)" + (f"^{k}" if k > 1 else "") for d, k in runs)


def _basis(profile: ScaleUpProfile, chains: tuple[int, ...], arrays: int) -> str:
    drops = {n: _drops_text([profile.drop_pct(p) for p in range(1, n)]) for n in set(chains)}
    parts = [
        f"a chain of {n}: {number(profile.chassis_iops.value)}"
        + (f" × {drops[n]}" if drops[n] else "")
        for n in sorted(set(chains), reverse=True)
    ]
    text = (
        f"chassis IOPS {number(profile.chassis_iops.value)} ({profile.chassis_iops.source}); "
        + "; ".join(parts)
    )
    if profile.cpu_factor is not None:
        text += f"; CPU factor at {arrays} arrays from {profile.cpu_factor.source}"
    return text


def predict_architecture(
    profile: ScaleUpProfile, chains: tuple[int, ...], limits: ScaleUpLimits
) -> ScaleUpArchitecture:
    """One architecture's IOPS per chain and in total, its CPU, and the limits it misses."""
    per_unit = int(profile.arrays_per_unit.value)
    built = []
    for index, units in enumerate(chains):
        iops = profile.chassis_iops.value * chain_factor(profile, units)
        built.append(
            ScaleUpChain(
                units=units,
                has_chassis=index == 0,
                arrays=units * per_unit,
                iops=iops,
                iops_per_array=iops / (units * per_unit),
            )
        )
    arrays = sum(c.arrays for c in built)
    total = sum(c.iops for c in built)
    cpu = None if profile.cpu_factor is None else total * profile.cpu_factor.at(arrays)
    band_iops, band_cpu = IOPS_ERROR_BAND_PCT[1] / 100, CPU_ERROR_BAND_PCT[1] / 100
    per_array = [c.iops_per_array for c in built]
    broken = broken_limits(limits, len(chains), cpu, built)
    return ScaleUpArchitecture(
        key="-".join(map(str, chains)),
        label=_label(chains),
        pcie_slots=len(chains),
        chains=built,
        arrays=arrays,
        iops=total,
        iops_low=total * (1 - band_iops),
        iops_high=total * (1 + band_iops),
        iops_per_array_min=min(per_array),
        iops_per_array_max=max(per_array),
        cpu_cores=cpu,
        cpu_cores_low=None if cpu is None else cpu * (1 - band_cpu),
        cpu_cores_high=None if cpu is None else cpu * (1 + band_cpu),
        even=max(chains) - min(chains) <= 1,
        within_limits=not broken,
        broken=broken,
        basis=_basis(profile, chains, arrays),
    )


def _best(found: list[ScaleUpArchitecture]) -> ScaleUpArchitecture | None:
    """The most total IOPS; between equals, fewer PCIe slots, then less CPU."""
    ranked = sorted(found, key=lambda a: (-round(a.iops, 6), a.pcie_slots, a.cpu_cores or 0.0))
    return ranked[0] if ranked else None


def design_space(inputs: ScaleUpInputs, label: str = "") -> ScaleUpResult:
    """Every architecture for ``inputs.target_ssds``, predicted and judged against the limits."""
    check_inputs(inputs)
    profile = build_profile(inputs, label)
    limits = ScaleUpLimits(
        max_cpu_cores=inputs.max_cpu_cores,
        max_pcie_slots=inputs.max_pcie_slots,
        min_array_iops=inputs.min_array_iops,
    )
    units = inputs.target_ssds // inputs.ssds_per_unit
    found = [predict_architecture(profile, chains, limits) for chains in partitions(units)]
    within = [a for a in found if a.within_limits]
    ranked = sorted(found, key=lambda a: (not a.within_limits, -round(a.iops, 6), a.pcie_slots))
    chain = next(a for a in found if a.pcie_slots == 1)
    uniform, priority = (
        _best([a for a in within if a.even]),
        _best([a for a in within if not a.even]),
    )
    return ScaleUpResult(
        label=profile.label,
        target_ssds=inputs.target_ssds,
        units=units,
        enclosures=units - 1,
        sized=f"{inputs.target_ssds} SSDs in a chassis" + (f" and {_enclosures(units - 1)}" if units > 1 else ""),
        profile=profile,
        limits=limits,
        error_band=ScaleUpErrorBand(),
        count=len(found),
        architectures=ranked,
        daisy_chain=chain,
        best=_best(within),
        best_uniform=uniform,
        best_priority=priority,
        none_fit=none_fit(found, limits) if not within else "",
        summary=_summary(chain, uniform, priority),
        notes=_notes(profile, units),
    )


def _cpu_text(a: ScaleUpArchitecture) -> str:
    return "" if a.cpu_cores is None else f", {a.cpu_cores:.1f} CPU cores"


def _per_array(a: ScaleUpArchitecture) -> str:
    low, high = iops_text(a.iops_per_array_min), iops_text(a.iops_per_array_max)
    return f"{low} IOPS per array" if low == high else f"{low}–{high} IOPS per array"


def _summary(
    chain: ScaleUpArchitecture,
    uniform: ScaleUpArchitecture | None,
    priority: ScaleUpArchitecture | None,
) -> list[str]:
    lines = [
        f"Daisy chain ({chain.label}, 1 PCIe slot): {number(chain.iops)} IOPS, {_per_array(chain)}"
        f"{_cpu_text(chain)}."
    ]
    for name, pick in (("QoS-uniformity", uniform), ("QoS-priority", priority)):
        if pick is None:
            lines.append(f"{name}: no architecture of this kind meets the limits.")
            continue
        lines.append(
            f"{name}: {pick.label} ({slots_text(pick.pcie_slots)}): {number(pick.iops)} IOPS, "
            f"{pick.iops / chain.iops:.1f}× the daisy chain; {_per_array(pick)}{_cpu_text(pick)}."
        )
    return lines


def _notes(profile: ScaleUpProfile, units: int) -> list[str]:
    notes = []
    if profile.cpu_factor is None:
        notes.append("no CPU predicted: the profile has CPU figures at fewer than two array counts")
    elif profile.cpu_factor.quality.check == "none":
        notes.append(
            f"the CPU factor is a line through two array counts: {profile.cpu_factor.quality.note}"
        )
    if units > 3 and profile.farther_drop_pct.source.startswith("assumed"):
        notes.append(
            f"chains longer than three units use the framework's assumed "
            f"{profile.farther_drop_pct.value:g} % per farther enclosure; real chains may lose more"
        )
    if not profile.run_ids:
        notes.append("every profiling figure was typed in")
    else:
        notes.append(f"profiled{runs_text(profile.run_ids, ' from ')}")
    return notes
