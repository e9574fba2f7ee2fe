"""Reads what a drive says about itself: nvme-cli's and smartctl's JSON, and sysfs hwmon.

Every unit is converted here, once (see :mod:`ssdprof.model.health`): nvme-cli's temperatures are
Kelvin, smartctl's °C, hwmon's millidegrees; an NVMe data unit is 1,000 × 512 bytes. A tool that
is missing, refuses or finds no SMART leaves a line in ``missing`` saying how to get it, never an
exception: a run goes on without the drive's word.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ssdprof.model.health import CRITICAL_WARNING_BITS, DriveHealth

__all__ = [
    "DATA_UNIT_BYTES",
    "Command",
    "critical_warnings",
    "parse_nvme_id_ctrl",
    "parse_nvme_id_ns",
    "parse_nvme_smart_log",
    "parse_smartctl",
    "read_hwmon_c",
    "run_command",
    "snapshot",
]

DATA_UNIT_BYTES = 512_000
"""An NVMe data unit: 1,000 units of 512 bytes (the drive rounds up)."""
KELVIN = 273.15
TOOL_TIMEOUT_S = 20.0

Command = Callable[[list[str]], "tuple[int, str, str] | None"]
"""Runs argv and returns (exit status, stdout, stderr), or None when the program is missing."""


def run_command(argv: list[str]) -> tuple[int, str, str] | None:
    """This machine's runner; tools in /usr/sbin are found even off a user's PATH."""
    path = shutil.which(argv[0]) or shutil.which(argv[0], path="/usr/sbin:/sbin")
    if path is None:
        return None
    try:
        done = subprocess.run([path, *argv[1:]], capture_output=True, text=True,
                              timeout=TOOL_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, "", str(exc)
    return done.returncode, done.stdout, done.stderr


def _int(value: Any) -> int | None:
    """A counter as an exact int: nvme-cli writes 128-bit ones as numbers or digit strings."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str) and value.strip().replace(",", "").isdigit():
        return int(value.strip().replace(",", ""))
    if isinstance(value, Mapping):  # newer nvme-cli: {"value": N, ...}; smartctl: {"raw": {"value": N}}
        return _int(value.get("value"))
    return None


def _kelvin_to_c(value: Any) -> float | None:
    kelvin = _int(value)
    return round(kelvin - KELVIN, 2) if kelvin else None


def critical_warnings(byte: int | None) -> list[str]:
    """The critical-warning bits that are set, in words."""
    if not byte:
        return []
    return [text for bit, text in enumerate(CRITICAL_WARNING_BITS) if byte >> bit & 1]


def parse_nvme_smart_log(data: Mapping[str, Any]) -> dict[str, Any]:
    """DriveHealth fields from ``nvme smart-log -o json`` (nvme-cli 1.x and 2.x)."""
    warning = _int(data.get("critical_warning"))
    units_read, units_written = _int(data.get("data_units_read")), _int(data.get("data_units_written"))
    warning_min, critical_min = _int(data.get("warning_temp_time")), _int(data.get("critical_comp_time"))
    levels = [_int(data.get(f"thm_temp{k}_trans_count")) for k in (1, 2)]
    times = [_int(data.get(f"thm_temp{k}_total_time")) for k in (1, 2)]
    return {
        "temperature_c": _kelvin_to_c(data.get("temperature")),
        "percentage_used": _int(data.get("percent_used", data.get("percentage_used"))),
        "available_spare_pct": _int(data.get("avail_spare")),
        "available_spare_threshold_pct": _int(data.get("spare_thresh")),
        "data_read_bytes": None if units_read is None else units_read * DATA_UNIT_BYTES,
        "data_written_bytes": None if units_written is None else units_written * DATA_UNIT_BYTES,
        "host_read_commands": _int(data.get("host_read_commands")),
        "host_write_commands": _int(data.get("host_write_commands")),
        "media_errors": _int(data.get("media_errors")),
        "error_log_entries": _int(data.get("num_err_log_entries")),
        "critical_warning": warning,
        "critical_warnings": critical_warnings(warning),
        "thermal_transitions": [v for v in levels if v is not None],
        "thermal_time_s": [v for v in times if v is not None],
        "warning_temp_time_s": None if warning_min is None else warning_min * 60,
        "critical_temp_time_s": None if critical_min is None else critical_min * 60,
        "power_on_hours": _int(data.get("power_on_hours")),
    }


