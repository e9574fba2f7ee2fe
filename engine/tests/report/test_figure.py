"""The report's house style: the PDF's charts draw in the app's colours."""

from __future__ import annotations

import re
from pathlib import Path

from ssdprof.report.figure import PALETTE, new_figure

PALETTE_TS = Path(__file__).resolve().parents[3] / "src" / "charts" / "palette.ts"


def test_the_pdf_draws_series_in_the_apps_colours_in_the_same_order() -> None:
    declared = re.search(r"export const FALLBACK = \[([^\]]+)\]", PALETTE_TS.read_text())
    assert declared is not None
    assert tuple(re.findall(r"'(#[0-9a-f]{6})'", declared.group(1))) == PALETTE
    with new_figure() as (_, (axes,)):
        lines = [axes.plot([0, 1], [i, i])[0] for i in range(len(PALETTE))]
        assert tuple(line.get_color() for line in lines) == PALETTE
