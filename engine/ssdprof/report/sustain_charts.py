"""A sustained-write test's charts: the fill's write speed each second against the bytes written,
its phases shaded and named as the engine found them, latency beneath; and each recovery write's
speed against its own bytes written, the cache size marked. Nothing is recomputed: the phases, the
cache and the recovered bytes are the :class:`SustainResult`'s."""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.axes import Axes

from ssdprof.model.quantities import format_duration
from ssdprof.model.sustain_results import RecoveryRow, SustainResult, SustainSample
from ssdprof.report.figure import PALETTE, Chart, format_count, new_figure, to_page

__all__ = ["ByteAxis", "byte_axis", "fill_chart", "recovery_chart"]

_PHASE_FILLS = ("#dbe9f6", "#fde2cf", "#e4d9f2", "#d6f0de", "#f7e1ea")


@dataclass(frozen=True)
class ByteAxis:
    """Bytes written shown in one binary unit, chosen by the largest amount drawn."""

    factor: float
    unit: str

    def of(self, n_bytes: float) -> float:
        return n_bytes / self.factor


def byte_axis(largest_bytes: float) -> ByteAxis:
    if largest_bytes >= 2 * (1 << 40):
        return ByteAxis(float(1 << 40), "TiB")
    if largest_bytes >= 2 * (1 << 30):
        return ByteAxis(float(1 << 30), "GiB")
    return ByteAxis(float(1 << 20), "MiB")


def fill_chart(result: SustainResult) -> Chart | None:
    """MB/s each second against bytes written, the phases shaded and named; latency beneath."""
    samples = result.samples
    if not samples:
        return None
    axis = byte_axis(max(s.bytes_written for s in samples))
    latency = [s for s in samples if s.lat_ns_mean is not None]
    # few seconds are marked, each: a fill of one second was a line of one point, drawn as nothing
    marker = "." if len(samples) < 40 else None
    with new_figure(rows=2 if latency else 1, height_in=4.0 if latency else 3.0) as (figure, axes):
        _speed_panel(axes[0], result, axis, marker)
        if latency:
            _latency_panel(axes[1], result, latency, axis, marker)
        axes[-1].set_xlabel(f"bytes written, {axis.unit}")
        drawing = to_page(figure)
    caption = (
        f"The fill's write speed each second (MB/s = 10^6 B/s) against the bytes written, "
        f"{len(samples)} second{'' if len(samples) == 1 else 's'}; the shaded phases are those the change-point detection found, "
        "each named with its speed (the bytes it wrote over its time)"
    )
    return Chart(
        f"sustain-{result.id}-fill", f"The fill of sustained-write test {result.id}", caption, drawing
    )


def _speed_panel(speed: Axes, result: SustainResult, axis: ByteAxis, marker: str | None) -> None:
    """Each second's write speed and each GiB's, the phases shaded and named, the cache marked."""
    samples = result.samples
    _shade_phases(speed, result, axis, named=True)
    speed.plot(
        [axis.of(s.bytes_written) for s in samples],
        [s.bw_bytes_per_s / 1e6 for s in samples],
        color=PALETTE[0],
        linewidth=1.0,
        marker=marker,
        label="each second",
        gid="fill-speed",
    )
    if result.per_gib:
        # each GiB's speed held from its start: the first step begins at 0 bytes
        gibs = result.per_gib
        speed.step(
            [0.0] + [axis.of(g.bytes_written) for g in gibs],
            [gibs[0].bw_bytes_per_s / 1e6] + [g.bw_bytes_per_s / 1e6 for g in gibs],
            where="pre",
            color=PALETTE[1],
            linewidth=1.2,
            label="each GiB",
        )
    _mark_cache(speed, result, axis)
    # headroom above the fastest second, so the phases' names sit clear of the line
    speed.set_ylim(0, max(s.bw_bytes_per_s for s in samples) / 1e6 * 1.3)
    speed.set_xlim(left=0)  # bytes written from the first (one second's point sat alone mid-axis)
    speed.set_ylabel("write speed, MB/s")
    speed.yaxis.set_major_formatter(lambda v, _: format_count(v))
    speed.set_title(f"Write speed against bytes written: {result.label}")
    speed.legend(loc="lower left", fontsize=6.5)


