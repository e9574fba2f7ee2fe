"""The user's limits on a scale-up architecture (CPU cores, PCIe slots, per-array QoS), each missed
limit said in words, and, when every architecture misses one, why, plainly; the published error
band.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pydantic import Field

from ssdprof.analysis.scale_up_inputs import CPU_ERROR_BAND_PCT, IOPS_ERROR_BAND_PCT
from ssdprof.model.quantities import format_number as number
from ssdprof.model.value import Value

__all__ = [
    "ScaleUpErrorBand",
    "ScaleUpLimits",
    "broken_limits",
    "iops_text",
    "none_fit",
    "slots_text",
]


def slots_text(slots: int) -> str:
    """'1 PCIe slot', '3 PCIe slots'."""
    return f"{slots} PCIe slot" if slots == 1 else f"{slots} PCIe slots"


def iops_text(iops: float) -> str:
    """Predicted IOPS in whole I/Os ('641', '21,750'): a model good to about 13 % has no decimals
    to tell."""
    return f"{iops:,.0f}"


class ScaleUpLimits(Value):
    max_cpu_cores: float | None = None
    max_pcie_slots: int | None = None
    min_array_iops: float | None = None


class ScaleUpErrorBand(Value):
    """How far the framework's predictions were from a real system: what to expect of these."""

    iops_pct_low: float = IOPS_ERROR_BAND_PCT[0]
    iops_pct_high: float = IOPS_ERROR_BAND_PCT[1]
    cpu_pct_low: float = CPU_ERROR_BAND_PCT[0]
    cpu_pct_high: float = CPU_ERROR_BAND_PCT[1]
    text: str = Field(
        default=(
            f"the framework's predictions were "
            f"{IOPS_ERROR_BAND_PCT[0]:g}–{IOPS_ERROR_BAND_PCT[1]:g} % (IOPS) and "
            f"{CPU_ERROR_BAND_PCT[0]:g}–{CPU_ERROR_BAND_PCT[1]:g} % (CPU) from a real 72-SSD "
            "system; larger "
            "arrays are further from what was checked"
        )
    )


class _Chain(Protocol):
    @property
    def units(self) -> int: ...
    @property
    def arrays(self) -> int: ...
    @property
    def iops_per_array(self) -> float: ...


class _Architecture(Protocol):
    @property
    def pcie_slots(self) -> int: ...
    @property
    def cpu_cores(self) -> float | None: ...
    @property
    def iops_per_array_min(self) -> float: ...


def broken_limits(
    limits: ScaleUpLimits, slots: int, cpu_cores: float | None, chains: Sequence[_Chain]
) -> list[str]:
    """Each limit the architecture misses, in words."""
    broken = []
    if limits.max_pcie_slots is not None and slots > limits.max_pcie_slots:
        broken.append(f"needs {slots_text(slots)}, {limits.max_pcie_slots} available")
    if (
        limits.max_cpu_cores is not None
        and cpu_cores is not None
        and cpu_cores > limits.max_cpu_cores
    ):
        broken.append(f"needs {cpu_cores:.1f} CPU cores, {limits.max_cpu_cores:g} available")
    if limits.min_array_iops is not None:
        short = [c for c in chains if c.iops_per_array < limits.min_array_iops]
        if short:
            worst = min(short, key=lambda c: c.iops_per_array)
            arrays = sum(c.arrays for c in short)
            broken.append(
                f"{arrays} arrays get less than the {number(limits.min_array_iops)} IOPS each "
                "needs "
                f"(down to {iops_text(worst.iops_per_array)} in a chain of {worst.units})"
            )
    return broken


def none_fit(found: Sequence[_Architecture], limits: ScaleUpLimits) -> str:
    """Why no architecture meets every limit: what each limit alone rules out."""
    reasons = []
    if limits.max_pcie_slots is not None:
        fewest = min(a.pcie_slots for a in found)
        if fewest > limits.max_pcie_slots:
            reasons.append(
                f"every architecture needs at least {slots_text(fewest)}, "
                f"{limits.max_pcie_slots} available"
            )
    cpus = [a.cpu_cores for a in found if a.cpu_cores is not None]
    if limits.max_cpu_cores is not None and cpus and min(cpus) > limits.max_cpu_cores:
        reasons.append(
            f"the least CPU any architecture needs is {min(cpus):.1f} cores, "
            f"{limits.max_cpu_cores:g} available"
        )
    if limits.min_array_iops is not None:
        most = max(a.iops_per_array_min for a in found)
        if most < limits.min_array_iops:
            reasons.append(
                f"no architecture gives every array {number(limits.min_array_iops)} IOPS: the "
                "most its "
                f"slowest array gets is {iops_text(most)}"
            )
    if not reasons:
        reasons.append("each architecture that meets one limit misses another")
    return (
        f"No architecture of the {len(found)} meets every limit: "
        + "; ".join(reasons)
        + ". Relax a limit, or size the array for fewer SSDs."
    )
