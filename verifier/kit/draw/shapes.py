"""Primitives: lines, arrows, marks, pieces and filled shapes, with keyword options.

Every primitive draws on a Pillow canvas (an image, or an ``ImageDraw`` where no
see-through fill is needed). Coordinates are pixels, or world units when a
:class:`~verifier.kit.draw.plane.PlaneView` is passed as ``view`` (line widths and
head sizes stay in pixels). Shapes that need a direction take a compass
``heading`` in degrees: 0 is north (up on the page, +y in the world), and angles
grow clockwise. A see-through fill (``alpha`` below 255) is drawn on its own RGBA
layer and composited, so the result does not depend on drawing order quirks.

Geometry helpers (:func:`rotated_rect`, :func:`sector`, :func:`heading_vector`)
return corner points in world units and draw nothing; anything with
``.exterior.coords`` or ``.coords`` (a Shapely geometry) is accepted as points.
"""

from __future__ import annotations

import functools
import itertools
import math
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from .labels import LabelPlacer, Placed, interior_point
from .palette import (
    INK,
    MARK_EDGE,
    MARK_FILL,
    MUTED,
    PAPER,
    RGB,
    Box,
    Point,
    text,
    text_colour_on,
    text_width,
)
from .plane import PlaneView

Canvas = Image.Image | ImageDraw.ImageDraw
Dash = tuple[float, float]


def _draw(canvas: Canvas) -> ImageDraw.ImageDraw:
    """The canvas itself, or an ``ImageDraw`` on the image: one per image, kept on it while it
    holds the same pixel store (a picture's shapes asked for thousands, each set up afresh)."""
    if isinstance(canvas, ImageDraw.ImageDraw):
        return canvas
    kept = canvas.__dict__.get("_kit_draw")
    if kept is None or kept.im is not canvas.im or kept._image is not canvas:
        kept = ImageDraw.Draw(canvas)
        canvas.__dict__["_kit_draw"] = kept
    return kept


# One outline mask per picture (by id, while the picture lives), reused: see polygon_px.
_OUTLINE_MASKS: dict[int, Image.Image] = {}


def polygon_px(canvas: Canvas, points: Sequence[Point], *, fill: RGB | None = None, outline: RGB | None = None,
               width: int = 1) -> None:
    """``ImageDraw.polygon`` pixel for pixel, at a cost that follows the polygon's size.

    For an outline wider than one pixel Pillow makes a fresh mask as big as the whole
    picture, so on a tall legend or a big board each such polygon costs the whole
    picture. Here one mask per picture is kept, the polygon is filled into it, the
    outline is drawn through it exactly as Pillow does, and only the polygon's box
    of the mask is cleared again. The same calls reach the rasteriser with the same
    coordinates, so the pixels are the same."""
    draw = _draw(canvas)
    image = canvas if isinstance(canvas, Image.Image) else draw._image
    pts = list(points)
    thick = isinstance(outline, (tuple, int)) and outline != fill and width > 1
    if not thick or draw.palette is not None or draw.mode != image.mode or len(pts) < 3:
        draw.polygon(pts, fill=fill, outline=outline, width=width)
        return
    if fill is not None:
        draw.polygon(pts, fill=fill)
    mask = _OUTLINE_MASKS.get(id(image))
    if mask is None or mask.size != image.size:
        if mask is None:
            weakref.finalize(image, _OUTLINE_MASKS.pop, id(image), None)
        mask = Image.new("1", image.size)
        _OUTLINE_MASKS[id(image)] = mask
    _draw(mask).polygon(pts, fill=1)
    draw.draw.draw_polygon(pts, draw.draw.draw_ink(outline), 0, width * 2 - 1, mask.im)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = (max(0, math.floor(min(xs)) - 2), max(0, math.floor(min(ys)) - 2),
           min(mask.width, math.ceil(max(xs)) + 3), min(mask.height, math.ceil(max(ys)) + 3))
    if box[0] < box[2] and box[1] < box[3]:
        mask.paste(0, box)


# The last backdrops painted, by key, with what painting them returned (see backdrop).
_BACKDROPS: dict[Any, tuple[Image.Image, Any]] = {}
BACKDROPS_KEPT = 6  # each a panel's worth of supersampled pixels


