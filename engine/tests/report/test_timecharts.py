"""The per-second chart: each run a line over its own seconds, readable when a run is short."""

from __future__ import annotations

import re

from conftest import FIO_DATA

from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.report import RunGroup
from ssdprof.report.timecharts import run_seconds, time_series_chart
from ssdprof.store.interchange import import_fio_output


def short_run(run_id: int, iops: tuple[float, ...], ramp_s: float = 0.5) -> RunResult:
    """A real run given per-second samples like a 2 s point's: the first second overlaps the ramp."""
    run = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json")[0]
    samples = [ProgressSample(elapsed_s=i + 1.0, read_iops=v, read_lat_ns_mean=50_000.0,
                              ramping=i + 1.0 <= ramp_s + 0.5) for i, v in enumerate(iops)]
    return run.model_copy(update={"id": run_id, "progress": samples,
                                  "workload": run.workload.model_copy(update={"ramp_s": ramp_s})})


def test_a_runs_seconds_count_from_its_start_with_the_ramps_seconds_marked() -> None:
    line = run_seconds(short_run(1, (18_000.0, 19_000.0)))
    assert line.seconds == [1.0, 2.0] and line.iops == [18_000.0, 19_000.0]
    assert line.ramping == [True, False] and line.measured == 1
    assert line.latency_us == [50.0, 50.0]


def test_each_short_run_is_drawn_as_a_line_through_all_its_seconds_not_one_dot() -> None:
    runs = (short_run(1, (18_000.0, 19_000.0)), short_run(2, (7_000.0, 7_400.0, 7_300.0)))
    chart = time_series_chart([RunGroup("sweep", runs)])
    assert chart is not None
    svg = chart.svg.decode()
    for i, seconds in enumerate((2, 3)):
        for what in ("iops", "latency"):
            path = re.search(rf'<g id="seconds-{what}-{i}">\s*<path d="([^"]+)"', svg)
            assert path is not None, (what, i)
            assert path.group(1).count("L ") == seconds - 1  # one segment per second after the first
    assert "seconds since the run started" in svg and "ramp (not measured)" in svg
    assert "only 1 measured second(s)" in chart.caption


def test_runs_measured_only_during_their_ramp_get_no_chart() -> None:
    assert time_series_chart([RunGroup("sweep", (short_run(1, (18_000.0,)),))]) is None
