"""Diagrams of scatter cases, drawn with the drawing kit (``verifier.kit.draw``).

A plane view with the attacker below and the target above: the line of attack
runs up the middle, the target's base is a blue disc and the AOE template an
orange one, both to scale on a one-inch grid whose numbers are inches from the
target's centre. "Before" shows the template where the shot put it and the six
directions of the die at the rolled distance; "after" shows where it landed, the
deviation arrow and the gap or overlap. A case over all 36 rolls gets one picture
of every landing spot instead, hits filled and misses hollow, with the circle
inside which a template's centre must land to hit, and a 6x6 table of the rolls.

Every word on a panel goes through the kit's label placer, after every disc,
landing spot and die face is known, so no label covers another, a spot or a
face. Drawing is done at ``supersample`` times the size and shrunk, for smooth
edges. Nothing here reads a clock or a random source.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from PIL import Image, ImageDraw

from ...kit import draw as vd
from ...ruleset import Outcome
from .exact import decimal_text, fraction_text
from .model import DIE_FACES, Actions, AllRolls, Landing, Odds, Roll, Shot
from .resolver import attacker_point, direction_vector, direction_words, land, start_point
from .steps import HitSteps, hit_steps

TEMPLATE = vd.OKABE_ITO["orange"]
BASE = vd.OKABE_ITO["blue"]
HIT = vd.OKABE_ITO["vermillion"]
MISS = (140, 140, 140)
ZONE = vd.OKABE_ITO["blue"]
ATTACK = (120, 120, 120)
AREA = vd.PLANE

Inches = tuple[float, float]

_BESIDE = vd.AROUND  # upper right first, as a map labels a town


# --- one panel -----------------------------------------------------------------------------


def _fit(circles: Iterable[tuple[Inches, float]], s: int, *, target_px: float = 400) -> vd.PlaneView:
    """A view holding every (centre, radius) circle with half an inch to spare, on
    whole inches, at a scale that keeps the panel near ``target_px`` pixels across."""
    return vd.fit([vd.circle_box(c, r) for c, r in circles], target_px=target_px, margin=0.5, min_span=7.0,
                  snap=1.0, scale_range=(18, 56), supersample=s, pad=(0, 6 * s, 6 * s, 0), tick_size=10 * s)


def _dash(length: float) -> vd.Dash:
    """The dash pattern of a dashed rim, ``length`` pixels a dash and a little less between."""
    return (length * 0.986, length * 0.714)


@dataclass
class _Label:
    anchor: vd.Point
    content: str
    fill: vd.RGB
    size: int
    clearance: float
    angles: Sequence[float]
    shorter: Sequence[str]
    hug: bool


@dataclass
class _Sheet:
    """One panel being drawn: its image on the table's grid, the view, and the label
    placer. Markers are told to the placer as they are painted; labels wait in a
    queue and are placed and drawn last (:meth:`done`), so that they see every marker.
    The discs of the base and the template keep words off them but not the die's
    faces, which sit at the ends of their rays wherever those are: they are told
    to the placer only when the labels are placed."""

    view: vd.PlaneView
    placers: list[vd.LabelPlacer] | None = None  # where to leave the placer, for tests
    image: Image.Image = field(init=False)
    placer: vd.LabelPlacer = field(init=False)
    queue: list[_Label] = field(default_factory=list)
    discs: list[tuple[vd.Point, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        s = self.view.supersample
        self.image = Image.new("RGBA", self.view.size, vd.PAPER + (255,))
        vd.grid(self.draw, self.view, step=1.0, size=10 * s, width=s, area=AREA, unit="in")
        self.placer = vd.LabelPlacer(bounds=self.view.area, gap=2 * s)
        if self.placers is not None:
            self.placers.append(self.placer)

    @property
    def s(self) -> int:
        return self.view.supersample

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        return ImageDraw.Draw(self.image)

    def label(self, anchor: vd.Point, content: str, *, fill: vd.RGB = vd.INK, size: int = 11,
              clearance: float = 0.0, angles: Sequence[float] = _BESIDE, shorter: Sequence[str] = (),
              hug: bool = False) -> None:
        """Queue a label near ``anchor`` (``clearance`` pixels out: the radius of what it
        names); ``shorter`` are the same words on two lines, for where one line has no room;
        ``hug`` centres the label square to ``anchor`` rather than by a corner."""
        self.queue.append(_Label(anchor, content, fill, size, clearance, angles, shorter, hug))

    def done(self) -> Image.Image:
        draw = self.draw
        for centre, radius in self.discs:
            self.placer.block_circle(centre, radius)
        for lab in self.queue:
            placed = self.placer.place(lab.anchor, lab.content, size=lab.size * self.s, stroke=2 * self.s,
                                       clearance=lab.clearance, angles=lab.angles, rings=10, shorter=lab.shorter,
                                       hug=lab.hug)
            self.placer.draw(draw, placed, fill=lab.fill, stroke_fill=AREA, leader=vd.mix(lab.fill, AREA, 0.3),
                             leader_width=self.s)
        return self.image.convert("RGB")


def _paint_attack_line(sheet: _Sheet, shot: Shot, reading: Mapping[str, str]) -> None:
    """The line of attack, dashed, up the middle, with an arrow at the bottom coming
    from the attacker (who is usually far below the picture)."""
    view, s, draw = sheet.view, sheet.s, sheet.draw
    top = view.px((0, view.y1))
    bottom = view.px((0, view.y0))
    vd.dashed_line(draw, [bottom, top], fill=ATTACK, width=s, dash=(6 * s, 5 * s))
    attacker_y = float(attacker_point(shot, reading).y)
    if attacker_y >= view.y0:
        tip = view.px((0, attacker_y))
        square = (tip[0] - 5 * s, tip[1] - 5 * s, tip[0] + 5 * s, tip[1] + 5 * s)
        draw.rectangle(square, fill=ATTACK)
        sheet.placer.block_box(square)
        sheet.label(tip, "attacker", fill=vd.MUTED, size=10, clearance=7 * s, angles=(0, 180, 35, -35))
        return
    tail = (bottom[0], bottom[1] - 4 * s)
    head = (bottom[0], bottom[1] - 30 * s)
    vd.arrow(draw, [tail, head], fill=ATTACK, width=2 * s, head=9 * s)
    sheet.placer.block_box((head[0] - 5 * s, head[1], tail[0] + 5 * s, tail[1]))
    far = f"{decimal_text(shot.from_attacker)} in"
    sheet.label((head[0], (tail[1] + head[1]) / 2), f"from the attacker, {far}", fill=vd.MUTED, size=10,
                clearance=6 * s, angles=(0, 180), shorter=(f"from the attacker,\n{far}", f"attacker\n{far}"))


def _paint_base(sheet: _Sheet, shot: Shot, *, label: bool = True) -> None:
    view, s = sheet.view, sheet.s
    centre, radius = vd.circle(sheet.image, (0, 0), float(shot.base_radius), fill=BASE, alpha=120,
                               outline=vd.mix(BASE, vd.INK, 0.3), width=2 * s, view=view)
    sheet.draw.ellipse([centre[0] - 2 * s, centre[1] - 2 * s, centre[0] + 2 * s, centre[1] + 2 * s], fill=vd.INK)
    sheet.discs.append((centre, radius + s))
    if label:
        sheet.label(centre, f"target, {shot.base} mm base", fill=vd.mix(BASE, vd.INK, 0.35), clearance=radius + 6 * s,
                    shorter=(f"target,\n{shot.base} mm base",))


def _paint_template(sheet: _Sheet, shot: Shot, centre_in: Inches, *, ghost: bool = False,
                    label: str | None = None) -> None:
    view, s = sheet.view, sheet.s
    if ghost:
        centre, radius = vd.circle(sheet.image, centre_in, float(shot.template_radius),
                                   outline=vd.mix(TEMPLATE, vd.INK, 0.15), width=2 * s, dash=_dash(7 * s), view=view)
    else:
        centre, radius = vd.circle(sheet.image, centre_in, float(shot.template_radius), fill=TEMPLATE, alpha=95,
                                   outline=vd.mix(TEMPLATE, vd.INK, 0.35), width=2 * s, view=view)
    draw = sheet.draw
    draw.line([(centre[0] - 4 * s, centre[1]), (centre[0] + 4 * s, centre[1])], fill=vd.INK, width=s)
    draw.line([(centre[0], centre[1] - 4 * s), (centre[0], centre[1] + 4 * s)], fill=vd.INK, width=s)
    if ghost:  # only a dashed outline: a label may cross it, with its halo
        sheet.placer.block_circle(centre, 5 * s)
    else:
        sheet.discs.append((centre, radius + s))
    if label:
        sheet.label(centre, label, fill=vd.mix(TEMPLATE, vd.INK, 0.5), clearance=radius + 6 * s)


def _rose(start: Inches, moved: float, side: str) -> list[tuple[str, Inches, tuple[int, ...]]]:
    """Where each direction face at ``moved`` inches ends: (label, point, faces),
    faces that land on one spot (the seed's fold) sharing a label."""
    spots: dict[tuple[float, float], list[int]] = {}
    for face in DIE_FACES:
        vx, vy = direction_vector(face, side).floats()
        key = (round(start[0] + vx * moved, 6), round(start[1] + vy * moved, 6))
        spots.setdefault(key, []).append(face)
    return [("/".join(map(str, faces)), point, tuple(faces)) for point, faces in spots.items()]


def _paint_rose(sheet: _Sheet, start: Inches, moved: float, side: str, rolled: int | None) -> None:
    """The six directions of the die: a dashed ray to each, and its face beyond the
    end of the ray (further out where a landing spot or another face is in the way)."""
    view, s, draw = sheet.view, sheet.s, sheet.draw
    origin = view.px(start)
    size = 10 * s
    for label, point, faces in _rose(start, moved, side):
        end = view.px(point)
        chosen = rolled in faces
        if chosen:
            vd.arrow(draw, [origin, end], fill=vd.INK, width=2 * s, head=10 * s, dash=(6 * s, 4 * s))
        else:
            vd.dashed_line(draw, [origin, end], fill=vd.mix(ATTACK, vd.PAPER, 0.25), width=s, dash=(4 * s, 4 * s))
        ux, uy = vd.unit(end[0] - origin[0], end[1] - origin[1])
        half_w, half_h = vd.tag_size(label, size)
        placed = sheet.placer.place_box(end, 2 * half_w, 2 * half_h, clearance=5 * s,
                                        angles=(math.degrees(math.atan2(-uy, ux)),), rings=8, step=3 * s,
                                        widen_after=5, leader_after=99, hug=True)
        at = placed.xy if placed is not None else (end[0] + ux * 14 * s, end[1] + uy * 14 * s)
        _face(draw, at, label, s, chosen)


def _face(draw: ImageDraw.ImageDraw, at: vd.Point, label: str, s: int, chosen: bool = False) -> None:
    """A direction die face: a small square with its number (spots are round)."""
    vd.tag_box(draw, at, label, size=10 * s, fill=vd.INK if chosen else vd.PAPER,
               outline=vd.INK if chosen else ATTACK, width=s, radius=2 * s)


def _edge_points(landing_in: Inches, radius_template: float, radius_base: float) -> tuple[Inches, Inches, Inches]:
    """Along the line from the template's centre to the base's centre: the template's
    far edge, the base's near edge, and the unit vector."""
    dx, dy = -landing_in[0], -landing_in[1]
    d = math.hypot(dx, dy)
    ux, uy = (dx / d, dy / d) if d else (0.0, 1.0)
    far = (landing_in[0] + ux * radius_template, landing_in[1] + uy * radius_template)
    near = (-ux * radius_base, -uy * radius_base)
    return far, near, (ux, uy)


def _paint_contact(sheet: _Sheet, shot: Shot, landing: Landing) -> None:
    """The gap (a red bracket), the touching point, or the overlap (a bang)."""
    view, s, draw = sheet.view, sheet.s, sheet.draw
    point = landing.point.floats()
    far, near, (ux, uy) = _edge_points(point, float(shot.template_radius), float(shot.base_radius))
    # The centre line, as the seed's diagram draws it.
    vd.dashed_line(draw, [view.px(point), view.px((0, 0))], fill=vd.mix(BASE, vd.INK, 0.2), width=s,
                   dash=(3 * s, 3 * s))
    px, py = -uy, ux
    if landing.touching:
        c = view.px(near)
        draw.ellipse([c[0] - 5 * s, c[1] - 5 * s, c[0] + 5 * s, c[1] + 5 * s], outline=HIT, width=2 * s)
        sheet.placer.block_circle(c, 6 * s)
        sheet.label(c, "touching", fill=HIT, clearance=7 * s, angles=(0, 180, 35, -35, 145, -145))
        return
    if landing.hit:
        mid = view.px(((far[0] + near[0]) / 2, (far[1] + near[1]) / 2))
        vd.starburst(draw, mid, 10 * s, width=s)
        sheet.placer.block_circle(mid, 10 * s)
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
    sheet.placer.block_line([a, b], 2 * tick)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    sheet.label(mid, f"gap {decimal_text(landing.clearance, 2)} in", fill=HIT, clearance=7 * s,
                angles=(0, 180, 35, -35, 145, -145))


# --- panels -----------------------------------------------------------------------------


def _panel_before(shot: Shot, actions: Actions, reading: Mapping[str, str], view: vd.PlaneView,
                  rose: bool = True, placers: list[vd.LabelPlacer] | None = None) -> Image.Image:
    sheet = _Sheet(view, placers)
    _paint_attack_line(sheet, shot, reading)
    start = start_point(shot, reading).floats()
    _paint_base(sheet, shot)
    _paint_template(sheet, shot, start, label=f"{shot.aoe}-inch AOE")
    if rose:  # without it, only where the shot put the template (the first step of an animation)
        moved = float(land(shot, actions, reading).moved) if isinstance(actions, Roll) else 1.0
        _paint_rose(sheet, start, moved, reading["side"], actions.direction if isinstance(actions, Roll) else None)
    return sheet.done()


def _panel_after(shot: Shot, landing: Landing, reading: Mapping[str, str], view: vd.PlaneView,
                 placers: list[vd.LabelPlacer] | None = None) -> Image.Image:
    sheet = _Sheet(view, placers)
    s = sheet.s
    verdict = "HIT" if landing.hit else "MISS"
    corner = (view.left + 8 * s, view.top + 4 * s)
    sheet.placer.block_box(vd.text_box(corner, verdict, size=16 * s, anchor="la", stroke=2 * s))
    _paint_attack_line(sheet, shot, reading)
    start = landing.start.floats()
    point = landing.point.floats()
    _paint_base(sheet, shot)
    _paint_template(sheet, shot, start, ghost=True)
    _paint_template(sheet, shot, point)
    draw = sheet.draw
    if landing.capped:
        _paint_uncapped(sheet, landing, reading)
    if landing.moved:
        a, b = view.px(start), view.px(point)
        vd.arrow(draw, [a, b], fill=vd.INK, width=2 * s, head=11 * s)
        sheet.placer.block_line([a, b], 4 * s)
    _paint_contact(sheet, shot, landing)
    vd.text(sheet.draw, corner, verdict, size=16 * s, fill=HIT if landing.hit else vd.MUTED, anchor="la",
            stroke=2 * s, stroke_fill=AREA)
    return sheet.done()


def _uncapped_point(landing: Landing, reading: Mapping[str, str]) -> Inches:
    vx, vy = direction_vector(landing.rolled.direction, reading["side"]).floats()
    sx, sy = landing.start.floats()
    return (sx + vx * landing.rolled.distance, sy + vy * landing.rolled.distance)


def _paint_uncapped(sheet: _Sheet, landing: Landing, reading: Mapping[str, str]) -> None:
    """Where the die alone would have sent the template: a faint dashed line on to a cross."""
    view, s, draw = sheet.view, sheet.s, sheet.draw
    a, b = view.px(landing.point.floats()), view.px(_uncapped_point(landing, reading))
    vd.dashed_line(draw, [a, b], fill=ATTACK, width=s, dash=(3 * s, 3 * s))
    k = 5 * s
    draw.line([(b[0] - k, b[1] - k), (b[0] + k, b[1] + k)], fill=ATTACK, width=2 * s)
    draw.line([(b[0] - k, b[1] + k), (b[0] + k, b[1] - k)], fill=ATTACK, width=2 * s)
    sheet.placer.block_circle(b, k * 1.5)
    sheet.label(b, f"the die's {landing.rolled.distance} in, capped", fill=vd.MUTED, size=10, clearance=8 * s,
                angles=(0, 180, 35, -35, 145, -145), shorter=(f"the die's {landing.rolled.distance} in,\ncapped",))


def _spot_groups(odds: Odds, upto: int = 6) -> list[tuple[Inches, list[Landing]]]:
    """Landing spots of the rolls with direction faces 1..``upto``, rolls on one spot together."""
    groups: dict[tuple, list[Landing]] = {}
    for landing in odds.landings:
        if landing.rolled.direction <= upto:
            groups.setdefault(landing.point.key(), []).append(landing)
    return [(group[0].point.floats(), group) for group in groups.values()]


def _panel_odds(shot: Shot, odds: Odds, reading: Mapping[str, str], view: vd.PlaneView, upto: int = 6,
                focus: int | None = None, placers: list[vd.LabelPlacer] | None = None) -> Image.Image:
    """The 36-roll picture; with ``upto`` only the rolls of direction faces 1..upto are
    placed, and the arrow of face ``focus`` is dark (for step-by-step frames)."""
    sheet = _Sheet(view, placers)
    s = sheet.s
    _paint_attack_line(sheet, shot, reading)
    _paint_base(sheet, shot, label=False)
    start = odds.start.floats()
    _paint_template(sheet, shot, start, ghost=True)
    # Inside this circle a template's centre overlaps the base.
    # (Its rim is dashed: a label may cross it, with its halo.)
    vd.circle(sheet.image, (0, 0), float(shot.reach), outline=ZONE, width=2 * s, dash=_dash(5 * s), view=view)
    # Every spot of all 36 rolls holds its place from the first frame on, so that the
    # faces and the counts stay put while the animation adds the spots.
    spots = [(view.px(point), group) for point, group in _spot_groups(odds)]
    for centre, group in spots:
        sheet.placer.block_circle(centre, _spot_radius(len(group), s) + s)
    farthest = max(float(landing.moved) for landing in odds.landings)
    _paint_rose(sheet, start, farthest, reading["side"], focus)
    origin = view.px(start)
    for centre, group in spots:
        mine = [landing for landing in group if landing.rolled.direction <= upto]
        if mine:
            _paint_spot(sheet.draw, centre, group[0].hit, min(x.rolled.distance for x in mine), len(mine), s)
            if len(mine) > 1:
                sheet.label(centre, f"x{len(mine)}", size=9, clearance=_spot_radius(len(mine), s) + s,
                            angles=_outside(origin, centre), hug=True)
    return sheet.done()


def _outside(origin: vd.Point, spot: vd.Point) -> tuple[float, ...]:
    """Where a spot's count goes, in page degrees: square to its ray from the aimed
    template, on the side away from the template's level (above a ray that climbs,
    below one that falls, right of an upright one), so that every count along a ray
    sits on the same side and reads as that spot's."""
    dx, dy = spot[0] - origin[0], spot[1] - origin[1]
    if math.hypot(dx, dy) < 1:
        return _BESIDE
    ray = math.degrees(math.atan2(-dy, dx))
    left, right = ray + 90, ray - 90  # counter-clockwise and clockwise of the ray, on the page
    up = math.sin(math.radians(left)) * (1 if dy < 0 else -1)
    first = left if (up > 1e-9 or (abs(up) <= 1e-9 and math.cos(math.radians(left)) > 0)) else right
    second = right if first == left else left
    return (first, first + 20, first - 20, first + 40, first - 40, first + 60, first - 60, second, second + 20,
            second - 20)


def _spot_radius(count: int, s: int) -> float:
    return (10 if count > 1 else 7) * s


def _paint_spot(draw: ImageDraw.ImageDraw, centre: vd.Point, hit: bool, distance: int, count: int, s: int) -> None:
    """One landing spot, numbered by its (smallest) distance die; a second ring where
    several rolls land together (the seed's fold, or a cap)."""
    r = 7 * s
    if count > 1:
        big = _spot_radius(count, s)
        draw.ellipse([centre[0] - big, centre[1] - big, centre[0] + big, centre[1] + big], fill=vd.PAPER,
                     outline=vd.INK if hit else MISS, width=s)
    box = [centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r]
    if hit:
        draw.ellipse(box, fill=HIT, outline=vd.INK, width=s)
    else:
        draw.ellipse(box, fill=vd.PAPER, outline=MISS, width=2 * s)
    vd.text(draw, centre, str(distance), size=10 * s, fill=vd.PAPER if hit else vd.MUTED, anchor="mm")


# --- legends ----------------------------------------------------------------------------


def _glyph_disc(colour: vd.RGB, s: int, ghost: bool = False):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (y1 - y0) * 0.45
        if ghost:
            vd.circle(draw, (cx, cy), r, outline=colour, width=2 * s, dash=_dash(3 * s))
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
        _paint_spot(draw, ((x0 + x1) / 2, (y0 + y1) / 2), hit, 2, count, s)
    return paint


def _aim_words(shot: Shot, reading: Mapping[str, str]) -> str:
    if shot.on_target:
        return "at a target in range: the template starts on the target's centre"
    figure = f"{decimal_text(shot.short or 0, 3)} in"
    if shot.short_plus_base_radius:
        figure += f" + the base radius ({decimal_text(shot.base_radius, 2)} in)"
    measure = "to the base's centre" if reading["distance"] == "centre" else "to the base's edge"
    start = -float(start_point(shot, reading).y)
    return (f"short by {figure}, measured {measure}: the template starts {decimal_text(start, 2)} in from the "
            f"target's centre")


def _cap_words(shot: Shot, landing: Landing, reading: Mapping[str, str]) -> str:
    which = ("half the distance from the attacker" if reading["cap"] == "half-distance"
             else "the blog post's maximum")
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


def _key_entries(s: int, odds: bool, landings: Sequence[Any] = ()) -> list[vd.LegendEntry]:
    """``landings`` are Landing values, or with ``odds`` groups of them that share a spot."""
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
    roll = landing.rolled
    used = [c.clause for c in outcome.provenance.get("template", ()) + outcome.provenance.get("target", ())
            if c.clause]
    return [vd.LegendEntry(None, "Aimed", _aim_words(shot, reading)),
            vd.LegendEntry(None, "Rolled", f"distance {roll.distance}, direction {roll.direction} "
                                            f"({direction_words(roll.direction, reading['side'])}); moves "
                                            f"{decimal_text(landing.moved, 2)} in, "
                                            f"{_cap_words(shot, landing, reading)}"),
            vd.LegendEntry(None, "Hit or miss", f"{'HIT' if landing.hit else 'MISS'}: "
                                                f"{_contact_words(landing, reading)}"),
            vd.LegendEntry(None, "Clauses", ", ".join(used))]


def _odds_entries(shot: Shot, odds: Odds, reading: Mapping[str, str]) -> list[vd.LegendEntry]:
    hits = [landing.rolled for landing in odds.landings if landing.hit]
    touching = [landing.rolled for landing in odds.landings if landing.touching]
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
    from .clauses import PUBLISHED_READING
    reading = {**PUBLISHED_READING, **outcome.reading}  # an answer read from JSON names no reading
    after = outcome.after
    if isinstance(after, Odds):
        hits = [landing.rolled for landing in after.landings if landing.hit]
        return [f"{after.hits} of 36 rolls hit ({fraction_text(after.probability)})",
                "hitting: " + (", ".join(f"{r.distance}-{r.direction}" for r in hits) or "none")]
    roll = after.rolled
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
                font_size: int = 12, legend_width: int = 340, target_px: float | None = None,
                max_width: int = vd.MAX_WIDTH, placers: list[vd.LabelPlacer] | None = None) -> Image.Image:
    """Panels side by side over one shared view of the table: a panel with no outcome
    shows the shot before the roll (under the first outcome's reading); one with an
    outcome shows where the template landed, or all 36 landing spots. The legends go
    where the kit's one rule puts them (beside if the row stays within ``max_width``).
    Each panel's label placer is appended to ``placers`` if given (what it blocked
    and where every label went)."""
    s = max(1, int(supersample))
    images, legends, title, subtitle = panel_parts(shot, actions, panels, title=title, subtitle=subtitle,
                                                   supersample=s, font_size=font_size, legend_width=legend_width,
                                                   target_px=target_px, placers=placers)
    fs = font_size * s
    beside = vd.legend_beside(images, gap=2 * fs, legend_width=legend_width * s, max_width=max_width * s)
    image = vd.compose(images, legends, beside=beside, title=title, subtitle=subtitle,
                       size=round(font_size * 1.15) * s, gap=2 * fs, margin=fs, supersample=s)
    return image


