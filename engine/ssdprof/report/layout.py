"""The report's typography and building blocks: fonts, paragraph styles, numbered tables and figures.

The document and its charts share one font, DejaVu Sans, taken from matplotlib's own data folder
(so nothing depends on the system's fonts) and embedded as a subset: µ, ± and ≥ print, and all
text stays selectable.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import matplotlib
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

from ssdprof.report.figure import Chart
from ssdprof.report.page_drawing import ChartFlowable

__all__ = ["FRAME_WIDTH", "MARGIN", "Builder", "fit_widths", "fmt_count", "fmt_mb", "fmt_us", "register_fonts"]

MARGIN = 2 * cm
FRAME_WIDTH = 21 * cm - 2 * MARGIN
_FONTS = {"DejaVuSans": "DejaVuSans.ttf", "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
          "DejaVuSans-Oblique": "DejaVuSans-Oblique.ttf", "DejaVuSansMono": "DejaVuSansMono.ttf"}
_GRID = colors.HexColor("#b8bec6")
_HEAD = colors.HexColor("#e8ecf1")


_FONTS_LOCK = threading.Lock()


def register_fonts() -> tuple[str, ...]:
    """DejaVu Sans registered with reportlab, once per process (reading and parsing the font files took
    a tenth of a second per report); the names of its faces, which the charts' text is drawn in."""
    with _FONTS_LOCK:  # reports may be built on several RPC threads at once
        return _registered_fonts()


@functools.cache
def _registered_fonts() -> tuple[str, ...]:
    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, file in _FONTS.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    pdfmetrics.registerFontFamily("DejaVuSans", normal="DejaVuSans", bold="DejaVuSans-Bold", italic="DejaVuSans-Oblique",
                                  boldItalic="DejaVuSans-Bold")
    return tuple(_FONTS)


def fmt_count(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"


def fmt_mb(bytes_per_s: float | None, factor: float = 1e6) -> str:
    return "–" if bytes_per_s is None else f"{bytes_per_s / factor:,.1f}"


def fmt_us(ns: float | None) -> str:
    if ns is None:
        return "–"
    us = ns / 1e3
    return f"{us:,.0f}" if us >= 100 else f"{us:,.1f}" if us >= 10 else f"{us:,.2f}"


def _paragraph_styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName="DejaVuSans", fontSize=9, leading=12.5, alignment=TA_LEFT, spaceAfter=4)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName="DejaVuSans-Bold", fontSize=17, leading=21, spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=10, textColor=colors.HexColor("#444444")),
        "h1": ParagraphStyle("h1", parent=base, fontName="DejaVuSans-Bold", fontSize=12.5, leading=16, spaceBefore=10,
                             spaceAfter=5, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=base, fontName="DejaVuSans-Bold", fontSize=10, leading=13, spaceBefore=6,
                             keepWithNext=1),
        "caption": ParagraphStyle("caption", parent=base, fontSize=7.8, leading=10, textColor=colors.HexColor("#333333"),
                                  spaceBefore=2, spaceAfter=8),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.5, leading=9, spaceAfter=0),
        "number": ParagraphStyle("number", parent=base, fontSize=7.5, leading=9, spaceAfter=0, alignment=TA_RIGHT),
        "head": ParagraphStyle("head", parent=base, fontName="DejaVuSans-Bold", fontSize=7.5, leading=9, spaceAfter=0),
        "code": ParagraphStyle("code", parent=base, fontName="DejaVuSansMono", fontSize=7.2, leading=8.8),
        "bullet": ParagraphStyle("bullet", parent=base, leftIndent=12, bulletIndent=2),
    }


_STYLES = _paragraph_styles()


