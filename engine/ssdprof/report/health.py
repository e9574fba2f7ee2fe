"""The drive's own word as rows of (what, before → after): one spelling for ``ssdprof runs show``
and the PDF's table (see :mod:`ssdprof.model.health`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from reportlab.lib.units import cm

from ssdprof.model.health import DriveHealth, HealthRecord
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult
from ssdprof.report.layout import Builder

__all__ = ["drive_section", "health_rows", "health_title"]


def _c(value: float | None) -> str:
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
        peak = f" (max {_c(d.temperature_max_c)})" if d and d.temperature_max_c is not None else ""
        limits = [f"{name} {_c(value)}" for name, value in
                  (("warning", b.warning_temp_c), ("critical", b.critical_temp_c)) if value is not None]
        rows.append(("temperature", _pair(record, lambda h: h.temperature_c, _c) + peak
                     + (f"; {', '.join(limits)}" if limits else "")))
    if d is not None and d.written_bytes is not None:
        rows.append(("written, by the drive", f"{_mb(d.written_bytes)} (the run: "
                     f"{_mb(d.run_written_bytes)}, ± 1 data unit of 512,000 B)"))
    if d is not None and d.read_bytes is not None:
        rows.append(("read, by the drive", f"{_mb(d.read_bytes)} (the run: {_mb(d.run_read_bytes)})"))
    for label, field, show in (
        ("data written, lifetime", "data_written_bytes", _mb),
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


def drive_section(b: Builder, runs: Sequence[RunResult]) -> None:
    """A small table: per run, the drive's temperature, its count of the bytes written against the
    run's, thermal management and critical warnings; who the drive is and what is missing, above."""
    recorded = [(run, run.drive_health) for run in runs if run.drive_health is not None]
    if not recorded:
        return
    b.heading("The drive's own word")
    for title in dict.fromkeys(health_title(record) for _, record in recorded):
        b.para(title)
    for line in dict.fromkeys(line for _, record in recorded for line in record.before.missing):
        b.bullet(line)
    rows = [[str(run.id or "–"), run.workload.label, *_run_cells(record)]
            for run, record in recorded if record.before.sources]
    if rows:
        b.table(["Run", "Workload", "Temp. (°C)", "Written: drive / run (MB)", "Throttling",
                 "Critical warnings"], rows,
                "the drive's own word around each run (nvme-cli or smartctl before and after, hwmon "
                "every second): temperature before → after (max); the bytes the drive counted "
                "written during the run against the run's own count (± 1 data unit of 512,000 B; "
                "a run's ramp is written but not counted by the run); thermal-management "
                "transitions and seconds throttled during the run; critical warnings after it.",
                widths=[1.0 * cm, 3.6 * cm, 3.2 * cm, 3.0 * cm, 3.3 * cm, 4.4 * cm],
                numeric_from=2, text_from=4)


def _run_cells(record: HealthRecord) -> list[str]:
    d, after = record.delta, record.after or record.before
    if d is None:
        return ["–", "–", "–", "; ".join(after.critical_warnings) or "none"]
    temperature = "–" if d.temperature_before_c is None else (
        f"{d.temperature_before_c:.1f} → {_c(d.temperature_after_c).removesuffix(' °C')}"
        + (f" ({d.temperature_max_c:.1f})" if d.temperature_max_c is not None else ""))
    written = "–" if d.written_bytes is None else (
        f"{d.written_bytes / 1e6:,.1f} / {d.run_written_bytes / 1e6:,.1f}")
    throttling = "–" if d.thermal_transitions is None else (
        f"{d.thermal_transitions} transition(s), {d.thermal_time_s or 0} s")
    return [temperature, written, throttling, "; ".join(after.critical_warnings) or "none"]
