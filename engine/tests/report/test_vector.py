"""Charts drawn straight onto the PDF's page: text stays text, lines land where matplotlib put them, images
keep their rows the right way up."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from reportlab.pdfgen.canvas import Canvas

from ssdprof.report.figure import new_figure
from ssdprof.report.layout import register_fonts
from ssdprof.report.page_drawing import PageDrawing
from ssdprof.report.vector import draw_figure


def painted(drawing: PageDrawing, path: Path) -> Path:
    register_fonts()
    canvas = Canvas(str(path), pagesize=(drawing.width, drawing.height))
    drawing.paint(canvas)
    canvas.save()
    return path


def test_a_figure_is_drawn_in_points_with_its_text_and_its_lines_where_matplotlib_put_them() -> None:
    with new_figure(height_in=2.0) as (figure, (axes,)):
        axes.plot([0, 1], [0, 1], gid="diagonal")
        axes.set_title("IOPS µs ± ≥")
        drawing = draw_figure(figure)
        to_points = axes.transData.transform
    assert (drawing.width, drawing.height) == pytest.approx((6.6 * 72, 2.0 * 72))
    assert "IOPS µs ± ≥" in drawing.texts
    (line,) = drawing.groups["diagonal"]
    assert line == pytest.approx(to_points([[0, 0], [1, 1]]))


def test_the_pdf_keeps_a_charts_text_as_selectable_text(tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (poppler-utils) is needed: bash scripts/setup.sh all")
    with new_figure(height_in=2.0) as (figure, (axes,)):
        axes.plot([1, 2], [3, 4])
        axes.set_xlabel("queue depth (I/Os in flight per job)")
        drawing = draw_figure(figure)
    text = subprocess.run(["pdftotext", str(painted(drawing, tmp_path / "chart.pdf")), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "queue depth (I/Os in flight per job)" in text


def test_an_image_keeps_its_first_row_on_top(tmp_path: Path) -> None:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm (poppler-utils) is needed: bash scripts/setup.sh all")
    with new_figure(height_in=2.0) as (figure, (axes,)):
        axes.imshow(np.array([[1.0], [0.0]]), cmap="gray", aspect="auto")  # row 0 white, drawn at the top
        axes.set_axis_off()
        drawing = draw_figure(figure)
    subprocess.run(["pdftoppm", "-r", "36", "-gray", str(painted(drawing, tmp_path / "image.pdf")), str(tmp_path / "page")],
                   check=True)
    (page,) = tmp_path.glob("page*.pgm")
    width, height = (int(v) for v in page.read_bytes().split(b"\n")[1].split())
    pixels = np.frombuffer(page.read_bytes()[-width * height:], dtype=np.uint8).reshape(height, width)
    column = pixels[:, width // 2]
    assert column[height // 4] > 200 and column[3 * height // 4] < 50