@dataclass
class Builder:
    """Collects the story: headings numbered 1, 2, ...; 'Table N' and 'Figure N' captions."""

    fonts: tuple[str, ...]
    """The registered faces (:func:`register_fonts`)."""
    story: list[Flowable] = field(default_factory=list)
    sections: int = 0
    tables: int = 0
    figures: int = 0
    styles: dict[str, ParagraphStyle] = field(default_factory=lambda: _STYLES)
    """The paragraph styles, made once per process and shared by every report (never changed)."""
    _parts: dict[int, list[Flowable]] = field(default_factory=dict)
    """What each KeepTogether of the story holds, by its id (reportlab keeps it private)."""

    def _together(self, parts: list[Flowable]) -> Flowable:
        """``parts`` kept on one page; their list kept too, so a heading held with them joins them."""
        whole = KeepTogether(parts)
        self._parts[id(whole)] = parts
        return whole

    def kept(self) -> list[Flowable]:
        """The story to print: each heading held on one page with what follows it (a heading kept with a
        chart was left alone at a page's foot: reportlab's keepWithNext let a chart's own KeepTogether
        move on without it)."""
        found: list[Flowable] = []
        held: list[Flowable] = []
        for flowable in self.story:
            if isinstance(flowable, Paragraph) and getattr(flowable.style, "keepWithNext", False):
                held.append(flowable)
                continue
            # a KeepTogether's own height reads as endless to another wrapped around it: its content is merged
            inner = self._parts.get(id(flowable), [flowable])
            found.append(KeepTogether([*held, *inner]) if held else flowable)
            held = []
        return found + held

    def para(self, text: str, style: str = "body", *, markup: bool = False) -> None:
        self.story.append(Paragraph(text if markup else escape(text), self.styles[style]))

    def bullet(self, text: str) -> None:
        self.story.append(Paragraph(escape(text), self.styles["bullet"], bulletText="•"))

    def heading(self, text: str) -> None:
        self.sections += 1
        self.story.append(Paragraph(escape(f"{self.sections}  {text}"), self.styles["h1"]))

    def code(self, text: str) -> None:
        """A boxed listing, in two columns when long, kept on one page."""
        lines = escape(text.rstrip("\n")).replace(" ", "&nbsp;").split("\n")
        half = (len(lines) + 1) // 2 if len(lines) > 12 else len(lines)
        columns = [Paragraph("<br/>".join(part), self.styles["code"]) for part in (lines[:half], lines[half:]) if part]
        box = Table([columns], colWidths=[FRAME_WIDTH / len(columns)] * len(columns), hAlign="LEFT")
        box.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f4f5f7")),
                                 ("BOX", (0, 0), (-1, -1), 0.5, _GRID), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 5)]))
        self.story.append(box)

    def table(self, header: list[str], rows: list[list[str]], caption: str, *, widths: list[float] | None = None,
              numeric_from: int = 1, text_from: int | None = None) -> None:
        """A ruled table with a repeated header; columns from ``numeric_from`` on are right-aligned numbers,
        up to ``text_from``, from which columns are wrapped text again (e.g. a closing note). Columns are
        as wide as their widest number and longest word need (``widths``: as asked where that fits), and
        the table no wider than the page (:func:`fit_widths`)."""
        self.tables += 1
        numeric_to = len(header) if text_from is None else text_from
        numeric = [numeric_from <= i < numeric_to for i in range(len(header))]
        fitted, wrapped = fit_widths(header, rows, numeric, widths)
        cells: list[list[Any]] = [[Paragraph(escape(h), self.styles["head"]) for h in header]]
        cells += [[self._cell(c, numeric[i], wrapped[i]) for i, c in enumerate(row)] for row in rows]
        table = Table(cells, colWidths=fitted, repeatRows=1, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), "DejaVuSans", 7.5),
            ("BACKGROUND", (0, 0), (-1, 0), _HEAD),
            ("LINEABOVE", (0, 0), (-1, 0), 0.8, colors.black),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
            ("LINEBELOW", (0, -1), (-1, -1), 0.8, colors.black),
            ("LINEBELOW", (0, 1), (-1, -2), 0.25, _GRID),
            ("ALIGN", (numeric_from, 1), (numeric_to - 1, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), 4),
            ("RIGHTPADDING", (0, 0), (-1, -1), 4),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]))
        label = Paragraph(escape(f"Table {self.tables}: {caption}"), self.styles["caption"])
        # A short table stays with its caption; a long one may break (its header repeats).
        self.story.append(self._together([table, label]) if len(rows) <= 25 else table)
        if len(rows) > 25:
            self.story.append(label)

    def _cell(self, text: str, numeric: bool, wrapped: bool) -> Any:
        """A number as drawn text (never wrapped), or wrapped after its ± where its column had to be
        narrower than the number; text as a paragraph wrapped between words."""
        if not numeric:
            return Paragraph(escape(text), self.styles["cell"])
        if wrapped and " ± " in text:
            return Paragraph(escape(text).replace(" ± ", " ±<br/>"), self.styles["number"])
        return text

    def chart(self, chart: Chart) -> None:
        """Title, vector drawing and caption kept on one page: a page break never cuts a chart."""
        drawing = ChartFlowable(chart.drawing, FRAME_WIDTH)
        self.figures += 1
        caption = Paragraph(escape(f"Figure {self.figures}: {chart.title}. {chart.caption}"), self.styles["caption"])
        self.story.append(self._together([Spacer(1, 4), drawing, caption]))


