"""The one frame every PDF of ssdprof is printed in: A4 with the report's margins, the title and the
line under it (what the report is of, when and by which ssdprof it was made), the document's
metadata, and a footer on every page with the title and the page number. The run report, a curve's,
a search's, a PTS test's, a sustained-write test's and the scale-up sizing all go out through
:func:`render`; their modules lay out only what is theirs."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import datetime, timezone

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate

from ssdprof import __version__
from ssdprof.report.layout import MARGIN, Builder

__all__ = ["render", "title_block"]


def title_block(b: Builder, title: str, what: str, *, generated_at: datetime | None = None) -> None:
    """The report's title, and under it what it is of (``what``, a sentence without its full stop),
    then when and by which ssdprof the report was made."""
    made = generated_at or datetime.now(timezone.utc)
    b.para(title, "title")
    b.para(f"{what}. Report generated {made:%Y-%m-%d %H:%M} UTC by ssdprof {__version__}.", "subtitle")


def render(b: Builder, *, title: str, subject: str) -> bytes:
    """The built story as PDF bytes, in the frame every report shares."""
    out = io.BytesIO()
    document = SimpleDocTemplate(out, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                                 bottomMargin=MARGIN, title=title, author=f"ssdprof {__version__}", subject=subject,
                                 creator="ssdprof")
    footer = _footer(title)
    document.build(b.kept(), onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()


def _footer(title: str) -> Callable[[Canvas, SimpleDocTemplate], None]:
    def draw(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("DejaVuSans", 7)
        canvas.setFillGray(0.35)
        canvas.drawString(MARGIN, MARGIN / 2, f"{title} · ssdprof {__version__}")
        canvas.drawRightString(A4[0] - MARGIN, MARGIN / 2, f"page {document.page}")
        canvas.restoreState()

    return draw
