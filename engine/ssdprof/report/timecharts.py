"""The report's distribution and time charts: latency percentiles from histogram bins, per-second
IOPS and latency (with the drive's temperature where it was read), and each host's CPU and network
during multi-host runs.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from ssdprof.model.histogram import cumulative, merge
from ssdprof.model.results import RunResult
from ssdprof.report.figure import Chart, format_count, legend_below, log_axis, new_figure, to_page
from ssdprof.report.groups import RunGroup, repeat_summaries

__all__ = ["RunSeconds", "monitor_chart", "percentile_chart", "run_seconds", "time_series_chart"]

MAX_LINES = 6
_US = 1e3
_NINES = (50.0, 90.0, 99.0, 99.9, 99.99, 99.999)


def _nines(fraction: float) -> float:
    """Percentile on a 'number of nines' scale: 90 % -> 1, 99 % -> 2, 99.9 % -> 3."""
    return -math.log10(max(1.0 - fraction, 1e-7))


def _percentile_line(bins: dict[int, int]) -> tuple[list[float], list[float]]:
    """fio's rule as a step: between cumulative fractions c(i-1) and c(i) the percentile is bucket i's value."""
    total = sum(bins.values())
    xs: list[float] = []
    ys: list[float] = []
    before = 0
    for value, seen in cumulative(bins):
        start, end = before / total, min(seen / total, 1.0 - 0.5 / total)
        before = seen
        if end <= start:
            continue
        xs += [_nines(start), _nines(end)]
        ys += [value / _US, value / _US]
    return xs, ys


def percentile_chart(groups: Sequence[RunGroup]) -> Chart | None:
    # each setting's line of all its I/Os (a mixed run's, as the tables headline it; else its one
    # direction's) first, then a mixed run's directions: past MAX_LINES, directions are left out first
    headline: list[tuple[str, dict[int, int]]] = []
    parts: list[tuple[str, dict[int, int]]] = []
    for summary in repeat_summaries(groups):
        prefix = f"{summary.group}: " if len(groups) > 1 else ""
        sides: list[tuple[str, dict[int, int]]] = []
        for direction in ("read", "write"):
            stats = [getattr(r, direction) for r in summary.runs]
            bins, kind = merge(s.lat_bins_ns for s in stats), ""
            if not bins:  # older runs recorded only completion latency: drawn as such, never as total
                bins, kind = merge(s.clat_bins_ns for s in stats), " (completion latency only)"
            if bins:
                sides.append((f"{prefix}{summary.label} {direction}{kind}", bins))
        every = [b for r in summary.runs for b in (r.read.lat_bins_ns, r.write.lat_bins_ns)]
        if all(r.read.active and r.write.active for r in summary.runs) and all(every):  # all I/Os: added bins
            headline.append((f"{prefix}{summary.label} all I/Os", merge(every)))
            parts += sides
        else:
            headline += sides
    lines = headline + parts
    if not lines:
        return None
    shown = lines[:MAX_LINES]
    with new_figure(height_in=3.0) as (figure, (axes,)):
        low, high = math.inf, 0.0
        for i, (label, bins) in enumerate(shown):
            xs, ys = _percentile_line(bins)
            axes.plot(xs, ys, color=f"C{i}", label=label, linewidth=1.2)
            low, high = min(low, *ys), max(high, *ys)
        top = max(max(_percentile_line(b)[0], default=0.0) for _, b in shown)
        ticks = [p for p in _NINES if _nines(p / 100) <= top + 0.3]
        axes.set_xticks([_nines(p / 100) for p in ticks], [f"{p:g}" for p in ticks])
        axes.set_xlim(left=0)
        log_axis(axes, "y", "count")
        axes.set_ylim(low / 1.3, high * 1.3)
        axes.set_title("Latency percentiles (total, submission to completion)")
        axes.set_xlabel("percentile (%)")
        axes.set_ylabel("latency (µs)")
        legend_below(figure, axes)
        drawing = to_page(figure)
    more = (f" The first {MAX_LINES} of {len(lines)} are shown: each setting's line of all its I/Os before a mixed "
            "run's directions." if len(lines) > MAX_LINES else "")
    caption = ("The latency below which the given share of I/Os completed, read straight from the histogram bins (repeats "
               f"merged by adding bins, never by averaging percentiles).{more}")
    return Chart("percentiles", "Latency percentile distribution", caption, drawing)


@dataclass(frozen=True)
class RunSeconds:
    """One run's per-second samples, seconds counted from the run's start, hosts added up.
    ``ramping`` marks the seconds that overlap the ramp: drawn, so a short run still reads as a
    line, but not part of its result."""

    seconds: list[float]
    iops: list[float]
    latency_us: list[float | None]
    ramping: list[bool]
    starts: list[float]
    """Where each second's rates begin (the earliest of its hosts' samples, as the engine spanned them)."""

    @property
    def measured(self) -> int:
        return self.ramping.count(False)


def run_seconds(run: RunResult) -> RunSeconds:
    iops: dict[float, float] = defaultdict(float)
    latency: dict[float, list[float]] = defaultdict(list)
    ramping: dict[float, bool] = defaultdict(bool)
    starts: dict[float, float] = {}
    for sample in run.progress:
        second = round(sample.elapsed_s, 1)
        iops[second] += sample.read_iops + sample.write_iops
        means = (sample.read_lat_ns_mean, sample.write_lat_ns_mean)
        latency[second] += [v for v in means if v is not None]
        ramping[second] |= sample.ramping
        start_s = sample.start_s if sample.start_s is not None else sample.elapsed_s
        starts[second] = min(starts.get(second, start_s), start_s)
    seconds = sorted(iops)
    mean_us = [sum(latency[s]) / len(latency[s]) / _US if latency[s] else None for s in seconds]
    return RunSeconds(seconds, [iops[s] for s in seconds], mean_us, [ramping[s] for s in seconds],
                      [starts[s] for s in seconds])


def _draw_run(axes: Axes, line: RunSeconds, values: Sequence[float | None], *, colour: str,
              label: str | None, gid: str) -> None:
    """Each second's rate level across the second it covers, from the run's start (a 1 s run
    reads as a line from 0 to 1 s, not one dot), a marker where each second ends; hollow in the
    ramp."""
    kept = [(x, y, r, s) for x, y, r, s in zip(line.seconds, values, line.ramping, line.starts, strict=True)
            if y is not None]
    if not kept:
        return
    xs, ys = [x for x, _, _, _ in kept], [y for _, y, _, _ in kept]
    axes.step([kept[0][3], *xs], [ys[0], *ys], where="pre", color=colour, label=label, gid=gid)
    for ramping, face in ((False, colour), (True, "white")):
        marks = [(x, y) for x, y, r, _ in kept if r is ramping]
        axes.plot([x for x, _ in marks], [y for _, y in marks], linestyle="none", marker="o",
                  markerfacecolor=face, markeredgecolor=colour)


def _seconds_axes(axes: Axes, title: str, unit: str, *, ramp_s: float, right_s: float) -> None:
    if ramp_s > 0:
        axes.axvspan(0, ramp_s, color="0.9", linewidth=0, label="ramp (not measured)")
    axes.set_title(title)
    axes.set_ylabel(unit)
    axes.set_xlabel("seconds since the run started")
    axes.set_xlim(left=0, right=right_s + 0.5)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(bottom=0)


def time_series_chart(groups: Sequence[RunGroup]) -> Chart | None:
    """Each run's seconds as a line from its start (the first runs, up to MAX_LINES)."""
    runs = [r for g in groups for r in g.runs if any(not s.ramping for s in r.progress)]
    if not runs:
        return None
    shown = runs[:MAX_LINES]
    lines = [run_seconds(r) for r in shown]
    ramp_s = max(r.workload.ramp_s for r in shown)
    right_s = max(max(line.seconds) for line in lines)
    height_in = 2.4 + 0.16 * math.ceil(len(shown) / 2)  # room for the legend's rows below
    with new_figure(1, 2, height_in=height_in) as (figure, (iops_ax, lat_ax)):
        for i, (run, line) in enumerate(zip(shown, lines, strict=True)):
            label = f"run {run.id}: {run.workload.label}" if run.id else run.workload.label
            colour = f"C{i}"
            _draw_run(iops_ax, line, line.iops, colour=colour, label=label, gid=f"seconds-iops-{i}")
            _draw_run(lat_ax, line, line.latency_us, colour=colour, label=None,
                      gid=f"seconds-latency-{i}")
        span = {"ramp_s": ramp_s, "right_s": right_s}
        warm = _temperature_axis(iops_ax, shown)
        _seconds_axes(iops_ax, "IOPS each second", "IOPS", **span)
        _seconds_axes(lat_ax, "Mean latency each second", "latency (µs)", **span)
        iops_ax.yaxis.set_major_formatter(lambda v, _: format_count(v))
        handles, labels = iops_ax.get_legend_handles_labels()
        if warm is not None:
            handles, labels = [*handles, *warm[0]], [*labels, *warm[1]]
        figure.legend(handles, labels, loc="outside lower center", ncols=2)
        drawing = to_page(figure)
    caption = _time_series_caption(runs, lines) + (_TEMPERATURE_CAPTION if warm else "")
    return Chart("time_series", "Time series", caption, drawing)


