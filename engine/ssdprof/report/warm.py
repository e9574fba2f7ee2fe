"""The report's machinery made ready before the first report is asked for: browser mode calls
:func:`warm_up` on its loading thread once the engine is up (``app/background.py``), so that the
first Export PDF costs what the second does.

What a first report pays and a second does not: importing the PDF modules and what they import
(matplotlib, reportlab, the statistics for confidence intervals, SciPy's optimizer for the
predictions' saturation curves: a quarter of a second to import), reading the fonts,
matplotlib's font cache and first text layout, and the first pass of each library's drawing code.
One small chart drawn and one page built, in memory, pays all of it; nothing is written anywhere.
"""

from __future__ import annotations

__all__ = ["warm_up"]


def warm_up() -> None:
    from ssdprof.analysis.models import fit_queueing
    from ssdprof.analysis.welch import mean_ci
    from ssdprof.report import pdf  # noqa: F401 - the run report's modules: charts, tables, insights
    from ssdprof.report.document import render
    from ssdprof.report.figure import Chart, legend_below, log_axis, new_figure, to_page
    from ssdprof.report.layout import Builder, register_fonts

    mean_ci([1.0, 2.0, 3.0], 0.95)
    fit_queueing([1.0, 4.0, 16.0, 32.0], [1000.0, 3500.0, 9000.0, 10000.0])
    with new_figure(height_in=1.6) as (figure, axes):
        axes[0].errorbar([4096, 65536], [1000, 2000], yerr=[50, 80], marker="o", label="warm-up")
        log_axis(axes[0], "x", "size")
        log_axis(axes[0], "y", "count")
        axes[0].set_title("warm-up")
        legend_below(figure, axes[0])
        drawing = to_page(figure)
    b = Builder(register_fonts())
    b.heading("warm-up")
    b.table(["a", "b µs"], [["1", "2.0"]], "warm-up")
    b.chart(Chart("warm-up", "warm-up", "µ ± ≥", drawing))
    render(b, title="warm-up", subject="warm-up")
