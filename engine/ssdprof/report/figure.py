"""Matplotlib figures in the report's house style, drawn straight onto the PDF's page so they stay
vector (``report/vector.py``).

No pyplot: each chart is its own ``Figure`` (nothing global to leak between requests). Text stays
text in DejaVu Sans, the document's embedded font, so it is real and selectable; log axes use plain
tick labels (no mathtext).
"""

from __future__ import annotations

import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import matplotlib
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogFormatter, NullFormatter
from matplotlib.typing import RcKeyType

from ssdprof.model.quantities import format_size
from ssdprof.report.page_drawing import PageDrawing
from ssdprof.report.vector import draw_figure

__all__ = ["FIGURE_WIDTH_IN", "PALETTE", "Chart", "format_count", "log_axis", "new_figure", "to_page"]

FIGURE_WIDTH_IN = 6.6
"""A4 less 2 cm margins is 6.69 in: charts are drawn at their printed size, never scaled."""

PALETTE = ("#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777")
"""The app's chart colours (src/charts/palette.ts, styles.css): C0, C1, ... are the same in the PDF."""

_STYLE: dict[RcKeyType, Any] = {
    "axes.prop_cycle": cycler(color=PALETTE),
    "font.family": "DejaVu Sans",
    "font.size": 8.0,
    "axes.titlesize": 9.0,
    "axes.labelsize": 8.0,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "grid.linewidth": 0.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 7.0,
    "legend.frameon": False,
    "lines.linewidth": 1.4,
    "lines.markersize": 4.5,
    "errorbar.capsize": 3.0,
}
# rc_context swaps matplotlib's global settings; charts may be drawn from several RPC threads.
_STYLE_LOCK = threading.Lock()


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    caption: str
    drawing: PageDrawing


@contextmanager
def new_figure(rows: int = 1, cols: int = 1, height_in: float = 3.0) -> Iterator[tuple[Figure, list[Axes]]]:
    """A figure with its axes, in the house style; draw it with :func:`to_page` inside the block."""
    with _STYLE_LOCK, matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=(FIGURE_WIDTH_IN, height_in), layout="constrained")
        axes = [figure.add_subplot(rows, cols, i + 1) for i in range(rows * cols)]
        yield figure, axes


LEGEND_ROW_IN = 0.16
"""The height a line of a legend below the plots takes."""
_LEGEND_CHARS = (56, 112)
"""The longest label line a legend of two columns, and of one, holds across the figure's width."""


def legend_below(figure: Figure, axes: Axes) -> None:
    """``axes``' legend under the plots, clear of the lines (the figure grows by its lines): inside,
    a legend of several series sat over the points it names (the deepest queue's p99, the top of
    an access-size line, the start of a percentile line). Two columns, or one where a label is too
    long for half the width; a label longer than its column is wrapped, never cut at the page edge."""
    handles, labels = axes.get_legend_handles_labels()
    columns = 2 if max((len(label) for label in labels), default=0) <= _LEGEND_CHARS[0] else 1
    shown = [textwrap.fill(label, _LEGEND_CHARS[columns == 1], break_long_words=False) for label in labels]
    rows = [shown[i:i + columns] for i in range(0, len(shown), columns)]
    lines = sum(max(label.count("\n") + 1 for label in row) for row in rows)
    figure.legend(handles, shown, loc="outside lower center", ncols=columns)
    figure.set_figheight(figure.get_figheight() + LEGEND_ROW_IN * lines)


def to_page(figure: Figure) -> PageDrawing:
    """The figure laid out and drawn, once, for the PDF (inside :func:`new_figure`'s block: the style
    applies while matplotlib draws)."""
    return draw_figure(figure)


def format_count(value: float) -> str:
    """1500 -> '1.5k', 2e6 -> '2M': short tick labels without mathtext."""
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:g}{suffix}"
    return f"{value:g}"


class _CountLogFormatter(LogFormatter):
    """Counts on a log axis in ssdprof's spelling (2k, 500). As minor labels, matplotlib's own
    rule labels 2 and 5 (or every step) when the axis spans too few decades to read by its
    decades alone: a latency axis from 700 µs to 6 ms had the one label "1k"."""

    def _num_to_string(self, x: float, vmin: float, vmax: float) -> str:
        return format_count(x)


def log_axis(axes: Axes, which: str, kind: str) -> None:
    """A log axis labelled in sizes (``kind='size'``, base 2) or plain counts (base 10)."""
    axis = axes.xaxis if which == "x" else axes.yaxis
    if kind == "size":
        (axes.set_xscale if which == "x" else axes.set_yscale)("log", base=2)
        axis.set_major_formatter(FuncFormatter(lambda v, _: format_size(int(v)) if v >= 512 and float(v).is_integer() else ""))
    else:
        (axes.set_xscale if which == "x" else axes.set_yscale)("log", base=10)
        axis.set_major_formatter(_CountLogFormatter())
        axis.set_minor_formatter(_CountLogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
        return
    axis.set_minor_formatter(NullFormatter())