_TEMPERATURE_CAPTION = (" Dashed, on the right axis: the drive's own temperature each second "
                        "(hwmon), where it was read; a drop in IOPS as it climbs is throttling.")


def _temperature_axis(axes: Axes, runs: Sequence[RunResult]) -> tuple[list[Any], list[str]] | None:
    """Each run's drive temperature, dashed in its colour, on a second y axis in °C; None (and no
    axis) when no run read one."""
    if not any(r.drive_health and r.drive_health.temperatures for r in runs):
        return None
    right = axes.twinx()
    for i, run in enumerate(runs):
        samples = run.drive_health.temperatures if run.drive_health else []
        right.plot([s.elapsed_s for s in samples], [s.celsius for s in samples], color=f"C{i}",
                   linestyle="--", linewidth=1.0, gid=f"seconds-temperature-{i}")
    right.set_ylabel("drive temperature (°C)")
    key = right.plot([], [], color="0.3", linestyle="--", linewidth=1.0)
    return key, ["drive temperature (°C, right axis)"]


def _time_series_caption(runs: Sequence[RunResult], lines: Sequence[RunSeconds]) -> str:
    more = f" The first {MAX_LINES} of {len(runs)} runs are shown." if len(runs) > MAX_LINES else ""
    fewest = min(line.measured for line in lines)
    short = (f" Some runs hold only {fewest} measured second(s): too few to tell a steady drive "
             "from a drifting one; points of 30 s or more show a filling cache or throttling."
             if fewest < 5 else "")
    return ("Per-second IOPS and mean latency (total, submission to completion) of each run, from "
            "its start; hollow markers are seconds that overlap the ramp and are not part of the "
            "result. A steady line means the drive was measured in a steady state; a drop part-way "
            f"often means a full write cache or thermal throttling.{short}{more}")