def backdrop(key: Any, size: tuple[int, int], paint: Callable[[Image.Image], Any],
             background: RGB = PAPER) -> tuple[Image.Image, Any]:
    """A fresh RGB image of ``size`` in ``background`` with ``paint(image)`` drawn on it, and
    what ``paint`` returned. ``key`` must hold everything ``paint`` draws from (the table, the
    view): for a key seen a moment ago the image painted then is copied, pixel for pixel the
    same, instead of painted again. A panel's background (a map, a play area and its grid)
    is the same in the before and the after panel of a case, and often across cases."""
    full = (key, size, background)
    kept = _BACKDROPS.get(full)
    if kept is None:
        image = Image.new("RGB", size, background)
        value = paint(image)
        if len(_BACKDROPS) >= BACKDROPS_KEPT:
            del _BACKDROPS[next(iter(_BACKDROPS))]  # the oldest
        kept = _BACKDROPS[full] = (image, value)
    return kept[0].copy(), kept[1]


def points_of(shape: Any) -> list[Point]:
    """Points of a sequence, or of a geometry's exterior (duck-typed: ``.exterior.coords``
    or ``.coords``, as Shapely has them). A closed ring loses its repeated last point."""
    if hasattr(shape, "exterior"):
        shape = shape.exterior.coords
    elif hasattr(shape, "coords"):
        shape = shape.coords
    pts = [(float(p[0]), float(p[1])) for p in shape]
    if len(pts) > 2 and pts[0] == pts[-1]:
        pts.pop()
    return pts


def _to_px(points: Iterable[Sequence[float]], view: PlaneView | None) -> list[Point]:
    pts = points_of(points)
    return view.pts(pts) if view is not None else pts


def _len_px(value: float, view: PlaneView | None) -> float:
    return view.length(value) if view is not None else float(value)


# --- geometry (no drawing) ---------------------------------------------------------------


def unit(dx: float, dy: float) -> Point:
    """The vector (dx, dy) scaled to length 1 (or (0, 0))."""
    n = math.hypot(dx, dy)
    return (dx / n, dy / n) if n else (0.0, 0.0)


def heading_vector(heading: float, *, y_up: bool = True) -> Point:
    """The unit vector of a compass heading (0 north, clockwise): in the world
    (+y north) if ``y_up``, else on the page (north is -y)."""
    a = math.radians(heading)
    return (math.sin(a), math.cos(a) if y_up else -math.cos(a))


def rotated_rect(centre: Sequence[float], width: float, length: float, heading: float, *,
                 y_up: bool = True) -> list[Point]:
    """The corners of a rectangle ``width`` across and ``length`` along ``heading``,
    centred on ``centre``: front left, front right, rear right, rear left."""
    fx, fy = heading_vector(heading, y_up=y_up)
    rx, ry = heading_vector(heading + 90, y_up=y_up)
    cx, cy = float(centre[0]), float(centre[1])
    hl, hw = length / 2, width / 2
    return [(cx + fx * hl - rx * hw, cy + fy * hl - ry * hw), (cx + fx * hl + rx * hw, cy + fy * hl + ry * hw),
            (cx - fx * hl + rx * hw, cy - fy * hl + ry * hw), (cx - fx * hl - rx * hw, cy - fy * hl - ry * hw)]


def arc_points(centre: Sequence[float], radius: float, start: float, end: float, *, y_up: bool = True,
               step: float = 3.0) -> list[Point]:
    """Points along an arc from compass bearing ``start`` clockwise to ``end``, at most
    ``step`` degrees apart."""
    sweep = end - start
    n = max(1, math.ceil(abs(sweep) / step))
    out = []
    for k in range(n + 1):
        ux, uy = heading_vector(start + sweep * k / n, y_up=y_up)
        out.append((centre[0] + ux * radius, centre[1] + uy * radius))
    return out


def sector(centre: Sequence[float], radius: float, heading: float, half_angle: float, *, inner: float = 0.0,
           y_up: bool = True, step: float = 3.0) -> list[Point]:
    """The outline of a sector (a firing arc): ``half_angle`` degrees either side of
    ``heading`` out to ``radius``; with an ``inner`` radius, an arc wedge (a band
    between two radii). A half angle of 180 or more gives the whole disc."""
    half = min(float(half_angle), 180.0)
    c = (float(centre[0]), float(centre[1]))
    outer = arc_points(c, radius, heading - half, heading + half, y_up=y_up, step=step)
    if half >= 180 and not inner:
        return outer[:-1]
    if inner > 0:
        return outer + list(reversed(arc_points(c, inner, heading - half, heading + half, y_up=y_up, step=step)))
    return [c] + outer


# --- lines and arrows ---------------------------------------------------------------------


