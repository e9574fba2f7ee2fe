"""The drive's word around one run: a snapshot before and after, hwmon's temperature every second
between them, the difference, and the warnings it calls for (the drive throttled, reported a
temperature over its threshold, logged media errors, or counted writes the run did not make).

SMART is read no more often than every :data:`SMART_INTERVAL_S` per device: frequent polling heats
some drives. A point shorter than that waits for its after-snapshot; the next point's before is the
previous point's after when that is younger than the interval.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ssdprof.model.health import (
    CRITICAL_WARNING_BITS,
    DriveHealth,
    HealthDelta,
    HealthRecord,
    HealthSource,
    TemperatureSample,
)
from ssdprof.model.health_amplification import write_amplification
from ssdprof.model.results import DirectionStats, Severity, ValidityWarning
from ssdprof.target.health import DATA_UNIT_BYTES, Command, read_hwmon_c, run_command, snapshot

__all__ = ["SMART_INTERVAL_S", "HealthWatch", "Reading", "health_delta", "health_warnings",
           "read_temperature"]

SMART_INTERVAL_S = 5.0
OVER_TEMPERATURE = CRITICAL_WARNING_BITS[1]
_last: dict[str, tuple[float, DriveHealth]] = {}
_last_lock = threading.Lock()


def _smart(watch: HealthWatch, *, identity: bool) -> DriveHealth:
    """A snapshot, or the last one of the same drive when it is younger than SMART_INTERVAL_S."""
    device = watch.device
    with _last_lock:
        taken = _last.get(watch.key)
    if taken is not None and time.monotonic() - taken[0] < SMART_INTERVAL_S:
        return taken[1]
    try:
        health = snapshot(device, run=watch.run, identity=identity, sys_root=watch.sys_root,
                          hwmon=watch.hwmon)
    except (ValueError, OSError) as exc:  # a tool's odd answer must not cost the run its point
        health = DriveHealth(device=device, missing=[f"the drive's answer could not be read: {exc}"])
    with _last_lock:
        _last[watch.key] = (time.monotonic(), health)
    return health


class Reading(NamedTuple):
    celsius: float | None
    source: HealthSource | None
    why_none: str = ""
    """What could not be read and how to get it, when there is no temperature."""


def read_temperature(device: str, *, run: Command = run_command,
                     sys_root: Path | None = Path("/sys")) -> Reading:
    """The drive's temperature now: hwmon where it has a sensor (a file read, as often as wanted),
    else SMART's, asked no more often than SMART_INTERVAL_S (its last answer in between)."""
    device = device if device.startswith("/") else f"/dev/{device}"
    if sys_root is not None and (celsius := read_hwmon_c(device, sys_root)) is not None:
        return Reading(celsius, "hwmon")
    health = _smart(HealthWatch(device, run=run, sys_root=None), identity=False)
    if health.temperature_c is not None:
        return Reading(health.temperature_c, health.temperature_source)
    why = "; ".join(health.missing) or "neither hwmon nor SMART reports its temperature"
    return Reading(None, None, why)


class HealthWatch:
    """Started before a run, finished after it; hwmon sampled each second in between."""

    def __init__(self, device: str, *, run: Command = run_command, sys_root: Path | None = Path("/sys"),
                 hwmon: Callable[[], float | None] | None = None, key: str = ""):
        """``run``, ``hwmon``: how to ask elsewhere (an SSH host, named in ``key``)."""
        self.device = device if device.startswith("/") else f"/dev/{device}"
        self.key = key or self.device
        self.run = run
        self.sys_root = sys_root
        self.hwmon = hwmon
        self._before: DriveHealth | None = None
        self._temperatures: list[TemperatureSample] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0

    def start(self) -> None:
        self._before = _smart(self, identity=True)
        self._started = time.monotonic()
        if self.sys_root is not None and read_hwmon_c(self.device, self.sys_root) is not None:
            self._thread = threading.Thread(target=self._sample, daemon=True)
            self._thread.start()

    @property
    def latest_c(self) -> float | None:
        """The latest temperature sampled, else the one before the run; None where none is read."""
        if self._temperatures:
            return self._temperatures[-1].celsius
        return self._before.temperature_c if self._before is not None else None

    def _sample(self) -> None:
        while not self._stop.wait(1.0):
            celsius = read_hwmon_c(self.device, self.sys_root) if self.sys_root else None
            if celsius is not None:
                elapsed_s = round(time.monotonic() - self._started, 1)
                self._temperatures.append(TemperatureSample(elapsed_s=elapsed_s, celsius=celsius))

    def finish(self, read: DirectionStats, write: DirectionStats,
               cancel: threading.Event | None = None) -> HealthRecord | None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self._before is None:
            return None
        if not self._before.sources:  # nothing answered before the run: nothing will after it
            return HealthRecord(before=self._before, temperatures=self._temperatures)
        wait_s = SMART_INTERVAL_S - (time.monotonic() - self._started)
        if wait_s > 0 and (cancel or threading.Event()).wait(wait_s):
            return HealthRecord(before=self._before, temperatures=self._temperatures)
        with _last_lock:
            _last.pop(self.key, None)  # the after-snapshot is always a fresh reading
        after = _smart(self, identity=False)
        delta = health_delta(self._before, after, read, write, self._temperatures)
        return HealthRecord(before=self._before, after=after, delta=delta,
                            temperatures=self._temperatures)


