"""Which charts a report draws from which runs, and the numbers behind them (real fio outputs)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from conftest import FIO_DATA
from scipy import stats
from student_sweep import measured_again, student_runs

from ssdprof.analysis.welch import mean_ci
from ssdprof.model import histogram
from ssdprof.model.histogram import percentile
from ssdprof.model.results import RunResult
from ssdprof.report import RunGroup, report_charts
from ssdprof.report.groups import Summary, repeat_summaries, series_over
from ssdprof.report.page_drawing import Text
from ssdprof.report.series import bar_chart
from ssdprof.report.timecharts import _nines, _percentile_line
from ssdprof.store.interchange import import_fio_output


def fio_run(name: str, **workload: object) -> RunResult:
    run = import_fio_output(FIO_DATA / name)[0]
    return run.model_copy(update={"workload": run.workload.model_copy(update=workload)})


def test_repeats_are_summarised_by_the_one_students_t_interval() -> None:
    run = fio_run("fio-3.33_randread_qd1.jsonplus.json")
    runs = tuple(run.model_copy(update={"read": run.read.model_copy(update={"iops": v})}) for v in (10.0, 12.0, 14.0))
    found = Summary("", "", runs).figure("iops")
    expected = mean_ci([10.0, 12.0, 14.0])
    assert found is not None and (found.value, found.half_width, found.n) == (expected.mean, expected.half_width, 3)
    assert found.half_width == pytest.approx(stats.t.ppf(0.975, 2) * 2 / math.sqrt(3))
    one = Summary("", "", runs[:1]).figure("iops")
    assert one is not None and (one.value, one.half_width, one.n) == (10.0, None, 1)


def test_a_percentile_of_repeats_is_that_of_their_added_bins_not_a_mean_of_their_percentiles() -> None:
    run = fio_run("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")
    slow = run.model_copy(update={"read": run.read.model_copy(update={
        "lat_bins_ns": {value * 10: count for value, count in run.read.lat_bins_ns.items()},
        "lat_ns": run.read.lat_ns.model_copy(update={"p99": run.read.lat_ns.p99 * 10})})})
    found = Summary("", "", (run, slow)).figure("lat_ns_p99")
    merged = percentile(histogram.merge([run.read.lat_bins_ns, slow.read.lat_bins_ns]), Fraction(99))
    assert found is not None and found.pooled and found.half_width is None and found.n == 2
    assert found.value == merged
    assert found.value != (run.read.lat_ns.p99 + slow.read.lat_ns.p99) / 2


def test_the_percentile_line_reads_fios_own_percentiles_off_the_bins() -> None:
    bins = fio_run("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json").read.lat_bins_ns
    xs, ys = _percentile_line(bins)
    for pct in (50, 90, 99, 99.9):
        x = _nines(pct / 100)
        at = next(y for x0, x1, y in zip(xs[::2], xs[1::2], ys[::2], strict=True) if x0 < x <= x1)
        assert at * 1e3 == percentile(bins, Fraction(str(pct)))


def test_series_hold_only_runs_that_differ_in_the_varied_factor() -> None:
    qd1 = fio_run("fio-3.33_randread_qd1.jsonplus.json")
    big = fio_run("fio-3.33_randread_qd1.jsonplus.json", block_size_bytes=65536)
    deep = fio_run("fio-3.33_randread_qd1.jsonplus.json", queue_depth=8)
    group = [RunGroup("g", (qd1, big, deep))]
    (by_size,) = series_over(group, "block_size")
    assert [p.x for p in by_size.points] == [4096, 65536] and "QD1" in by_size.label
    (by_depth,) = series_over(group, "queue_depth")
    assert [p.x for p in by_depth.points] == [1, 8]


def test_a_queue_depth_axis_is_labelled_at_the_depths_measured_and_nowhere_else() -> None:
    run = fio_run("fio-3.33_randread_qd1.jsonplus.json")
    runs = tuple(run.model_copy(update={"id": i + 1, "workload": run.workload.model_copy(update={"queue_depth": qd})})
                 for i, qd in enumerate((1, 4, 16)))
    (chart,) = [c for c in report_charts([RunGroup("g", runs)])[0] if c.key == "queue_depth"]
    # both plots' x axes: 1, 4 and 16, not the log scale's 1, 2, 3, 6 (which left QD4 and QD16 unlabelled)
    numbers = [p for p in chart.drawing.parts if isinstance(p, Text) and p.text.isdigit()]
    lowest = min(p.y for p in numbers)  # the x tick labels sit below every y tick label
    ticks = sorted((p.text for p in numbers if abs(p.y - lowest) < 1), key=int)
    assert ticks == ["1", "1", "4", "4", "16", "16"], chart.drawing.texts


def test_one_run_gets_distribution_charts_but_no_scaling_charts() -> None:
    main, cluster = report_charts([RunGroup("one", (fio_run("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json"),))])
    assert [c.key for c in main] == ["percentiles"] and cluster == []
    texts = " ".join(main[0].drawing.texts)
    assert "Latency percentiles (total, submission to completion)" in texts and "completion latency only" not in texts


def test_past_its_most_lines_the_percentile_chart_keeps_each_settings_line_of_all_its_ios_before_any_direction() -> None:
    """The PDF's tables headline a mixed run by all its I/Os: the chart leaves out directions, never that line."""
    run = fio_run("fio-3.33_randrw_psync_lat.jsonplus.json")
    runs = tuple(run.model_copy(update={"id": i + 1, "workload": run.workload.model_copy(update={"block_size_bytes": bs})})
                 for i, bs in enumerate((4096, 8192, 16384, 32768)))
    (chart,) = [c for c in report_charts([RunGroup("g", runs)])[0] if c.key == "percentiles"]
    legend = [t for t in chart.drawing.texts if t.startswith("randrw 70%R")]
    assert [t for t in legend if t.endswith("all I/Os")] == [f"randrw 70%R {size} QD1 T1 all I/Os"
                                                            for size in ("4KiB", "8KiB", "16KiB", "32KiB")]
    assert len(legend) == 6 and "The first 6 of 12 are shown" in chart.caption