def offset_polyline(points: Sequence[Point], distance: float) -> list[Point]:
    """``points`` shifted sideways by ``distance`` (to the right of the direction of
    travel, on screen), with mitred corners, so that parallel tracks of several
    pieces do not hide each other."""
    if not distance or len(points) < 2:
        return list(points)
    normals = []
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        ux, uy = unit(x1 - x0, y1 - y0)
        normals.append((-uy, ux))
    out = []
    for i, (x, y) in enumerate(points):
        n1 = normals[max(i - 1, 0)]
        n2 = normals[min(i, len(normals) - 1)]
        mx, my = n1[0] + n2[0], n1[1] + n2[1]
        dot = mx * n1[0] + my * n1[1]
        if dot < 0.5:  # a sharp turn back: no sensible mitre
            mx, my, dot = n2[0], n2[1], 1.0
        out.append((x + mx * distance / dot, y + my * distance / dot))
    return out


def dashed_line(canvas: Canvas, points: Sequence[Point], *, fill: RGB, width: int = 2,
                dash: Dash = (6, 4), view: PlaneView | None = None) -> None:
    """A dashed polyline (a dashed path); the dash pattern continues across corners."""
    draw = _draw(canvas)
    pts = _to_px(points, view)
    on, off = dash
    period = on + off
    phase = 0.0  # distance travelled within the current period
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        length = math.hypot(x1 - x0, y1 - y0)
        if not length:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        pos = 0.0
        while pos < length:
            if phase < on:
                run = min(on - phase, length - pos)
                draw.line([(x0 + ux * pos, y0 + uy * pos), (x0 + ux * (pos + run), y0 + uy * (pos + run))],
                          fill=fill, width=width)
            else:
                run = min(period - phase, length - pos)
            pos += run
            phase = (phase + run) % period


def polyline(canvas: Canvas, points: Sequence[Point], *, fill: RGB, width: int = 2, dash: Dash | None = None,
             view: PlaneView | None = None) -> None:
    """A solid (or, with ``dash``, dashed) polyline with round joints."""
    pts = _to_px(points, view)
    if len(pts) < 2:
        return
    if dash:
        dashed_line(canvas, pts, fill=fill, width=width, dash=dash)
        return
    draw = _draw(canvas)
    draw.line(pts, fill=fill, width=width, joint="curve")
    r = width / 2
    if r >= 1.5:
        for x, y in (pts[0], pts[-1]):
            draw.ellipse([x - r + 0.5, y - r + 0.5, x + r - 0.5, y + r - 0.5], fill=fill)


def arrowhead(canvas: Canvas, tip: Point, direction: Point, *, size: float, fill: RGB, outline: RGB | None = None,
              spread: float = 0.55) -> None:
    """A filled triangular head with its point at ``tip``, facing ``direction`` (pixels)."""
    ux, uy = unit(*direction)
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * spread
    _draw(canvas).polygon([tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)], fill=fill, outline=outline)


def arrow(canvas: Canvas, points: Sequence[Point], *, fill: RGB, width: int = 2, head: float | None = None,
          dash: Dash | None = None, view: PlaneView | None = None) -> None:
    """A polyline ending in an arrowhead; ``dash`` makes the shaft dashed (a plan),
    leaving it solid means something that happened."""
    raw = _to_px(points, view)
    pts = [p for i, p in enumerate(raw) if i == 0 or p != raw[i - 1]]
    if len(pts) < 2:
        return
    head = head if head is not None else max(6.0, width * 3.5)
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ux, uy = unit(x1 - x0, y1 - y0)
    # Stop the shaft inside the head so that its square end does not poke out.
    shaft = list(pts[:-1]) + [(x1 - ux * head * 0.6, y1 - uy * head * 0.6)]
    polyline(canvas, shaft, fill=fill, width=width, dash=dash)
    arrowhead(canvas, (x1, y1), (ux, uy), size=head, fill=fill)


def block_arrow(canvas: Canvas, start: Point, end: Point, *, width: float, fill: RGB = PAPER, outline: RGB = INK,
                outline_width: int = 1) -> None:
    """A fat hollow arrow from ``start`` to ``end`` (a push: something was shoved)."""
    ux, uy = unit(end[0] - start[0], end[1] - start[1])
    px, py = -uy, ux
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    head = min(width * 1.1, length * 0.6)
    s, h = width / 2, width
    neck = (end[0] - ux * head, end[1] - uy * head)
    poly = [(start[0] + px * s, start[1] + py * s), (neck[0] + px * s, neck[1] + py * s),
            (neck[0] + px * h, neck[1] + py * h), end, (neck[0] - px * h, neck[1] - py * h),
            (neck[0] - px * s, neck[1] - py * s), (start[0] - px * s, start[1] - py * s)]
    polygon_px(canvas, poly, fill=fill, outline=outline, width=outline_width)


