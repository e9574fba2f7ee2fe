"""The PTS report's charts, as the specification shows them: steady-state convergence, the measurement
window with its bands and fitted line, the access size x mix plot and heat map, write saturation."""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import FuncFormatter

from ssdprof.model.pts_results import PtsResult
from ssdprof.model.quantities import format_size
from ssdprof.report.figure import Chart, format_count, log_axis, new_figure, to_page

__all__ = ["convergence_chart", "heatmap_chart", "matrix_chart", "saturation_chart", "window_chart"]


def convergence_chart(result: PtsResult) -> Chart | None:
    rounds = [r for r in result.rounds if r.convergence]
    if not rounds:
        return None
    unit = result.steady_state.unit
    with new_figure(height_in=3.0) as (figure, (axes,)):
        for label in rounds[0].convergence:
            pairs = [(r.round, v) for r in rounds if (v := r.convergence.get(label)) is not None]
            axes.plot([x for x, _ in pairs], [y for _, y in pairs], marker="o", label=label)
        axes.set_xlabel("round")
        axes.set_ylabel(unit)
        axes.set_title("Steady-state convergence")
        axes.yaxis.set_major_formatter(_count_formatter())
        axes.legend(loc="best", ncols=2)
        drawing = to_page(figure)
    what = result.steady_state.tracking.split(" ", 1)[1] if " " in result.steady_state.tracking else result.steady_state.tracking
    return Chart("pts-convergence", "Steady-state convergence",
                 f"the tracking metric ({what.replace('4KiB ', '')}) of every access size, round by round; the rule is "
                 f"applied to {result.steady_state.tracking}", drawing)


def window_chart(result: PtsResult) -> Chart | None:
    """The measurement window: its rounds' values, the mean with ±10 % and ±20 % bands, the fitted line."""
    s = result.steady_state
    if not s.window or s.mean is None or s.fit_first is None or s.fit_last is None:
        return None
    first, last = s.window
    rounds = [r for r in result.rounds if first <= r.round <= last and r.tracking_value is not None]
    with new_figure(height_in=2.8) as (figure, (axes,)):
        xs = np.array([r.round for r in rounds], dtype=float)
        axes.axhspan(s.mean * 0.8, s.mean * 1.2, color="#dbe9f6", label="mean ±20 % (data excursion)")
        axes.axhspan(s.mean * 0.9, s.mean * 1.1, color="#a9cbeb", label="mean ±10 % (slope excursion)")
        axes.axhline(s.mean, color="#1f4e79", linewidth=1.0, label=f"mean {format_count(round(s.mean, 1))} {s.unit}")
        axes.plot(xs, [r.tracking_value or 0.0 for r in rounds], marker="o", color="black", label=s.tracking)
        axes.plot([first, last], [s.fit_first, s.fit_last], linestyle="--", color="#c0392b",
                  label=f"least-squares line ({s.slope_per_round:+.3g} {s.unit}/round)")
        axes.set_xticks(xs)
        axes.set_xlabel("round")
        axes.set_ylabel(s.unit)
        axes.set_title("Measurement window" + ("" if s.attained else " (steady state NOT reached)"))
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=6.5)
        drawing = to_page(figure)
    return Chart("pts-window", f"Measurement window, rounds {first}-{last}",
                 f"{'steady state' if s.attained else 'steady state not reached'}: {s.reason}", drawing)


def _metric(result: PtsResult) -> tuple[str, str]:
    if result.test == "throughput":
        return "bw", "MB/s"
    if result.test == "latency":
        return "lat", "mean total latency, µs"
    return "iops", "IOPS"


def _cell_value(result: PtsResult, bs: int, mix: int) -> float | None:
    metric, _ = _metric(result)
    cell = next((c for c in result.matrix if c.block_size_bytes == bs and c.read_pct == mix), None)
    if cell is None:
        return None
    if metric == "bw":
        return cell.bw_bytes_per_s / 1e6
    if metric == "lat":
        return cell.lat_mean_ns / 1000 if cell.lat_mean_ns is not None else None
    return cell.iops