def test_a_run_without_total_latency_bins_is_drawn_labelled_as_completion_latency() -> None:
    main, _ = report_charts([RunGroup("one", (fio_run("fio-3.33_randread_qd1.jsonplus.json"),))])
    assert [c.key for c in main] == ["percentiles"] and "completion latency only" in " ".join(main[0].drawing.texts)


def test_repeats_and_comparisons_get_error_bar_charts() -> None:
    run = fio_run("fio-3.33_randread_qd1.jsonplus.json")
    a, b = (run.model_copy(update={"id": i + 1, "sweep_id": 4, "repeat": i}) for i in range(2))
    (summary,) = repeat_summaries([RunGroup("g", (a, b))])
    assert (len(summary.runs), summary.source) == (2, "n = 2 repeats of sweep 4")
    main, _ = report_charts([RunGroup("g", (a, b))])
    assert "repeat_bars" in [c.key for c in main]
    main, _ = report_charts([RunGroup("SATA", (a,)), RunGroup("PCIe", (b,))])
    assert "repeat_bars" in [c.key for c in main]


def test_multi_host_runs_get_per_host_bars() -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_cs_2clients.jsonplus.json")[0]
    _, cluster = report_charts([RunGroup("cluster", (run,))])
    assert [c.key for c in cluster] == ["host_bars"]
    for host in run.hosts:
        assert host.host in cluster[0].drawing.texts


def test_the_student_presets_three_series_keep_their_4k_qd1_reads_apart_unless_pooled() -> None:
    runs = tuple(student_runs())
    summaries = repeat_summaries([RunGroup("sweep 1", runs)])
    assert [s.label for s in summaries][:2] == ["randread 4KiB QD1 T1 (run 1)",
                                                "randread 16KiB QD1 T1"]
    assert all(len(s.runs) == 1 for s in summaries) and len(summaries) == 10
    by_mix, *separately = series_over([RunGroup("sweep 1", runs)], "read_pct")
    # the line is the mix series as measured (runs 4-7); the other 100 % reads are points of their own
    assert [(p.x, p.source) for p in by_mix.points] == [(0, "run 7"), (50, "run 6"), (70, "run 5"),
                                                        (100, "run 4")]
    assert [[(p.x, p.source) for p in s.points] for s in separately] == [[(100, "run 8")], [(100, "run 1")]]
    assert all(s.label.endswith("measured separately)") for s in separately)
    pooled = repeat_summaries([RunGroup("sweep 1", runs, pool=True)])
    assert [(s.label, s.source) for s in pooled if len(s.runs) > 1] == [
        ("randread 4KiB QD1 T1", "n = 2 runs pooled from sweep 1")]


def test_a_curves_offered_rates_are_never_one_point() -> None:
    first = student_runs()[0]
    curve = tuple(measured_again(first, run_id=60 + i, sweep_id=9, rate_iops=rate, queue_depth=qd)
                  for i, rate in enumerate((2000, 4000, 8000)) for qd in (1, 4))
    assert [len(s.runs) for s in repeat_summaries([RunGroup("curve", curve, pool=True)])] == [1] * 6
    series = series_over([RunGroup("curve", curve)], "queue_depth")
    assert [s.label for s in series] == [f"randread 4KiB T1 @{rate} IOPS"
                                         for rate in (2000, 4000, 8000)]


def test_bars_grouped_by_node_count_compare_one_setting_across_the_groups() -> None:
    sizes = student_runs()[:3]  # 4, 16 and 128 KiB reads

    def on_nodes(nodes: int, first_id: int) -> tuple[RunResult, ...]:
        return tuple(measured_again(r, run_id=first_id + i, sweep_id=nodes).model_copy(
            update={"tags": {"nodes": str(nodes)}}) for i, r in enumerate(sizes))

    chart = bar_chart([RunGroup("nodes=1", on_nodes(1, 10)), RunGroup("nodes=2", on_nodes(2, 20))], "iops")
    # the node count is what tells the groups apart: it is not part of the setting compared
    assert chart.categories == ["randread 4KiB QD1 T1", "randread 16KiB QD1 T1", "randread 128KiB QD1 T1"]
    assert all(p.y is not None for s in chart.series for p in s.points)


def test_the_latency_iops_curves_queue_depth_labels_sit_inside_the_plot_above_its_x_axis() -> None:
    run = fio_run("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")
    runs = tuple(run.model_copy(update={"id": i + 1, "workload": run.workload.model_copy(update={"queue_depth": qd}),
                                        "read": run.read.model_copy(update={"iops": run.read.iops * (1 + i)})})
                 for i, qd in enumerate((1, 4, 16)))
    (chart,) = [c for c in report_charts([RunGroup("g", runs)])[0] if c.key == "latency_iops"]
    texts = [p for p in chart.drawing.parts if isinstance(p, Text)]
    labels = [p for p in texts if p.text.startswith("QD")]
    ticks = [p for p in texts if p.text.endswith("k") and p.angle == 0 and p.y < min(q.y for q in labels) + 40]
    assert [p.text for p in labels] == ["QD1", "QD4", "QD16"]
    # the x tick labels' tops (their baseline + size) lie below every label's baseline, with the axis line between
    assert max(p.y + p.size for p in ticks) + 4 < min(p.y for p in labels), [(p.text, p.y) for p in texts]
