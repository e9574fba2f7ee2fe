"""A curve's PDF page from real fio curves, read back with poppler: the knee, every point, the spec's rated
figures and an earlier curve; the same page from the command line."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import requires_fio
from test_report_pdf import needs_poppler, page_images, page_texts

from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Access, Figure, Interface, Source, Spec, write_spec
from ssdprof.app.adaptive import stored_curve
from ssdprof.app.curve import CurveRequest, plan_curve
from ssdprof.app.planner import SweepRequest, WorkloadInput
from ssdprof.app.runner import Runner
from ssdprof.cli.main import main
from ssdprof.model.curves import CurveSummary
from ssdprof.report.curve import build_curve_pdf
from ssdprof.report.layout import fmt_count, fmt_us
from ssdprof.store.db import Store

pytestmark = [requires_fio, needs_poppler]

SPEC = Spec(id="curve-drive", vendor="Test", model="Curve Drive", interface=Interface.NVME,
            sources=[Source(title="sheet", url="https://example.com/sheet.pdf")],
            figures=[Figure(metric=Access.RAND_READ, value=250_000, unit="IOPS", block_size_bytes=4096, queue_depth=4, threads=1),
                     Figure(metric=Access.RAND_READ, value=600_000, unit="IOPS", block_size_bytes=4096, queue_depth=32),
                     Figure(metric=Access.RAND_READ, value=90, unit="us", statistic="typical")])


@pytest.fixture(scope="module")
def curves(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[int]]]:
    """Two real curves on one database, an earlier one, then 20 and 60 % of the maximum (half-second points at QD4:
    the page is tested here, not the drive)."""
    folder = tmp_path_factory.mktemp("curve-report")
    store = Store(folder / "results.sqlite3")
    ids = []
    try:
        for points in ("40", "20,60"):
            base = WorkloadInput(target=str(folder), engine="fio", pattern="randread", block_size_bytes="4k", queue_depth=4,
                                 runtime_s=0.5, ramp_s=0, size_bytes="32MiB")
            outcome = Runner(store).run_sweep(plan_curve(CurveRequest(sweep=SweepRequest(base=base), points_pct=points)))
            assert outcome.status == "done" and outcome.sweep_id is not None
            ids.append(outcome.sweep_id)
    finally:
        store.close()
    yield folder, ids


def read_back(folder: Path, ids: list[int]) -> tuple[CurveSummary, CurveSummary]:
    store = Store(folder / "results.sqlite3")
    try:
        return stored_curve(store, ids[1], SpecLibrary(specs={SPEC.id: SPEC}), SPEC.id), stored_curve(store, ids[0])
    finally:
        store.close()


def test_the_page_names_the_knee_every_point_the_rated_figures_and_the_earlier_curve(
        curves: tuple[Path, list[int]], tmp_path: Path) -> None:
    curve, earlier = read_back(*curves)
    pdf = tmp_path / "curve.pdf"
    pdf.write_bytes(build_curve_pdf([curve], earlier=[earlier]))
    (text,) = page_texts(pdf)
    assert curve.knee is not None and " ".join(curve.knee.text.split()) in " ".join(text.split())
    for point in curve.points:
        row = next(line.split() for line in text.splitlines() if line.split()[:2] == (["full", "speed"] if point.pct is None
                                                                                      else [str(point.pct), "%"]))
        cells = [fmt_count(point.achieved_iops), fmt_us(point.lat_ns_mean), fmt_us(point.lat_ns_p50), fmt_us(point.lat_ns_p99),
                 fmt_us(point.lat_ns_p99_9), "max" if point.pct is None else "yes" if point.saturated else "no"]
        assert row[-6:] == cells, (row, cells)
        if point.pct is not None:
            assert row[2] == fmt_count(point.offered_iops)
    assert f"p99, curve {earlier.sweep_id} (earlier)" in text  # the legend
    assert "Curve Drive: rated 250,000 IOPS (rand_read, 4 KiB, QD4 x1 threads)" in " ".join(text.split())
    # the figures' table, read in reading order (its cells wrap)
    plain = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split())
    assert "Curve Drive: rated 600,000 IOPS (rand_read, 4 KiB, QD32) not drawn rated at QD32x1 = 32 outstanding I/Os, " \
           "this run had 4 (QD4x1 jobs)" in plain
    assert "rated typical latency 90 µs (rand_read, size not stated, QD not stated) horizontal line unstated: rated for an " \
           "unloaded drive" in plain
    # the chart is drawn: a figure's worth of ink between the knee and the table
    (page,) = page_images(pdf, tmp_path)
    assert (page < 128).mean() > 0.02 and np.any(page[page.shape[0] // 3: 2 * page.shape[0] // 3] < 100)


def test_a_curve_with_no_sheet_for_its_drive_says_so_once(curves: tuple[Path, list[int]], tmp_path: Path) -> None:
    folder, ids = curves
    store = Store(folder / "results.sqlite3")
    try:
        curve = stored_curve(store, ids[1], SpecLibrary(specs={}))
    finally:
        store.close()
    assert curve.spec is not None and curve.spec.spec_id is None
    pdf = tmp_path / "curve.pdf"
    pdf.write_bytes(build_curve_pdf([curve]))
    (text,) = page_texts(pdf)
    # in the settings table, not again in a sentence under the points
    assert " ".join(text.split()).count("choose one (the Curves view's Spec sheet") == 1, text


def test_the_command_line_writes_the_page_of_a_stored_curve(curves: tuple[Path, list[int]], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder, ids = curves
    write_spec(SPEC, tmp_path / "specs")
    db = ["--db", str(folder / "results.sqlite3")]
    assert main(["curve", "--show", str(ids[1]), "--compare", str(ids[0]), "--spec", SPEC.id, "--spec-dir", str(tmp_path / "specs"),
                 "--format", "pdf", "-o", str(tmp_path / "c.pdf"), "--json", *db]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == 3
    (text,) = page_texts(tmp_path / "c.pdf")
    assert f"Curve {ids[1]}: randread 4KiB QD4 T1" in text and "Curve Drive" in text and f"curve {ids[0]} (earlier)" in text
    assert main(["curve", "--show", str(ids[1]), "--format", "pdf", *db]) == 2
    assert "output (-o): a PDF needs a file to go to" in capsys.readouterr().err


def test_the_sweep_report_of_a_curve_carries_its_page(curves: tuple[Path, list[int]], tmp_path: Path) -> None:
    """``ssdprof report --sweep ID`` on a curve: the runs' report plus the curve's knee and points."""
    folder, ids = curves
    curve, _ = read_back(folder, ids)
    assert main(["report", "--sweep", str(ids[1]), "-o", str(tmp_path / "r.pdf"), "--db", str(folder / "results.sqlite3")]) == 0
    text = " ".join(" ".join(page_texts(tmp_path / "r.pdf")).split())
    assert f"Curve {ids[1]}: randread 4KiB QD4 T1" in text and "Results" in text
    assert curve.knee is not None and " ".join(curve.knee.text.split()) in text


def test_a_latency_target_search_has_a_page_from_the_command_line_and_in_its_sweep_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(tmp_path / "results.sqlite3")]
    assert main(["slo", "--target", str(tmp_path), "--engine", "fio", "--rw", "randread", "--bs", "4k", "--size", "32MiB",
                 "--runtime", "0.5", "--ramp", "0", "--percentile", "99", "--latency", "1s", "--max-qd", "4", "--json", *db]) == 0
    search = json.loads(capsys.readouterr().out)
    assert search["deepest"]["queue_depth"] == 4 and search["points"][0]["queue_depth"] == 1  # 1 s: every depth meets
    assert search["best"]["iops"] == max(point["iops"] for point in search["points"])
    sweep = str(search["sweep_id"])
    assert main(["slo", "--show", sweep, "--format", "pdf", "-o", str(tmp_path / "s.pdf"), "--json", *db]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == len(search["points"])
    (text,) = page_texts(tmp_path / "s.pdf")
    plain = " ".join(text.split())
    assert f"Latency target {sweep}: p99 within 1,000,000 µs" in plain and " ".join(search["text"].split()) in plain
    for index, point in enumerate(search["points"]):
        row = next(line.split() for line in text.splitlines() if line.split()[:2] == [str(index + 1), f"QD{point['queue_depth']}"])
        # at p99 the table has no second p99 column; a last column marks the answer and the deepest
        assert row[2:5] == [fmt_count(point["iops"]), fmt_us(point["lat_ns_at_percentile"]),
                            "yes" if point["meets"] else "no"], row

    table = plain[plain.index("Answer:"):plain.index("Table 2")]
    assert table.count("most IOPS") == 2 and "deepest" in table  # in the answer and in its row
    assert main(["report", "--sweep", sweep, "-o", str(tmp_path / "r.pdf"), *db]) == 0
    assert f"Latency target {sweep}" in " ".join(" ".join(page_texts(tmp_path / "r.pdf")).split())
    assert main(["slo", "--show", sweep, "--format", "pdf", *db]) == 2
    assert "output (-o): a PDF needs a file to go to: add -o slo.pdf" in capsys.readouterr().err