_PAD = 8.0
"""A cell's left and right padding, points."""
_SIZE = 7.5


def _width(text: str, bold: bool = False) -> float:
    return float(pdfmetrics.stringWidth(text, "DejaVuSans-Bold" if bold else "DejaVuSans", _SIZE)) + _PAD


def _longest_word(text: str, bold: bool = False) -> float:
    return max((_width(word, bold) for word in text.split()), default=_PAD)


def fit_widths(header: list[str], rows: list[list[str]], numeric: list[bool],
               wanted: list[float] | None) -> tuple[list[float], list[bool]]:
    """Column widths that hold every number on one line and every word whole, within the page:
    each column at least its widest number (numbers) or longest word (text, and every header word);
    ``wanted`` where it gives more, else as wide as its header on one line and its longest text;
    then columns shrink toward their least, in proportion to what they have beyond it, until the
    table fits.
    Where the numbers are wider than the page, or than half of it while the text is squeezed, a
    "mean ± half" number wraps after its ± (the second list says which columns). Widths in points."""
    register_fonts()  # the widths are DejaVu Sans's
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in header]
    least = [max(_longest_word(h, bold=True), max((_width(c) if numeric[i] else _longest_word(c) for c in col),
                                                  default=_PAD))
             for i, (h, col) in enumerate(zip(header, columns, strict=True))]
    wrapped = [False] * len(header)
    numbers = sum(w for w, n in zip(least, numeric, strict=True) if n)
    text = sum(max((_width(c) for c in col), default=_PAD) for col, n in zip(columns, numeric, strict=True) if not n)
    if sum(least) > FRAME_WIDTH or (numbers > FRAME_WIDTH / 2 and numbers + text > FRAME_WIDTH):
        # wrap "mean ± half" numbers after the ±: the page cannot hold them, or they would leave the
        # text (a setting's name) a word a line
        for i, col in enumerate(columns):
            if numeric[i] and any(" ± " in c for c in col):
                wrapped[i] = True
                parts = [part for c in col for part in c.replace(" ± ", " ±\n").split("\n")]
                least[i] = max(_longest_word(header[i], bold=True), *(_width(part) for part in parts))
    # as wide as the header on one line and (text) the longest cell, where the page has room
    full = [max(least[i], _width(header[i], bold=True), *(() if numeric[i] else (_width(c) for c in col)))
            for i, col in enumerate(columns)]
    found = [max(w, m) for w, m in zip(wanted, least, strict=True)] if wanted else [min(w, FRAME_WIDTH) for w in full]
    over = sum(found) - FRAME_WIDTH
    if over > 0:
        room = [found[i] - least[i] for i in range(len(found))]
        spare = sum(room)
        if spare > 0:
            cut = min(over / spare, 1.0)
            found = [w - r * cut for w, r in zip(found, room, strict=True)]
    if sum(found) > FRAME_WIDTH:  # words longer than the page allows: every column in proportion
        factor = FRAME_WIDTH / sum(found)
        found = [w * factor for w in found]
    return found, wrapped
