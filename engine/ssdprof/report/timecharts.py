"""The report's distribution and time charts: latency percentiles from histogram bins, per-second
IOPS and latency, and each host's CPU and network during multi-host runs.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from matplotlib.axes import Axes

from ssdprof.model.histogram import cumulative, merge
from ssdprof.model.results import RunResult
from ssdprof.report.figure import Chart, format_count, log_axis, new_figure, to_svg
from ssdprof.report.groups import RunGroup, repeat_summaries

__all__ = ["monitor_chart", "percentile_chart", "time_series_chart"]

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
    lines: list[tuple[str, dict[int, int]]] = []
    for summary in repeat_summaries(groups):
        for direction in ("read", "write"):
            sides = [getattr(r, direction) for r in summary.runs]
            bins, kind = merge(s.lat_bins_ns for s in sides), ""
            if not bins:  # older runs recorded only completion latency: drawn as such, never as total
                bins, kind = merge(s.clat_bins_ns for s in sides), " (completion latency only)"
            if bins:
                prefix = f"{summary.group}: " if len(groups) > 1 else ""
                lines.append((f"{prefix}{summary.label} {direction}{kind}", bins))
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
        axes.legend(loc="upper left")
        svg = to_svg(figure)
    more = f" The first {MAX_LINES} of {len(lines)} are shown." if len(lines) > MAX_LINES else ""
    caption = ("The latency below which the given share of I/Os completed, read straight from the histogram bins (repeats "
               f"merged by adding bins, never by averaging percentiles).{more}")
    return Chart("percentiles", "Latency percentile distribution", caption, svg)


def _per_second(run: RunResult) -> tuple[list[float], list[float], list[float | None]]:
    """Measured seconds only (ramp left out), hosts added up."""
    iops: dict[float, float] = defaultdict(float)
    latency: dict[float, list[float]] = defaultdict(list)
    for sample in run.progress:
        if sample.ramping:
            continue
        second = round(sample.elapsed_s, 1)
        iops[second] += sample.read_iops + sample.write_iops
        latency[second] += [v for v in (sample.read_lat_ns_mean, sample.write_lat_ns_mean) if v is not None]
    seconds = sorted(iops)
    return seconds, [iops[s] for s in seconds], [sum(latency[s]) / len(latency[s]) / _US if latency[s] else None for s in seconds]


def time_series_chart(groups: Sequence[RunGroup]) -> Chart | None:
    runs = [r for g in groups for r in g.runs if any(not s.ramping for s in r.progress)]
    if not runs:
        return None
    shown = runs[:MAX_LINES]
    with new_figure(1, 2, height_in=2.7) as (figure, (iops_ax, lat_ax)):
        for i, run in enumerate(shown):
            seconds, iops, latency = _per_second(run)
            label = f"run {run.id}: {run.workload.label}" if run.id else run.workload.label
            iops_ax.plot(seconds, iops, marker=".", color=f"C{i}", label=label)
            lat_ax.plot([s for s, v in zip(seconds, latency, strict=True) if v is not None],
                        [v for v in latency if v is not None], marker=".", color=f"C{i}")
        iops_ax.set_title("IOPS each second")
        iops_ax.set_ylabel("IOPS")
        iops_ax.yaxis.set_major_formatter(lambda v, _: format_count(v))
        lat_ax.set_title("Mean latency each second")
        lat_ax.set_ylabel("latency (µs)")
        for axes in (iops_ax, lat_ax):
            axes.set_xlabel("time since the start (s)")
            axes.set_xlim(left=0)
            axes.set_ylim(bottom=0)
        iops_ax.legend(loc="lower left")
        svg = to_svg(figure)
    more = f" The first {MAX_LINES} of {len(runs)} runs are shown." if len(runs) > MAX_LINES else ""
    caption = ("Per-second IOPS and mean latency (total, submission to completion) after the ramp: a steady line means "
               "the drive was measured in a steady state; a drop part-way often means a full write cache or thermal throttling."
               f"{more}")
    return Chart("time_series", "Time series", caption, svg)


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
        svg = to_svg(figure)
    name = f"run {run.id} ({run.workload.label})" if run.id else run.workload.label
    caption = (f"Every host's CPU and network each second during {name}. A network line at the link speed means the "
               "network, not the drives, limited the result; CPU near 100 % means the clients did.")
    return Chart("monitor", "CPU and network during the run", caption, svg)


def _label(axes: Axes, title: str, unit: str) -> None:
    axes.set_title(title)
    axes.set_ylabel(unit)
    axes.set_xlabel("time since the start (s)")
