"""The report's scaling charts: IOPS and bandwidth vs access size, latency vs queue depth, the
latency-IOPS curve, and bars of repeated or compared settings with their 95 % confidence intervals.

Every function takes run groups and returns a :class:`Chart`, or None when the runs do not hold
what the chart needs (e.g. no two runs that differ only in access size).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullLocator

from ssdprof.report.figure import Chart, format_count, legend_below, log_axis, new_figure, to_page
from ssdprof.report.groups import RunGroup, Series, repeat_summaries, series_over
from ssdprof.report.page_drawing import PageDrawing

__all__ = ["access_size_chart", "host_bars_chart", "latency_iops_chart", "queue_depth_chart", "repeat_bars_chart"]

MAX_SERIES = 6
_US = 1e3
_MB = 1e6
_CI_NOTE = "Error bars: mean ± 95 % confidence interval of the repeats (Student's t)."


Drawn = list[tuple[float, float, float, str]]
"""Points drawn on one axis: (x, mean, half the 95 % CI, colour), for :func:`_fit_to_means`."""


def _plot(axes: Axes, series: Sequence[Series], metric: str, scale: float, *, style: str = "-", marker: str = "o",
          suffix: str = "", x_metric: str | None = None, drawn: Drawn | None = None) -> bool:
    """Mean of each point's repeats, with error bars where there are repeats; True if any were drawn.
    ``drawn`` collects the points for :func:`_fit_to_means`."""
    any_errors = False
    for i, line in enumerate(series[:MAX_SERIES]):
        xs: list[float] = []
        ys: list[float] = []
        errors: list[float] = []
        for point in line.points:
            found = point.figure(metric)
            x_found = point.figure(x_metric) if x_metric else None
            if found is not None and (x_found is not None or not x_metric):
                xs.append(x_found.value if x_found else point.x)
                ys.append(found.value / scale)
                errors.append((found.half_width or 0.0) / scale)
        label = f"{line.label}{suffix}"
        if drawn is not None:
            drawn += [(x, y, e, f"C{i}") for x, y, e in zip(xs, ys, errors, strict=True)]
        if any(errors):
            any_errors = True
            axes.errorbar(xs, ys, yerr=errors, linestyle=style, marker=marker, color=f"C{i}", label=label)
        else:
            axes.plot(xs, ys, linestyle=style, marker=marker, color=f"C{i}", label=label)
    return any_errors


_CUT_NOTE = ("An interval wider than its own mean (from few repeats: with n = 2 the 95 % interval spans "
             "±12.7 standard errors) is cut at the end of the axis and marked ▲: the axis is scaled to the means "
             "and to the intervals no wider than their mean, so the means stay readable.")


def _fit_to_means(axes: Axes, drawn: Drawn, *, horizontal: bool = False) -> bool:
    """The value axis ends 12 % past the largest mean (or mean + half interval, where the interval is no
    wider than its mean); an interval reaching further is cut there and marked. True if any was cut."""
    if not drawn:
        return False
    top = max(y + half if half <= y else y for _, y, half, _ in drawn)
    end = top * 1.12 if top > 0 else 1.0
    cut = [(x, colour) for x, y, half, colour in drawn if y + half > end]
    if not cut:
        return False
    if horizontal:
        axes.set_xlim(0, end)
    else:
        axes.set_ylim(0, end)
    for x, colour in cut:
        at = (end, x) if horizontal else (x, end)
        axes.plot(*at, marker=">" if horizontal else "^", color=colour, markersize=5, clip_on=False, linestyle="none")
    return True


def _settings_axis(axes: Axes, series: Sequence[Series], kind: str) -> None:
    """A log x axis ticked and labelled at the measured settings only (4 KiB, 16 KiB, 128 KiB; queue depth
    1, 4, 16), not at the scale's decades or its minor steps (which labelled 1, 2, 3, 6 and left 4 and 16 bare)."""
    log_axis(axes, "x", kind)
    axes.set_xticks(sorted({p.x for line in series[:MAX_SERIES] for p in line.points}))
    axes.xaxis.set_minor_locator(NullLocator())
    if kind == "count":
        axes.xaxis.set_major_formatter(FuncFormatter(lambda v, _: format_count(v)))


_STYLES = (("-", "o"), ("--", "s"), (":", "^"))
"""Line and marker of a panel's first, second and third metric: solid, dashed, dotted."""


@dataclass(frozen=True)
class _Panel:
    title: str
    unit: str
    scale: float
    lines: dict[str, str]
    """Each metric drawn, with what its series' labels end in (its legend entry)."""
    counts: bool = True
    """Its value axis ticked as counts (1.5k, 20k): IOPS and MB/s; latency keeps matplotlib's ticks."""