def circular_arrow(canvas: Canvas, centre: Point, radius: float, *, fill: RGB, width: int = 2,
                   clockwise: bool = True, start: float = 200.0, sweep: float = 290.0,
                   head: float | None = None) -> None:
    """An arc with an arrowhead showing a rotation (clockwise on screen by default).
    Angles are in degrees, measured clockwise from east, as Pillow measures them."""
    draw = _draw(canvas)
    cx, cy = centre
    head = head if head is not None else max(6.0, width * 3.2)
    box = [cx - radius, cy - radius, cx + radius, cy + radius]
    a0, a1 = (start, start + sweep) if clockwise else (start - sweep, start)
    # Leave room for the head so the arc does not show through it.
    trim = math.degrees(head * 0.6 / radius) if radius else 0
    if clockwise:
        draw.arc(box, a0, a1 - trim, fill=fill, width=width)
        end = math.radians(a1)
        tangent = (-math.sin(end), math.cos(end))
    else:
        draw.arc(box, a0 + trim, a1, fill=fill, width=width)
        end = math.radians(a0)
        tangent = (math.sin(end), -math.cos(end))
    tip = (cx + radius * math.cos(end), cy + radius * math.sin(end))
    arrowhead(draw, tip, tangent, size=head, fill=fill)


# --- filled shapes ------------------------------------------------------------------------


def _composite(canvas: Canvas, bounds: Box, paint: Callable[[ImageDraw.ImageDraw, Point], None]) -> None:
    """Run ``paint`` on a transparent RGBA layer covering ``bounds`` (shifted by the
    offset it is given) and blend the layer onto ``canvas``."""
    if not isinstance(canvas, Image.Image):
        raise TypeError("a see-through fill needs the image, not an ImageDraw")
    x0 = max(0, math.floor(bounds[0]) - 2)
    y0 = max(0, math.floor(bounds[1]) - 2)
    x1 = min(canvas.width, math.ceil(bounds[2]) + 3)
    y1 = min(canvas.height, math.ceil(bounds[3]) + 3)
    if x1 <= x0 or y1 <= y0:
        return
    layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    paint(ImageDraw.Draw(layer), (-float(x0), -float(y0)))
    if canvas.mode == "RGBA":
        canvas.alpha_composite(layer, dest=(x0, y0))
    else:
        canvas.paste(layer, (x0, y0), layer)


def polygon(canvas: Canvas, points: Any, *, fill: RGB | None = None, outline: RGB | None = None, width: int = 1,
            alpha: int = 255, dash: Dash | None = None, view: PlaneView | None = None) -> list[Point]:
    """A polygon, filled (see-through when ``alpha`` < 255) and outlined (dashed with
    ``dash``). ``points`` may be a Shapely polygon. Returns its pixel corners."""
    pts = _to_px(points, view)
    if len(pts) < 3:
        return pts
    if fill is not None:
        if alpha >= 255:
            _draw(canvas).polygon(pts, fill=fill)
        else:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            colour = fill + (int(alpha),)
            _composite(canvas, (min(xs), min(ys), max(xs), max(ys)),
                       lambda d, o: d.polygon([(x + o[0], y + o[1]) for x, y in pts], fill=colour))
    if outline is not None:
        if dash:
            dashed_line(canvas, pts + [pts[0]], fill=outline, width=width, dash=dash)
        else:
            polygon_px(canvas, pts, outline=outline, width=width)
    return pts


