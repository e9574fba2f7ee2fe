"""The per-second chart: each run a line over its own seconds, readable when a run is short."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import FIO_DATA

from ssdprof.model.health import DriveHealth, HealthRecord, TemperatureSample
from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.report import RunGroup
from ssdprof.report.pdf import ReportRequest, build_pdf
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


def test_each_short_run_is_drawn_level_across_each_of_its_seconds_from_its_start() -> None:
    runs = (short_run(1, (18_000.0, 19_000.0)), short_run(2, (7_000.0, 7_400.0, 7_300.0)))
    chart = time_series_chart([RunGroup("sweep", runs)])
    assert chart is not None
    for i, seconds in enumerate((2, 3)):
        for what in ("iops", "latency"):
            (points, *_) = chart.drawing.groups[f"seconds-{what}-{i}"]
            # a step up or down and a level segment per second, from the run's start
            assert len(points) - 1 == 2 * seconds, (what, i)
    assert {"seconds since the run started", "ramp (not measured)"} <= set(chart.drawing.texts)
    assert "only 1 measured second(s)" in chart.caption


def test_a_one_second_run_is_a_level_line_from_its_start_not_one_dot() -> None:
    run = short_run(1, (18_000.0,), ramp_s=0.0)
    chart = time_series_chart([RunGroup("sweep", (run,))])
    assert chart is not None
    (points, *_) = chart.drawing.groups["seconds-iops-0"]
    assert len({y for _, y in points}) == 1 and points[-1][0] > points[0][0]  # level, with length


def test_a_first_second_short_of_a_second_starts_where_its_io_began() -> None:
    run = short_run(1, (18_000.0, 19_000.0), ramp_s=0.0)
    first = run.progress[0].model_copy(update={"interval_s": 0.897, "start_s": None})  # as fio recorded it
    line = run_seconds(run.model_copy(update={"progress": [first, *run.progress[1:]]}))
    assert abs(line.starts[0] - 0.103) < 1e-9
    assert run_seconds(run).starts[0] == 0.0  # runs stored before intervals were kept: since the run began


def test_runs_measured_only_during_their_ramp_get_no_chart() -> None:
    assert time_series_chart([RunGroup("sweep", (short_run(1, (18_000.0,)),))]) is None


def warm_run(run_id: int, celsius: tuple[float, ...]) -> RunResult:
    """A real run with the drive's temperature each second, as HealthWatch records hwmon's."""
    run = short_run(run_id, tuple(18_000.0 - 500 * i for i in range(len(celsius))))
    record = HealthRecord(before=DriveHealth(device="/dev/nvme0n1", sources=["hwmon"],
                                             temperature_c=celsius[0], temperature_source="hwmon"),
                          temperatures=[TemperatureSample(elapsed_s=i + 1.0, celsius=c)
                                        for i, c in enumerate(celsius)])
    return run.model_copy(update={"drive_health": record})


def test_the_drives_temperature_is_drawn_dashed_beside_iops_on_an_axis_in_degrees() -> None:
    runs = (warm_run(1, (48.0, 51.5, 55.0)), short_run(2, (7_000.0, 7_100.0)))
    chart = time_series_chart([RunGroup("sweep", runs)])
    assert chart is not None
    (points, *_) = chart.drawing.groups["seconds-temperature-0"]
    assert len(points) == 3  # three seconds, one line
    assert chart.drawing.groups["seconds-temperature-1"] == []  # the run without a sensor draws nothing there
    texts = " ".join(chart.drawing.texts)
    assert "drive temperature (°C)" in texts and "right axis" in texts
    assert "Dashed, on the right axis: the drive's own temperature" in chart.caption


def test_runs_without_a_temperature_get_no_second_axis() -> None:
    chart = time_series_chart([RunGroup("sweep", (short_run(1, (18_000.0, 19_000.0)),))])
    assert chart is not None and "drive temperature" not in " ".join(chart.drawing.texts)
    assert "right axis" not in chart.caption


@pytest.mark.skipif(shutil.which("pdftotext") is None,
                    reason="pdftotext (poppler-utils) is not installed")
def test_the_pdfs_time_series_names_the_temperature_axis_as_text() -> None:
    pdf = build_pdf(ReportRequest.of_runs([warm_run(1, (48.0, 51.5, 55.0))]))
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()
    assert "drive temperature (°C)" in text
