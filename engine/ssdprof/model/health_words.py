"""The drive's own word in words: its identity in one line and rows of (what, before → after),
one spelling for ``ssdprof runs show``, the PDF and the app (sent as HealthRecord.title/rows)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ssdprof.model.quantities import format_size

if TYPE_CHECKING:
    from ssdprof.model.health import DriveHealth, HealthRecord

__all__ = ["drive_rows", "format_celsius", "health_rows", "health_title"]


def format_celsius(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} °C"


def _mb(value: int | None) -> str:
    return "-" if value is None else f"{value / 1e6:,.1f} MB"


def _plain(value: Any) -> str:
    return "-" if value is None else f"{value:,}" if isinstance(value, int) else str(value)


def health_title(record: HealthRecord) -> str:
    """e.g. ``/dev/nvme0n1: QEMU NVMe Ctrl, firmware 7.2.22, serial X (nvme-cli, hwmon)``."""
    b = record.before
    identity = ", ".join(part for part in (
        b.model, b.firmware and f"firmware {b.firmware}", b.serial and f"serial {b.serial}",
        b.capacity_bytes and format_size(b.capacity_bytes),
        b.logical_block_bytes and f"{b.logical_block_bytes} B blocks") if part)
    told = f" ({', '.join(b.sources)})" if b.sources else " (no tool answered)"
    return f"{b.device}{': ' + identity if identity else ''}{told}"


def _pair(record: HealthRecord, read: Callable[[DriveHealth], Any], show: Callable[[Any], str]) -> str:
    first = show(read(record.before))
    if record.after is None or show(read(record.after)) == first:
        return first
    return f"{first} → {show(read(record.after))}"


def health_rows(record: HealthRecord) -> list[tuple[str, str]]:
    """The rows worth showing: a field no tool told is left out; what is missing, said last."""
    b, d = record.before, record.delta
    rows: list[tuple[str, str]] = []
    if b.temperature_c is not None:
        seen = (d.temperature_min_c, d.temperature_max_c) if d else (None, None)
        peak = (f" ({seen[0]:.1f}–{format_celsius(seen[1])} during the run)"
                if seen[0] is not None and seen[1] is not None else "")
        limits = [f"{name} {format_celsius(value)}" for name, value in
                  (("warning", b.warning_temp_c), ("critical", b.critical_temp_c)) if value is not None]
        now = _pair(record, lambda h: h.temperature_c, format_celsius)
        rows.append(("temperature", now + peak + (f"; {', '.join(limits)}" if limits else "")))
    if d is not None and d.written_bytes is not None:
        rows.append(("written, by the drive", f"{_mb(d.written_bytes)} (the run: "
                     f"{_mb(d.run_written_bytes)}, ± 1 data unit of 512,000 B)"))
    if d is not None and d.read_bytes is not None:
        rows.append(("read, by the drive", f"{_mb(d.read_bytes)} (the run: {_mb(d.run_read_bytes)})"))
    if d is not None and d.nand_written_bytes is not None:
        rows.append(("written to flash, by the drive", _mb(d.nand_written_bytes)))
    if d is not None and d.write_amplification is not None:
        rows.append(("write amplification",
                     f"{d.write_amplification:.2f} ({d.write_amplification_note})"))
    elif d is not None and d.write_amplification_note:
        rows.append(("write amplification", d.write_amplification_note))
    for label, field, show in (
        ("data written, lifetime", "data_written_bytes", _mb),
        ("flash written, lifetime", "nand_written_bytes", _mb),
        ("percentage used", "percentage_used", lambda v: "-" if v is None else f"{v} %"),
        ("available spare", "available_spare_pct", lambda v: "-" if v is None else f"{v} %"),
        ("host write commands", "host_write_commands", _plain),
        ("media errors", "media_errors", _plain),
        ("error-log entries", "error_log_entries", _plain),
        ("power-on hours", "power_on_hours", _plain),
    ):
        if getattr(b, field) is not None:
            rows.append((label, _pair(record, attrgetter(field), show)))
    if b.thermal_transitions:
        throttled = f", {d.thermal_time_s} s throttled" if d and d.thermal_time_s is not None else ""
        moved = d.thermal_transitions if d and d.thermal_transitions is not None else 0
        rows.append(("thermal management", f"{moved} transition(s) during the run{throttled}"))
    if b.critical_warning is not None:
        rows.append(("critical warnings", _pair(
            record, lambda h: h.critical_warnings, lambda v: "; ".join(v) or "none")))
    rows += [("missing", line) for line in b.missing]
    return rows



def _bytes(value: int | None) -> str:
    """Exact bytes, and their size in decimal units as drive makers count."""
    if value is None:
        return "-"
    units = ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"))
    scaled = next(((value / factor, unit) for factor, unit in units if value >= factor),
                  (float(value), "B"))
    return f"{value:,} B" + (f" ({scaled[0]:,.2f} {scaled[1]})" if scaled[1] != "B" else "")


def _seconds(value: int | None) -> str:
    return "-" if value is None else f"{value:,} s"


def _percent(value: int | None) -> str:
    return "-" if value is None else f"{value} %"


def _thermal(h: DriveHealth) -> str:
    if not h.thermal_transitions:
        return ("not reported (nvme-cli's smart-log gives an NVMe drive's counts; smartctl's JSON "
                "does not)")
    parts = []
    for level, count in enumerate(h.thermal_transitions, start=1):
        spent = h.thermal_time_s[level - 1] if level <= len(h.thermal_time_s) else None
        parts.append(f"level {level}: {count:,} transition(s)"
                     + (f", {spent:,} s throttled" if spent is not None else ""))
    return "; ".join(parts)


def _flash(h: DriveHealth) -> str:
    if h.nand_written_bytes is None:
        return "not exposed by the drive: its write amplification cannot be known"
    return _bytes(h.nand_written_bytes) + (f" ({h.nand_source})" if h.nand_source else "")


def _temperature(h: DriveHealth) -> str:
    limits = ", ".join(f"{name} {format_celsius(value)}" for name, value in
                       (("warning", h.warning_temp_c), ("critical", h.critical_temp_c))
                       if value is not None)
    told = f" ({h.temperature_source})" if h.temperature_source else ""
    return format_celsius(h.temperature_c) + told + (f"; {limits}" if limits else "")


def drive_rows(h: DriveHealth) -> list[tuple[str, str]]:
    """One reading in words (``ssdprof drive show``): every field, '-' where no tool told it; what
    is missing and how to get it, last."""
    threshold = h.available_spare_threshold_pct
    warnings = "-" if h.critical_warning is None else "; ".join(h.critical_warnings) or "none"
    rows = [
        ("protocol", h.protocol or "-"),
        ("temperature", _temperature(h)),
        ("percentage used", _percent(h.percentage_used)),
        ("available spare", _percent(h.available_spare_pct)
         + (f" (threshold {threshold} %)" if threshold is not None else "")),
        ("data read", _bytes(h.data_read_bytes)),
        ("data written", _bytes(h.data_written_bytes)),
        ("written to flash", _flash(h)),
        ("host read commands", _plain(h.host_read_commands)),
        ("host write commands", _plain(h.host_write_commands)),
        ("media errors", _plain(h.media_errors)),
        ("error-log entries", _plain(h.error_log_entries)),
        ("critical warnings", warnings),
        ("thermal management", _thermal(h)),
        ("time over warning temperature", _seconds(h.warning_temp_time_s)),
        ("time over critical temperature", _seconds(h.critical_temp_time_s)),
        ("power-on hours", _plain(h.power_on_hours)),
    ]
    return rows + [("missing", line) for line in h.missing]
