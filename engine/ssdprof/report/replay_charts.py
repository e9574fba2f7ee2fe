"""A replay's charts: IOPS over time as replayed beside as recorded (each step drawn level across the time it
covers), the latency distribution as recorded beside as replayed (from bins), and the trace's access sizes.
Nothing is recomputed: every value is the :class:`ReplayResult`'s or its trace summary's."""

from __future__ import annotations

from matplotlib.axes import Axes

from ssdprof.model.quantities import format_size
from ssdprof.model.replay_results import RateStep, ReplayResult
from ssdprof.model.trace import TraceSummary
from ssdprof.report.figure import PALETTE, Chart, format_count, legend_below, log_axis, new_figure, to_page

__all__ = ["host_rates_chart", "latency_chart", "rates_chart", "sizes_chart"]


def rates_chart(result: ReplayResult) -> Chart | None:
    """Reads and writes per second, replayed (solid) beside recorded (dashed), on the trace's steps."""
    if not result.rates:
        return None
    with new_figure(height_in=2.8) as (figure, axes):
        plot = axes[0]
        for direction, colour in (("read", PALETTE[0]), ("write", PALETTE[1])):
            for side, style in (("recorded", "--"), ("replayed", "-")):
                _level(plot, result.rates, f"{side}_{direction}_iops", colour=colour, style=style,
                       label=f"{direction}s {side}")
        plot.set_xlim(left=0)
        plot.set_ylim(bottom=0)
        plot.set_xlabel("time from the first I/O, s")
        plot.set_ylabel("IOPS" + (f" (mean over {result.rate_step_s} s)" if result.rate_step_s > 1 else ""))
        plot.yaxis.set_major_formatter(lambda v, _: format_count(v))
        copies = f" (recorded × {result.recorded_copies}: the whole trace on each host)" if result.recorded_copies > 1 else ""
        plot.set_title(f"IOPS over time: replayed beside recorded{copies}")
        legend_below(figure, plot)
        drawing = to_page(figure)
    return Chart("replay-rates", "IOPS over time", "Each step is drawn level across the time it covers; recorded: the "
                 "trace's own I/Os counted per step by their recorded time, replayed: the I/Os fio issued in each step "
                 "(its per-I/O submission log; its per-second counts where no log was kept).", drawing)


def host_rates_chart(result: ReplayResult) -> Chart | None:
    """Each SSH host's I/Os per second (reads and writes together), replayed (solid) beside what it was given as
    recorded (dashed), on the trace's steps from the hosts' common start."""
    if not any(host.rates for host in result.hosts):
        return None
    with new_figure(height_in=2.8) as (figure, axes):
        plot = axes[0]
        for index, host in enumerate(result.hosts):
            colour = PALETTE[index % len(PALETTE)]
            for side, style in (("recorded", "--"), ("replayed", "-")):
                steps = [r for r in host.rates if getattr(r, f"{side}_read_iops") is not None]
                if steps:
                    ys = [(getattr(r, f"{side}_read_iops") or 0) + (getattr(r, f"{side}_write_iops") or 0) for r in steps]
                    plot.stairs(ys, [r.start_s for r in steps] + [steps[-1].start_s + steps[-1].span_s], color=colour,
                                linestyle=style, linewidth=1.1, label=f"{host.host} {side}", baseline=None)
        plot.set_xlim(left=0)
        plot.set_ylim(bottom=0)
        plot.set_xlabel("time from the hosts' common start, s")
        plot.set_ylabel("IOPS" + (f" (mean over {result.rate_step_s} s)" if result.rate_step_s > 1 else ""))
        plot.yaxis.set_major_formatter(lambda v, _: format_count(v))
        plot.set_title("IOPS per host: replayed beside recorded")
        legend_below(figure, plot)
        drawing = to_page(figure)
    return Chart("replay-host-rates", "IOPS per host", "Reads and writes together, each step drawn level across the "
                 "time it covers; recorded: the I/Os the host was given, counted by their recorded time; replayed: the "
                 "I/Os its fio issued in each step.", drawing)


def _level(plot: Axes, rates: list[RateStep], field: str, *, colour: str, style: str, label: str) -> None:
    steps = [r for r in rates if getattr(r, field) is not None]
    if not steps or not any(getattr(r, field) for r in steps):
        return
    xs = [r.start_s for r in steps] + [steps[-1].start_s + steps[-1].span_s]
    ys = [getattr(r, field) for r in steps]
    plot.stairs(ys, xs, color=colour, linestyle=style, linewidth=1.1, label=label, baseline=None)


def latency_chart(result: ReplayResult) -> Chart | None:
    """The share of I/Os at or below each latency, as recorded and as replayed, per direction (log latency)."""
    lines = [(side, beside.direction, cdf) for beside in result.latency
             for side, cdf in (("recorded", beside.recorded_cdf), ("replayed", beside.replayed_cdf)) if cdf]
    if not lines:
        return None
    with new_figure(height_in=2.8) as (figure, axes):
        plot = axes[0]
        for side, direction, cdf in lines:
            colour = PALETTE[0] if direction == "read" else PALETTE[1]
            plot.step([p.latency_ns / 1000 for p in cdf], [p.share * 100 for p in cdf], where="post", color=colour,
                      linestyle="--" if side == "recorded" else "-", linewidth=1.1, label=f"{direction}s {side}")
        log_axis(plot, "x", "count")
        plot.set_ylim(0, 100)
        plot.set_xlabel("total latency, µs")
        plot.set_ylabel("I/Os at or below, %")
        plot.set_title("Latency as recorded beside as replayed")
        legend_below(figure, plot)
        drawing = to_page(figure)
    return Chart("replay-latency", "Latency distribution", "From fio-layout histogram bins on both sides (the trace's "
                 "recorded latencies binned as fio bins its own); p50 and p99 are read from the same bins.", drawing)


def sizes_chart(summary: TraceSummary) -> Chart | None:
    """Reads and writes per access size, side by side."""
    if not summary.sizes:
        return None
    with new_figure(height_in=2.4) as (figure, axes):
        plot = axes[0]
        positions = range(len(summary.sizes))
        plot.bar([p - 0.2 for p in positions], [s.reads for s in summary.sizes], width=0.4, color=PALETTE[0], label="reads")
        plot.bar([p + 0.2 for p in positions], [s.writes for s in summary.sizes], width=0.4, color=PALETTE[1],
                 label="writes")
        plot.set_xticks(list(positions), [format_size(s.size_bytes) for s in summary.sizes],
                        rotation=45 if len(summary.sizes) > 8 else 0, fontsize=7)
        plot.yaxis.set_major_formatter(lambda v, _: format_count(v))
        plot.set_xlabel("access size")
        plot.set_ylabel("I/Os")
        plot.set_title(f"Access sizes of {summary.source}")
        legend_below(figure, plot)
        drawing = to_page(figure)
    return Chart("replay-sizes", "Access sizes", "The I/Os of the part replayed, by access size.", drawing)