def circle(canvas: Canvas, centre: Sequence[float], radius: float, *, fill: RGB | None = None,
           outline: RGB | None = None, width: int = 1, alpha: int = 255, dash: Dash | None = None,
           view: PlaneView | None = None) -> tuple[Point, float]:
    """A circle, filled (see-through when ``alpha`` < 255) and outlined (dashed with
    ``dash``: dash and gap lengths in pixels along the rim). Returns its pixel
    centre and radius."""
    c = view.px(centre) if view is not None else (float(centre[0]), float(centre[1]))
    r = _len_px(radius, view)
    if r <= 0:
        return c, r
    box = (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
    if fill is not None:
        if alpha >= 255:
            _draw(canvas).ellipse(box, fill=fill)
        else:
            colour = fill + (int(alpha),)
            _composite(canvas, box, lambda d, o: d.ellipse((box[0] + o[0], box[1] + o[1], box[2] + o[0],
                                                            box[3] + o[1]), fill=colour))
    if outline is not None:
        draw = _draw(canvas)
        if dash:
            on, off = dash
            count = max(8, int(2 * math.pi * r / (on + off)))
            sweep = 360 / count
            for i in range(count):
                draw.arc(box, i * sweep, i * sweep + sweep * on / (on + off), fill=outline, width=width)
        else:
            draw.ellipse(box, outline=outline, width=width)
    return c, r


def rect(canvas: Canvas, centre: Sequence[float], width: float, length: float, heading: float = 0.0, *,
         fill: RGB | None = None, outline: RGB | None = None, line: int = 1, alpha: int = 255,
         dash: Dash | None = None, view: PlaneView | None = None) -> list[Point]:
    """A rotated rectangle (a ship's base): ``width`` across, ``length`` along the
    compass ``heading``. ``line`` is the outline's width in pixels. Returns its
    pixel corners (front left, front right, rear right, rear left)."""
    corners = rotated_rect(centre, width, length, heading, y_up=view.y_up if view is not None else False)
    return polygon(canvas, corners, fill=fill, outline=outline, width=line, alpha=alpha, dash=dash, view=view)


def wedge(canvas: Canvas, centre: Sequence[float], radius: float, heading: float, half_angle: float, *,
          inner: float = 0.0, fill: RGB | None = None, outline: RGB | None = None, width: int = 1,
          alpha: int = 255, dash: Dash | None = None, view: PlaneView | None = None) -> list[Point]:
    """A sector (a firing arc), or with ``inner`` an arc wedge: ``half_angle`` degrees
    either side of the compass ``heading``. Returns its pixel outline."""
    pts = sector(centre, radius, heading, half_angle, inner=inner, y_up=view.y_up if view is not None else False)
    return polygon(canvas, pts, fill=fill, outline=outline, width=width, alpha=alpha, dash=dash, view=view)


def region(canvas: Canvas, points: Any, label: str | None = None, *, placer: LabelPlacer | None = None,
           fill: RGB | None = None, outline: RGB | None = INK, width: int = 1, alpha: int = 255,
           size: int = 12, label_fill: RGB = INK, stroke: int = 0, view: PlaneView | None = None
           ) -> Placed | None:
    """An area of a map: its outline and fill, and its name placed inside it at a
    point well clear of the edges (through ``placer``, so it covers no other label
    or marker; a fresh placer if None). Returns where the name went (None if it
    did not fit inside)."""
    pts = polygon(canvas, points, fill=fill, outline=outline, width=width, alpha=alpha, view=view)
    if not label or len(pts) < 3:
        return None
    placer = placer if placer is not None else LabelPlacer()
    where = interior_point(pts)
    placed = placer.place(where, label, size=size, stroke=stroke, on_anchor=True, inside=pts, rings=6,
                          leader_after=99)
    if placed is not None:
        placer.draw(_draw(canvas), placed, fill=label_fill, stroke_fill=fill if fill is not None else PAPER)
    return placed


# --- marks -----------------------------------------------------------------------------


def starburst(canvas: Canvas, centre: Point, radius: float, *, fill: RGB = MARK_FILL, outline: RGB = MARK_EDGE,
              spikes: int = 9, inner: float = 0.55, width: int = 2, label: str | None = None,
              label_size: int | None = None, label_fill: RGB = INK, placer: LabelPlacer | None = None,
              leader: RGB = MUTED) -> Point:
    """A comic-style "bang": where something collided or was stopped. An optional
    short ``label`` (an event number) sits in the middle. With a ``placer`` the bang
    keeps clear of what it knows (moved aside, with a leader line where it had to
    move far: :meth:`LabelPlacer.place_disc`). Returns where it was drawn."""
    draw = _draw(canvas)
    cx, cy = _placed_centre(draw, placer, centre, radius * 0.8, leader, width)
    pts = []
    for i in range(spikes * 2):
        r = radius if i % 2 == 0 else radius * inner
        a = math.pi * i / spikes - math.pi / 2
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    polygon_px(draw, pts, fill=fill, outline=outline, width=width)
    if label:
        text(draw, (cx, cy), label, size=label_size or max(8, int(radius * 0.95)), fill=label_fill, anchor="mm")
    return (cx, cy)


def _placed_centre(draw: ImageDraw.ImageDraw, placer: LabelPlacer | None, centre: Point, radius: float,
                   leader: RGB, width: int) -> Point:
    """``centre``, or with a ``placer`` the free spot it gives a round mark there (its leader drawn)."""
    if placer is None:
        return centre
    spot = placer.place_disc(centre, radius)
    if spot.leader is not None:
        draw.line(list(spot.leader), fill=leader, width=width)
    return spot.xy


def badge(canvas: Canvas, centre: Point, label: str, *, size: int, fill: RGB = PAPER, outline: RGB = INK,
          label_fill: RGB | None = None, width: int = 1, placer: LabelPlacer | None = None,
          leader: RGB = MUTED) -> float:
    """A small round tag with a number or letter in it. With a ``placer`` it keeps clear of
    what the placer knows, as :func:`starburst` does. Returns its radius."""
    draw = _draw(canvas)
    r = max(size * 0.75, text_width(label, size) / 2 + size * 0.3)
    cx, cy = _placed_centre(draw, placer, centre, r, leader, width)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)
    text(draw, (cx, cy), label, size=size, fill=label_fill if label_fill is not None else text_colour_on(fill),
         anchor="mm")
    return r