def _with_roll(outcome: Outcome | None, actions: Actions) -> Outcome | None:
    """An answer's landing that did not echo its roll, given the roll the actions name."""
    if outcome is not None and isinstance(outcome.after, Landing) and outcome.after.roll is None \
            and isinstance(actions, Roll):
        return replace(outcome, after=replace(outcome.after, roll=actions))
    return outcome


def panel_parts(shot: Shot, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, subtitle: str | None = None, supersample: int = 2,
                font_size: int = 12, legend_width: int = 340, target_px: float | None = None,
                placers: list[vd.LabelPlacer] | None = None
                ) -> tuple[list[tuple[str, Image.Image]], list[Image.Image], str, str | None]:
    """What :func:`draw_panels` lays out, drawn at ``supersample`` times the size:
    the (name, panel) images, the legends (``legend_width`` wide), the title and the
    subtitle. The narrow layout stacks the same parts."""
    s = max(1, int(supersample))
    panels = [(name, _with_roll(o, actions)) for name, o in panels]
    outcomes = [o for _, o in panels if o is not None]
    from .clauses import PUBLISHED_READING
    first = outcomes[0].reading if outcomes and outcomes[0].reading else PUBLISHED_READING
    circles = []
    candidates: list[Outcome | None] = [*outcomes] or [None]
    for maybe in candidates:
        reading = maybe.reading if maybe is not None and maybe.reading else first
        circles += _interest(shot, actions, reading, maybe)
    if target_px is None:
        target_px = {1: 500, 2: 320}.get(len(panels), 260)
    view = _fit(circles, s, target_px=target_px)
    images = []
    for name, outcome in panels:
        if outcome is None:
            images.append((name, _panel_before(shot, actions, first, view, placers=placers)))
        elif isinstance(outcome.after, Odds):
            images.append((name, _panel_odds(shot, outcome.after, outcome.reading or first, view, placers=placers)))
        else:
            images.append((name, _panel_after(shot, outcome.after, outcome.reading or first, view, placers=placers)))

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
                            size=round(font_size * 1.15) * s, margin=font_size * s, supersample=s)
    return image


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


