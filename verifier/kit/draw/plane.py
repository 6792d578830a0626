"""A plane view: which part of the world a panel shows, and where it lands in pixels.

World coordinates are whatever the ruleset measures in (inches, millimetres,
tiles). By default +y is north, up on the page (``y_up``); a tile board whose y
grows south sets ``y_up=False``. :func:`fit` picks a window and a scale that hold
given content with margins; :func:`grid` paints the play area, its grid lines and
the numbers along two edges; :func:`axis_labels` writes numbers at chosen places
along an edge; :func:`scale_bar` shows how long one unit is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from .palette import GRID, INK, MUTED, PLANE, RGB, Box, Point, text, text_width


@dataclass(frozen=True)
class PlaneView:
    """The world window ``x0..x1`` by ``y0..y1`` drawn at ``scale`` pixels per unit,
    with ``left``, ``top``, ``right`` and ``bottom`` pixels of margin around it (room
    for numbers along the edges). ``supersample`` is the factor the picture is
    drawn at before it is shrunk: line widths and text sizes are multiplied by it."""

    x0: float
    y0: float
    x1: float
    y1: float
    scale: float
    left: float = 0.0
    top: float = 0.0
    right: float = 0.0
    bottom: float = 0.0
    y_up: bool = True
    supersample: int = 1

    @property
    def size(self) -> tuple[int, int]:
        """The panel's size in pixels, margins included."""
        return (math.ceil(self.left + (self.x1 - self.x0) * self.scale + self.right),
                math.ceil(self.top + (self.y1 - self.y0) * self.scale + self.bottom))

    @property
    def area(self) -> Box:
        """The pixel box of the world window (without the margins)."""
        return (self.left, self.top, self.left + (self.x1 - self.x0) * self.scale,
                self.top + (self.y1 - self.y0) * self.scale)

    def px(self, point: Sequence[float]) -> Point:
        """The pixel of a world point."""
        x = self.left + (float(point[0]) - self.x0) * self.scale
        if self.y_up:
            return (x, self.top + (self.y1 - float(point[1])) * self.scale)
        return (x, self.top + (float(point[1]) - self.y0) * self.scale)

    def pts(self, points: Iterable[Sequence[float]]) -> list[Point]:
        """The pixels of world points."""
        return [self.px(p) for p in points]

    def length(self, distance: float) -> float:
        """A world distance in pixels."""
        return float(distance) * self.scale

    def world(self, pixel: Sequence[float]) -> Point:
        """The world point under a pixel (the inverse of :meth:`px`)."""
        x = self.x0 + (float(pixel[0]) - self.left) / self.scale
        dy = (float(pixel[1]) - self.top) / self.scale
        return (x, self.y1 - dy if self.y_up else self.y0 + dy)

    def visible(self, point: Sequence[float]) -> bool:
        """Whether a world point lies inside the window."""
        return self.x0 <= point[0] <= self.x1 and self.y0 <= point[1] <= self.y1


def circle_box(centre: Sequence[float], radius: float) -> Box:
    """The world bounds of a circle, for :func:`fit`."""
    return (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)


def points_box(points: Iterable[Sequence[float]]) -> Box:
    """The world bounds of points (or of a polygon's corners), for :func:`fit`."""
    pts = list(points)
    xs, ys = [float(p[0]) for p in pts], [float(p[1]) for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def nice_step(scale: float, min_px: float, steps: Sequence[float] = (1, 2, 5)) -> float:
    """The smallest step of 1, 2 or 5 times a power of ten that is at least ``min_px``
    pixels long at ``scale`` pixels per unit."""
    if scale <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(max(min_px / scale, 1e-12)))
    while True:
        for k in steps:
            if k * power * scale >= min_px - 1e-9:
                return k * power
        power *= 10


