"""A trace replay's report page (PDF): what was replayed where and how; whether the target kept the recorded
timing; latency per direction as recorded beside as replayed (p50, p99, mean); IOPS over time and the latency
distribution, both sides drawn; what the trace holds. Every number is the :class:`ReplayResult` the GUI draws
(``replay.get``); this module only lays it out."""

from __future__ import annotations

from ssdprof.model.quantities import format_amount, format_size
from ssdprof.model.replay_results import ReplayResult
from ssdprof.model.trace import TraceSummary
from ssdprof.report.document import render, title_block
from ssdprof.report.layout import Builder, fmt_count, fmt_mb, fmt_us, register_fonts
from ssdprof.report.replay_charts import host_rates_chart, latency_chart, rates_chart, sizes_chart

__all__ = ["build_replay_pdf", "replay_section"]


def build_replay_pdf(result: ReplayResult, *, title: str | None = None) -> bytes:
    b = Builder(register_fonts())
    title = title or "Trace replay"
    started = result.created_at[:19].replace("T", " ")
    title_block(b, title, f"Replay {result.id} ({result.name}), {result.status}; started {started} UTC")
    replay_section(b, result)
    return render(b, title=title, subject="trace replay")


def replay_section(b: Builder, result: ReplayResult) -> None:
    _settings(b, result)
    b.para(result.timing_sentence[:1].upper() + result.timing_sentence[1:] + ".")
    _latency(b, result)
    for chart in (rates_chart(result), latency_chart(result)):
        if chart is not None:
            b.chart(chart)
    _hosts(b, result)
    _trace(b, result.spec.recorded)
    for note in result.spec.notes:
        b.bullet(note)
    for warning in result.warnings:
        b.bullet(f"{warning.severity.value}: {warning.message}")


def _settings(b: Builder, result: ReplayResult) -> None:
    spec = result.spec
    b.heading(f"Trace replay: {result.label}")
    rows = [
        ["trace", f"{spec.trace_path} ({spec.recorded.format.label}), SHA-256 {spec.trace_sha256[:16]}…"],
        ["target", f"{_where(result)}, a region of {format_amount(spec.target_bytes)}"],
        ["timing", spec.timing.label],
        ["in flight", f"at most {spec.lanes} (lanes issuing one I/O at a time)"],
        ["offsets", spec.mapping.label],
        ["engine", result.engine or "–"],
        ["replayed", f"{result.read_io_count:,} reads ({format_amount(result.read_io_bytes)}), "
                     f"{result.write_io_count:,} writes ({format_amount(result.write_io_bytes)})"
                     + (f", the last of {result.repeats} repeats" if result.repeats > 1 else "")],
        ["rate", f"{fmt_count(result.read_iops)} read IOPS ({fmt_mb(result.read_bw_bytes_per_s)} MB/s), "
                 f"{fmt_count(result.write_iops)} write IOPS ({fmt_mb(result.write_bw_bytes_per_s)} MB/s)"],
    ]
    b.table(["", "value"], rows, "what was replayed, where and how", widths=[90, 390], numeric_from=2)


def _latency(b: Builder, result: ReplayResult) -> None:
    shown = [beside for beside in result.latency if beside.trace_count or beside.replayed_count]
    rows = [[beside.direction, f"{beside.trace_count:,}", f"{beside.replayed_count:,}",
             fmt_us(beside.recorded_p50_ns), fmt_us(beside.replayed_p50_ns), fmt_us(beside.recorded_p99_ns),
             fmt_us(beside.replayed_p99_ns), fmt_us(beside.recorded_mean_ns), fmt_us(beside.replayed_mean_ns)]
            for beside in shown]
    if rows:
        b.table(["", "I/Os in trace", "I/Os repl.", "p50 rec. µs", "p50 repl. µs", "p99 rec. µs", "p99 repl. µs",
                 "mean rec. µs", "mean repl. µs"], rows,
                "total latency as recorded in the trace and as replayed (percentiles from bins on both sides; – where "
                "the trace records none)" + (f"; on {result.recorded_copies} hosts each replaying the whole trace, "
                "its recorded I/Os count once per host" if result.recorded_copies > 1 else ""), numeric_from=1)
    for beside in shown:
        if beside.recorded_said:
            b.para(beside.recorded_said[:1].upper() + beside.recorded_said[1:] + ".")