def matrix_chart(result: PtsResult) -> Chart | None:
    """The PTS's 2-D plot: the metric against access size, one line per read/write mix."""
    sizes = sorted({c.block_size_bytes for c in result.matrix})
    mixes = list(dict.fromkeys(c.read_pct for c in result.matrix))
    if not sizes:
        return None
    _, unit = _metric(result)
    with new_figure(height_in=3.0) as (figure, (axes,)):
        for mix in mixes:
            points = [(bs, v) for bs in sizes if (v := _cell_value(result, bs, mix)) is not None]
            axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=f"R/W {mix}/{100 - mix}")
        if len(sizes) > 1:
            log_axis(axes, "x", "size")
        axes.set_xticks(sizes, [format_size(s) for s in sizes])
        log_axis(axes, "y", "count")
        axes.set_xlabel("access size")
        axes.set_ylabel(unit)
        axes.set_title("Access size x read/write mix")
        axes.legend(loc="best", ncols=2)
        drawing = to_page(figure)
    return Chart("pts-matrix", "Access size x read/write mix", f"{unit}, averaged over the measurement window", drawing)


def heatmap_chart(result: PtsResult) -> Chart | None:
    sizes = sorted({c.block_size_bytes for c in result.matrix})
    mixes = list(dict.fromkeys(c.read_pct for c in result.matrix))
    if len(sizes) * len(mixes) < 2:
        return None
    _, unit = _metric(result)
    grid = np.array([[_cell_value(result, bs, mix) or np.nan for bs in sizes] for mix in mixes], dtype=float)
    with new_figure(height_in=0.9 + 0.32 * len(mixes)) as (figure, (axes,)):
        image = axes.imshow(np.log10(np.where(grid > 0, grid, np.nan)), aspect="auto", cmap="viridis")
        for row in range(len(mixes)):
            for col in range(len(sizes)):
                if not np.isnan(grid[row, col]):
                    axes.text(col, row, format_count(float(f"{grid[row, col]:.3g}")), ha="center", va="center",
                              color="white", fontsize=6.5)
        axes.set_xticks(range(len(sizes)), [format_size(s) for s in sizes])
        axes.set_yticks(range(len(mixes)), [f"{m}/{100 - m}" for m in mixes])
        axes.set_xlabel("access size")
        axes.set_ylabel("R/W mix")
        axes.grid(False)
        axes.set_title(f"Heat map: {unit}")
        figure.colorbar(image, ax=axes, label=f"log10 {unit.split(',')[0]}")
        drawing = to_page(figure)
    return Chart("pts-heatmap", "Heat map of the matrix", f"{unit} by access size and mix (colour on a log scale)", drawing)


def saturation_chart(result: PtsResult) -> Chart | None:
    """Write saturation: IOPS against time and against bytes written."""
    rounds = [r for r in result.rounds if r.tracking_value is not None]
    if result.test != "write-saturation" or not rounds:
        return None
    region = result.parameters.region_bytes or 1
    with new_figure(rows=1, cols=2, height_in=2.8) as (figure, (by_time, by_bytes)):
        iops = [r.tracking_value or 0.0 for r in rounds]
        by_time.plot([r.elapsed_s / 60 for r in rounds], iops, marker=".")
        by_time.set_xlabel("time, minutes")
        by_time.set_ylabel("IOPS")
        by_time.set_title("IOPS against time")
        by_bytes.plot([r.bytes_written / region for r in rounds], iops, marker=".",
                      color="#c0392b")
        by_bytes.set_xlabel("bytes written, multiples of the region")
        by_bytes.set_title("IOPS against bytes written")
        for axes in (by_time, by_bytes):
            axes.yaxis.set_major_formatter(_count_formatter())
        drawing = to_page(figure)
    return Chart("pts-saturation", "Write saturation", "4 KiB random writes from the drive's state at the start, "
                 f"round by round, up to {result.parameters.saturation_multiple or 0:g} x the region", drawing)


def _count_formatter() -> FuncFormatter:
    return FuncFormatter(lambda v, _: format_count(v))