def fit(boxes: Iterable[Box], *, target_px: float = 400, margin: float = 0.5, min_span: float = 0.0,
        snap: float = 1.0, scale_range: tuple[float, float] = (18, 56), whole_scale: bool = True,
        supersample: int = 1, pad: tuple[float, float, float, float] = (0, 0, 0, 0),
        tick_size: int | None = None, y_up: bool = True) -> PlaneView:
    """A view that holds every world box in ``boxes`` with ``margin`` world units to
    spare, at a scale that keeps the window near ``target_px`` pixels across.

    The window is at least ``min_span`` wide and its edges are rounded out to
    multiples of ``snap`` (whole inches keep the grid tidy). The scale stays
    within ``scale_range`` pixels per unit, is a whole number if ``whole_scale``,
    and is then multiplied by ``supersample``. ``pad`` is (left, top, right, bottom)
    pixels of margin, already scaled; ``tick_size`` (a scaled font size) adds the
    room that :func:`grid` needs for its numbers on the left and at the bottom.
    A window so large that the picture would pass the kit's pixel budget is drawn
    at a smaller scale instead (:func:`shrink_to_budget`), whatever ``scale_range`` says.
    """
    boxes = list(boxes)
    if not boxes:
        raise ValueError("fit needs something to show")
    x0 = min(b[0] for b in boxes) - margin
    y0 = min(b[1] for b in boxes) - margin
    x1 = max(b[2] for b in boxes) + margin
    y1 = max(b[3] for b in boxes) + margin
    if x1 - x0 < min_span:
        mid = (x0 + x1) / 2
        x0, x1 = mid - min_span / 2, mid + min_span / 2
    if snap:
        x0, y0 = math.floor(x0 / snap) * snap, math.floor(y0 / snap) * snap
        x1, y1 = math.ceil(x1 / snap) * snap, math.ceil(y1 / snap) * snap
    span = max(x1 - x0, y1 - y0, 1e-9)
    scale = max(scale_range[0], min(scale_range[1], target_px / span))
    if whole_scale:
        scale = float(math.floor(scale))
    s = max(1, int(supersample))
    scale *= s
    left, top, right, bottom = pad
    if tick_size:
        left += max(text_width(_number(v), tick_size) for v in (x0, y0, x1, y1)) + tick_size * 0.8
        bottom += round(tick_size * 1.6) + tick_size * 0.4
    return shrink_to_budget(PlaneView(x0, y0, x1, y1, scale, left, top, right, bottom, y_up, s))


def _number(value: float) -> str:
    return str(round(value)) if abs(value - round(value)) < 1e-9 else f"{value:g}"


def axis_labels(draw: ImageDraw.ImageDraw, view: PlaneView, *, xs: Iterable[tuple[float, str]] = (),
                ys: Iterable[tuple[float, str]] = (), size: int = 10, fill: RGB = MUTED, x_side: str = "bottom",
                y_side: str = "left", offset: float | tuple[float, float] | None = None, unit: str = "") -> None:
    """Numbers (or any words) at world positions along the window's edges, in the
    margins: ``xs`` along the ``x_side`` ("bottom" or "top") edge, ``ys`` along the
    ``y_side`` ("left" or "right") one, ``offset`` pixels away from the edge (one
    distance, or one for the x labels and one for the y labels).

    With a ``unit`` ("in", "mm", "tiles"), the last x label carries it ("5 in"),
    moved left as far as needed to stay inside the picture; both axes share it."""
    if offset is None:
        offset = size * 0.4
    gap_x, gap_y = offset if isinstance(offset, tuple) else (offset, offset)
    left, top, right, bottom = view.area
    xs = sorted(xs, key=lambda item: item[0])
    picture_right = draw.im.size[0] - 1
    for n, (x, label) in enumerate(xs):
        px = view.px((x, view.y0))[0]
        anchor = "m"
        if unit and n == len(xs) - 1:
            label = f"{label} {unit}"
            width = text_width(label, size)
            if px + width / 2 > picture_right:
                px, anchor = picture_right, "r"
        if x_side == "top":
            text(draw, (px, top - gap_x), label, size=size, fill=fill, anchor=anchor + "d")
        else:
            text(draw, (px, bottom + gap_x), label, size=size, fill=fill, anchor=anchor + "a")
    for y, label in ys:
        py = view.px((view.x0, y))[1]
        if y_side == "right":
            text(draw, (right + gap_y, py), label, size=size, fill=fill, anchor="lm")
        else:
            text(draw, (left - gap_y, py), label, size=size, fill=fill, anchor="rm")


def grid(draw: ImageDraw.ImageDraw, view: PlaneView, *, step: float | None = None, label_step: float | None = None,
         size: int = 10, area: RGB | None = PLANE, line: RGB = GRID, width: int = 1, labels: bool = True,
         label_fill: RGB = MUTED, min_label_px: float | None = None, frame: bool = True, unit: str = "") -> None:
    """The play area (filled with ``area``), grid lines every ``step`` units (chosen
    so lines are at least a few pixels apart if None), numbers along the bottom
    and the left edge every ``label_step`` units (chosen so that numbers stay at
    least ``min_label_px``, by default about two digits, apart), the last x number
    followed by the ``unit`` the world is measured in, and, with ``frame``, an
    outline around the area."""
    left, top, right, bottom = view.area
    if area is not None:
        draw.rectangle([left, top, right, bottom], fill=area)
    step = step if step is not None else nice_step(view.scale, 6 * width)
    if label_step is None:
        spacing = min_label_px if min_label_px is not None else size * 2.2
        label_step = step * _whole_multiple(view.scale * step, spacing)
    xs = _multiples(view.x0, view.x1, step)
    ys = _multiples(view.y0, view.y1, step)
    for x in xs:
        px = view.px((x, view.y0))[0]
        draw.line([(px, top), (px, bottom)], fill=line, width=width)
    for y in ys:
        py = view.px((view.x0, y))[1]
        draw.line([(left, py), (right, py)], fill=line, width=width)
    if labels:
        axis_labels(draw, view, xs=[(x, _number(x)) for x in xs if _on(x, label_step)],
                    ys=[(y, _number(y)) for y in ys if _on(y, label_step)], size=size, fill=label_fill, unit=unit)
    if frame:
        draw.rectangle([left, top, right, bottom], outline=line, width=width)


