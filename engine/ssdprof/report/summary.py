"""The report's first section: the student's summary (``analysis.summary``) as the engine computed
it for the app: the one-glance table, each factor's effect, the best figures against the spec
sheet, and what the figures cannot tell."""

from __future__ import annotations

from reportlab.platypus import PageBreak

from ssdprof.analysis.summary import StudentSummary
from ssdprof.analysis.summary_model import GlanceCell
from ssdprof.report.layout import Builder, fmt_count, fmt_mb, fmt_us

__all__ = ["summary_section"]

_WIDTHS: list[float] = [104, 62, 62, 62, 62, 62, 62]
"""points: the test's label, then three figures for reads and three for writes."""


def _cells(cell: GlanceCell | None) -> list[str]:
    if cell is None:
        return ["", "", ""]
    mark = " *" if cell.all_runs else ""
    return [fmt_mb(cell.bw_bytes_per_s) + mark, fmt_count(cell.iops) + mark, fmt_us(cell.lat_ns_mean) + mark]


def summary_section(b: Builder, summary: StudentSummary) -> None:
    b.heading("Summary")
    b.para(f"What these {summary.runs} run(s) of {summary.device} show, in the terms of the "
           "assignment: the key figures, how each factor moved them, the best figures against the "
           "vendor's, and what they cannot tell.")
    if summary.table:
        rows = [[row.label, *_cells(row.read), *_cells(row.write)] for row in summary.table]
        b.table(["Test", "Read MB/s", "Read IOPS", "Read latency (µs)", "Write MB/s", "Write IOPS",
                 "Write latency (µs)"], rows,
                f"the key figures at a glance, as CrystalDiskMark lists them (SEQ sequential, RND "
                f"random, QD queue depth, T jobs); {summary.table_note}", widths=_WIDTHS)
        for pooled in (c.all_runs for row in summary.table for c in (row.read, row.write) if c is not None):
            if pooled is not None:
                b.bullet(f"* {pooled.sentence}.")
    if summary.factors:
        b.para("How each factor moved the figures", "h2")
        for finding in summary.factors:
            b.bullet(finding.sentence)
    b.para("Best figures and the spec sheet", "h2")
    for best in summary.best:
        b.bullet(best.sentence)
    b.bullet(summary.spec.sentence)
    if summary.caveats:
        b.para("What these figures cannot tell", "h2")
        for caveat in summary.caveats:
            b.bullet(caveat.message)
    b.story.append(PageBreak())  # the summary is the page a student reads first; the facts follow