def tag_box(canvas: Canvas, centre: Point, label: str, *, size: int, fill: RGB = PAPER, outline: RGB = MUTED,
            label_fill: RGB | None = None, width: int = 1, radius: float | None = None) -> Box:
    """A small rounded square with a short label in it (a die face). Returns its box."""
    half_w = max(size * 0.7, text_width(label, size) / 2 + size * 0.3)
    half_h = size * 0.7
    box = (centre[0] - half_w, centre[1] - half_h, centre[0] + half_w, centre[1] + half_h)
    _draw(canvas).rounded_rectangle(box, radius=radius if radius is not None else size * 0.2, fill=fill,
                                    outline=outline, width=width)
    text(_draw(canvas), centre, label, size=size,
         fill=label_fill if label_fill is not None else text_colour_on(fill), anchor="mm")
    return box


def tag_size(label: str, size: int) -> Point:
    """The half width and half height of :func:`tag_box` for ``label``."""
    return (max(size * 0.7, text_width(label, size) / 2 + size * 0.3), size * 0.7)


# --- pieces -------------------------------------------------------------------------------


def hull(canvas: Canvas, centre: Point, direction: Point, *, length: float, beam: float, fill: RGB,
         outline: RGB = INK, width: int = 1) -> list[Point]:
    """A boat-shaped hull, pointed bow towards ``direction`` (a screen vector, so
    (0, -1) is up). Scale ``length`` and ``beam`` to show a size class. Returns the
    outline's points."""
    ux, uy = unit(*direction)
    px, py = -uy, ux  # to starboard
    half = length / 2
    shape = [(half, 0.0), (half * 0.45, beam * 0.5), (-half * 0.2, beam * 0.5), (-half, beam * 0.38),
             (-half, -beam * 0.38), (-half * 0.2, -beam * 0.5), (half * 0.45, -beam * 0.5)]
    pts = [(centre[0] + ux * a + px * b, centre[1] + uy * a + py * b) for a, b in shape]
    polygon_px(canvas, pts, fill=fill, outline=outline, width=width)
    return pts


# Fixed radii for a lump's outline: irregular, but the same every time.
_BLOB = (1.0, 0.82, 0.95, 0.78, 0.9, 1.0, 0.8, 0.92, 0.85, 0.97, 0.8)


def blob(canvas: Canvas, centre: Point, radius: float, *, fill: RGB, outline: RGB | None = None,
         variant: int = 0) -> None:
    """An irregular lump (a rock, an island). ``variant`` rotates the fixed outline so
    that neighbouring lumps do not look stamped."""
    cx, cy = centre
    pts = []
    for share, cos_a, sin_a in _blob_outline(variant):
        r = radius * share
        pts.append((cx + r * cos_a, cy + r * sin_a))
    _draw(canvas).polygon(pts, fill=fill, outline=outline)


@functools.lru_cache(maxsize=64)
def _blob_outline(variant: int) -> tuple[tuple[float, float, float], ...]:
    """Per corner of a lump: its share of the radius and the cosine and sine of its
    angle (the same numbers every call, so computed once: boards can hold many rocks)."""
    n = len(_BLOB)
    corners = []
    for i in range(n):
        a = 2 * math.pi * i / n + variant * 0.7
        corners.append((_BLOB[(i + variant) % n], math.cos(a), math.sin(a)))
    return tuple(corners)

