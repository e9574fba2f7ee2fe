"""The drive's own word as rows of (what, before → after): one spelling for ``ssdprof runs show``
and the PDF's table (see :mod:`ssdprof.model.health`)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import cm

from ssdprof.model.health import HealthRecord
from ssdprof.model.health_words import format_celsius
from ssdprof.model.results import RunResult
from ssdprof.report.layout import Builder

__all__ = ["drive_section"]


def drive_section(b: Builder, runs: Sequence[RunResult]) -> None:
    """A small table: per run, the drive's temperature, its count of the bytes written against the
    run's, thermal management and critical warnings; who the drive is and what is missing, above."""
    recorded = [(run, run.drive_health) for run in runs if run.drive_health is not None]
    if not recorded:
        return
    b.heading("The drive's own word")
    for title in dict.fromkeys(record.title for _, record in recorded):
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
        f"{d.temperature_before_c:.1f} → {format_celsius(d.temperature_after_c).removesuffix(' °C')}"
        + (f" ({d.temperature_max_c:.1f})" if d.temperature_max_c is not None else ""))
    written = "–" if d.written_bytes is None else (
        f"{d.written_bytes / 1e6:,.1f} / {d.run_written_bytes / 1e6:,.1f}")
    throttling = "–" if d.thermal_transitions is None else (
        f"{d.thermal_transitions} transition(s), {d.thermal_time_s or 0} s")
    return [temperature, written, throttling, "; ".join(after.critical_warnings) or "none"]
