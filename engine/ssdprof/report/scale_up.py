"""The scale-up sizing as a PDF page: the profile each prediction came from, every architecture's
IOPS and CPU (chart and table) with the ones within the limits marked, the best for QoS-uniformity
and for QoS-priority, and the published error band. Every number comes from the
:class:`~ssdprof.analysis.scale_up_space.ScaleUpResult` the app and ``ssdprof predict --scale-up``
show.
"""

from __future__ import annotations

import math

from matplotlib.axes import Axes

from ssdprof.analysis.scale_up import ScaleUpProfile
from ssdprof.analysis.scale_up_space import ScaleUpArchitecture, ScaleUpResult
from ssdprof.report.document import render, title_block
from ssdprof.report.figure import PALETTE, Chart, format_count, new_figure, to_page
from ssdprof.report.layout import Builder, fmt_count, register_fonts

__all__ = ["CHARTED", "build_scale_up_pdf", "charted", "scale_up_chart", "scale_up_section"]

CHARTED = 24
"""Architectures drawn and tabled: those within the limits first, the most IOPS first, and
always the picks and the daisy chain."""


def build_scale_up_pdf(result: ScaleUpResult, *, title: str | None = None) -> bytes:
    b = Builder(register_fonts())
    title = title or f"Sizing an all-flash array of {result.target_ssds} SSDs"
    title_block(b, title, result.label)
    scale_up_section(b, result)
    return render(b, title=title, subject="scale-up sizing")


def charted(result: ScaleUpResult) -> list[ScaleUpArchitecture]:
    """The first architectures (those within the limits first, then the most IOPS), and the picks
    and the daisy chain always."""
    shown = result.architectures[:CHARTED]
    keys = {a.key for a in shown}
    extra = [
        a
        for a in (result.best_uniform, result.best_priority, result.daisy_chain)
        if a is not None and a.key not in keys
    ]
    return shown + list({a.key: a for a in extra}.values())


def scale_up_section(b: Builder, result: ScaleUpResult) -> None:
    """The profile, the picks, the chart and the table of architectures (a page or two)."""
    b.heading(
        f"Scale-up: {result.sized}"
    )
    b.table(
        ["parameter", "value", "from"],
        _profile_rows(result.profile),
        f"the profile: {result.label}",
        widths=[150, 60, 270],
        numeric_from=1,
        text_from=2,
    )
    for line in result.summary:
        b.para(line)
    if result.none_fit:
        b.para(result.none_fit)
    b.chart(scale_up_chart(result))
    shown = charted(result)
    b.table(
        ["chains", "PCIe slots", "IOPS", "IOPS per array", "CPU cores", "within limits"],
        [
            [
                a.key,
                str(a.pcie_slots),
                fmt_count(a.iops),
                _per_array(a),
                "–" if a.cpu_cores is None else f"{a.cpu_cores:.1f}",
                "yes" if a.within_limits else "; ".join(a.broken),
            ]
            for a in shown
        ],
        f"{len(shown)} of the {result.count} architectures, those within the limits first; "
        "chains: chassis "
        f"and enclosures on each SAS controller, the chassis heading the first; "
        f"{result.error_band.text}",
        widths=[90, 40, 62, 72, 46, 170],
        numeric_from=1,
        text_from=5,
    )
    for note in result.notes:
        b.bullet(note)


def _profile_rows(p: ScaleUpProfile) -> list[list[str]]:
    """Each figure of the profile, its value and where it came from."""
    rows = [
        ["chassis IOPS", fmt_count(p.chassis_iops.value), p.chassis_iops.source],
        *[
            [name, f"{f.value:.1f} %", f.source]
            for name, f in (
                ("drop, first enclosure", p.first_drop_pct),
                ("drop, second enclosure", p.second_drop_pct),
                ("drop, each farther enclosure", p.farther_drop_pct),
            )
        ],
        [
            "arrays per chassis or enclosure",
            f"{p.arrays_per_unit.value:g}",
            p.arrays_per_unit.source,
        ],
    ]
    if p.cpu_factor is not None:
        rows.append(
            [
                "CPU factor (cores per IOPS)",
                f"{p.cpu_factor.slope_cores_per_iops_per_array:.3g}·N + "
                f"{p.cpu_factor.intercept_cores_per_iops:.3g}",
                f"{p.cpu_factor.source}; {p.cpu_factor.quality.summary()}",
            ]
        )
    return rows


def _per_array(a: ScaleUpArchitecture) -> str:
    low, high = fmt_count(a.iops_per_array_min), fmt_count(a.iops_per_array_max)
    return low if low == high else f"{low}–{high}"


def scale_up_chart(result: ScaleUpResult) -> Chart:
    """Each charted architecture's IOPS (bars, coloured by whether it meets the limits, as in the
    app) and CPU cores (points, right axis); the legend above the bars, clear of the tallest."""
    shown = charted(result)
    has_cpu = any(a.cpu_cores is not None for a in shown)
    with new_figure(height_in=3.2) as (figure, (axes,)):
        xs = list(range(len(shown)))
        for within, label, colour in ((True, "within the limits", PALETTE[0]),
                                      (False, "misses a limit", PALETTE[1])):
            picked = [x for x, a in zip(xs, shown, strict=True) if a.within_limits == within]
            if picked:
                axes.bar(picked, [shown[x].iops for x in picked], color=colour, label=label)
        axes.set_xticks(xs, [a.key for a in shown], rotation=60, fontsize=6.5)
        axes.set_xlabel("chain lengths (chassis + enclosures) per SAS controller")
        axes.set_ylabel("predicted IOPS")
        axes.yaxis.set_major_formatter(lambda v, _: format_count(v))
        if has_cpu:
            _cpu_points(axes.twinx(), xs, shown, result.limits.max_cpu_cores)
        figure.legend(loc="outside upper center", ncols=4, frameon=False)
        drawing = to_page(figure)
    what = "IOPS and CPU" if has_cpu else "IOPS"
    return Chart(
        "scale-up",
        f"Predicted {what} of {len(shown)} architectures of {result.target_ssds} SSDs",
        "bars: total IOPS, blue where the architecture meets every limit, red where it misses one"
        + ("; points: CPU cores (right axis)" if has_cpu else ""),
        drawing,
    )


def _cpu_points(
    cpu: Axes, xs: list[int], shown: list[ScaleUpArchitecture], max_cores: float | None
) -> None:
    cores = [math.nan if a.cpu_cores is None else a.cpu_cores for a in shown]
    cpu.plot(xs, cores, "o", color=PALETTE[2], label="CPU cores")
    if max_cores is not None:
        cpu.axhline(max_cores, color=PALETTE[2], linestyle="--", linewidth=1, label="CPU limit")
    cpu.set_ylabel("predicted CPU cores")
    cpu.set_ylim(bottom=0)
    cpu.grid(False)
    cpu.spines["right"].set_visible(True)
