"""Diagrams of scatter cases, in the shared visual language of ``verifier.draw``.

A plane view with the attacker below and the target above: the line of attack
runs up the middle, the target's base is a blue disc and the AOE template an
orange one, both to scale on a one-inch grid whose numbers are inches from the
target's centre. "Before" shows the template where the shot put it and the six
directions of the die at the rolled distance; "after" shows where it landed, the
deviation arrow and the gap or overlap. A case over all 36 rolls gets one picture
of every landing spot instead, hits filled and misses hollow, with the circle
inside which a template's centre must land to hit, and a 6x6 table of the rolls.

Drawing is done at ``supersample`` times the size and shrunk, for smooth edges.
Nothing here reads a clock or a random source.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

from ... import draw as vd
from ...ruleset import Outcome
from .exact import decimal_text, fraction_text
from .model import DIE_FACES, Actions, AllRolls, Landing, Odds, Roll, Shot
from .resolver import attacker_point, direction_vector, direction_words, land, start_point

TEMPLATE = vd.OKABE_ITO["orange"]
BASE = vd.OKABE_ITO["blue"]
HIT = vd.OKABE_ITO["vermillion"]
MISS = (140, 140, 140)
ZONE = vd.OKABE_ITO["blue"]
ATTACK = (120, 120, 120)
AREA = (252, 252, 250)

Inches = tuple[float, float]


# --- geometry of one panel ---------------------------------------------------------------


@dataclass(frozen=True)
class _View:
    """Which part of the table a panel shows, in inches, and where it lands in pixels."""

    x0: float
    x1: float
    y0: float
    y1: float
    ppi: float  # pixels per inch, supersampled
    left: float  # room for the tick labels
    bottom: float
    s: int

    @property
    def size(self) -> tuple[int, int]:
        return (math.ceil(self.left + (self.x1 - self.x0) * self.ppi + 6 * self.s),
                math.ceil(6 * self.s + (self.y1 - self.y0) * self.ppi + self.bottom))

    def px(self, point: Inches) -> vd.Point:
        return (self.left + (point[0] - self.x0) * self.ppi, 6 * self.s + (self.y1 - point[1]) * self.ppi)

    def length(self, inches: float) -> float:
        return inches * self.ppi


def _fit(circles: Iterable[tuple[Inches, float]], s: int, *, target_px: float = 400, min_span: float = 7.0,
         ppi_range: tuple[float, float] = (18, 56)) -> _View:
    """A view holding every (centre, radius) circle with a margin, at a scale that
    keeps the panel near ``target_px`` pixels across."""
    circles = list(circles)
    x0 = min(c[0] - r for c, r in circles) - 0.5
    x1 = max(c[0] + r for c, r in circles) + 0.5
    y0 = min(c[1] - r for c, r in circles) - 0.5
    y1 = max(c[1] + r for c, r in circles) + 0.5
    if x1 - x0 < min_span:
        mid = (x0 + x1) / 2
        x0, x1 = mid - min_span / 2, mid + min_span / 2
    # Whole inches at the edges keep the grid and its numbers tidy.
    x0, x1, y0, y1 = math.floor(x0), math.ceil(x1), math.floor(y0), math.ceil(y1)
    ppi = max(ppi_range[0], min(ppi_range[1], target_px / max(x1 - x0, y1 - y0)))
    ppi = float(math.floor(ppi)) * s
    label = 10 * s
    return _View(x0, x1, y0, y1, ppi, vd.text_width("-10", label) + 8 * s, round(label * 1.6) + 4 * s, s)


def _paint_table(draw: ImageDraw.ImageDraw, view: _View) -> None:
    s = view.s
    left, top = view.px((view.x0, view.y1))
    right, bottom = view.px((view.x1, view.y0))
    draw.rectangle([left, top, right, bottom], fill=AREA)
    step = 1 if view.ppi >= 22 * s else 2
    size = 10 * s
    for x in range(math.ceil(view.x0), math.floor(view.x1) + 1):
        px = view.px((x, 0))[0]
        draw.line([(px, top), (px, bottom)], fill=vd.GRID, width=s)
        if x % step == 0:
            vd.text(draw, (px, bottom + 4 * s), str(x), size=size, fill=vd.MUTED, anchor="ma")
    for y in range(math.ceil(view.y0), math.floor(view.y1) + 1):
        py = view.px((0, y))[1]
        draw.line([(left, py), (right, py)], fill=vd.GRID, width=s)
        if y % step == 0:
            vd.text(draw, (left - 4 * s, py), str(y), size=size, fill=vd.MUTED, anchor="rm")
    draw.rectangle([left, top, right, bottom], outline=vd.GRID, width=s)


def _dashed_circle(draw: ImageDraw.ImageDraw, centre: vd.Point, radius: float, *, fill: vd.RGB, width: int,
                   dash_px: float) -> None:
    if radius <= 0:
        return
    count = max(8, int(2 * math.pi * radius / (dash_px * 1.7)))
    box = [centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius]
    sweep = 360 / count
    for i in range(count):
        draw.arc(box, i * sweep, i * sweep + sweep * 0.58, fill=fill, width=width)


def _disc(image: Image.Image, centre: vd.Point, radius: float, *, fill: vd.RGB, alpha: int,
          outline: vd.RGB | None = None, width: int = 1) -> None:
    """A filled disc, see-through by ``alpha`` (0-255), on an RGBA image."""
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ImageDraw.Draw(layer).ellipse([centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius],
                                  fill=fill + (alpha,))
    image.alpha_composite(layer)
    if outline is not None:
        ImageDraw.Draw(image).ellipse([centre[0] - radius, centre[1] - radius, centre[0] + radius,
                                       centre[1] + radius], outline=outline, width=width)


def _label(draw: ImageDraw.ImageDraw, xy: vd.Point, content: str, s: int, *, anchor: str = "lm",
           fill: vd.RGB = vd.INK, size: int = 11) -> None:
    vd.text(draw, xy, content, size=size * s, fill=fill, anchor=anchor, stroke=2 * s, stroke_fill=AREA)


def _paint_attack_line(draw: ImageDraw.ImageDraw, view: _View, shot: Shot, reading: Mapping[str, str]) -> None:
    """The line of attack, dashed, up the middle, with an arrow at the bottom coming
    from the attacker (who is usually far below the picture)."""
    s = view.s
    top = view.px((0, view.y1))
    bottom = view.px((0, view.y0))
    vd.dashed_line(draw, [bottom, top], fill=ATTACK, width=s, dash=(6 * s, 5 * s))
    attacker_y = float(attacker_point(shot, reading).y)
    if attacker_y >= view.y0:
        tip = view.px((0, attacker_y))
        draw.rectangle([tip[0] - 5 * s, tip[1] - 5 * s, tip[0] + 5 * s, tip[1] + 5 * s], fill=ATTACK)
        _label(draw, (tip[0] + 8 * s, tip[1]), "attacker", s, fill=vd.MUTED, size=10)
        return
    tail = (bottom[0], bottom[1] - 4 * s)
    head = (bottom[0], bottom[1] - 30 * s)
    vd.arrow(draw, [tail, head], fill=ATTACK, width=2 * s, head=9 * s)
    _label(draw, (head[0] + 6 * s, (tail[1] + head[1]) / 2),
           f"from the attacker, {decimal_text(shot.from_attacker)} in", s, fill=vd.MUTED, size=10)


def _free_spot(view: _View, around: Inches, radius: float, content: str, avoid: Sequence[tuple[Inches, float]]
               ) -> tuple[vd.Point, str] | None:
    """Where a label beside a circle crosses none of the ``avoid`` circles: the
    first free one of a few places around it, as (pixel, anchor); None if all are taken."""
    s = view.s
    size = 11 * s
    w, h = vd.text_width(content, size), size * 1.2
    cx, cy = view.px(around)
    r = view.length(radius)
    for angle in (35, -35, 145, -145, 0, 180):
        a = math.radians(angle)
        x, y = cx + math.cos(a) * (r + 8 * s), cy - math.sin(a) * (r + 8 * s)
        left = x if math.cos(a) >= 0 else x - w
        box = (left, y - h / 2, left + w, y + h / 2)
        clear = all(_box_clear(box, view.px(c), view.length(rr) + 2 * s) for c, rr in avoid)
        inside = box[0] >= view.left and box[2] <= view.size[0] - 2 * s and box[1] >= 0
        if clear and inside:
            return (x, y), ("lm" if math.cos(a) >= 0 else "rm")
    return None


def _box_clear(box: tuple[float, float, float, float], centre: vd.Point, radius: float) -> bool:
    nearest_x = min(max(centre[0], box[0]), box[2])
    nearest_y = min(max(centre[1], box[1]), box[3])
    return math.hypot(nearest_x - centre[0], nearest_y - centre[1]) > radius


def _paint_base(image: Image.Image, view: _View, shot: Shot, *, label: bool = True,
                avoid: Sequence[tuple[Inches, float]] = ()) -> None:
    s = view.s
    centre = view.px((0, 0))
    radius = view.length(float(shot.base_radius))
    _disc(image, centre, radius, fill=BASE, alpha=120, outline=vd.mix(BASE, vd.INK, 0.3), width=2 * s)
    draw = ImageDraw.Draw(image)
    draw.ellipse([centre[0] - 2 * s, centre[1] - 2 * s, centre[0] + 2 * s, centre[1] + 2 * s], fill=vd.INK)
    content = f"target, {shot.base} mm base"
    spot = _free_spot(view, (0.0, 0.0), float(shot.base_radius), content, avoid) if label else None
    if spot is not None:
        _label(draw, spot[0], content, s, fill=vd.mix(BASE, vd.INK, 0.35), anchor=spot[1])


def _paint_template(image: Image.Image, view: _View, shot: Shot, centre_in: Inches, *, ghost: bool = False,
                    label: str | None = None, avoid: Sequence[tuple[Inches, float]] = ()) -> None:
    s = view.s
    centre = view.px(centre_in)
    radius = view.length(float(shot.template_radius))
    draw = ImageDraw.Draw(image)
    if ghost:
        _dashed_circle(draw, centre, radius, fill=vd.mix(TEMPLATE, vd.INK, 0.15), width=2 * s, dash_px=7 * s)
    else:
        _disc(image, centre, radius, fill=TEMPLATE, alpha=95, outline=vd.mix(TEMPLATE, vd.INK, 0.35), width=2 * s)
        draw = ImageDraw.Draw(image)
    draw.line([(centre[0] - 4 * s, centre[1]), (centre[0] + 4 * s, centre[1])], fill=vd.INK, width=s)
    draw.line([(centre[0], centre[1] - 4 * s), (centre[0], centre[1] + 4 * s)], fill=vd.INK, width=s)
    spot = _free_spot(view, centre_in, float(shot.template_radius), label, avoid) if label else None
    if spot is not None:
        _label(draw, spot[0], label, s, fill=vd.mix(TEMPLATE, vd.INK, 0.5), anchor=spot[1])


def _rose(start: Inches, moved: float, side: str) -> list[tuple[str, Inches, tuple[int, ...]]]:
    """Where each direction face at ``moved`` inches ends: (label, point, faces),
    faces that land on one spot (the seed's fold) sharing a label."""
    spots: dict[tuple[float, float], list[int]] = {}
    for face in DIE_FACES:
        vx, vy = direction_vector(face, side).floats()
        key = (round(start[0] + vx * moved, 6), round(start[1] + vy * moved, 6))
        spots.setdefault(key, []).append(face)
    return [("/".join(map(str, faces)), point, tuple(faces)) for point, faces in spots.items()]


def _paint_rose(draw: ImageDraw.ImageDraw, view: _View, start: Inches, moved: float, side: str,
                rolled: int | None) -> None:
    s = view.s
    origin = view.px(start)
    for label, point, faces in _rose(start, moved, side):
        end = view.px(point)
        chosen = rolled in faces
        if chosen:
            vd.arrow(draw, [origin, end], fill=vd.INK, width=2 * s, head=10 * s, dash=(6 * s, 4 * s))
        else:
            vd.dashed_line(draw, [origin, end], fill=vd.mix(ATTACK, vd.PAPER, 0.25), width=s, dash=(4 * s, 4 * s))
        ux, uy = vd.unit(end[0] - origin[0], end[1] - origin[1])
        at = (end[0] + ux * 14 * s, end[1] + uy * 14 * s)
        _face(draw, at, label, s, chosen)


def _face(draw: ImageDraw.ImageDraw, at: vd.Point, label: str, s: int, chosen: bool = False) -> None:
    """A direction die face: a small square with its number (spots are round)."""
    size = 10 * s
    half_w = max(size * 0.7, vd.text_width(label, size) / 2 + 3 * s)
    half_h = size * 0.7
    draw.rounded_rectangle([at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h], radius=2 * s,
                           fill=vd.INK if chosen else vd.PAPER, outline=vd.INK if chosen else ATTACK, width=s)
    vd.text(draw, at, label, size=size, fill=vd.PAPER if chosen else vd.INK, anchor="mm")


def _edge_points(landing_in: Inches, radius_template: float, radius_base: float) -> tuple[Inches, Inches, Inches]:
    """Along the line from the template's centre to the base's centre: the template's
    far edge, the base's near edge, and the unit vector."""
    dx, dy = -landing_in[0], -landing_in[1]
    d = math.hypot(dx, dy)
    ux, uy = (dx / d, dy / d) if d else (0.0, 1.0)
    far = (landing_in[0] + ux * radius_template, landing_in[1] + uy * radius_template)
    near = (-ux * radius_base, -uy * radius_base)
    return far, near, (ux, uy)


def _paint_contact(draw: ImageDraw.ImageDraw, view: _View, shot: Shot, landing: Landing) -> None:
    """The gap (a red bracket), the touching point, or the overlap (a bang)."""
    s = view.s
    point = landing.point.floats()
    far, near, (ux, uy) = _edge_points(point, float(shot.template_radius), float(shot.base_radius))
    # The centre line, as the seed's diagram draws it.
    vd.dashed_line(draw, [view.px(point), view.px((0, 0))], fill=vd.mix(BASE, vd.INK, 0.2), width=s,
                   dash=(3 * s, 3 * s))
    px, py = -uy, ux
    if landing.touching:
        c = view.px(near)
        draw.ellipse([c[0] - 5 * s, c[1] - 5 * s, c[0] + 5 * s, c[1] + 5 * s], outline=HIT, width=2 * s)
        _label(draw, (c[0] + 9 * s, c[1]), "touching", s, fill=HIT)
        return
    if landing.hit:
        mid = ((far[0] + near[0]) / 2, (far[1] + near[1]) / 2)
        vd.starburst(draw, view.px(mid), 10 * s, width=s)
        return
    a, b = view.px(far), view.px(near)
    # Beside the centre line, so that a deviation along the same line stays visible.
    shift = 9 * s
    a, b = (a[0] + px * shift, a[1] - py * shift), (b[0] + px * shift, b[1] - py * shift)
    tick = 5 * s
    draw.line([a, b], fill=HIT, width=2 * s)
    for end in (a, b):
        draw.line([(end[0] - px * tick, end[1] + py * tick), (end[0] + px * tick, end[1] - py * tick)], fill=HIT,
                  width=2 * s)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    _label(draw, (mid[0] + 8 * s, mid[1]), f"gap {decimal_text(landing.clearance, 2)} in", s, fill=HIT)


# --- panels -----------------------------------------------------------------------------


def _panel_before(shot: Shot, actions: Actions, reading: Mapping[str, str], view: _View,
                  rose: bool = True) -> Image.Image:
    image = Image.new("RGBA", view.size, vd.PAPER + (255,))
    draw = ImageDraw.Draw(image)
    _paint_table(draw, view)
    _paint_attack_line(draw, view, shot, reading)
    start = start_point(shot, reading).floats()
    moved = float(land(shot, actions, reading).moved) if isinstance(actions, Roll) else 1.0
    faces = [(point, 0.3) for _, point, _ in _rose(start, moved, reading["side"])]
    _paint_base(image, view, shot, avoid=[(start, float(shot.template_radius))] + faces)
    _paint_template(image, view, shot, start, label=f"{shot.aoe}-inch AOE",
                    avoid=[((0.0, 0.0), float(shot.base_radius))] + faces)
    draw = ImageDraw.Draw(image)
    if not rose:  # only where the shot put the template (the first step of an animation)
        pass
    elif isinstance(actions, Roll):
        _paint_rose(draw, view, start, moved, reading["side"], actions.direction)
    else:
        _paint_rose(draw, view, start, 1.0, reading["side"], None)
    return image.convert("RGB")


def _panel_after(shot: Shot, landing: Landing, reading: Mapping[str, str], view: _View) -> Image.Image:
    image = Image.new("RGBA", view.size, vd.PAPER + (255,))
    draw = ImageDraw.Draw(image)
    _paint_table(draw, view)
    _paint_attack_line(draw, view, shot, reading)
    start = landing.start.floats()
    point = landing.point.floats()
    _paint_base(image, view, shot, avoid=[(point, float(shot.template_radius))])
    _paint_template(image, view, shot, start, ghost=True)
    _paint_template(image, view, shot, point)
    draw = ImageDraw.Draw(image)
    if landing.capped:
        _paint_uncapped(draw, view, landing, reading)
    if landing.moved:
        vd.arrow(draw, [view.px(start), view.px(point)], fill=vd.INK, width=2 * view.s, head=11 * view.s)
    _paint_contact(draw, view, shot, landing)
    verdict = "HIT" if landing.hit else "MISS"
    vd.text(draw, (view.left + 8 * view.s, 10 * view.s), verdict, size=16 * view.s,
            fill=HIT if landing.hit else vd.MUTED, anchor="la", stroke=2 * view.s, stroke_fill=AREA)
    return image.convert("RGB")


def _uncapped_point(landing: Landing, reading: Mapping[str, str]) -> Inches:
    vx, vy = direction_vector(landing.roll.direction, reading["side"]).floats()
    sx, sy = landing.start.floats()
    return (sx + vx * landing.roll.distance, sy + vy * landing.roll.distance)


def _paint_uncapped(draw: ImageDraw.ImageDraw, view: _View, landing: Landing, reading: Mapping[str, str]) -> None:
    """Where the die alone would have sent the template: a faint dashed line on to a cross."""
    s = view.s
    a, b = view.px(landing.point.floats()), view.px(_uncapped_point(landing, reading))
    vd.dashed_line(draw, [a, b], fill=ATTACK, width=s, dash=(3 * s, 3 * s))
    k = 5 * s
    draw.line([(b[0] - k, b[1] - k), (b[0] + k, b[1] + k)], fill=ATTACK, width=2 * s)
    draw.line([(b[0] - k, b[1] + k), (b[0] + k, b[1] - k)], fill=ATTACK, width=2 * s)
    _label(draw, (b[0] + 8 * s, b[1]), f"the die's {landing.roll.distance} in, capped", s, fill=vd.MUTED, size=10)


def _spot_groups(odds: Odds, upto: int = 6) -> list[tuple[Inches, list[Landing]]]:
    """Landing spots of the rolls with direction faces 1..``upto``, rolls on one spot together."""
    groups: dict[tuple, list[Landing]] = {}
    for landing in odds.landings:
        if landing.roll.direction <= upto:
            groups.setdefault(landing.point.key(), []).append(landing)
    return [(group[0].point.floats(), group) for group in groups.values()]


def _panel_odds(shot: Shot, odds: Odds, reading: Mapping[str, str], view: _View, upto: int = 6,
                focus: int | None = None) -> Image.Image:
    """The 36-roll picture; with ``upto`` only the rolls of direction faces 1..upto are
    placed, and the arrow of face ``focus`` is dark (for step-by-step frames)."""
    s = view.s
    image = Image.new("RGBA", view.size, vd.PAPER + (255,))
    draw = ImageDraw.Draw(image)
    _paint_table(draw, view)
    _paint_attack_line(draw, view, shot, reading)
    _paint_base(image, view, shot, label=False)
    start = odds.start.floats()
    _paint_template(image, view, shot, start, ghost=True)
    draw = ImageDraw.Draw(image)
    # Inside this circle a template's centre overlaps the base.
    _dashed_circle(draw, view.px((0, 0)), view.length(float(shot.reach)), fill=ZONE, width=2 * s, dash_px=5 * s)
    farthest = max(float(landing.moved) for landing in odds.landings)
    _paint_rose(draw, view, start, farthest, reading["side"], focus)
    for point, group in _spot_groups(odds, upto):
        _paint_spot(draw, view.px(point), group[0].hit, min(l.roll.distance for l in group), len(group), s)
    return image.convert("RGB")


def _paint_spot(draw: ImageDraw.ImageDraw, centre: vd.Point, hit: bool, distance: int, count: int, s: int,
                count_label: bool = True) -> None:
    """One landing spot, numbered by its (smallest) distance die; a second ring and a
    count where several rolls land together (the seed's fold, or a cap)."""
    r = 7 * s
    if count > 1:
        R = r + 3 * s
        draw.ellipse([centre[0] - R, centre[1] - R, centre[0] + R, centre[1] + R], fill=vd.PAPER,
                     outline=vd.INK if hit else MISS, width=s)
        if count_label:
            vd.text(draw, (centre[0] + R + s, centre[1] - R + s), f"x{count}", size=9 * s, fill=vd.INK,
                    anchor="ld", stroke=s, stroke_fill=AREA)
    box = [centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r]
    if hit:
        draw.ellipse(box, fill=HIT, outline=vd.INK, width=s)
    else:
        draw.ellipse(box, fill=vd.PAPER, outline=MISS, width=2 * s)
    vd.text(draw, centre, str(distance), size=9 * s, fill=vd.PAPER if hit else vd.MUTED, anchor="mm")


# --- legends ----------------------------------------------------------------------------


def _glyph_disc(colour: vd.RGB, s: int, ghost: bool = False):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (y1 - y0) * 0.45
        if ghost:
            _dashed_circle(draw, (cx, cy), r, fill=colour, width=2 * s, dash_px=3 * s)
        else:
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=vd.mix(colour, vd.PAPER, 0.55),
                         outline=vd.mix(colour, vd.INK, 0.3), width=s)
    return paint


