"""The PTS report (PDF): the test, its drive state and parameters on the first page; the steady-state
determination (convergence plot, measurement window, measured against allowed excursions); the access
size x mix table, 2-D plot and heat map; latency with max and five nines; write-saturation curves."""

from __future__ import annotations

from ssdprof.model.pts_results import PtsResult, SteadyState
from ssdprof.model.quantities import format_bytes, format_duration, format_size
from ssdprof.report.document import render, title_block
from ssdprof.report.layout import Builder, fmt_count, fmt_mb, fmt_us, register_fonts
from ssdprof.report.pts_charts import convergence_chart, heatmap_chart, matrix_chart, saturation_chart, window_chart

__all__ = ["build_pts_pdf"]

_TITLES = {"iops": "IOPS test", "throughput": "Throughput test", "latency": "Latency test",
           "write-saturation": "Write saturation test"}


def build_pts_pdf(result: PtsResult, *, title: str | None = None) -> bytes:
    b = Builder(register_fonts())
    title = title or f"SNIA PTS {_TITLES.get(result.test, result.test)}"
    title_block(b, title, f"PTS test {result.id} ({result.name}), {result.status}; started "
                          f"{result.created_at[:19].replace('T', ' ')} UTC")
    b.para(("PTS settings" if result.pts_compliant else "NOT PTS-compliant") + f": {result.compliance_note}", "body")
    _setup(b, result)
    _determination(b, result)
    _results(b, result)
    return render(b, title=title, subject=f"SNIA PTS {result.test} test")


def _setup(b: Builder, result: PtsResult) -> None:
    p = result.parameters
    b.heading("Drive state and test parameters")
    state = result.drive_state
    rows = [["target", p.target or "(scratch folder)"],
            ["test region", f"{format_size(p.region_bytes)} from offset {format_size(p.offset_bytes)}"],
            ["engine", p.engine], ["profile", f"{result.profile} ({'PTS-compliant' if result.pts_compliant else 'NOT PTS-compliant'})"]]
    if state is not None:
        purge = state.purge
        rows += [["drive state", result.drive_state_text], ["target identity", state.target_identity],
                 ["purge", f"{purge.method}: {purge.detail}" + (f" ({purge.limitation})" if purge.limitation else "")
                  if purge else "none"],
                 ["preconditioning", f"sequential {format_size(state.preconditioning.block_size_bytes)} writes, "
                  f"{state.preconditioning.passes:g} x region = {format_bytes(state.preconditioning.bytes_written)} "
                  f"written in {format_duration(state.preconditioning.seconds)}" if state.preconditioning else "none (as found)"],
                 ["written since purge", f"{format_bytes(state.bytes_written_since_purge)} before the rounds "
                  f"(counted since {'the last purge' if state.ledger_since == 'purge' else 'ssdprof first used the target'})"]]
    else:
        rows.append(["drive state", "not recorded"])
    sizes = ", ".join(format_size(s) for s in p.block_sizes_bytes)
    mixes = ", ".join(f"{m}/{100 - m}" for m in p.mixes_read_pct)
    rows += [["access sizes", sizes], ["R/W mixes", mixes + (" (sequential)" if p.sequential else " (random)")],
             ["queue depth x jobs", f"QD{p.queue_depth} x T{p.numjobs}"],
             ["round", f"{p.round_time_s:g} s per point, {len(p.block_sizes_bytes) * len(p.mixes_read_pct)} points"],
             ["steady-state rule", f"window {p.window} rounds; data excursion ≤ {p.data_limit_pct:g} %, slope excursion "
                                   f"≤ {p.slope_limit_pct:g} % of the mean; {p.min_rounds}-{p.max_rounds} rounds"]]
    if p.saturation_multiple is not None:
        rows.append(["write saturation", f"until {p.saturation_multiple:g} x the region is written"])
    b.table(["", "value"], rows, "the drive state before the rounds and the PTS parameters", widths=[110, 370],
            numeric_from=2)


def _determination(b: Builder, result: PtsResult) -> None:
    b.heading("Steady-state determination")
    s = result.steady_state
    b.para(f"Tracking variable: {s.tracking}. {'Steady state REACHED' if s.attained else 'Steady state NOT reached'}: {s.reason}.")
    for chart in (convergence_chart(result), window_chart(result)):
        if chart is not None:
            b.chart(chart)
    rows = [row for check in result.checks for row in _check_rows(check)]
    b.table(["tracking variable", "criterion", "measured", "allowed", "met"], rows,
            "steady-state determination: measured against allowed excursions over the measurement window",
            widths=[150, 120, 75, 75, 40], numeric_from=2, text_from=4)
    b.table(["round", f"{s.tracking} ({s.unit})", "runs"],
            [[str(r.round) if r.complete else f"{r.round} (cut short)", fmt_count(r.tracking_value),
              ", ".join(map(str, r.runs)) if len(r.runs) <= 8 else f"{r.runs[0]}-{r.runs[-1]}"] for r in result.rounds],
            "the tracking variable, round by round",
            widths=[70, 170, 240], numeric_from=1, text_from=2)


def _check_rows(check: SteadyState) -> list[list[str]]:
    name = check.tracking + ("" if check.gating else " (reported, not gating)")
    if check.mean is None:
        return [[name, "window", "–", "–", "no"]]
    met_data = (check.data_excursion or 0) <= (check.data_limit or 0) + 1e-9
    met_slope = (check.slope_excursion or 0) <= (check.slope_limit or 0) + 1e-9
    return [[name, f"mean, rounds {check.window[0]}-{check.window[1]}", fmt_count(check.mean), "", ""],
            ["", f"data excursion (≤ {check.data_limit_pct:g} %)", fmt_count(check.data_excursion),
             fmt_count(check.data_limit), "yes" if met_data else "no"],
            ["", f"slope excursion (≤ {check.slope_limit_pct:g} %)", fmt_count(check.slope_excursion),
             fmt_count(check.slope_limit), "yes" if met_slope else "no"]]


def _results(b: Builder, result: PtsResult) -> None:
    b.heading("Results")
    window = result.steady_state.window
    span = f"rounds {window[0]}-{window[1]}" if window else "the rounds measured"
    if result.test == "latency":
        b.table(["access size", "R/W mix", "mean, µs", "max, µs", "p99.999, µs", "IOPS"],
                [[format_size(c.block_size_bytes), c.mix, fmt_us(c.lat_mean_ns), fmt_us(c.lat_max_ns), fmt_us(c.lat_p99_999_ns),
                  fmt_count(c.iops)] for c in result.matrix],
                f"total latency (submission to completion) over {span}: mean, maximum and five nines (from histogram bins)",
                numeric_from=2)
    else:
        value = "MB/s" if result.test == "throughput" else "IOPS"
        b.table(["access size", "R/W mix", value, "MB/s" if value == "IOPS" else "IOPS", "mean lat, µs", "p99.999, µs"],
                [[format_size(c.block_size_bytes), c.mix,
                  fmt_mb(c.bw_bytes_per_s) if value == "MB/s" else fmt_count(c.iops),
                  fmt_count(c.iops) if value == "MB/s" else fmt_mb(c.bw_bytes_per_s), fmt_us(c.lat_mean_ns),
                  fmt_us(c.lat_p99_999_ns)] for c in result.matrix],
                f"access size x read/write mix, averaged over {span}", numeric_from=2)
    for make in (matrix_chart, heatmap_chart, saturation_chart):
        chart = make(result)
        if chart is not None:
            b.chart(chart)