def parse_nvme_id_ctrl(data: Mapping[str, Any]) -> dict[str, Any]:
    """Identity and temperature thresholds from ``nvme id-ctrl -o json`` (thresholds in Kelvin)."""
    capacity = _int(data.get("tnvmcap"))
    return {
        "model": str(data.get("mn", "")).strip(),
        "firmware": str(data.get("fr", "")).strip(),
        "serial": str(data.get("sn", "")).strip(),
        "warning_temp_c": _kelvin_to_c(data.get("wctemp")),
        "critical_temp_c": _kelvin_to_c(data.get("cctemp")),
        **({"capacity_bytes": capacity} if capacity else {}),
    }


def parse_smartctl(data: Mapping[str, Any]) -> dict[str, Any]:
    """DriveHealth fields from ``smartctl --json -a`` (7.x), NVMe or ATA; temperatures in °C."""
    fields: dict[str, Any] = {
        "protocol": str(data.get("device", {}).get("protocol", "")),
        "model": str(data.get("model_name", "")).strip(),
        "firmware": str(data.get("firmware_version", "")).strip(),
        "serial": str(data.get("serial_number", "")).strip(),
        "capacity_bytes": _int(data.get("user_capacity", {}).get("bytes")),
        "logical_block_bytes": _int(data.get("logical_block_size")),
        "temperature_c": _float(data.get("temperature", {}).get("current")),
        "power_on_hours": _int(data.get("power_on_time", {}).get("hours")),
    }
    log = data.get("nvme_smart_health_information_log")
    if isinstance(log, Mapping):
        fields.update(_smartctl_nvme_log(log))
        fields["warning_temp_c"] = _float(data.get("temperature", {}).get("op_limit_max"))
        fields["critical_temp_c"] = _float(data.get("temperature", {}).get("critical_limit_max"))
    errors = data.get("ata_smart_error_log", {}).get("summary", {}).get("count")
    if errors is not None:
        fields["error_log_entries"] = _int(errors)
    return {key: value for key, value in fields.items() if value not in (None, "")}


def _smartctl_nvme_log(log: Mapping[str, Any]) -> dict[str, Any]:
    units_read, units_written = _int(log.get("data_units_read")), _int(log.get("data_units_written"))
    warning = _int(log.get("critical_warning"))
    return {
        "percentage_used": _int(log.get("percentage_used")),
        "available_spare_pct": _int(log.get("available_spare")),
        "available_spare_threshold_pct": _int(log.get("available_spare_threshold")),
        "data_read_bytes": None if units_read is None else units_read * DATA_UNIT_BYTES,
        "data_written_bytes": None if units_written is None else units_written * DATA_UNIT_BYTES,
        "host_read_commands": _int(log.get("host_reads")),
        "host_write_commands": _int(log.get("host_writes")),
        "media_errors": _int(log.get("media_errors")),
        "error_log_entries": _int(log.get("num_err_log_entries")),
        "critical_warning": warning,
        "critical_warnings": critical_warnings(warning),
        "warning_temp_time_s": _minutes(log.get("warning_temp_time")),
        "critical_temp_time_s": _minutes(log.get("critical_comp_time")),
    }


def _minutes(value: Any) -> int | None:
    minutes = _int(value)
    return None if minutes is None else minutes * 60


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def read_hwmon_c(device: str, sys_root: Path = Path("/sys")) -> float | None:
    """The drive's temperature from hwmon (nvme, or drivetemp for SATA), °C; None where absent."""
    name = Path(device).name
    block = sys_root / "block" / name / "device"
    for sensor in sorted([*block.glob("hwmon*/temp1_input"), *block.glob("hwmon/hwmon*/temp1_input")]):
        try:
            return int(sensor.read_text().strip()) / 1000.0
        except (OSError, ValueError):
            continue
    return None


def _json(answer: tuple[int, str, str] | None) -> dict[str, Any] | None:
    if answer is None or not answer[1].strip():
        return None
    try:
        data = json.loads(answer[1])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def parse_nvme_id_ns(data: Mapping[str, Any]) -> dict[str, Any]:
    """Capacity and the LBA format in use from ``nvme id-ns -o json`` (ds: log2 of block bytes)."""
    formats = data.get("lbafs") or []
    index = (_int(data.get("flbas")) or 0) & 0xF
    shift = _int(formats[index].get("ds")) if index < len(formats) else None
    blocks = _int(data.get("nsze"))
    if not shift:
        return {}
    return {"logical_block_bytes": 1 << shift,
            **({"capacity_bytes": blocks << shift} if blocks else {})}