def _change(before: int | None, after: int | None) -> int | None:
    return None if before is None or after is None else after - before


def health_delta(before: DriveHealth, after: DriveHealth, read: DirectionStats,
                 write: DirectionStats, temperatures: list[TemperatureSample]) -> HealthDelta:
    seen = [c for c in (before.temperature_c, after.temperature_c) if c is not None]
    seen += [sample.celsius for sample in temperatures]
    transitions = (sum(after.thermal_transitions) - sum(before.thermal_transitions)
                   if before.thermal_transitions and after.thermal_transitions else None)
    throttled = (sum(after.thermal_time_s) - sum(before.thermal_time_s)
                 if before.thermal_time_s and after.thermal_time_s else None)
    written = _change(before.data_written_bytes, after.data_written_bytes)
    nand = _change(before.nand_written_bytes, after.nand_written_bytes)
    amplification, how = write_amplification(nand, written, write.io_bytes)
    return HealthDelta(
        written_bytes=written, nand_written_bytes=nand,
        write_amplification=amplification, write_amplification_note=how,
        read_bytes=_change(before.data_read_bytes, after.data_read_bytes),
        run_written_bytes=write.io_bytes, run_read_bytes=read.io_bytes,
        media_errors=_change(before.media_errors, after.media_errors),
        thermal_transitions=transitions, thermal_time_s=throttled,
        temperature_before_c=before.temperature_c, temperature_after_c=after.temperature_c,
        temperature_max_c=max(seen) if seen else None, temperature_min_c=min(seen) if seen else None,
        new_critical_warnings=[w for w in after.critical_warnings if w not in before.critical_warnings],
    )


def health_warnings(record: HealthRecord | None, duration_s: float) -> list[ValidityWarning]:
    """Warnings on the numbers the drive's word puts in doubt; notes on what could not be read."""
    if record is None:
        return []
    if not record.before.sources:
        missing = "; ".join(record.before.missing) or "no tool answered"
        return [ValidityWarning(code="drive_health_missing", severity=Severity.INFO,
                                message=f"the drive's own word was not recorded: {missing}")]
    delta, after = record.delta, record.after
    if delta is None or after is None:
        return []
    rates = ["read.iops", "write.iops", "read.bw_bytes_per_s", "write.bw_bytes_per_s"]
    warnings: list[ValidityWarning] = []
    throttle = _throttle_text(delta, after, duration_s)
    if throttle:
        warnings.append(ValidityWarning(
            code="drive_throttled", concerns=rates,
            message=f"the drive throttled during this run ({throttle}): its IOPS and bandwidth are "
                    "the hot drive's; let it cool (or cool it) and measure again"))
    if delta.media_errors:
        warnings.append(ValidityWarning(
            code="drive_media_errors", concerns=rates,
            message=f"the drive logged {delta.media_errors} new media error(s) during this run"))
    if (mismatch := _written_mismatch(delta)) is not None:
        warnings.append(ValidityWarning(code="drive_write_count", severity=Severity.INFO,
                                        concerns=["write.io_bytes"], message=mismatch))
    return warnings


def _throttle_text(delta: HealthDelta, after: DriveHealth, duration_s: float) -> str:
    parts = []
    if delta.thermal_time_s:
        parts.append(f"throttled for {delta.thermal_time_s} s of this {duration_s:.0f} s point")
    if delta.thermal_transitions:
        parts.append(f"{delta.thermal_transitions} thermal-management transition(s)")
    if OVER_TEMPERATURE in after.critical_warnings:
        now = f"{after.temperature_c:.0f} °C" if after.temperature_c is not None else "its temperature"
        parts.append(f"it reports {now} at or over a temperature threshold: critical-warning bit 1")
    return "; ".join(parts)


def _written_mismatch(delta: HealthDelta) -> str | None:
    """The drive counted writes far from the run's own: another writer, or a compressing drive.
    The run's count leaves out its ramp, so only a drive count below it, or far above, is noted."""
    if delta.written_bytes is None or delta.run_written_bytes < 64 * DATA_UNIT_BYTES:
        return None
    ratio = delta.written_bytes / delta.run_written_bytes
    if 0.9 * delta.run_written_bytes - 2 * DATA_UNIT_BYTES <= delta.written_bytes and ratio < 3:
        return None
    return (f"the drive counted {delta.written_bytes / 1e6:.1f} MB written during this run, the run "
            f"wrote {delta.run_written_bytes / 1e6:.1f} MB ({ratio:.2f}×): another writer, a ramp "
            "longer than the run, or a drive that compresses")
