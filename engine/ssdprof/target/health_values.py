"""The numbers in a drive's answer as the tools write them: counters as exact ints whatever their
spelling (a number, a digit string, nvme-cli 2.11's {"value": N} object), Kelvin to °C, the
critical-warning byte in words. Shared by the nvme-cli and smartctl parsers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ssdprof.model.health import CRITICAL_WARNING_BITS

__all__ = ["DATA_UNIT_BYTES", "counter", "critical_warnings", "kelvin_to_c", "minutes_to_s",
           "number", "units_bytes"]

DATA_UNIT_BYTES = 512_000
"""An NVMe data unit: 1,000 units of 512 bytes (the drive rounds up)."""
KELVIN = 273.15


def counter(value: Any) -> int | None:
    """A counter as an exact int: nvme-cli writes 128-bit ones as numbers or digit strings."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str) and value.strip().replace(",", "").isdigit():
        return int(value.strip().replace(",", ""))
    if isinstance(value, Mapping):  # nvme-cli 2.11: {"value": N, ...}; smartctl: {"value": N, ...}
        return counter(value.get("value"))
    return None


def number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def kelvin_to_c(value: Any) -> float | None:
    kelvin = counter(value)
    return round(kelvin - KELVIN, 2) if kelvin else None


def units_bytes(value: Any, unit_bytes: int) -> int | None:
    """A count of units (NVMe data units, 32 MiB, logical blocks) in bytes."""
    units = counter(value)
    return None if units is None else units * unit_bytes


def minutes_to_s(value: Any) -> int | None:
    """NVMe's times over a temperature threshold are counted in minutes."""
    return units_bytes(value, 60)


def critical_warnings(byte: int | None) -> list[str]:
    """The critical-warning bits that are set, in words."""
    if not byte:
        return []
    return [text for bit, text in enumerate(CRITICAL_WARNING_BITS) if byte >> bit & 1]