def probability_steps(reading: Mapping[str, str]) -> dict[tuple[int, int], HitSteps]:
    """(aoe, base) -> the exact step function of the chance against how far from the
    target's centre the template starts, with no cap binding (the attacker far away)."""
    from .model import AOE_SIZES, BASE_SIZES
    return {(aoe, base): hit_steps(Shot(aoe, base, Fraction(100)), reading)
            for base in BASE_SIZES for aoe in AOE_SIZES}


def step_path(steps: HitSteps, max_distance: float) -> list[tuple[float, float]]:
    """(distance, chance) corners of the step function from 0 to ``max_distance``: level
    on each interval, straight up or down at each breakpoint. A breakpoint's own value
    (a touch, a single distance) has no width and is left out."""
    corners = [(0.0, steps.between[0] / 36)]
    for point, below, above in zip(steps.breakpoints, steps.between, steps.between[1:]):
        x = float(point)
        if x >= max_distance:
            break
        corners += [(x, below / 36), (x, above / 36)]
    last = corners[-1][1]
    corners.append((float(max_distance), last))
    return corners


def draw_probability_plot(reading: Mapping[str, str], *, marks: Sequence[PlotMark] = (), supersample: int = 2,
                          font_size: int = 12, title: str | None = None, subtitle: str | None = None,
                          max_distance: int = 9, placers: list[vd.LabelPlacer] | None = None) -> Image.Image:
    """One chart per base size, one step line per template size: the exact chance that
    a deviating template hits, against how far from the target's centre it starts.
    Steps change exactly at the breakpoints of :func:`~.steps.hit_steps`; the marks'
    labels go through the kit's label placer, clear of the lines, the marks and
    each other (each chart's placer is appended to ``placers`` if given)."""
    from .model import AOE_SIZES, BASE_SIZES
    s = max(1, int(supersample))
    curves = probability_steps(reading)
    fs = font_size * s
    width, height = 340 * s, 250 * s
    left, bottom, top, right = 40 * s, 34 * s, 10 * s, 12 * s
    charts = []
    for base in BASE_SIZES:
        image = Image.new("RGB", (width, height), vd.PAPER)
        draw = ImageDraw.Draw(image)
        x0, x1, y0, y1 = left, width - right, height - bottom, top
        placer = vd.LabelPlacer(bounds=(x0 + s, y1 + s, x1 - s, y0 - s), gap=2 * s)
        if placers is not None:
            placers.append(placer)

        def px(d: float, p: float, x0: float = x0, x1: float = x1, y0: float = y0, y1: float = y1) -> vd.Point:
            return (x0 + (x1 - x0) * d / max_distance, y0 - (y0 - y1) * p)

        for k in range(max_distance + 1):
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
            pts = [px(d, p) for d, p in step_path(curves[(aoe, base)], max_distance)]
            dash = AOE_DASHES[aoe]
            vd.polyline(draw, pts, fill=AOE_COLOURS[aoe], width=2 * s,
                        dash=(dash[0] * s, dash[1] * s) if dash else None)
            placer.block_line(pts, 2 * s)
        mine = [mark for mark in marks if mark.base == base]
        r = 5 * s
        for mark in mine:
            c = px(mark.distance, mark.chance)
            draw.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], fill=vd.INK if mark.filled else vd.PAPER,
                         outline=vd.INK, width=2 * s)
            placer.block_circle(c, r + s)
        for mark in mine:
            placed = placer.place(px(mark.distance, mark.chance), mark.label, size=fs - 2 * s, stroke=2 * s,
                                  clearance=r + 2 * s, rings=12, leader_after=2)
            placer.draw(draw, placed, fill=vd.INK, stroke_fill=vd.PAPER, leader=vd.MUTED, leader_width=s)
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
    return vd.side_by_side([("", rows[0])], title=title, subtitle=subtitle, below=body,
                           size=round(font_size * 1.15) * s, margin=fs, rule=None, supersample=s)
