"""The numbers in a drive's answer as the tools write them: counters as exact ints whatever their
spelling (a number, a digit string, nvme-cli 2.11's {"value": N} object), Kelvin to °C, the
critical-warning byte in words. Shared by the nvme-cli and smartctl parsers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ssdprof.model.health import CRITICAL_WARNING_BITS

__all__ = ["DATA_UNIT_BYTES", "counter", "critical_warnings", "kelvin_to_c", "minutes_to_s",
           "number", "nvme_health_log", "units_bytes"]

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


def _data_units(value: Any) -> int | None:
    return units_bytes(value, DATA_UNIT_BYTES)


_NVME_LOG: tuple[tuple[str, str, Callable[[Any], int | None]], ...] = (
    ("percentage_used", "percentage_used", counter),
    ("available_spare_pct", "available_spare", counter),
    ("available_spare_threshold_pct", "available_spare_threshold", counter),
    ("data_read_bytes", "data_units_read", _data_units),
    ("data_written_bytes", "data_units_written", _data_units),
    ("host_read_commands", "host_reads", counter),
    ("host_write_commands", "host_writes", counter),
    ("media_errors", "media_errors", counter),
    ("error_log_entries", "num_err_log_entries", counter),
    ("critical_warning", "critical_warning", counter),
    ("warning_temp_time_s", "warning_temp_time", minutes_to_s),
    ("critical_temp_time_s", "critical_comp_time", minutes_to_s),
)
"""The NVMe SMART / Health Information log page: DriveHealth's field, the page's field as smartctl
names it, and its conversion."""


def nvme_health_log(log: Mapping[str, Any], names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """DriveHealth's fields from an NVMe SMART / Health Information log page, whichever tool read it:
    its fields as smartctl names them, or as ``names`` maps those onto another tool's (nvme-cli's)."""
    fields: dict[str, Any] = {field: convert(log.get((names or {}).get(key, key))) for field, key, convert in _NVME_LOG}
    return {**fields, "critical_warnings": critical_warnings(fields["critical_warning"])}