def _host_monitor(run: RunResult) -> dict[str, tuple[list[float], list[float], list[float]]]:
    by_host: dict[str, tuple[list[float], list[float], list[float]]] = {}
    for sample in sorted(run.monitor, key=lambda s: (s.host, s.elapsed_s)):
        seconds, cpu, net = by_host.setdefault(sample.host, ([], [], []))
        seconds.append(sample.elapsed_s)
        cpu.append(sample.cpu_busy_pct)
        traffic = {n: v for n, v in sample.net_rx_bytes_per_s.items() if n != "lo"}
        traffic_tx = {n: v for n, v in sample.net_tx_bytes_per_s.items() if n != "lo"}
        net.append((sum(traffic.values()) + sum(traffic_tx.values())) / 1e6)
    return by_host


def _link_mb_per_s(run: RunResult) -> float | None:
    speeds = [s for h in run.hosts for n, s in h.nic_speeds_mbps.items() if s > 0 and n != "lo"]
    return max(speeds) / 8 if speeds else None


def monitor_chart(groups: Sequence[RunGroup]) -> Chart | None:
    """CPU and network of every host during the run that watched them longest."""
    watched = [r for g in groups for r in g.runs if r.monitor]
    if not watched:
        return None
    run = max(watched, key=lambda r: len(r.monitor))
    with new_figure(1, 2, height_in=2.6) as (figure, (cpu_ax, net_ax)):
        for i, (host, (seconds, cpu, net)) in enumerate(sorted(_host_monitor(run).items())):
            cpu_ax.plot(seconds, cpu, marker=".", color=f"C{i}", label=host)
            net_ax.plot(seconds, net, marker=".", color=f"C{i}", label=host)
        link = _link_mb_per_s(run)
        if link:
            net_ax.axhline(link, color="0.3", linestyle="--", linewidth=0.9, label=f"link {link:,.0f} MB/s")
        cpu_ax.set_ylim(0, 100)
        _label(cpu_ax, "CPU busy", "CPU busy (%)")
        _label(net_ax, "Network (received + sent)", "network (MB/s)")
        net_ax.set_ylim(bottom=0)
        cpu_ax.legend(loc="lower left")
        net_ax.legend(loc="lower left")
        drawing = to_page(figure)
    name = f"run {run.id} ({run.workload.label})" if run.id else run.workload.label
    caption = (f"Every host's CPU and network each second during {name}. A network line at the link speed means the "
               "network, not the drives, limited the result; CPU near 100 % means the clients did.")
    return Chart("monitor", "CPU and network during the run", caption, drawing)


def _label(axes: Axes, title: str, unit: str) -> None:
    axes.set_title(title)
    axes.set_ylabel(unit)
    axes.set_xlabel("time since the start (s)")