def _latency_panel(lower: Axes, result: SustainResult, latency: list[SustainSample], axis: ByteAxis,
                   marker: str | None) -> None:
    """Each second's mean total latency and, where recorded, its p99, under the same phases."""
    _shade_phases(lower, result, axis, named=False)
    lower.plot(
        [axis.of(s.bytes_written) for s in latency],
        [(s.lat_ns_mean or 0) / 1e6 for s in latency],
        color=PALETTE[3],
        linewidth=1.0,
        marker=marker,
        label="mean",
    )
    p99 = [s for s in latency if s.lat_ns_p99 is not None]
    if p99:
        lower.plot(
            [axis.of(s.bytes_written) for s in p99],
            [(s.lat_ns_p99 or 0) / 1e6 for s in p99],
            color=PALETTE[4],
            linewidth=0.8,
            linestyle="--",
            marker=marker,
            label="p99",
        )
    lower.set_ylim(bottom=0)
    lower.set_xlim(left=0)
    lower.set_ylabel("total latency, ms")
    lower.legend(loc="upper left", fontsize=6.5)


def _shade_phases(axes: Axes, result: SustainResult, axis: ByteAxis, *, named: bool) -> None:
    for phase in result.phases:
        start, end = axis.of(phase.start_bytes), axis.of(phase.start_bytes + phase.bytes_written)
        axes.axvspan(
            start, end, color=_PHASE_FILLS[phase.index % len(_PHASE_FILLS)], linewidth=0, zorder=0
        )
        if named:
            axes.annotate(
                f"{phase.name}\n{phase.bw_bytes_per_s / 1e6:,.0f} MB/s",
                xy=((start + end) / 2, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(0, -3),
                textcoords="offset points",
                ha="center",
                va="top",
                fontsize=6.5,
                color="#333333",
            )


def _mark_cache(axes: Axes, result: SustainResult, axis: ByteAxis) -> None:
    cache = result.verdict.cache_bytes
    if cache is not None:
        axes.axvline(
            axis.of(cache),
            color="#c0392b",
            linestyle="--",
            linewidth=1.0,
            label=f"cache: {axis.of(cache):,.2f} {axis.unit} written before the drop",
        )


def recovery_chart(result: SustainResult) -> Chart | None:
    """Each recovery write's speed against its own bytes written, one line per idle interval."""
    rows = [r for r in result.recovery if r.samples]
    if not rows:
        return None
    axis = byte_axis(max(s.bytes_written for r in rows for s in r.samples))
    with new_figure(height_in=3.0) as (figure, (axes,)):
        for row in rows:
            axes.plot(
                [axis.of(s.bytes_written) for s in row.samples],
                [s.bw_bytes_per_s / 1e6 for s in row.samples],
                marker="." if len(row.samples) < 40 else None,
                linewidth=1.1,
                label=_idle_label(row),
            )
        cache = result.verdict.cache_bytes
        if cache is not None and axis.of(cache) <= axes.get_xlim()[1] * 1.5:
            axes.axvline(
                axis.of(cache),
                color="#c0392b",
                linestyle="--",
                linewidth=1.0,
                label="the cache found in the fill",
            )
        before = result.verdict.before_bw_bytes_per_s
        if before is not None:
            axes.axhline(
                before / 1e6,
                color="grey",
                linestyle=":",
                linewidth=1.0,
                label="the fill's fast speed",
            )
        axes.set_ylim(bottom=0)
        axes.set_xlim(left=0)  # from the write's first byte, as the fill's
        axes.set_xlabel(f"bytes written in the recovery write, {axis.unit}")
        axes.set_ylabel("write speed, MB/s")
        axes.yaxis.set_major_formatter(lambda v, _: format_count(v))
        axes.set_title("Recovery: write speed after each idle interval")
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=6.5)
        drawing = to_page(figure)
    caption = (
        "Each recovery write's speed each second against the bytes it had written, one line per "
        "idle interval; "
        "how far it runs at the fast speed is the cache that came back"
    )
    return Chart(f"sustain-{result.id}-recovery", "Recovery after idle time", caption, drawing)


def _idle_label(row: RecoveryRow) -> str:
    return f"after {format_duration(row.idle_s)} idle"