def _glyph_arrow(colour: vd.RGB, s: int, dash: bool = False):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        vd.arrow(draw, [(x0, cy), (x1, cy)], fill=colour, width=2 * s, head=(y1 - y0) * 0.5,
                 dash=(4 * s, 3 * s) if dash else None)
    return paint


def _glyph_face(s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        _face(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "2", s)
    return paint


def _glyph_gap(s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        draw.line([(x0 + 4 * s, cy), (x1 - 4 * s, cy)], fill=HIT, width=2 * s)
        for x in (x0 + 4 * s, x1 - 4 * s):
            draw.line([(x, cy - 4 * s), (x, cy + 4 * s)], fill=HIT, width=2 * s)
    return paint


def _glyph_bang(s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        vd.starburst(draw, ((x0 + x1) / 2, (y0 + y1) / 2), (y1 - y0) * 0.5, width=s)
    return paint


def _glyph_spot(hit: bool, s: int, count: int = 1):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        _paint_spot(draw, ((x0 + x1) / 2, (y0 + y1) / 2), hit, 2, count, s, count_label=False)
    return paint


def _aim_words(shot: Shot, reading: Mapping[str, str]) -> str:
    if shot.on_target:
        return "at a target in range: the template starts on the target's centre"
    figure = f"{decimal_text(shot.short, 3)} in"
    if shot.short_plus_base_radius:
        figure += f" + the base radius ({decimal_text(shot.base_radius, 2)} in)"
    measure = "to the base's centre" if reading["distance"] == "centre" else "to the base's edge"
    start = -float(start_point(shot, reading).y)
    return (f"short by {figure}, measured {measure}: the template starts {decimal_text(start, 2)} in from the "
            f"target's centre")


def _cap_words(shot: Shot, landing: Landing, reading: Mapping[str, str]) -> str:
    which = ("half the distance from the attacker" if reading["cap"] == "half-distance"
             else "the seed's maximum")
    if landing.capped:
        return f"capped at {decimal_text(landing.cap, 2)} in, {which}"
    return f"cap {decimal_text(landing.cap, 2)} in ({which}) not reached"


def _contact_words(landing: Landing, reading: Mapping[str, str]) -> str:
    reach = f"{decimal_text(landing.reach, 2)} in (template + base radius)"
    distance = decimal_text(landing.centre_distance, 2)
    if landing.touching:
        return (f"centres {distance} in apart, exactly {reach}: touching, which is a "
                f"{'hit' if landing.hit else 'miss'} under touch={reading['touch']}")
    if landing.hit:
        return f"centres {distance} in apart, closer than {reach}: overlaps by {decimal_text(-landing.clearance, 2)} in"
    return f"centres {distance} in apart, farther than {reach}: a gap of {decimal_text(landing.clearance, 2)} in"


def _key_entries(s: int, odds: bool, landings: Sequence[Landing] = ()) -> list[vd.LegendEntry]:
    entries = [vd.LegendEntry(_glyph_disc(BASE, s), "target's base", "to scale; grid lines 1 inch apart")]
    if not odds:
        entries.append(vd.LegendEntry(_glyph_disc(TEMPLATE, s), "AOE template", "where it lands"))
    entries += [vd.LegendEntry(_glyph_disc(TEMPLATE, s, ghost=True), "aimed template", "where the shot put it"),
               vd.LegendEntry(_glyph_arrow(ATTACK, s, dash=True), "line of attack", "forward is up"),
               vd.LegendEntry(_glyph_face(s), "direction die face", "1 straight on, 4 straight back")]
    if odds:
        entries += [vd.LegendEntry(_glyph_disc(ZONE, s, ghost=True), "hit zone",
                                   "a template centred inside it overlaps the base"),
                    vd.LegendEntry(_glyph_spot(True, s), "a roll that hits", "where the template's centre lands, "
                                                                            "numbered by the distance die"),
                    vd.LegendEntry(_glyph_spot(False, s), "a roll that misses")]
        if any(len(group) > 1 for group in landings):
            entries.append(vd.LegendEntry(_glyph_spot(False, s, 2), "several rolls", "on one spot, "
                                          "counted: x2 is two rolls"))
        return entries
    entries.append(vd.LegendEntry(_glyph_arrow(vd.INK, s), "deviation", "the rolled distance and direction"))
    if any(landing.touching for landing in landings):
        entries.append(vd.LegendEntry(_glyph_touch(s), "touching", "the edges meet exactly"))
    if any(landing.hit and not landing.touching for landing in landings):
        entries.append(vd.LegendEntry(_glyph_bang(s), "overlap", "the template covers part of the base: hit"))
    if any(not landing.hit and not landing.touching for landing in landings):
        entries.append(vd.LegendEntry(_glyph_gap(s), "gap", "between template and base: miss"))
    return entries


def _glyph_touch(s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        draw.ellipse([cx - 5 * s, cy - 5 * s, cx + 5 * s, cy + 5 * s], outline=HIT, width=2 * s)
    return paint


def _roll_entries(shot: Shot, landing: Landing, reading: Mapping[str, str], outcome: Outcome) -> list[vd.LegendEntry]:
    roll = landing.roll
    used = [c.clause for c in outcome.provenance.get("template", ()) + outcome.provenance.get("target", ())
            if c.clause]
    return [vd.LegendEntry(None, "Aimed", _aim_words(shot, reading)),
            vd.LegendEntry(None, "Rolled", f"distance {roll.distance}, direction {roll.direction} "
                                            f"({direction_words(roll.direction, reading['side'])}); moves "
                                            f"{decimal_text(landing.moved, 2)} in, {_cap_words(shot, landing, reading)}"),
            vd.LegendEntry(None, "Hit or miss", f"{'HIT' if landing.hit else 'MISS'}: "
                                                f"{_contact_words(landing, reading)}"),
            vd.LegendEntry(None, "Clauses", ", ".join(used))]


def _odds_entries(shot: Shot, odds: Odds, reading: Mapping[str, str]) -> list[vd.LegendEntry]:
    hits = [landing.roll for landing in odds.landings if landing.hit]
    touching = [landing.roll for landing in odds.landings if landing.touching]
    entries = [vd.LegendEntry(None, "Aimed", _aim_words(shot, reading)),
               vd.LegendEntry(None, "Chance", f"{odds.hits} of 36 rolls hit: exactly {odds.hits}/36"
                                              + (f" = {fraction_text(odds.probability)}"
                                                 if odds.probability.denominator != 36 else "")
                                              + f" ({float(odds.probability):.1%})"),
               vd.LegendEntry(None, "Hitting rolls", ", ".join(f"{r.distance}-{r.direction}" for r in hits) or "none")]
    if touching:
        entries.append(vd.LegendEntry(None, "Touching", ", ".join(f"{r.distance}-{r.direction}" for r in touching)
                                      + f": counted as {'hits' if reading['touch'] == 'hit' else 'misses'} "
                                        f"(touch={reading['touch']})"))
    return entries


def _caption_lines(shot: Shot, outcome: Outcome) -> list[str]:
    reading = outcome.reading
    after = outcome.after
    if isinstance(after, Odds):
        hits = [landing.roll for landing in after.landings if landing.hit]
        return [f"{after.hits} of 36 rolls hit ({fraction_text(after.probability)})",
                "hitting: " + (", ".join(f"{r.distance}-{r.direction}" for r in hits) or "none")]
    roll = after.roll
    return [f"{'HIT' if after.hit else 'MISS'}: {_contact_words(after, reading)}",
            f"moves {decimal_text(after.moved, 2)} in {direction_words(roll.direction, reading['side'])}; "
            f"{_cap_words(shot, after, reading)}"]


def _with_caption(image: Image.Image, lines: Sequence[str], fs: int, s: int) -> Image.Image:
    """``image`` with ``lines`` of text wrapped under it to its width."""
    size = fs - s
    wrapped = [part for line in lines for part in vd.wrap(line, size, image.width - 4 * s)]
    step = round(size * 1.4)
    out = Image.new("RGB", (image.width, image.height + 6 * s + step * len(wrapped)), vd.PAPER)
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    for i, line in enumerate(wrapped):
        vd.text(draw, (2 * s, image.height + 6 * s + step * i), line, size=size, fill=vd.INK if i == 0 else vd.MUTED,
                anchor="la")
    return out


def roll_table(odds: Odds, s: int, *, size: int = 11) -> Image.Image:
    """A 6x6 table of the rolls: a row per direction face, a column per distance,
    hits filled."""
    fs = size * s
    cell = round(fs * 1.7)
    head_w = vd.text_width("direction 6", fs) + 6 * s
    caption = "rolls: distance across, direction down"
    width = max(head_w + 6 * cell + 2 * s, vd.text_width(caption, fs) + 2 * s)
    height = round(fs * 1.6) + cell + 6 * cell + 2 * s
    image = Image.new("RGB", (width, height), vd.PAPER)
    draw = ImageDraw.Draw(image)
    vd.text(draw, (0, 0), caption, size=fs, fill=vd.INK, anchor="la")
    top = round(fs * 1.6)
    for d in DIE_FACES:
        vd.text(draw, (head_w + (d - 0.5) * cell, top + cell / 2), str(d), size=fs, fill=vd.MUTED, anchor="mm")
    for k in DIE_FACES:
        y = top + cell * k
        vd.text(draw, (head_w - 6 * s, y + cell / 2), f"direction {k}", size=fs, fill=vd.MUTED, anchor="rm")
        for d in DIE_FACES:
            landing = odds.landing(Roll(d, k))
            x = head_w + (d - 1) * cell
            box = [x + s, y + s, x + cell - s, y + cell - s]
            draw.rectangle(box, fill=HIT if landing.hit else vd.PAPER, outline=MISS, width=s)
            if landing.touching:
                vd.text(draw, (x + cell / 2, y + cell / 2), "t", size=fs, fill=vd.INK, anchor="mm")
    return image


# --- public -----------------------------------------------------------------------------


def _interest(shot: Shot, actions: Actions, reading: Mapping[str, str], outcome: Outcome | None
              ) -> list[tuple[Inches, float]]:
    """Circles a panel must show: base, aimed template, where templates land, the die's rose."""
    start = start_point(shot, reading).floats()
    circles = [((0.0, 0.0), float(shot.base_radius)), (start, float(shot.template_radius) + 0.2)]
    rolls = [actions] if isinstance(actions, Roll) else [Roll(6, k) for k in DIE_FACES]
    for roll in rolls:
        landing = land(shot, roll, reading)
        moved = float(landing.moved)
        for _, point, _ in _rose(start, moved, reading["side"]):
            circles.append((point, 0.45))
        circles.append((landing.point.floats(), float(shot.template_radius)))
        if landing.capped and isinstance(actions, Roll):
            circles.append((_uncapped_point(landing, reading), 0.4))
    attacker_y = float(attacker_point(shot, reading).y)
    circles.append(((0.0, max(attacker_y, start[1] - float(shot.template_radius) - 1.4)), 0.0))
    if outcome is not None and isinstance(outcome.after, Odds):
        circles.append(((0.0, 0.0), float(shot.reach)))
    return circles


def draw_panels(shot: Shot, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, subtitle: str | None = None, supersample: int = 2,
                font_size: int = 12, legend_width: int = 340, target_px: float | None = None) -> Image.Image:
    """Panels side by side over one shared view of the table: a panel with no outcome
    shows the shot before the roll (under the first outcome's reading); one with an
    outcome shows where the template landed, or all 36 landing spots."""
    s = max(1, int(supersample))
    images, legends, title, subtitle = panel_parts(shot, actions, panels, title=title, subtitle=subtitle,
                                                   supersample=s, font_size=font_size, legend_width=legend_width,
                                                   target_px=target_px)
    fs = font_size * s
    column = legend_width * s
    panels_w = sum(img.width for _, img in images) + 2 * fs * (len(images) - 1)
    beside = panels_w + column + 2 * fs <= 1150 * s
    image = vd.side_by_side(images, title=title, subtitle=subtitle, beside=legends if beside else (),
                            below=() if beside else legends, size=round(font_size * 1.15) * s, gap=2 * fs,
                            margin=fs)
    return vd.finish(image, s)


def panel_parts(shot: Shot, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, subtitle: str | None = None, supersample: int = 2,
                font_size: int = 12, legend_width: int = 340, target_px: float | None = None
                ) -> tuple[list[tuple[str, Image.Image]], list[Image.Image], str, str | None]:
    """What :func:`draw_panels` lays out, drawn at ``supersample`` times the size:
    the (name, panel) images, the legends (``legend_width`` wide), the title and the
    subtitle. The narrow layout stacks the same parts."""
    s = max(1, int(supersample))
    outcomes = [o for _, o in panels if o is not None]
    from .clauses import PUBLISHED_READING
    first = outcomes[0].reading if outcomes and outcomes[0].reading else PUBLISHED_READING
    circles = []
    for outcome in outcomes or [None]:
        reading = outcome.reading if outcome is not None and outcome.reading else first
        circles += _interest(shot, actions, reading, outcome)
    if target_px is None:
        target_px = {1: 500, 2: 320}.get(len(panels), 260)
    view = _fit(circles, s, target_px=target_px)
    images = []
    for name, outcome in panels:
        if outcome is None:
            images.append((name, _panel_before(shot, actions, first, view)))
        elif isinstance(outcome.after, Odds):
            images.append((name, _panel_odds(shot, outcome.after, outcome.reading or first, view)))
        else:
            images.append((name, _panel_after(shot, outcome.after, outcome.reading or first, view)))

    fs = font_size * s
    column = legend_width * s
    if len(outcomes) > 1:
        # One reading per panel: say what happened right under each one.
        images = [(name, _with_caption(img, _caption_lines(shot, outcome), fs, s) if outcome is not None else img)
                  for (name, img), (_, outcome) in zip(images, panels)]
    landings = [o.after for o in outcomes if isinstance(o.after, Landing)]
    groups = [group for o in outcomes if isinstance(o.after, Odds) for _, group in _spot_groups(o.after)]
    odds = any(isinstance(o.after, Odds) for o in outcomes)
    legends = [vd.legend(_key_entries(s, odds, groups if odds else landings), size=fs, padding=0,
                         max_width=column, heading="Key", stacked=False)]
    for name, outcome in panels:
        if outcome is None or len(outcomes) > 1:
            continue
        reading = outcome.reading or first
        heading = "What happened" if len(outcomes) == 1 else f"What happened ({name})"
        if isinstance(outcome.after, Odds):
            legends.append(vd.legend(_odds_entries(shot, outcome.after, reading), size=fs, padding=0,
                                     max_width=column, heading=heading, stacked=True))
            legends.append(roll_table(outcome.after, s, size=font_size - 1))
        else:
            legends.append(vd.legend(_roll_entries(shot, outcome.after, reading, outcome), size=fs, padding=0,
                                     max_width=column, heading=heading, stacked=True))
    if subtitle is None and outcomes and outcomes[0].reading and all(o.reading == first for o in outcomes):
        subtitle = "reading: " + ", ".join(f"{k}={v}" for k, v in first.items())
    if title is None:
        title = f"{shot.aoe}-inch AOE template deviating near a {shot.base} mm base"
    return images, legends, title, subtitle


def draw_case(shot: Shot, actions: Actions, outcome: Outcome, *, title: str | None = None, **options) -> Image.Image:
    """The standard picture of a case: before and after one roll; or, over all 36
    rolls, every landing spot. (An answer read from JSON may lack the roll, which the
    actions supply, or give the odds without landing spots: then the table of rolls.)"""
    after = outcome.after
    if isinstance(after, Landing) and after.roll is None and isinstance(actions, Roll):
        outcome = replace(outcome, after=replace(after, roll=actions))
    if not isinstance(after, (Landing, Odds)):
        return _draw_rolls_only(shot, outcome, title=title, **options)
    if isinstance(actions, AllRolls):
        return draw_panels(shot, actions, [("Every roll: where the template's centre lands", outcome)], title=title,
                           **options)
    return draw_panels(shot, actions, [("Before: where the shot put the template", None),
                                       ("After: where the roll sends it", outcome)], title=title, **options)


def _draw_rolls_only(shot: Shot, outcome: Outcome, *, title: str | None = None, supersample: int = 2,
                     font_size: int = 12, **_options) -> Image.Image:
    """Odds reported without landing spots (another implementation's answer): the 6x6
    table of which rolls hit, under the chance."""
    s = max(1, int(supersample))
    odds = outcome.after
    table = roll_table(odds, s, size=font_size - 1)
    subtitle = (f"{odds.hits} of 36 rolls hit ({fraction_text(odds.probability)}); "
                f"{shot.aoe}-inch AOE, {shot.base} mm base")
    image = vd.side_by_side([("Hitting rolls as reported", table)], title=title, subtitle=subtitle,
                            size=round(font_size * 1.15) * s, margin=font_size * s)
    return vd.finish(image, s)


# --- the chance of a hit against distance -----------------------------------------------

AOE_COLOURS = {3: vd.OKABE_ITO["blue"], 4: vd.OKABE_ITO["orange"], 5: vd.OKABE_ITO["bluish green"]}
AOE_DASHES = {3: None, 4: (7, 4), 5: (2, 3)}


@dataclass(frozen=True)
class PlotMark:
    """A point to mark on one base size's chart: (base, distance, chance, label, filled)."""

    base: int
    distance: float
    chance: float
    label: str
    filled: bool = True


def probability_curves(reading: Mapping[str, str], *, max_distance: Fraction = Fraction(9),
                       step: Fraction = Fraction(1, 50)) -> dict[tuple[int, int], list[tuple[Fraction, Fraction]]]:
    """(aoe, base) -> [(centre distance, exact chance)] for a shot whose template starts
    that far from the target's centre, with no cap binding (the attacker far away)."""
    from .model import AOE_SIZES, BASE_SIZES
    from .resolver import probability
    points = [step * k for k in range(int(max_distance / step) + 1)]
    # Under distance=centre a short distance is the centre distance itself.
    at = {**dict(reading), "distance": "centre"}
    curves = {}
    for base in BASE_SIZES:
        for aoe in AOE_SIZES:
            line = []
            for d in points:
                shot = Shot(aoe, base, Fraction(100), d if d else None)
                line.append((d, probability(shot, at)))
            curves[(aoe, base)] = line
    return curves


def draw_probability_plot(reading: Mapping[str, str], *, marks: Sequence[PlotMark] = (), supersample: int = 2,
                          font_size: int = 12, title: str | None = None, subtitle: str | None = None,
                          max_distance: int = 9) -> Image.Image:
    """One chart per base size, one line per template size: the exact chance that a
    deviating template hits, against how far from the target's centre it starts."""
    from .model import AOE_SIZES, BASE_SIZES
    s = max(1, int(supersample))
    curves = probability_curves(reading, max_distance=Fraction(max_distance))
    fs = font_size * s
    width, height = 340 * s, 250 * s
    left, bottom, top, right = 40 * s, 34 * s, 10 * s, 12 * s
    charts = []
    for base in BASE_SIZES:
        image = Image.new("RGB", (width, height), vd.PAPER)
        draw = ImageDraw.Draw(image)
        x0, x1, y0, y1 = left, width - right, height - bottom, top

        def px(d: float, p: float) -> vd.Point:
            return (x0 + (x1 - x0) * d / max_distance, y0 - (y0 - y1) * p)

        for k in range(0, max_distance + 1):
            x = px(k, 0)[0]
            draw.line([(x, y1), (x, y0)], fill=vd.GRID, width=s)
            vd.text(draw, (x, y0 + 4 * s), str(k), size=fs - 2 * s, fill=vd.MUTED, anchor="ma")
        for p in (0, 0.25, 0.5, 0.75, 1):
            y = px(0, p)[1]
            draw.line([(x0, y), (x1, y)], fill=vd.GRID, width=s)
            vd.text(draw, (x0 - 4 * s, y), f"{p:g}", size=fs - 2 * s, fill=vd.MUTED, anchor="rm")
        vd.text(draw, ((x0 + x1) / 2, height - 2 * s), "inches from the target's centre", size=fs - 2 * s,
                fill=vd.MUTED, anchor="md")
        draw.rectangle([x0, y1, x1, y0], outline=vd.MUTED, width=s)
        for aoe in AOE_SIZES:
            pts = [px(float(d), float(p)) for d, p in curves[(aoe, base)]]
            dash = AOE_DASHES[aoe]
            vd.polyline(draw, pts, fill=AOE_COLOURS[aoe], width=2 * s,
                        dash=(dash[0] * s, dash[1] * s) if dash else None)
        for mark in marks:
            if mark.base != base:
                continue
            c = px(mark.distance, mark.chance)
            r = 5 * s
            draw.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], fill=vd.INK if mark.filled else vd.PAPER,
                         outline=vd.INK, width=2 * s)
            vd.text(draw, (c[0] + 8 * s, c[1] - 8 * s), mark.label, size=fs - 2 * s, fill=vd.INK, anchor="ld",
                    stroke=2 * s, stroke_fill=vd.PAPER)
        charts.append((f"{base} mm base", image))

    def line_glyph(aoe: int):
        def paint(draw, box):
            bx0, by0, bx1, by1 = box
            cy = (by0 + by1) / 2
            dash = AOE_DASHES[aoe]
            vd.polyline(draw, [(bx0, cy), (bx1, cy)], fill=AOE_COLOURS[aoe], width=2 * s,
                        dash=(dash[0] * s, dash[1] * s) if dash else None)
        return paint

    def mark_glyph(filled: bool):
        def paint(draw, box):
            bx0, by0, bx1, by1 = box
            cx, cy, r = (bx0 + bx1) / 2, (by0 + by1) / 2, 5 * s
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=vd.INK if filled else vd.PAPER, outline=vd.INK,
                         width=2 * s)
        return paint

    items = [(line_glyph(aoe), f"{aoe}-inch AOE") for aoe in AOE_SIZES]
    if any(m.filled for m in marks):
        items.append((mark_glyph(True), "exact chance of a documented example"))
    if any(not m.filled for m in marks):
        items.append((mark_glyph(False), "a chance the seed states"))
    key = vd.key_strip(items, size=fs, padding=0, max_width=2 * width + 2 * fs)
    rows = [vd.side_by_side(charts[i:i + 2], size=fs, gap=2 * fs, margin=0, rule=None) for i in (0, 2)]
    body = [rows[1], key]
    return vd.finish(vd.side_by_side([("", rows[0])], title=title, subtitle=subtitle, below=body,
                                     size=round(font_size * 1.15) * s, margin=fs, rule=None), s)
