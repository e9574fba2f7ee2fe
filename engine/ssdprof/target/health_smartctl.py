"""DriveHealth fields from ``smartctl --json`` (7.x), NVMe or ATA; its temperatures are °C already.

An ATA drive's byte counts are attributes whose unit smartctl names (its drive database): logical
blocks (``Total_LBAs_Written``, × the logical block size) or 32 MiB (Intel's ``Host_Writes_32MiB``,
``NAND_Writes_32MiB``). Only attributes seen in real drives' output (engine/tests/data/health) are
read; an attribute in any other unit is left alone rather than guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ssdprof.target.health_values import counter, number, nvme_health_log, units_bytes

__all__ = ["ATA_BYTE_ATTRIBUTES", "parse_smartctl"]

MIB_32 = 32 * 1024 * 1024
ATA_BYTE_ATTRIBUTES: dict[str, tuple[str, int | None]] = {
    "Total_LBAs_Written": ("data_written_bytes", None),
    "Total_LBAs_Read": ("data_read_bytes", None),
    "Host_Writes_32MiB": ("data_written_bytes", MIB_32),
    "Host_Reads_32MiB": ("data_read_bytes", MIB_32),
    "NAND_Writes_32MiB": ("nand_written_bytes", MIB_32),
}
"""attribute name -> (DriveHealth field, bytes per unit; None: the drive's logical block size)."""


def parse_smartctl(data: Mapping[str, Any]) -> dict[str, Any]:
    """DriveHealth fields from ``smartctl --json -a`` (or ``-x``), NVMe or ATA."""
    temperature = data.get("temperature", {})
    fields: dict[str, Any] = {
        "protocol": str(data.get("device", {}).get("protocol", "")),
        "model": str(data.get("model_name", "")).strip(),
        "firmware": str(data.get("firmware_version", "")).strip(),
        "serial": str(data.get("serial_number", "")).strip(),
        # an NVMe controller asked without its namespace tells only its total capacity
        "capacity_bytes": (counter(data.get("user_capacity", {}).get("bytes"))
                           or counter(data.get("nvme_total_capacity"))),
        "logical_block_bytes": counter(data.get("logical_block_size")),
        "temperature_c": number(temperature.get("current")),
        "warning_temp_c": number(temperature.get("op_limit_max")),
        "critical_temp_c": number(temperature.get("critical_limit_max")),
        "power_on_hours": counter(data.get("power_on_time", {}).get("hours")),
    }
    log = data.get("nvme_smart_health_information_log")
    if isinstance(log, Mapping):
        fields.update(nvme_health_log(log))
    fields.update(_ata_bytes(data, fields.get("logical_block_bytes") or 512))
    errors = data.get("ata_smart_error_log", {}).get("summary", {}).get("count")
    if errors is not None:
        fields["error_log_entries"] = counter(errors)
    return {key: value for key, value in fields.items() if value not in (None, "")}


def _ata_bytes(data: Mapping[str, Any], block_bytes: int) -> dict[str, Any]:
    """Bytes read, written and written to flash from the ATA attributes that count them; the first
    attribute for a field wins (Intel reports host writes as both 225 and 241)."""
    fields: dict[str, Any] = {}
    for attribute in data.get("ata_smart_attributes", {}).get("table", []):
        name = str(attribute.get("name", ""))
        if name not in ATA_BYTE_ATTRIBUTES or ATA_BYTE_ATTRIBUTES[name][0] in fields:
            continue
        field, unit = ATA_BYTE_ATTRIBUTES[name]
        value = units_bytes(attribute.get("raw", {}).get("value"), unit or block_bytes)
        if value is not None:
            fields[field] = value
            if field == "nand_written_bytes":
                fields["nand_source"] = f"ATA attribute {attribute.get('id')} {name}"
    return fields
