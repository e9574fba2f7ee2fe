"""A curve's report page (PDF): latency (mean, p99, p99.9) against achieved IOPS with the offered rate as a
guide, saturated points marked, the spec sheet's rated figures and earlier curves overlaid; the knee as the
engine named it; the points in a table. Every number comes from the :class:`CurveSummary` the GUI draws.
A latency-target search (:class:`SloSummary`) gets a page of its own: the answer and every depth tried.
The sections also go into the sweep report (``ssdprof report --sweep``) of a curve or a search."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
from reportlab.platypus import PageBreak

from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.report.document import render, title_block
from ssdprof.report.figure import Chart, log_axis, new_figure, to_page
from ssdprof.report.layout import Builder, fmt_count, fmt_us, register_fonts

__all__ = ["build_curve_pdf", "build_slo_pdf", "curve_chart", "curve_section", "slo_section"]

_LINES = (("lat_ns_mean", "mean", "o"), ("lat_ns_p99", "p99", "s"), ("lat_ns_p99_9", "p99.9", "^"))


def build_curve_pdf(curves: Sequence[CurveSummary], *, earlier: Sequence[CurveSummary] = (), title: str | None = None) -> bytes:
    """One page (or more, for a long table) per curve, each with the ``earlier`` curves overlaid."""
    b = Builder(register_fonts())
    title = title or "Latency under offered load"
    for index, curve in enumerate(curves):
        if index:
            b.story.append(PageBreak())
        else:
            title_block(b, title, f"Curve {curve.sweep_id} ({curve.name}), {curve.status}{f': {curve.reason}' if curve.reason else ''}")
        curve_section(b, curve, earlier)
    return render(b, title=title, subject="latency under offered load")


def build_slo_pdf(slo: SloSummary, *, title: str | None = None) -> bytes:
    """A latency-target search on one page: the answer and every queue depth tried."""
    b = Builder(register_fonts())
    title = title or "The most IOPS within a latency target"
    title_block(b, title, f"Search {slo.sweep_id}, {slo.status}{f': {slo.reason}' if slo.reason else ''}")
    slo_section(b, slo)
    return render(b, title=title, subject="latency target search")




def curve_section(b: Builder, curve: CurveSummary, earlier: Sequence[CurveSummary] = ()) -> None:
    """The curve's settings, knee, chart, points and rated figures (a page's worth)."""
    b.heading(f"Curve {curve.sweep_id}: {curve.label}")
    rows = [["workload", curve.label], ["engine", curve.engine or "–"],
            ["maximum (full speed)", f"{fmt_count(curve.max_iops)} IOPS"],
            ["offered rates", ", ".join(f"{p} %" for p in curve.points_pct) + " of the maximum, Poisson arrivals; saturated "
                              f"when achieved falls more than {curve.tolerance_pct:g} % short"]]
    if curve.stop_latency_ns is not None:
        stopped = f"; stopped at {curve.stopped_at_pct} %" if curve.stopped_at_pct is not None else ""
        rows.append(["stop latency", f"p99 over {fmt_us(curve.stop_latency_ns)} µs{stopped}"])
    if curve.spec is not None:
        rows.append(["spec sheet", f"{curve.spec.title} ({curve.spec.how})" if curve.spec.spec_id else curve.spec.how])
    b.table(["", "value"], rows, "the curve's settings", widths=[110, 370], numeric_from=2)
    b.para(f"<b>Knee:</b> {_escape(curve.knee.text)}" if curve.knee else "Knee: too few fixed-rate points to name one.",
           markup=True)
    if curve.knee is not None and curve.knee.saturation:
        b.para(f"<b>Most points saturated:</b> {_escape(curve.knee.saturation)}", markup=True)
    chart = curve_chart(curve, earlier)
    if chart is not None:
        b.chart(chart)
    b.table(["point", "offered IOPS", "achieved IOPS", "mean, µs", "p50, µs", "p99, µs", "p99.9, µs", "saturated"],
            [[("full speed" if p.pct is None else f"{p.pct} %"), "–" if p.pct is None else fmt_count(p.offered_iops),
              fmt_count(p.achieved_iops), fmt_us(p.lat_ns_mean), fmt_us(p.lat_ns_p50), fmt_us(p.lat_ns_p99),
              fmt_us(p.lat_ns_p99_9), "max" if p.pct is None else "yes" if p.saturated else "no"] for p in curve.points],
            f"the points of curve {curve.sweep_id}: offered and achieved IOPS; total latency (submission to completion, "
            f"from the I/O's {curve.latency_from}), percentiles from histogram bins", numeric_from=1)
    _spec_section(b, curve)


def slo_section(b: Builder, slo: SloSummary) -> None:
    """The search's target, its answer in words and every depth tried, in the order tried."""
    b.heading(f"Latency target {slo.sweep_id}: p{slo.percentile:g} within {fmt_us(slo.latency_ns)} µs")
    b.table(["", "value"],
            [["target", f"p{slo.percentile:g} total latency at or under {fmt_us(slo.latency_ns)} µs"],
             ["deepest queue allowed", f"QD{slo.max_qd}"], ["method", slo.method]],
            "the search's settings", widths=[110, 370], numeric_from=2)
    b.para(f"<b>Answer:</b> {_escape(slo.text)}" if slo.text else "Answer: the search did not finish.",
           markup=True)
    header, rows = _slo_points(slo)
    numbers = len(header) - 4  # IOPS and one or two percentiles
    b.table(header, rows,
            f"the depths tried by search {slo.sweep_id}, in order; total latency (submission to "
            "completion), percentiles from histogram bins", numeric_from=2, text_from=len(header) - 2,
            widths=[34, 62, *[66] * numbers, 62, 322 - 66 * numbers])  # 480 in all


