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

from ssdprof.model.health import DriveHealth
from ssdprof.target.health_smartctl import parse_smartctl
from ssdprof.target.health_values import (
    DATA_UNIT_BYTES,
    counter,
    critical_warnings,
    kelvin_to_c,
    nvme_health_log,
)

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


def parse_nvme_smart_log(data: Mapping[str, Any]) -> dict[str, Any]:
    """DriveHealth fields from ``nvme smart-log -o json`` (nvme-cli 1.x and 2.x: 2.11 writes the
    critical-warning byte as an object with its bits, read through its "value")."""
    levels = [counter(data.get(f"thm_temp{k}_trans_count")) for k in (1, 2)]
    times = [counter(data.get(f"thm_temp{k}_total_time")) for k in (1, 2)]
    used = "percent_used" if "percent_used" in data else "percentage_used"
    return {
        "temperature_c": kelvin_to_c(data.get("temperature")),
        **nvme_health_log(data, {**_NVME_CLI_NAMES, "percentage_used": used}),
        "thermal_transitions": [v for v in levels if v is not None],
        "thermal_time_s": [v for v in times if v is not None],
        "power_on_hours": counter(data.get("power_on_hours")),
    }


_NVME_CLI_NAMES = {"available_spare": "avail_spare", "available_spare_threshold": "spare_thresh",
                   "host_reads": "host_read_commands", "host_writes": "host_write_commands"}
"""nvme-cli's names for the log page's fields where smartctl's differ."""


def parse_nvme_id_ctrl(data: Mapping[str, Any]) -> dict[str, Any]:
    """Identity and temperature thresholds from ``nvme id-ctrl -o json`` (thresholds in Kelvin)."""
    capacity = counter(data.get("tnvmcap"))
    return {
        "model": str(data.get("mn", "")).strip(),
        "firmware": str(data.get("fr", "")).strip(),
        "serial": str(data.get("sn", "")).strip(),
        "warning_temp_c": kelvin_to_c(data.get("wctemp")),
        "critical_temp_c": kelvin_to_c(data.get("cctemp")),
        **({"capacity_bytes": capacity} if capacity else {}),
    }


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
    index = (counter(data.get("flbas")) or 0) & 0xF
    shift = counter(formats[index].get("ds")) if index < len(formats) else None
    blocks = counter(data.get("nsze"))
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