def _settings_chart(groups: Sequence[RunGroup], over: str, kind: str, xlabel: str,
                    panels: tuple[_Panel, _Panel]) -> tuple[PageDrawing, str] | None:
    """Two panels side by side over one setting (access size or queue depth), other settings fixed:
    the drawing and the notes its caption needs (error bars, intervals cut)."""
    series = series_over(groups, over)
    if not series:
        return None
    errors = cut = False
    with new_figure(1, 2, height_in=2.9) as (figure, axes_pair):
        for axes, panel in zip(axes_pair, panels, strict=True):
            drawn: Drawn = []
            for (metric, suffix), (style, marker) in zip(panel.lines.items(), _STYLES, strict=False):
                errors = _plot(axes, series, metric, panel.scale, style=style, marker=marker, suffix=suffix, drawn=drawn) or errors
            _settings_axis(axes, series, kind)
            axes.set_title(panel.title)
            axes.set_xlabel(xlabel)
            axes.set_ylabel(panel.unit)
            axes.set_ylim(bottom=0)
            if panel.counts:
                axes.yaxis.set_major_formatter(lambda v, _: format_count(v))
            cut = _fit_to_means(axes, drawn) or cut
        legend_below(figure, axes_pair[0])
        drawing = to_page(figure)
    return drawing, (f" {_CI_NOTE}" if errors else "") + (f" {_CUT_NOTE}" if cut else "")


def access_size_chart(groups: Sequence[RunGroup]) -> Chart | None:
    drawn = _settings_chart(groups, "block_size", "size", "access size (block size)", (
        _Panel("IOPS vs access size", "IOPS", 1.0, {"iops": ""}),
        _Panel("Bandwidth vs access size", "bandwidth (MB/s)", _MB, {"bw_bytes_per_s": ""})))
    if drawn is None:
        return None
    caption = "IOPS and bandwidth (MB/s, 10^6 bytes/s; reads and writes added) at each access size, other settings fixed."
    return Chart("access_size", "IOPS and bandwidth vs access size", caption + drawn[1], drawn[0])


def queue_depth_chart(groups: Sequence[RunGroup]) -> Chart | None:
    drawn = _settings_chart(groups, "queue_depth", "count", "queue depth (I/Os in flight per job)", (
        _Panel("Latency vs queue depth", "latency (µs)", _US, {"lat_ns_mean": " mean", "lat_ns_p99": " p99"}, counts=False),
        _Panel("IOPS vs queue depth", "IOPS", 1.0, {"iops": ""})))
    if drawn is None:
        return None
    caption = ("Latency of all I/Os, reads and writes together, total from submission to completion (mean, solid; "
               "99th percentile from the merged histogram bins, dashed; of repeats, from their added bins) and IOPS "
               "at each queue depth, other settings fixed.")
    return Chart("queue_depth", "Latency and IOPS vs queue depth", caption + drawn[1], drawn[0])


def latency_iops_chart(groups: Sequence[RunGroup]) -> Chart | None:
    """Latency against the throughput it bought, as queue depth grows: where the knee is."""
    series = series_over(groups, "queue_depth")[:3]
    if not series:
        return None
    with new_figure(height_in=3.0) as (figure, (axes,)):
        for (metric, suffix), (style, marker) in zip({"lat_ns_p50": " p50", "lat_ns_p99": " p99", "lat_ns_p99_9": " p99.9"}.items(),
                                                     _STYLES, strict=True):
            _plot(axes, series, metric, _US, style=style, marker=marker, suffix=suffix, x_metric="iops")
        for i, line in enumerate(series):
            for point in line.points:
                iops, p50 = point.figure("iops"), point.figure("lat_ns_p50")
                if iops and p50:
                    axes.annotate(f"QD{point.x:g}", (iops.value, p50.value / _US), textcoords="offset points", xytext=(3, -9),
                                  fontsize=6, color=f"C{i}")
        axes.set_title("Latency–IOPS curve (p50 / p99 / p99.9)")
        axes.set_xlabel("IOPS")
        axes.set_ylabel("latency (µs)")
        log_axis(axes, "y", "count")
        axes.set_ymargin(0.12)  # room under the lowest point for its 'QD1', which crossed the x axis at 5 %
        axes.xaxis.set_major_formatter(lambda v, _: format_count(v))
        legend_below(figure, axes)
        drawing = to_page(figure)
    caption = ("Each point is one queue depth: how much latency every extra IOPS costs. Percentiles are of all I/Os, "
               "reads and writes together, from the merged histogram bins of each run (of repeats, their added bins).")
    return Chart("latency_iops", "Latency–IOPS curve", caption, drawing)


