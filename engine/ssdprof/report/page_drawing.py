"""A chart as the PDF paints it: what matplotlib drew (``report/vector.py``), replayed on reportlab's canvas
where the chart sits in the story."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from reportlab.lib.utils import ImageReader
from reportlab.platypus import Flowable

__all__ = ["ChartFlowable", "Image", "PageDrawing", "Shape", "Text"]


@dataclass(frozen=True)
class Shape:
    """A path painted: its operators (``m``/``l``/``c``/``h``) and paint (``S``, ``f`` or ``B``), the
    pen and clip as operators, the alphas that need the page's graphics-state resources."""

    ops: str
    stroke_alpha: float
    fill_alpha: float


@dataclass(frozen=True)
class Text:
    text: str
    x: float
    y: float
    angle: float
    anchor: str
    font: str
    size: float
    rgb: tuple[float, float, float]
    alpha: float
    clip: str


@dataclass(frozen=True)
class Image:
    rgba: np.ndarray
    matrix: tuple[float, ...]
    alpha: float
    clip: str


@dataclass(frozen=True)
class PageDrawing:
    """A drawn figure: its size in points and what to paint, in order. ``texts`` and ``groups``
    (each artist's id, e.g. ``Line2D(gid=...)``, with its paths' vertices in points) say what was
    drawn without reading operators."""

    width: float
    height: float
    parts: tuple[Shape | Text | Image, ...]
    groups: dict[str, list[np.ndarray]] = field(default_factory=dict)

    @property
    def texts(self) -> list[str]:
        return [p.text for p in self.parts if isinstance(p, Text)]

    def paint(self, canvas: Any) -> None:
        """Everything, in order, on a reportlab canvas whose origin is the figure's lower left."""
        for part in self.parts:
            canvas.saveState()
            if isinstance(part, Shape):
                _alphas(canvas, part.stroke_alpha, part.fill_alpha)
                canvas.addLiteral(part.ops)
            elif isinstance(part, Text):
                _paint_text(canvas, part)
            else:
                _alphas(canvas, 1.0, part.alpha)
                canvas.addLiteral(part.clip)
                canvas.transform(*part.matrix)
                canvas.drawImage(ImageReader(_pil(part.rgba)), 0, 0, 1, 1, mask="auto")
            canvas.restoreState()


def _alphas(canvas: Any, stroke: float, fill: float) -> None:
    if stroke < 1.0:
        canvas.setStrokeAlpha(stroke)
    if fill < 1.0:
        canvas.setFillAlpha(fill)


def _paint_text(canvas: Any, text: Text) -> None:
    canvas.addLiteral(text.clip)
    _alphas(canvas, 1.0, text.alpha)
    canvas.setFillColorRGB(*text.rgb)
    canvas.setFont(text.font, text.size)
    canvas.translate(text.x, text.y)
    if text.angle:
        canvas.rotate(text.angle)
    draw = {"start": canvas.drawString, "middle": canvas.drawCentredString, "end": canvas.drawRightString}[text.anchor]
    draw(0, 0, text.text)


def _pil(rgba: np.ndarray) -> Any:
    from PIL import Image

    return Image.fromarray(rgba)


class ChartFlowable(Flowable):  # type: ignore[misc]  # reportlab has no type hints
    """A :class:`PageDrawing` placed in the story, scaled down (never up) to ``max_width``."""

    def __init__(self, drawing: PageDrawing, max_width: float):
        super().__init__()
        self.drawing = drawing
        self.scale = min(1.0, max_width / drawing.width)
        self.width, self.height = drawing.width * self.scale, drawing.height * self.scale

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        if self.scale != 1.0:
            self.canv.scale(self.scale, self.scale)
        self.drawing.paint(self.canv)
