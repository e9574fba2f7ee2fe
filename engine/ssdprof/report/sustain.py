"""A sustained-write test's report page (PDF): what was written where; the verdict in words (the
cache size, the speed before and after the cliff, their ratio and the confidence, or "no cliff";
thermal throttling named where the drive reported it); the fill's chart with its phases shaded and
named; the phases; the recovery after each idle interval. Every number is the :class:`SustainResult`
the GUI draws (``sustain.get``); this module only lays it out."""

from __future__ import annotations

from ssdprof.model.quantities import format_bytes, format_duration, format_elapsed, format_size
from ssdprof.model.sustain_results import SustainResult, SustainVerdict
from ssdprof.report.document import render, title_block
from ssdprof.report.layout import Builder, fmt_mb, fmt_us, register_fonts
from ssdprof.report.sustain_charts import fill_chart, recovery_chart

__all__ = ["build_sustain_pdf", "fmt_bytes", "sustain_section"]


fmt_bytes = format_bytes
"""A byte count in binary units with two decimals: '12.35 GiB' ('–' for none)."""


def build_sustain_pdf(result: SustainResult, *, title: str | None = None) -> bytes:
    b = Builder(register_fonts())
    title = title or "Sustained writes"
    reason = f": {result.reason}" if result.reason else ""
    started = result.created_at[:19].replace("T", " ")
    title_block(b, title, f"Sustained-write test {result.id} ({result.name}), {result.status}{reason}; started "
                          f"{started} UTC")
    sustain_section(b, result)
    return render(b, title=title, subject="sustained-write test")


def sustain_section(b: Builder, result: SustainResult) -> None:
    """The test's settings, verdict, fill chart, phases and recovery (a page or two)."""
    _settings(b, result)
    _verdict(b, result)
    _phases(b, result)
    _recovery(b, result)
    for note in result.notes:
        b.bullet(note)


def _settings(b: Builder, result: SustainResult) -> None:
    p = result.parameters
    b.heading(f"Sustained writes: {result.label}")
    hosts = f" on {', '.join(p.hosts)}" if p.hosts else ""
    where = (p.target or "the default scratch folder") + hosts
    idle = ", ".join(format_duration(s) for s in p.idle_s) or "none"
    rows = [
        ["target", where],
        [
            "writes",
            f"{p.pattern} {format_size(p.block_size_bytes)} at QD{p.queue_depth}, {p.engine}",
        ],
        ["region", f"{fmt_bytes(p.region_bytes)} from offset {p.offset_bytes:,} bytes"],
        [
            "the fill",
            f"{fmt_bytes(p.write_bytes)} asked; {fmt_bytes(result.fill_bytes)} written in "
            f"{format_elapsed(result.fill_seconds)}"
            + (f": {fmt_mb(result.fill_bw_bytes_per_s)} MB/s" if result.fill_bw_bytes_per_s else ""),
        ],
        ["idle intervals", idle],
        [
            "each recovery write",
            fmt_bytes(p.recovery_bytes) if p.recovery_bytes else "1.5 x the cache found",
        ],
    ]
    if result.wear is not None:
        rows.append(["wear", result.wear.text])
    b.table(
        ["", "value"], rows, "what the test wrote, where and how", widths=[110, 370], numeric_from=2
    )


def _verdict(b: Builder, result: SustainResult) -> None:
    v = result.verdict
    b.para(f"<b>{_escape(v.sentence)}</b>", markup=True)
    if result.throttle is not None and result.throttle.text:
        b.para(f"<b>Thermal throttling:</b> {_escape(result.throttle.text)}", markup=True)
    rows = _verdict_rows(v)
    if rows:
        b.table(
            ["", "value"],
            rows,
            "the cliff: change points in the per-second write speed",
            widths=[160, 320],
            numeric_from=2,
        )
    chart = fill_chart(result)
    if chart is not None:
        b.chart(chart)