def _bars_axes(axes: Axes, rows: list[str], unit: str) -> None:
    """Horizontal bars' axes: a row of bars per label, the first on top, values along x as counts."""
    axes.set_yticks(range(len(rows)), rows)
    axes.invert_yaxis()
    axes.set_xlabel(unit)
    axes.xaxis.set_major_formatter(lambda v, _: format_count(v))
    axes.grid(axis="y", visible=False)


def repeat_bars_chart(groups: Sequence[RunGroup]) -> Chart | None:
    """Mean ± 95 % CI per setting, side by side per group: shown when runs were repeated or groups compared."""
    summaries = [s for s in repeat_summaries(groups) if s.figure("iops") is not None]
    repeated = any(len(s.runs) > 1 for s in summaries)
    if not summaries or not (repeated or len(groups) > 1):
        return None
    labels = list(dict.fromkeys(s.label for s in summaries))[:24]
    names = [g.label for g in groups]
    width = 0.8 / len(names)
    cut = False
    with new_figure(1, 2, height_in=1.2 + 0.22 * len(labels) * max(len(names), 1) ** 0.5) as (figure, axes_pair):
        for axes, metric, scale, unit in ((axes_pair[0], "iops", 1.0, "IOPS"),
                                          (axes_pair[1], "lat_ns_mean", _US, "mean latency (µs)")):
            drawn: Drawn = []
            for gi, name in enumerate(names):
                rows = [(labels.index(s.label), s.figure(metric)) for s in summaries if s.group == name and s.label in labels]
                found = [(y + (gi - (len(names) - 1) / 2) * width, ci) for y, ci in rows if ci is not None]
                axes.barh([y for y, _ in found], [ci.value / scale for _, ci in found],
                          height=width, xerr=[(ci.half_width or 0.0) / scale for _, ci in found], color=f"C{gi}",
                          label=name if len(names) > 1 else None, error_kw={"elinewidth": 0.9, "capsize": 2.5})
                drawn += [(y, ci.value / scale, (ci.half_width or 0.0) / scale, f"C{gi}") for y, ci in found]
            cut = _fit_to_means(axes, drawn, horizontal=True) or cut
            _bars_axes(axes, labels if axes is axes_pair[0] else [""] * len(labels), unit)
        axes_pair[0].set_title("IOPS per setting")
        axes_pair[1].set_title("Latency per setting")
        if len(names) > 1:
            axes_pair[0].legend(loc="lower right")
        drawing = to_page(figure)
    counts = sorted({len(s.runs) for s in summaries})
    caption = (f"Bars: mean of {'/'.join(map(str, counts))} run(s) per setting. "
               f"{_CI_NOTE if repeated else 'No repeats: no error bars.'}{f' {_CUT_NOTE}' if cut else ''}")
    return Chart("repeat_bars", "Settings compared (mean ± 95 % CI)", caption, drawing)


def host_bars_chart(groups: Sequence[RunGroup]) -> Chart | None:
    """Each host's share of multi-host runs: uneven bars point at a slow client or an unfair start."""
    runs = [r for g in groups for r in g.runs if len(r.hosts) > 1][:8]
    if not runs:
        return None
    hosts = list(dict.fromkeys(h.host for r in runs for h in r.hosts))[:8]
    width = 0.8 / len(hosts)
    with new_figure(1, 2, height_in=1.3 + 0.3 * len(runs)) as (figure, axes_pair):
        for axes, unit, scale, pick in ((axes_pair[0], "IOPS", 1.0, "iops"), (axes_pair[1], "bandwidth (MB/s)", _MB, "bw")):
            for hi, name in enumerate(hosts):
                ys, values = [], []
                for ri, run in enumerate(runs):
                    host = next((h for h in run.hosts if h.host == name), None)
                    if host is not None:
                        ys.append(ri + (hi - (len(hosts) - 1) / 2) * width)
                        total = host.read.iops + host.write.iops if pick == "iops" else host.read.bw_bytes_per_s + host.write.bw_bytes_per_s
                        values.append(total / scale)
                axes.barh(ys, values, height=width, color=f"C{hi}", label=name)
            _bars_axes(axes, [f"run {r.id}" if r.id else f"#{i + 1}" for i, r in enumerate(runs)], unit)
        axes_pair[0].set_title("IOPS per host")
        axes_pair[1].set_title("Bandwidth per host")
        axes_pair[0].legend(loc="lower right")
        drawing = to_page(figure)
    caption = "Each client's own result in multi-host runs (reads and writes added; MB = 10^6 bytes)."
    return Chart("host_bars", "Per-host results", caption, drawing)