def _refusal(tool: str, device: str, answer: tuple[int, str, str] | None) -> str:
    """Why a tool told nothing, and how to get its word."""
    if answer is None:
        package = "nvme-cli" if tool == "nvme" else "smartmontools"
        return f"{tool} is not installed: install {package} (e.g. apt install {package})"
    text = " ".join([answer[2], *_messages(_json(answer))]).strip()
    lowered = text.lower()
    if "permission denied" in lowered or ("operation not permitted" in lowered and tool == "smartctl"):
        return f"{tool} may not ask {device} as this user: run ssdprof as root (sudo) to record it"
    if "usb bridge" in lowered:
        return (f"{device} is behind a USB bridge {tool} does not know: try smartctl -d sat {device}; "
                "some bridges pass no SMART at all")
    if "unable to detect device type" in lowered or "not an nvme" in lowered or tool == "nvme":
        return (f"{device} reports no SMART to {tool} ({_first_line(text)}): a virtual disk has "
                "none; the run's own numbers stand")
    return f"{tool} told nothing of {device}: {_first_line(text) or f'exit status {answer[0]}'}"


def _messages(data: dict[str, Any] | None) -> list[str]:
    messages = (data or {}).get("smartctl", {}).get("messages", [])
    return [str(m.get("string", "")) for m in messages if isinstance(m, Mapping)]


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")[:160]


def _gather(device: str, run: Command, identity: bool) -> tuple[dict[str, Any], list[str], list[str]]:
    """Fields, the tools that answered and what is missing: nvme-cli first on an NVMe device
    (it has the thermal-management counters), smartctl where nvme-cli told nothing."""
    fields: dict[str, Any] = {}
    sources: list[str] = []
    missing: list[str] = []
    if Path(device).name.startswith("nvme"):
        log = run(["nvme", "smart-log", device, "-o", "json"])
        if (data := _json(log)) is not None and log is not None and log[0] == 0:
            fields.update(parse_nvme_smart_log(data), protocol="NVMe")
            sources.append("nvme-cli")
            for verb, parse in (("id-ctrl", parse_nvme_id_ctrl), ("id-ns", parse_nvme_id_ns)):
                if identity and (found := _json(run(["nvme", verb, device, "-o", "json"]))):
                    fields.update(parse(found))
            return fields, sources, missing
        missing.append(_refusal("nvme", device, log))
    answer = run(["smartctl", "--json", "-a", device])
    data = _json(answer)
    # smartctl's exit status is a bit mask: bits 0-1 mean it could not open or ask the device
    if data is not None and answer is not None and answer[0] & 0b11 == 0:
        fields.update(parse_smartctl(data))
        sources.append("smartctl")
        missing.clear()  # smartctl answered what nvme-cli did not
    else:
        missing.append(_refusal("smartctl", device, answer))
    return fields, sources, missing


def snapshot(device: str, *, run: Command = run_command, identity: bool = True,
             sys_root: Path | None = Path("/sys"),
             hwmon: Callable[[], float | None] | None = None) -> DriveHealth:
    """One reading of ``device`` (e.g. /dev/nvme0n1): nvme-cli for NVMe, else smartctl; hwmon's
    temperature where there is one. ``identity``: ask id-ctrl and id-ns too (once per run is
    enough); ``hwmon``: how to read its temperature elsewhere (a host's, over SSH), else
    ``sys_root``'s (None: no hwmon)."""
    fields, sources, missing = _gather(device, run, identity)
    sensor = hwmon() if hwmon is not None else (
        read_hwmon_c(device, sys_root) if sys_root is not None else None)
    if sensor is not None:
        fields["temperature_c"], fields["temperature_source"] = sensor, "hwmon"
        sources.append("hwmon")
    elif fields.get("temperature_c") is not None and sources:
        fields["temperature_source"] = sources[0]
    taken_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return DriveHealth.model_validate({"device": device, "taken_at": taken_at, "sources": sources,
                                       "missing": missing, **fields})