def _where(result: ReplayResult) -> str:
    if result.hosts_mode is None:
        return result.target or "the default scratch folder"
    targets = ", ".join(f"{h.host}:{h.target}" if h.target else h.host for h in result.hosts)
    return f"{len(result.hosts)} SSH hosts started at once, {result.hosts_mode.label}: {targets}"


def _hosts(b: Builder, result: ReplayResult) -> None:
    """Each host beside what it was given: counts and bytes, its span, p50 and p99 recorded and replayed."""
    if not result.hosts:
        return
    b.heading("Each host, replayed beside recorded")
    rows = []
    for host in result.hosts:
        read, write = (next((x for x in host.latency if x.direction == d), None) for d in ("read", "write"))
        rows.append([host.host, f"{host.read_io_count:,} / {host.recorded_read_count:,}",
                     f"{host.write_io_count:,} / {host.recorded_write_count:,}",
                     f"{format_amount(host.read_io_bytes + host.write_io_bytes)} / "
                     f"{format_amount(host.recorded_read_bytes + host.recorded_write_bytes)}",
                     f"{host.replayed_span_s:.3g} / {host.recorded_span_s:.3g}" if host.replayed_span_s is not None
                     else f"– / {host.recorded_span_s:.3g}",
                     f"{host.span_change_pct:+.1f} %" if host.span_change_pct is not None else "–",
                     f"{host.late_over_10ms_pct:.1f} %" if host.late_over_10ms_pct is not None else "–",
                     *(f"{fmt_us(x.replayed_p99_ns)} / {fmt_us(x.recorded_p99_ns)}" if x else "–" for x in (read, write))])
    b.table(["host", "reads repl. / rec.", "writes repl. / rec.", "bytes repl. / rec.", "span s repl. / rec.",
             "span change", "> 10 ms late", "read p99 µs repl. / rec.", "write p99 µs repl. / rec."], rows,
            "each host's part as replayed beside as recorded (the whole trace, or its share of a split one; its span "
            "from the hosts' common start; the share of its I/Os issued more than 10 ms after their recorded time)",
            widths=[44, 50, 50, 78, 52, 42, 42, 60, 60], numeric_from=1)
    for host in result.hosts:
        b.bullet(f"{host.host}: {host.timing_sentence}" + (f"; {host.error}" if host.error else ""))
    chart = host_rates_chart(result)
    if chart is not None:
        b.chart(chart)


def _trace(b: Builder, summary: TraceSummary) -> None:
    b.heading(f"What {summary.source} holds (the part replayed)")
    rows = [
        ["I/Os", f"{summary.io_count:,}: {summary.read_count:,} reads ({summary.read_pct:.0f} %), "
                 f"{summary.write_count:,} writes"],
        ["bytes", f"{format_amount(summary.read_bytes)} read, {format_amount(summary.write_bytes)} written"],
        ["span", f"{summary.duration_s:.3g} s" if summary.timed else "no time recorded"],
        ["offsets", f"{format_amount(summary.offset_min_bytes)} to {format_amount(summary.offset_end_bytes)}"],
        ["disks", ", ".join(f"{s.host + ' ' if s.host else ''}{s.disk} ({s.io_count:,})"
                            for s in summary.streams) or "–"],
        ["most in flight", str(summary.peak_in_flight) if summary.peak_in_flight is not None else "not recorded"],
    ]
    if summary.skipped:
        rows.append(["not replayed", ", ".join(f"{n} {kind}" for kind, n in summary.skipped.items())])
    b.table(["", "value"], rows, "the trace as recorded", widths=[90, 390], numeric_from=2)
    chart = sizes_chart(summary)
    if chart is not None:
        b.chart(chart)
    sizes = ", ".join(f"{format_size(s.size_bytes)}: {s.reads + s.writes}" for s in summary.sizes[:8])
    b.para(f"Access sizes: {sizes}{', …' if len(summary.sizes) > 8 else ''}.")
