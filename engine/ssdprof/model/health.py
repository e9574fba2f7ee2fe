"""The drive's own word: what a drive reports about itself (identity, wear, temperature, errors,
throttling), read before and after a run (see :mod:`ssdprof.target.health`).

Units are converted once, where the tool's output is parsed: temperatures in °C (nvme-cli reports
Kelvin, hwmon millidegrees), byte counts in bytes (an NVMe data unit is 512,000 bytes), times in
seconds. Counters are Python ints, exact however wide (NVMe SMART counters are 128-bit); the JSON
sent to the renderer carries them as numbers, which JavaScript reads exactly up to 2**53 (9 PB,
9e15 commands) and to about 16 digits past that: enough to show, and every delta is computed here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, computed_field

from ssdprof.model.health_words import health_rows, health_title
from ssdprof.model.value import Value

__all__ = [
    "CRITICAL_WARNING_BITS",
    "DriveHealth",
    "HealthDelta",
    "HealthRecord",
    "HealthRow",
    "HealthSource",
    "TemperatureSample",
]

HealthSource = Literal["nvme-cli", "smartctl", "hwmon"]

CRITICAL_WARNING_BITS = (
    "available spare below its threshold",
    "a temperature at or over its threshold",
    "reliability degraded by media or internal errors",
    "media placed in read-only mode",
    "volatile memory backup failed",
    "persistent memory region read-only or unreliable",
)
"""NVMe SMART log critical-warning bits 0-5, in the specification's order."""


class DriveHealth(Value):
    """One snapshot of a drive's own report; a field is None where no tool told it."""

    device: str = Field(description="the disk asked, e.g. /dev/nvme0n1 or /dev/sda")
    taken_at: str = Field(default="", description="when, ISO 8601 UTC")
    sources: list[HealthSource] = Field(default_factory=list, description="the tools that answered")
    protocol: str = Field(default="", description="NVMe or ATA, as the tool told; '' when none did")
    model: str = ""
    firmware: str = ""
    serial: str = ""
    capacity_bytes: int | None = None
    logical_block_bytes: int | None = Field(default=None, description="the LBA format in use: bytes per block")
    temperature_c: float | None = Field(default=None, description="the composite temperature")
    temperature_source: HealthSource | None = None
    warning_temp_c: float | None = Field(default=None, description="warning composite temperature threshold")
    critical_temp_c: float | None = Field(default=None, description="critical composite temperature threshold")
    percentage_used: int | None = Field(default=None, description="the drive's estimate of its life used, %")
    available_spare_pct: int | None = None
    available_spare_threshold_pct: int | None = None
    data_read_bytes: int | None = Field(default=None, description="NVMe data units read × 512,000")
    data_written_bytes: int | None = Field(
        default=None, description="host writes by the drive's count: NVMe data units × 512,000, "
        "or an ATA attribute (Total_LBAs_Written × the block size, Host_Writes_32MiB × 32 MiB)")
    nand_written_bytes: int | None = Field(
        default=None, description="what the drive wrote to its flash (host writes plus its own), "
        "where it counts them (ATA NAND_Writes_32MiB); null where it exposes no such counter")
    nand_source: str = Field(default="", description="the counter nand_written_bytes came from")
    host_read_commands: int | None = None
    host_write_commands: int | None = None
    media_errors: int | None = None
    error_log_entries: int | None = None
    critical_warning: int | None = Field(default=None, description="the NVMe critical-warning byte")
    critical_warnings: list[str] = Field(default_factory=list, description="its bits that are set, in words")
    thermal_transitions: list[int] = Field(
        default_factory=list, description="thermal-management transitions per level (1: light, 2: heavy)")
    thermal_time_s: list[int] = Field(
        default_factory=list, description="total seconds throttled per thermal-management level")
    warning_temp_time_s: int | None = Field(default=None, description="time over the warning threshold")
    critical_temp_time_s: int | None = Field(default=None, description="time over the critical threshold")
    power_on_hours: int | None = None
    missing: list[str] = Field(
        default_factory=list, description="what could not be read, why, and how to get it")


class HealthDelta(Value):
    """What changed on the drive between the snapshots around a run."""

    written_bytes: int | None = Field(default=None, description="the drive's own count of bytes written")
    read_bytes: int | None = None
    run_written_bytes: int = Field(default=0, description="what the run wrote, by its own count")
    run_read_bytes: int = 0
    media_errors: int | None = None
    thermal_transitions: int | None = Field(default=None, description="summed over the levels")
    thermal_time_s: int | None = None
    temperature_before_c: float | None = None
    temperature_after_c: float | None = None
    temperature_max_c: float | None = Field(default=None, description="the highest sampled during the run")
    temperature_min_c: float | None = Field(default=None, description="the lowest sampled during the run")
    new_critical_warnings: list[str] = Field(default_factory=list)
    nand_written_bytes: int | None = Field(default=None, description="flash writes during the run")
    write_amplification: float | None = Field(
        default=None, description="flash bytes written / host bytes written, by the drive's counts")
    write_amplification_note: str = Field(
        default="", description="how the figure was found, or why there is none")


class TemperatureSample(Value):
    elapsed_s: float = Field(description="seconds into the run")
    celsius: float


class HealthRow(Value):
    label: str
    value: str = Field(description="before → after where it changed, in ssdprof's words")


class HealthRecord(Value):
    """A run's drive health: the snapshots around it, their difference and the temperatures seen."""

    before: DriveHealth
    after: DriveHealth | None = None
    delta: HealthDelta | None = None
    temperatures: list[TemperatureSample] = Field(
        default_factory=list, description="the drive's temperature every second from hwmon")

    @computed_field(description="the drive, its identity and the tools that answered")  # type: ignore[prop-decorator]
    @property
    def title(self) -> str:
        return health_title(self)

    @computed_field(description="what the drive said, in words, for a table")  # type: ignore[prop-decorator]
    @property
    def rows(self) -> list[HealthRow]:
        return [HealthRow(label=label, value=value) for label, value in health_rows(self)]