def _verdict_rows(v: SustainVerdict) -> list[list[str]]:
    rows = []
    if v.cache_bytes is not None:
        rows.append(
            [
                "written before the drop (cache)",
                f"{fmt_bytes(v.cache_bytes)} ({v.cache_bytes:,} bytes)",
            ]
        )
    if v.before_bw_bytes_per_s is not None:
        rows.append(["speed before", f"{fmt_mb(v.before_bw_bytes_per_s)} MB/s"])
    if v.after_bw_bytes_per_s is not None:
        rows.append(["speed after", f"{fmt_mb(v.after_bw_bytes_per_s)} MB/s"])
    if v.ratio is not None:
        rows.append(["before / after", f"{v.ratio:.2f} x"])
    if v.sustained_bw_bytes_per_s is not None:
        said = "speed over the whole write" if v.kind == "no_cliff" else "sustained speed (the last phase)"
        rows.append([said, f"{fmt_mb(v.sustained_bw_bytes_per_s)} MB/s"])
    if v.confidence is not None:
        words = f"{v.confidence_words}, " if v.confidence_words else ""
        separation = (
            f" (separation {v.separation:.1f} pooled sd)" if v.separation is not None else ""
        )
        rows.append(["confidence", f"{words}{v.confidence:.2f}{separation}"])
    for i, drop in enumerate(v.drops[1:], start=2):
        rows.append(
            [
                f"drop {i}",
                f"at {fmt_bytes(drop.at_bytes)}: {fmt_mb(drop.before_bw_bytes_per_s)} → "
                f"{fmt_mb(drop.after_bw_bytes_per_s)} MB/s (−{drop.drop_pct:.0f} %, {drop.cause})",
            ]
        )
    return rows


def _phases(b: Builder, result: SustainResult) -> None:
    if not result.phases:
        return
    b.table(
        [
            "phase",
            "from",
            "written",
            "time",
            "MB/s",
            "± sd",
            "latency mean, µs",
            "± sd",
            "p99, µs",
        ],
        [
            [
                f"{ph.index + 1} {ph.name}",
                fmt_bytes(ph.start_bytes),
                fmt_bytes(ph.bytes_written),
                format_duration(ph.duration_s),
                fmt_mb(ph.bw_bytes_per_s),
                fmt_mb(ph.bw_sd_bytes_per_s),
                fmt_us(ph.lat_ns_mean),
                fmt_us(ph.lat_ns_sd),
                fmt_us(ph.lat_ns_p99_second_median),
            ]
            for ph in result.phases
        ],
        "the phases of the fill between change points: where each began (bytes written before "
        "it), what it wrote, its speed (the bytes it wrote over its time; ± the spread of its seconds' "
        "speeds), total latency (submission to completion), mean and spread over its seconds, and "
        "p99, the median of its seconds' own",
        widths=[92, 56, 56, 40, 50, 40, 56, 40, 50],
        numeric_from=1,
    )


def _recovery(b: Builder, result: SustainResult) -> None:
    if not result.recovery:
        return
    b.heading("Recovery after idle time")
    cache = result.verdict.cache_bytes
    b.para(
        "After the fill the drive was left idle for each interval in turn, then written again; "
        "the bytes it wrote at the fast speed before slowing down again are the cache that came "
        "back"
        + (f" (of {fmt_bytes(cache)} found in the fill)." if cache is not None else ".")
    )
    b.table(
        ["idle", "status", "written", "time", "recovered", "% of cache", "fast MB/s", "MB/s"],
        [
            [
                format_duration(r.idle_s),
                r.status,
                fmt_bytes(r.bytes_written) if r.status == "done" else "–",
                format_elapsed(r.seconds) if r.status == "done" else "–",
                fmt_bytes(r.recovered_bytes),
                "–" if r.recovered_pct is None else f"{r.recovered_pct:.0f} %",
                fmt_mb(r.fast_bw_bytes_per_s),
                fmt_mb(r.bw_bytes_per_s),
            ]
            for r in result.recovery
        ],
        "recovered bytes and speed against idle time; each speed is bytes over the time they took",
        widths=[50, 50, 60, 45, 65, 55, 70, 70],
        numeric_from=2,
    )
    chart = recovery_chart(result)
    if chart is not None:
        b.chart(chart)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