def _whole_multiple(px: float, spacing: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, ... that many times ``px`` is ``spacing``."""
    k = 1
    while k * px < spacing - 1e-9 and k < 10 ** 9:
        k = k * 5 // 2 if str(k)[0] == "2" else k * 2
    return k


def _multiples(lo: float, hi: float, step: float) -> list[float]:
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    return [k * step for k in range(first, last + 1)]


def _on(value: float, step: float) -> bool:
    k = value / step
    return abs(k - round(k)) < 1e-6


def scale_bar(draw: ImageDraw.ImageDraw, view: PlaneView, length: float, label: str, *,
              at: Point | None = None, size: int = 10, fill: RGB = INK, width: int = 2) -> Box:
    """A bar ``length`` world units long with ``label`` over it, its left end at the
    pixel ``at`` (by default in the window's bottom-right corner). Returns its box,
    so that labels can keep clear of it."""
    bar = view.length(length)
    _left, _top, right, bottom = view.area
    if at is None:
        at = (right - bar - size, bottom - size)
    x, y = at
    tick = size * 0.4
    draw.line([(x, y), (x + bar, y)], fill=fill, width=width)
    for end in (x, x + bar):
        draw.line([(end, y - tick), (end, y + tick)], fill=fill, width=width)
    text(draw, (x + bar / 2, y - tick - size * 0.2), label, size=size, fill=fill, anchor="md",
         stroke=max(1, size // 8), stroke_fill=PLANE)
    return (x - width, y - tick - size * 1.4, x + bar + width, y + tick + width)


def shrink_to_budget(view: PlaneView, budget: int | None = None) -> PlaneView:
    """``view`` itself if its finished picture (``view.size`` shrunk by its
    supersample factor) holds at most ``budget`` pixels (by default the kit's
    :data:`~verifier.kit.draw.layout.PIXEL_BUDGET`); otherwise the same window and
    margins at the largest scale that fits (a whole number of drawn pixels per unit,
    when that is at least one), so that a vast board is drawn smaller instead of taking
    gigabytes. Raises :class:`~verifier.kit.draw.layout.PictureTooLargeError` when
    even the margins alone do not fit."""
    from .layout import PIXEL_BUDGET, PictureTooLargeError, within_budget

    budget = PIXEL_BUDGET if budget is None else budget
    s = max(1, int(view.supersample))
    if within_budget(view.size, supersample=s, budget=budget):
        return view
    # Largest k with (a + x k)(b + y k) <= budget * s^2, in drawn pixels.
    a, b = view.left + view.right + s, view.top + view.bottom + s  # + s: the size is rounded up
    x, y = max(view.x1 - view.x0, 1e-9), max(view.y1 - view.y0, 1e-9)
    room = budget * s * s
    linear = a * y + b * x
    discriminant = linear * linear - 4 * x * y * (a * b - room)
    if a * b >= room or discriminant < 0:
        raise PictureTooLargeError(
            f"the margins of this view alone would take {math.ceil(a / s):,} x {math.ceil(b / s):,} pixels, "
            f"leaving no room within the {budget:,} a picture may hold; draw it with smaller text or margins")
    scale = (-linear + math.sqrt(max(discriminant, 0.0))) / (2 * x * y)
    if scale >= 1:
        scale = float(math.floor(scale))
    shrunk = PlaneView(view.x0, view.y0, view.x1, view.y1, scale, view.left, view.top, view.right, view.bottom,
                       view.y_up, view.supersample)
    while not within_budget(shrunk.size, supersample=s, budget=budget) and scale > 1e-6:
        scale *= 0.99
        shrunk = PlaneView(view.x0, view.y0, view.x1, view.y1, scale, view.left, view.top, view.right,
                           view.bottom, view.y_up, view.supersample)
    return shrunk
