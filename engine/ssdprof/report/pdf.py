"""The PDF report: one code path for the CLI, the desktop app and browser mode (they all ask the
engine for the bytes and save them).

Layout (A4, numbered like a course report's results section): title and date; the summary a
student writes from (when the caller computed one); test setup; workloads and the fio job to
reproduce them; results with units in every header; charts;
then spec/group comparison when the analysis modules are present; per-host results, network and
CPU for multi-host runs; the load curve or latency-target search when the sweep is one; observations and
warnings last.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ssdprof.analysis.summary import StudentSummary
from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.model.results import RunResult
from ssdprof.report import charts, timecharts
from ssdprof.report.document import render, title_block
from ssdprof.report.figure import Chart
from ssdprof.report.groups import RunGroup
from ssdprof.report.health import drive_section
from ssdprof.report.insights import predictions_section, spec_and_statistics_section, warnings_section
from ssdprof.report.layout import Builder, register_fonts
from ssdprof.report.summary import summary_section
from ssdprof.report.tables import hosts_section, results_section, setup_section, workloads_section

__all__ = ["ReportError", "ReportRequest", "build_pdf", "report_charts"]

MAX_RUNS = 2000


class ReportError(ValueError):
    """Nothing to report, or too much."""


@dataclass(frozen=True)
class ReportRequest:
    groups: tuple[RunGroup, ...]
    title: str = "SSD performance report"
    scope: str = ""
    """One line saying what the report covers, e.g. 'sweep 3 (student), 10 runs'."""
    spec_folders: tuple[Path | None, ...] = ()
    spec_id: str | None = None
    curves: tuple[CurveSummary, ...] = ()
    """Load curves among the runs (a curve sweep's report): each gets its page."""
    slos: tuple[SloSummary, ...] = ()
    """Latency-target searches among the runs: each gets its page."""
    summary: StudentSummary | None = None
    """The student's summary, first; computed by the caller, which knows the spec sheet remembered
    for the device (``app.service.summary.spec_for``)."""
    generated_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    @classmethod
    def of_runs(cls, runs: Sequence[RunResult], **options: object) -> ReportRequest:
        """A report on one run or a sweep's runs (one unnamed group)."""
        return cls(groups=(RunGroup("runs", tuple(runs)),), **options)  # type: ignore[arg-type]


_SCALING_CHARTS: tuple[Callable[[Sequence[RunGroup]], Chart | None], ...] = (
    charts.access_size_chart, charts.queue_depth_chart, charts.latency_iops_chart, charts.repeat_bars_chart,
    timecharts.percentile_chart, timecharts.time_series_chart,
)
_CLUSTER_CHARTS: tuple[Callable[[Sequence[RunGroup]], Chart | None], ...] = (charts.host_bars_chart, timecharts.monitor_chart)


def report_charts(groups: Sequence[RunGroup]) -> tuple[list[Chart], list[Chart]]:
    """The charts the runs support: (scaling and distribution charts, per-host and monitor charts)."""
    main = [c for make in _SCALING_CHARTS if (c := make(groups)) is not None]
    cluster = [c for make in _CLUSTER_CHARTS if (c := make(groups)) is not None]
    return main, cluster


def build_pdf(request: ReportRequest) -> bytes:
    runs = [r for g in request.groups for r in g.runs]
    if not runs:
        raise ReportError("a report needs at least one run; name run ids, a sweep, or groups of runs")
    if len(runs) > MAX_RUNS:
        raise ReportError(f"{len(runs)} runs are more than one report can show ({MAX_RUNS}); select fewer")
    b = Builder(register_fonts())
    _title(b, request, runs)
    if request.summary is not None:
        summary_section(b, request.summary)
    setup_section(b, request.groups)
    workloads_section(b, request.groups)
    results_section(b, request.groups)
    drive_section(b, runs)
    main_charts, cluster_charts = report_charts(request.groups)
    if main_charts:
        b.heading("Charts")
        for chart in main_charts:
            b.chart(chart)
    _adaptive_sections(b, request)
    notes = spec_and_statistics_section(b, request.groups, request.spec_folders, request.spec_id)
    predictions_section(b, request.groups)
    if hosts_section(b, request.groups):
        for chart in cluster_charts:
            b.chart(chart)
    warnings_section(b, request.groups, notes)
    return render(b, title=request.title, subject=request.scope or "SSD measurements")


def _adaptive_sections(b: Builder, request: ReportRequest) -> None:
    if not request.curves and not request.slos:
        return
    from ssdprof.report.curve import curve_section, slo_section

    for curve in request.curves:
        curve_section(b, curve)
    for slo in request.slos:
        slo_section(b, slo)


def _title(b: Builder, request: ReportRequest, runs: Sequence[RunResult]) -> None:
    dates = sorted(r.started_at[:10] for r in runs if r.started_at)
    measured = f"measured {dates[0]}" + (f" to {dates[-1]}" if dates[-1] != dates[0] else "") if dates else "measurement date not recorded"
    scope = request.scope or _scope(request.groups)
    title_block(b, request.title, f"{scope}; {measured}", generated_at=request.generated_at)


def _scope(groups: Sequence[RunGroup]) -> str:
    if len(groups) > 1:
        return "Comparison of " + " vs ".join(f"{g.label} ({len(g.runs)} runs)" for g in groups)
    runs = groups[0].runs
    sweeps = sorted({r.sweep_id for r in runs if r.sweep_id is not None})
    if len(runs) == 1:
        return f"Run {runs[0].id}: {runs[0].workload.label}" if runs[0].id else runs[0].workload.label
    if len(sweeps) == 1:
        return f"Sweep {sweeps[0]}, {len(runs)} runs"
    return f"{len(runs)} runs"