def _slo_points(slo: SloSummary) -> tuple[list[str], list[list[str]]]:
    """The depth table; p99 gets its own column only when the target is at another percentile."""
    extra_p99 = slo.percentile != 99
    header = ["tried", "queue depth", "IOPS", f"p{slo.percentile:g}, µs", *(["p99, µs"] if extra_p99 else []),
              "within target", "answer"]
    rows = []
    for index, q in enumerate(slo.points):
        role = [name for point, name in ((slo.best, "most IOPS"), (slo.deepest, "deepest"))
                if point is not None and point.queue_depth == q.queue_depth]
        rows.append([str(index + 1), f"QD{q.queue_depth}", fmt_count(q.iops), fmt_us(q.lat_ns_at_percentile),
                     *([fmt_us(q.lat_ns_p99)] if extra_p99 else []), "yes" if q.meets else "no",
                     ", ".join(role)])
    return header, rows


def _spec_section(b: Builder, curve: CurveSummary) -> None:
    spec = curve.spec
    if spec is None or spec.spec_id is None:
        return  # no sheet: the settings' table says why and how to choose one (said twice before)
    rows = [[r.label, "vertical line" if r.quantity == "iops" else "horizontal line", f"{r.status}: {r.note}"]
            for r in spec.references]
    rows += [[r.label, "not drawn", r.note] for r in spec.left_out]
    if rows:
        b.table(["rated figure", "drawn as", "note"], rows,
                f"{spec.title}: its figures for this curve's pattern, drawn where measured as rated",
                widths=[210, 62, 208], numeric_from=3)


def curve_chart(curve: CurveSummary, earlier: Sequence[CurveSummary] = ()) -> Chart | None:
    paced = [p for p in curve.points if p.pct is not None and p.lat_ns_p99]
    if not paced:
        return None
    with new_figure(height_in=3.3) as (figure, (axes,)):
        for attribute, name, marker in _LINES:
            pairs = [(p.achieved_iops, v / 1e3) for p in paced if (v := getattr(p, attribute))]
            axes.plot([x for x, _ in pairs], [y for _, y in pairs], marker=marker, label=name)
        axes.plot([p.offered_iops for p in paced], [(p.lat_ns_p99 or 0) / 1e3 for p in paced], linestyle="--", color="grey",
                  linewidth=1.0, label="p99 at the offered rate (guide)")
        saturated = [p for p in paced if p.saturated]
        if saturated:
            axes.scatter([p.achieved_iops for p in saturated], [(p.lat_ns_p99 or 0) / 1e3 for p in saturated], s=70,
                         facecolors="none", edgecolors="#c0392b", linewidths=1.4, zorder=5, label="saturated (p99)")
        for other in earlier:
            points = [p for p in other.points if p.pct is not None and p.lat_ns_p99]
            axes.plot([p.achieved_iops for p in points], [(p.lat_ns_p99 or 0) / 1e3 for p in points], linestyle=":", marker=".",
                      label=f"p99, curve {other.sweep_id} (earlier)")
        for reference in curve.spec.references if curve.spec else []:
            if reference.quantity == "iops":
                axes.axvline(reference.value, color="#2e7d32", linestyle="-.", linewidth=1.1, label=reference.label)
            else:
                axes.axhline(reference.value / 1e3, color="#6a1b9a", linestyle="-.", linewidth=1.1, label=reference.label)
        log_axis(axes, "x", "count")
        axes.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axes.set_yscale("log")
        axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axes.yaxis.set_minor_formatter(NullFormatter())
        axes.set_xlabel("achieved IOPS (the guide: offered IOPS)")
        axes.set_ylabel("total latency, µs")
        axes.set_title(f"Total latency against achieved IOPS: {curve.label}")
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2, fontsize=6.5)
        drawing = to_page(figure)
    caption = (f"mean, p99 and p99.9 total latency against achieved IOPS at {len(paced)} offered rates; the dashed guide "
               "puts p99 at the offered rate instead, so a point that fell short of its rate stands apart from it")
    return Chart(f"curve-{curve.sweep_id}", f"Latency under offered load, curve {curve.sweep_id}", caption, drawing)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
