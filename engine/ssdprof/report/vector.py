"""A matplotlib figure drawn straight for the PDF's page: no SVG written and read back.

matplotlib lays the figure out and draws it once through :class:`_Recorder`, a renderer that keeps
what it is asked to draw as PDF path operators (made by the C routine matplotlib's own PDF and SVG
backends use) and text runs, a :class:`~ssdprof.report.page_drawing.PageDrawing` that reportlab
paints where the chart sits on the page. The constrained layout measures its text with the same
renderer that draws, so each label is measured once, and exactly as the SVG backend measured it
(unhinted DejaVu Sans at 72 dpi: one unit is one point). Text stays text, in the document's font.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from matplotlib import _path, rcParams
from matplotlib.backend_bases import FigureCanvasBase, GraphicsContextBase, RendererBase
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.transforms import Affine2D, Transform
from typing_extensions import override

from ssdprof.report.page_drawing import Image, PageDrawing, Shape, Text

__all__ = ["draw_figure"]

_CODES = [b"m", b"l", b"", b"c", b"h"]  # MOVETO, LINETO, CURVE3 (made cubic), CURVE4, CLOSEPOLY; operands first
_CAPS = {"butt": 0, "round": 1, "projecting": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_ANCHORS = {"left": "start", "center": "middle", "right": "end"}
_IMAGE_DPI = 100.0
"""Pixels per inch of what matplotlib rasterises (a colour bar's many steps; images it resamples), as the
SVG backend had them at the figures' own dpi."""


def _font(prop: FontProperties) -> str:
    """The document's registered DejaVu face for a matplotlib font (the report draws only DejaVu Sans)."""
    weight = prop.get_weight()
    bold = weight in ("bold", "heavy", "extra bold", "black", "semibold", "demibold", "demi") or (
        isinstance(weight, int) and weight >= 600)
    if "mono" in " ".join(prop.get_family()).lower():
        return "DejaVuSansMono"
    if bold:
        return "DejaVuSans-Bold"
    return "DejaVuSans-Oblique" if prop.get_style() in ("italic", "oblique") else "DejaVuSans"


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") or "0"


def _rgb(colour: Any) -> str:
    return " ".join(_number(float(c)) for c in colour[:3])


def _operators(path: Path, transform: Transform | None, clip: tuple[float, float, float, float] | None,
               simplify: bool | None, sketch: Any = None) -> str:
    """A path as PDF path operators, by matplotlib's own C routine (its PDF backend's): NaNs dropped, curves
    made cubic, clipped to the page and simplified where asked."""
    done = _path.convert_to_string(path, transform, clip, simplify, sketch, 4, _CODES, True)  # type: ignore[attr-defined]
    return cast(bytes, done).decode("ascii")


class _Recorder(RendererBase):
    """A matplotlib renderer keeping what it draws for :class:`PageDrawing` (at 72 dpi: points)."""

    def __init__(self, width: float, height: float):
        super().__init__()
        self.width, self.height = width, height
        self.image_dpi = _IMAGE_DPI
        self.parts: list[Shape | Text | Image] = []
        self.groups: dict[str, list[np.ndarray]] = {}
        self._open: list[str | None] = []

    # what matplotlib asks of a renderer ----------------------------------------------------

    @override
    def flipy(self) -> bool:
        return False  # the PDF's y axis points up, as matplotlib's display coordinates do

    @override
    def get_canvas_width_height(self) -> tuple[float, float]:
        return self.width, self.height

    @override
    def get_text_width_height_descent(self, s: str, prop: FontProperties, ismath: Any) -> tuple[float, float, float]:
        return self._text2path.get_text_width_height_descent(s, prop, ismath)  # unhinted, as the SVG backend measured

    @override
    def option_scale_image(self) -> bool:
        return True

    @override
    def get_image_magnification(self) -> float:
        return self.image_dpi / 72.0

    @override
    def option_image_nocomposite(self) -> bool:
        return not rcParams["image.composite_image"]

    @override
    def open_group(self, s: str, gid: str | None = None) -> None:
        self._open.append(gid)
        if gid:
            self.groups.setdefault(gid, [])

    @override
    def close_group(self, s: str) -> None:
        if self._open:
            self._open.pop()

    # drawing -------------------------------------------------------------------------------

    @override
    def draw_path(self, gc: GraphicsContextBase, path: Path, transform: Transform, rgbFace: Any = None) -> None:
        clip = rgbFace is None and gc.get_hatch_path() is None
        pen = self._pen(gc, rgbFace)
        if pen is not None:
            ops = _operators(path, transform, (0.0, 0.0, self.width, self.height) if clip else None,
                             path.should_simplify and clip, gc.get_sketch_params())
            self.parts.append(Shape(f"{pen.ops} {ops} {pen.paint}", pen.stroke_alpha, pen.fill_alpha))
        gid = next((g for g in reversed(self._open) if g), None)
        if gid is not None:
            self.groups[gid].append(transform.transform(path.vertices))

    @override
    def draw_markers(self, gc: GraphicsContextBase, marker_path: Path, marker_trans: Transform, path: Path,
                     trans: Transform, rgbFace: Any = None) -> None:
        pen = self._pen(gc, rgbFace)
        if pen is None or not np.asarray(path.vertices).size:
            return
        marker = _operators(marker_path, marker_trans, None, False)
        places = [vertices[-2:] for vertices, _ in path.iter_segments(trans, simplify=False) if len(vertices)]
        body = " ".join(f"q 1 0 0 1 {_number(x)} {_number(y)} cm {marker} {pen.paint} Q" for x, y in places)
        self.parts.append(Shape(f"{pen.ops} {body}", pen.stroke_alpha, pen.fill_alpha))

    @override
    def draw_text(self, gc: GraphicsContextBase, x: float, y: float, s: str, prop: FontProperties,
                  angle: float, ismath: Any = False, mtext: Any = None) -> None:
        if ismath:  # mathtext as outlines, matplotlib's own way (the report's charts use none)
            super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
            return
        anchor = "start"
        if mtext is not None and (angle == 0 or mtext.get_rotation_mode() == "anchor"):
            # as the SVG backend: the anchor's own point and alignment, the line's height from the layout
            ax, ay = mtext.get_transform().transform(mtext.get_unitless_position())
            radians = math.radians(angle)
            up = (-math.sin(radians), math.cos(radians))
            offset = up[0] * (x - ax) + up[1] * (y - ay)
            x, y = ax + offset * up[0], ay + offset * up[1]
            anchor = _ANCHORS[mtext.get_ha()]
        red, green, blue, own_alpha = (float(c) for c in np.asarray(gc.get_rgb(), dtype=float))
        alpha = float(gc.get_alpha()) if gc.get_forced_alpha() else own_alpha
        self.parts.append(Text(s, float(x), float(y), float(angle), anchor, _font(prop), float(prop.get_size_in_points()),
                                (red, green, blue), alpha, self._clip(gc)))

    @override
    def draw_image(self, gc: GraphicsContextBase, x: float, y: float, im: Any, transform: Transform | None = None) -> None:
        pixels = np.asarray(im)
        h, w = pixels.shape[:2]
        if w == 0 or h == 0:
            return
        if transform is None:  # pixels at image_dpi, alpha applied already
            matrix = Affine2D().scale(72.0 * w / self.image_dpi, 72.0 * h / self.image_dpi).translate(x, y)
            alpha = 1.0
        else:  # the unit square onto the page
            matrix = Affine2D(transform.get_matrix()).translate(x, y)
            alpha = float(gc.get_alpha())
        rows = np.ascontiguousarray(pixels[::-1])  # matplotlib's first row is the bottom one, a PDF image's the top
        self.parts.append(Image(rows, tuple(float(v) for v in matrix.to_values()), alpha, self._clip(gc)))

    # the pen --------------------------------------------------------------------------------

    def _clip(self, gc: GraphicsContextBase) -> str:
        clip_path, clip_transform = gc.get_clip_path()
        if clip_path is not None:  # matplotlib hands a Path and its affine (typed as a TransformedPath)
            return f"{_operators(cast(Path, clip_path), clip_transform, None, False)} W n "
        rectangle = gc.get_clip_rectangle()
        if rectangle is not None:
            x, y, w, h = rectangle.bounds
            return f"{_number(x)} {_number(y)} {_number(w)} {_number(h)} re W n "
        return ""

    def _pen(self, gc: GraphicsContextBase, face: Any) -> _Pen | None:
        """How the next shape is painted; None when nothing of it would show."""
        forced = gc.get_forced_alpha()
        line = tuple(float(c) for c in np.asarray(gc.get_rgb(), dtype=float))
        width = float(gc.get_linewidth())
        fill_rgba = None if face is None else tuple(float(c) for c in face)
        fill = fill_rgba is not None and (forced or len(fill_rgba) < 4 or fill_rgba[3] > 0)
        stroke = width > 0 and (forced or line[3] > 0)
        if not fill and not stroke:
            return None
        ops = [self._clip(gc)]
        if fill_rgba is not None and fill:
            ops.append(f"{_rgb(fill_rgba)} rg")
        if stroke:
            ops.append(f"{_rgb(line)} RG {_number(width)} w {_CAPS[gc.get_capstyle()]} J {_JOINS[gc.get_joinstyle()]} j")
            offset, dashes = gc.get_dashes()
            if dashes is not None:
                ops.append(f"[{' '.join(_number(float(d)) for d in np.asarray(dashes, dtype=float))}] {_number(float(offset or 0))} d")
        alpha = float(gc.get_alpha())
        fill_alpha = fill_rgba[3] if fill_rgba is not None and len(fill_rgba) > 3 else 1.0
        return _Pen(" ".join(ops), "B" if fill and stroke else "f" if fill else "S",
                    alpha if forced else line[3], alpha if forced else fill_alpha)


@dataclass(frozen=True)
class _Pen:
    ops: str
    """The clip, colours, width, caps, joins and dashes, as operators."""
    paint: str
    """S (stroke), f (fill) or B (both)."""
    stroke_alpha: float
    fill_alpha: float


class _Canvas(FigureCanvasBase):
    """Gives the layout engine the renderer that will draw, so text is measured once, as drawn."""

    def __init__(self, figure: Figure, renderer: MixedModeRenderer):
        super().__init__(figure)
        self._renderer = renderer

    def get_renderer(self) -> MixedModeRenderer:
        return self._renderer


def draw_figure(figure: Figure) -> PageDrawing:
    """The figure laid out and drawn once, in points (call inside the house style's context); artists
    matplotlib rasterises (a colour bar of many steps) are drawn as images, as the SVG backend drew them."""
    figure.dpi = 72.0
    inches = figure.get_size_inches()
    recorder = _Recorder(float(inches[0]) * 72.0, float(inches[1]) * 72.0)
    renderer = MixedModeRenderer(figure, inches[0], inches[1], _IMAGE_DPI, recorder)  # type: ignore[no-untyped-call]
    _Canvas(figure, renderer)
    figure.draw(cast(RendererBase, renderer))
    return PageDrawing(recorder.width, recorder.height, tuple(recorder.parts), recorder.groups)
