"""Diagrams of YPP cases: the board before (with each ship's planned moves) and
after (with each ship's actual track and what happened on the way), side by side,
with a legend. Built from the drawing kit (``verifier.kit.draw``): the board is a
plane view in tile units, y growing south, and the panels and legends follow the
kit's one layout. The colours of the sea, rocks, wind and whirlpools are YPP's own.

Coordinates on the edges are the case file's: x grows east from 0, y grows
south from 0, (0, 0) is the top-left tile. Big boards are cropped to the part
where something happens, and the tile size shrinks so an image never grows past
a few hundred pixels per panel.

Big scenes stay cheap and bounded: legends list at most forty ships and forty
events and say how many they left out; a board too crowded for legible hulls
(see :func:`_crowded`) becomes a summary drawing (hulls within their tiles, the
tracks, unnumbered marks, counts per size class and per kind of event, and a
subtitle saying what was left out); and a row of panels past the kit's pixel
budget is refused with a sentence saying what to change.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from PIL import Image, ImageDraw

from ...kit import draw as vd
from ...kit.draw.layout import capped, check_budget
from ...ruleset import Event, Frame, Outcome
from .model import Board, Heading, Scene, Ship, SizeClass, Tile, Token, Turn

# Hull length as a fraction of a tile, per size class.
HULL_LENGTH = {SizeClass.SMALL: 0.45, SizeClass.MEDIUM: 0.6, SizeClass.LARGE: 0.75, SizeClass.GRAND: 0.9}

# YPP's own colours: the sea, what is off the board, and the terrain.
OFF_BOARD: vd.RGB = (236, 236, 236)
WATER: vd.RGB = (248, 251, 253)
ROCK: vd.RGB = (88, 88, 88)
WIND_TINT: vd.RGB = (224, 238, 244)
WIND_INK: vd.RGB = (100, 138, 156)
WHIRL_TINT: vd.RGB = (222, 226, 242)
WHIRL_INK: vd.RGB = (112, 118, 168)
_PHASE_WORDS = {"move": "movement", "wind": "wind"}
_ALL_LISTED = "(verifier show lists them all)"
# Each kind of event counted: (one, several).
_KIND_WORDS = {"collision": ("collision", "collisions"),
               "bump": ("bump into a ship that was not moving", "bumps into a ship that was not moving"),
               "push": ("push", "pushes"), "rock": ("stop at a rock", "stops at a rock"),
               "edge": ("stop at the board edge", "stops at the board edge")}


def _counted(marks: Sequence[_Mark]) -> list[tuple[str, str]]:
    """(kind, "300 collisions") per kind of event among ``marks``, most first."""
    by_kind: dict[str, int] = {}
    for m in marks:
        by_kind[m.event.kind] = by_kind.get(m.event.kind, 0) + 1
    ranked = sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(kind, f"{count:,} {_KIND_WORDS.get(kind, (kind, kind))[count != 1]}") for kind, count in ranked]

State = Mapping[str, tuple[Tile, Heading]]


# --- geometry of one panel -----------------------------------------------------------


@dataclass(frozen=True)
class _View:
    """Which tiles a panel shows (``x0``..``x1`` by ``y0``..``y1``, inclusive), ``t``
    pixels a tile (already scaled), with an off-board strip (``pad_*`` pixels) where
    the window meets the board's edge. :attr:`plane` is the kit's view of it: one
    world unit a tile, y growing south, the strips as its margins."""

    x0: int
    y0: int
    x1: int  # inclusive
    y1: int
    t: float  # tile size in pixels
    pad_left: float
    pad_top: float
    pad_right: float
    pad_bottom: float
    board: Board

    @cached_property
    def plane(self) -> vd.PlaneView:
        return vd.PlaneView(self.x0, self.y0, self.x1 + 1, self.y1 + 1, self.t, self.pad_left, self.pad_top,
                            self.pad_right, self.pad_bottom, y_up=False)

    @property
    def size(self) -> tuple[int, int]:
        return self.plane.size

    def corner(self, tile: Tile) -> vd.Point:
        return self.plane.px(tile)

    def centre(self, tile: Tile) -> vd.Point:
        return self.plane.px((tile[0] + 0.5, tile[1] + 0.5))

    def point(self, at: vd.Point) -> vd.Point:
        """The pixel of a point in tile units: (2.0, 3.0) is the centre of tile (2, 3)."""
        return self.plane.px((at[0] + 0.5, at[1] + 0.5))

    def visible(self, tile: Tile) -> bool:
        return self.x0 <= tile[0] <= self.x1 and self.y0 <= tile[1] <= self.y1


def _window(board: Board, tiles: Iterable[Tile], margin: int, whole_board: int) -> tuple[int, int, int, int]:
    xs, ys = zip(*tiles)
    x0, x1 = min(xs) - margin, max(xs) + margin
    y0, y1 = min(ys) - margin, max(ys) + margin
    if board.width <= whole_board:
        x0, x1 = 0, board.width - 1
    if board.height <= whole_board:
        y0, y1 = 0, board.height - 1
    return (max(x0, 0), max(y0, 0), min(x1, board.width - 1), min(y1, board.height - 1))


def _fit_view(board: Board, interest: Sequence[Tile], *, tile: float, margin: int, whole_board: int,
              max_panel: float, s: int, panels: int = 1, font_size: int = 12, max_width: int = vd.MAX_WIDTH) -> _View:
    """The window and tile size over the tiles of ``interest``: the whole board up to
    ``whole_board`` tiles a side, else what happens plus ``margin`` tiles; tiles of
    ``tile`` pixels, shrunk so a panel stays within ``max_panel`` pixels and, with
    more than two ``panels``, so the row stays near ``max_width``."""
    x0, y0, x1, y1 = _window(board, interest, margin, whole_board)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    t = min(float(tile), max_panel / max(cols, rows))
    if panels > 2:
        # Several readings side by side: shrink the tiles (not below 28 px) to stay near max_width.
        room = (max_width - 2 * font_size * (panels + 1)) / panels - 3 * font_size
        t = min(t, max(28.0, room / (cols + 0.6)))
    if t >= 6:
        t = float(math.floor(t))
    t *= s
    # An off-board strip where the window meets the board's edge; a whole tile wide
    # where a planned move leads off the board, so that the move shows.
    near, far = max(t * 0.3, 8 * s), max(t, 8 * s)
    xs, ys = [p[0] for p in interest], [p[1] for p in interest]
    return _View(x0, y0, x1, y1, t,
                 (far if min(xs) < 0 else near) if x0 == 0 else 0,
                 (far if min(ys) < 0 else near) if y0 == 0 else 0,
                 (far if max(xs) >= board.width else near) if x1 == board.width - 1 else 0,
                 (far if max(ys) >= board.height else near) if y1 == board.height - 1 else 0, board)


def _interest(scene: Scene, plans: Mapping[str, list[tuple[int, list[Tile]]]],
              all_states: Iterable[Sequence[tuple[Frame, State]]], all_marks: Iterable[Sequence[_Mark]],
              extra: Iterable[Tile] = ()) -> list[Tile]:
    """Every tile a picture must show: where the ships start, their plans, every
    state they pass through, the tiles the events name, and ``extra``."""
    tiles: list[Tile] = [ship.at for ship in scene.ships]
    tiles += [p for legs in plans.values() for _, path in legs for p in path]
    tiles += [p for states in all_states for _, state in states for p, _ in state.values()]
    tiles += [m.where for marks in all_marks for m in marks if m.where is not None]
    tiles += list(extra)
    return tiles


# --- what the ships planned and did -----------------------------------------------------


def _plan(scene: Scene, turn: Turn) -> dict[str, list[tuple[int, list[Tile]]]]:
    """Each ship's planned path per round, as if nothing stood in the way:
    (round number, tiles from start of the round to its end)."""
    plans: dict[str, list[tuple[int, list[Tile]]]] = {}
    table = turn.by_round
    for ship in scene.ships:
        at, heading, legs = ship.at, ship.heading, []
        for index in range(len(turn.rounds)):
            token = table[index].get(ship.name, Token.NONE)
            if token is Token.NONE:
                continue
            via = heading.ahead(at)
            side = token.side(heading)
            if side is None:
                legs.append((index + 1, [at, via]))
                at = via
            else:
                dest = side.ahead(via)
                legs.append((index + 1, [at, via, dest]))
                at, heading = dest, side
        plans[ship.name] = legs
    return plans


def _states(scene: Scene, outcome: Outcome) -> list[tuple[Frame, State]]:
    """The recorded moments of the resolution, each with its state as a dict; a start and
    an end are added where the outcome has none (an implementation's answer)."""
    frames: list[tuple[Frame, State]] = [(f, {n: (p, h) for n, p, h in f.state}) for f in outcome.frames]
    if not frames:
        frames = [(Frame(0, "start", 0, ()), {s.name: (s.at, s.heading) for s in scene.ships})]
    end = {s.name: (s.at, s.heading) for s in outcome.after.ships}
    if frames[-1][1] != end:
        last = frames[-1][0].round
        frames.append((Frame(last, "end", 0, ()), end))
    return frames


def _tracks(states: list[tuple[Frame, State]]) -> dict[str, list[Tile]]:
    tracks: dict[str, list[Tile]] = {}
    for _, state in states:
        for name, (tile, _) in state.items():
            track = tracks.setdefault(name, [])
            if not track or track[-1] != tile:
                track.append(tile)
    return tracks


@dataclass(frozen=True)
class _Mark:
    number: int
    event: Event
    kind: str  # "bang" or "push"
    at: vd.Point | None = None  # bang centre, in tile units (fractional tiles)
    start: Tile | None = None  # push: from
    end: Tile | None = None  # push: to
    where: Tile | None = None  # the tile named in the words (rock, push destination)


def _phase_states(states: list[tuple[Frame, State]], round_no: int, phase: str
                  ) -> tuple[State, State | None, State]:
    """The state before a phase, after its first step (if recorded), and after it."""
    inside = [i for i, (f, _) in enumerate(states) if (f.round, f.phase) == (round_no, phase)]
    if not inside:
        return states[0][1], None, states[-1][1]
    first, last = inside[0], inside[-1]
    step1 = next((states[i][1] for i in inside if states[i][0].step == 1), None)
    return states[max(first - 1, 0)][1], step1, states[last][1]


def _marks(scene: Scene, turn: Turn, outcome: Outcome, states: list[tuple[Frame, State]]) -> list[_Mark]:
    """Where each event is drawn. Collisions over a tile both ships claimed sit on that
    tile; other collisions, bumps, rocks and edges sit on the border between the ship
    and what stopped it; a push is an arrow from the pushed ship's old tile to its new one."""
    marks = []
    for number, event in enumerate(outcome.events, 1):
        pre, mid, post = _phase_states(states, event.round, event.phase)
        at_step = mid if (event.step == 2 and mid is not None) else pre

        def position(name: str, at_step: State = at_step) -> Tile | None:
            return at_step.get(name, (None,))[0]

        if event.kind == "push":
            pusher, pushed = event.pieces
            start, end = position(pushed), event.at
            if start is not None and end is not None and start != end:
                marks.append(_Mark(number, event, "push", start=start, end=end, where=end))
            else:
                marks.append(_Mark(number, event, "bang", at=_tile_point(start or (0, 0))))
            continue
        mover = position(event.pieces[0])
        other = position(event.pieces[-1])
        if event.at is None:
            # An event read from another implementation's answer says what happened, not where:
            # mark it between the ships it names (or on the one ship).
            near = [tile for tile in (mover, other) if tile is not None] or [(0, 0)]
            point = _midpoint(near[0], near[-1])
            marks.append(_Mark(number, event, "bang", at=point))
            continue
        if event.kind in ("rock", "edge"):
            point = _midpoint(mover, event.at) if mover is not None else _tile_point(event.at)
            marks.append(_Mark(number, event, "bang", at=point, where=event.at))
            continue
        contested = event.clause[-1:] in ("d", "e") and event.clause.startswith(("move.", "wind."))
        if contested or other is None or mover is None:
            point = _tile_point(event.at)
        elif event.at == other:
            point = _midpoint(mover, other)
        elif event.at == mover:
            point = _midpoint(other, mover)
        else:
            point = _tile_point(event.at)
        marks.append(_Mark(number, event, "bang", at=point))
    return marks


def _tile_point(tile: Tile) -> vd.Point:
    return (float(tile[0]), float(tile[1]))


def _midpoint(a: Tile, b: Tile) -> vd.Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _event_words(event: Event, mark: _Mark | None) -> str:
    pieces = event.pieces
    if event.kind == "collision":
        what = f"{pieces[0]} and {pieces[1]} collide"
    elif event.kind == "bump":
        what = f"{pieces[0]} bumps into {pieces[1]}, which was not moving"
    elif event.kind == "push":
        where = f" to [{mark.where[0]}, {mark.where[1]}]" if mark and mark.where else ""
        what = f"{pieces[1]} is pushed by {pieces[0]}{where}"
    elif event.kind == "rock":
        where = f" at [{mark.where[0]}, {mark.where[1]}]" if mark and mark.where else ""
        what = f"{pieces[0]} is stopped by the rock{where}"
    elif event.kind == "edge":
        what = f"{pieces[0]} is stopped by the board edge"
    else:
        what = f"{event.kind}: {', '.join(pieces)}"
    return what + (f"  ({event.clause})" if event.clause else "")


def _tags(names: Sequence[str]) -> dict[str, str]:
    """Short unique tags (initials) drawn on the ships and in the legend."""
    tags: dict[str, str] = {}
    used: set[str] = set()
    numbered: dict[str, int] = {}  # per initial, the last number given: every smaller one is taken
    for name in names:
        words = [w for w in re.split(r"[\s_-]+", name) if w] or [name]
        candidates = [(words[0][0] + words[-1][0]).upper() if len(words) > 1 else name[:1].upper(),
                      name[:1].upper(), name[:2].upper(), "".join(w[0] for w in words[:3]).upper()]
        tag = next((c for c in candidates if c and c not in used), None)
        initial = name[:1].upper()
        n = numbered.get(initial, 1)
        while tag is None:
            n += 1
            if (c := f"{initial}{n}") not in used:
                tag = c
                numbered[initial] = n
        tags[name] = tag
        used.add(tag)
    return tags


# --- painting --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    s: int  # supersample factor
    font: int  # base font size (scaled)
    crowded: bool = False  # a summary drawing: see _crowded

    def px(self, value: float) -> int:
        return max(1, round(value * self.s))


LEGIBLE_HULL = 20  # pixels (before supersampling): hulls on smaller tiles are drawn this long


def _crowded(view: _View, s: int, ships: Sequence[Ship]) -> bool:
    """Whether the board is too crowded to draw ship by ship: the tiles are smaller
    than a legible hull, and more than a quarter of the ships start in a square of
    a legible hull's span that holds another ship too (so their hulls would cover
    each other). The picture is then a summary: hulls the size of their tiles,
    tracks, unnumbered marks, and counts instead of a row per ship or event."""
    if view.t >= LEGIBLE_HULL * s:
        return False
    span = math.ceil(LEGIBLE_HULL * s / view.t)
    squares: dict[Tile, int] = {}
    for ship in ships:
        square = (ship.at[0] // span, ship.at[1] // span)
        squares[square] = squares.get(square, 0) + 1
    return sum(n for n in squares.values() if n > 1) * 4 > len(ships)


def _summary_note(scene: Scene, marks: Sequence[Sequence[_Mark]]) -> str:
    events = max((len(m) for m in marks), default=0)
    happened = f" and {events:,} events" if events else ""
    return (f"Summary drawing: {len(scene.ships):,} ships{happened} are too many to draw one by one here, so "
            "planned moves, event numbers and rows per ship or event are left out; verifier show lists them all.")


def _visible_terrain(view: _View) -> tuple[list[tuple[Tile, Heading]], list[Tile]]:
    """Wind tiles and rocks inside the window, in a fixed order; looked up tile by
    tile when the window is smaller than the lists (huge boards)."""
    board = view.board
    area = (view.x1 - view.x0 + 1) * (view.y1 - view.y0 + 1)
    if area < len(board.wind) + len(board.rocks):
        tiles = [(x, y) for y in range(view.y0, view.y1 + 1) for x in range(view.x0, view.x1 + 1)]
        wind_at = board.wind_at
        return ([(p, wind_at[p]) for p in tiles if p in wind_at], [p for p in tiles if p in board.rocks])
    return ([(p, h) for p, h in board.wind if view.visible(p)], sorted(p for p in board.rocks if view.visible(p)))


def _whirl_visible(view: _View, origin: Tile) -> bool:
    return view.x0 - 1 <= origin[0] <= view.x1 and view.y0 - 1 <= origin[1] <= view.y1


def _paint_board(draw: ImageDraw.ImageDraw, view: _View, style: _Style) -> None:
    t = view.t
    w, h = view.size
    # Off-board strips (only where the window meets the board's edge).
    draw.rectangle([0, 0, w, h], fill=OFF_BOARD)
    left, top = view.corner((view.x0, view.y0))
    right, bottom = view.corner((view.x1 + 1, view.y1 + 1))
    draw.rectangle([left, top, right, bottom], fill=WATER)
    board = view.board
    winds, rocks = _visible_terrain(view)
    # Terrain.
    for (x, y), _heading in winds:
        cx, cy = view.corner((x, y))
        draw.rectangle([cx, cy, cx + t, cy + t], fill=WIND_TINT)
    for (x, y) in board.whirlpools:
        if _whirl_visible(view, (x, y)):
            cx, cy = view.corner((x, y))
            draw.rectangle([cx, cy, cx + 2 * t, cy + 2 * t], fill=WHIRL_TINT)
    # Grid: a line at every tile edge (numbered at the tiles' centres, outside, by _paint_labels).
    if t >= 6 * style.s:
        vd.grid(draw, view.plane, step=1.0, area=None, width=style.px(1), labels=False, frame=False)
    for (x, y), heading in winds:
        # Two streaks along the tile's sides, so that a ship on the tile does not hide them.
        cx, cy = view.centre((x, y))
        dx, dy = heading.dx * t * 0.32, heading.dy * t * 0.32
        for side in (-0.3, 0.3):
            ox, oy = -heading.dy * t * side, heading.dx * t * side
            vd.arrow(draw, [(cx + ox - dx, cy + oy - dy), (cx + ox + dx, cy + oy + dy)], fill=WIND_INK,
                     width=max(1, round(t * 0.045)), head=t * 0.18)
    for (x, y) in board.whirlpools:
        if _whirl_visible(view, (x, y)):
            cx, cy = view.corner((x + 1, y + 1))
            vd.circular_arrow(draw, (cx, cy), t * 0.62, fill=WHIRL_INK, width=max(1, round(t * 0.05)),
                              head=t * 0.22)
            vd.circular_arrow(draw, (cx, cy), t * 0.3, fill=WHIRL_INK, width=max(1, round(t * 0.04)),
                              head=t * 0.16, start=20, sweep=250)
    for (x, y) in rocks:
        vd.blob(draw, view.centre((x, y)), t * 0.38, fill=ROCK, variant=(x * 7 + y * 13) % 11)
    # Board edge, where visible.
    edge = style.px(2)
    if view.pad_left:
        draw.line([(left, top), (left, bottom)], fill=vd.EDGE, width=edge)
    if view.pad_right:
        draw.line([(right, top), (right, bottom)], fill=vd.EDGE, width=edge)
    if view.pad_top:
        draw.line([(left, top), (right, top)], fill=vd.EDGE, width=edge)
    if view.pad_bottom:
        draw.line([(left, bottom), (right, bottom)], fill=vd.EDGE, width=edge)


def _hull_size(view: _View, style: _Style, size: SizeClass) -> tuple[float, float]:
    # Stay visible on very zoomed-out boards; a crowded board keeps hulls within their tiles.
    t = max(view.t, (3 if style.crowded else LEGIBLE_HULL) * style.s)
    length = HULL_LENGTH[size] * t
    return length, length * 0.4 + t * 0.08


def _paint_ship(draw: ImageDraw.ImageDraw, view: _View, style: _Style, centre: vd.Point, heading: Heading,
                size: SizeClass, colour: vd.RGB, tag: str | None, ghost: bool = False, scale: float = 1.0) -> None:
    length, beam = _hull_size(view, style, size)
    length, beam = length * scale, beam * scale
    if ghost:
        vd.hull(draw, centre, (heading.dx, heading.dy), length=length, beam=beam, fill=vd.mix(colour, vd.PAPER, 0.7),
                outline=vd.mix(colour, vd.PAPER, 0.35), width=style.px(1))
        return
    vd.hull(draw, centre, (heading.dx, heading.dy), length=length, beam=beam, fill=colour, outline=vd.INK,
            width=style.px(1))
    if tag and view.t >= 24 * style.s:
        vd.text(draw, centre, tag, size=max(9 * style.s, round(view.t * 0.21)), fill=vd.text_colour_on(colour),
                anchor="mm", stroke=style.px(1), stroke_fill=colour)


_STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)


def _label_size(view: _View, style: _Style) -> int:
    return max(10 * style.s, min(style.font - 2 * style.s, round(view.t * 0.3)))


def _paint_labels(panel: Image.Image, view: _View, style: _Style, origin: tuple[int, int]) -> None:
    """The tile numbers along the top and the left, at the tiles' centres, outside the
    off-board strips; every tile, or every 2nd, 5th, 10th, ... where they would crowd."""
    size = _label_size(view, style)
    widest = vd.text_width(str(max(view.x1, view.y1)), size) + 4 * style.s
    step = next(k for k in _STEPS if k * view.t >= widest)
    step_y = next(k for k in _STEPS if k * view.t >= size * 1.3)
    ox, oy = origin
    plane = view.plane
    shifted = vd.PlaneView(plane.x0, plane.y0, plane.x1, plane.y1, plane.scale, plane.left + ox, plane.top + oy,
                           plane.right, plane.bottom, y_up=False)
    xs = [(x + 0.5, str(x)) for x in range(view.x0, view.x1 + 1) if x % step == 0 or step == 1]
    ys = [(y + 0.5, str(y)) for y in range(view.y0, view.y1 + 1) if y % step_y == 0]
    vd.axis_labels(ImageDraw.Draw(panel), shifted, xs=xs, ys=ys, size=size, x_side="top", y_side="left", unit="tiles",
                   offset=(view.pad_top + 3 * style.s, view.pad_left + 4 * style.s))


def _label_box(view: _View, style: _Style) -> tuple[int, int]:
    size = _label_size(view, style)
    return (vd.text_width(str(view.y1), size) + 8 * style.s, round(size * 1.4) + 3 * style.s)


def _panel(scene: Scene, turn: Turn, outcome: Outcome | None, view: _View, style: _Style,
           colours: Mapping[str, vd.RGB], tags: Mapping[str, str], plans, marks: list[_Mark] | None,
           highlight: Iterable[Tile], arrows: Iterable[tuple[Tile, Tile]]) -> Image.Image:
    board_img, _ = vd.backdrop(("ypp", view, style), view.size,
                               lambda canvas: _paint_board(ImageDraw.Draw(canvas), view, style))
    draw = ImageDraw.Draw(board_img)
    t = view.t
    line = max(style.px(1.5), round(t * 0.045))
    for tile in highlight:
        x, y = view.corner(tile)
        draw.rectangle([x, y, x + t, y + t], outline=vd.INK, width=max(style.px(2), round(t * 0.06)))
    offsets = _offsets(scene, t)
    if outcome is None:
        for ship in scene.ships:
            _paint_ship(draw, view, style, view.centre(ship.at), ship.heading, ship.size, colours[ship.name],
                        tags[ship.name])
        # Planned moves on top, dashed, chained over the rounds as if nothing were in the way.
        rounds = len(turn.rounds)
        round_labels: list[tuple[list[vd.Point], str, vd.RGB]] = []
        heads: list[vd.Point] = []
        planned: list[list[vd.Point]] = []
        for ship in () if style.crowded else scene.ships:
            colour = colours[ship.name]
            bow = _hull_size(view, style, ship.size)[0] / 2
            for i, (round_no, tiles) in enumerate(plans[ship.name]):
                pts = vd.offset_polyline([view.centre(p) for p in tiles], offsets[ship.name])
                if i == 0:  # start at the bow, not under the hull
                    x, y = view.centre(ship.at)
                    pts[0] = (x + ship.heading.dx * bow - ship.heading.dy * offsets[ship.name],
                              y + ship.heading.dy * bow + ship.heading.dx * offsets[ship.name])
                vd.arrow(draw, pts, fill=colour, width=line, head=t * 0.24, dash=(t * 0.12, t * 0.08))
                heads.append(pts[-1])
                planned.append(pts)
                if rounds > 1:
                    round_labels.append((pts, str(round_no), colour))
        # The round numbers go on last, clear of every arrowhead and of each other.
        placer = vd.LabelPlacer(bounds=(0, 0, *board_img.size), gap=style.px(1))
        for head in heads:
            placer.block_circle(head, t * 0.24)
        for pts in planned:
            placer.block_line(pts, line)
        for pts, label, colour in round_labels:
            _round_label(draw, pts, label, colour, style, t, placer, line)
    else:
        states = _states(scene, outcome)
        tracks = _tracks(states)
        by_name = scene.by_name
        for ship in () if style.crowded else scene.ships:
            end = outcome.after.by_name[ship.name]
            if end.at != ship.at:
                _paint_ship(draw, view, style, view.centre(ship.at), ship.heading, ship.size,
                            colours[ship.name], None, ghost=True)
        for name, track in tracks.items():
            if len(track) > 1 and name in by_name:
                pts = vd.offset_polyline([view.centre(p) for p in track], offsets[name])
                vd.polyline(draw, pts, fill=colours[name], width=style.px(1) if style.crowded else line)
                for p in () if style.crowded else pts[1:-1]:
                    r = line * 1.2
                    draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=colours[name])
        sharing: dict[Tile, list[str]] = {}
        for ship in outcome.after.ships:
            sharing.setdefault(ship.at, []).append(ship.name)
        for ship in outcome.after.ships:
            if ship.name in by_name:
                # Ships sharing a tile (only under some readings) are drawn smaller, side by side.
                group = sharing[ship.at]
                x, y = view.centre(ship.at)
                scale = 1.0
                if len(group) > 1:
                    k = group.index(ship.name)
                    angle = math.pi * (0.75 + 2 * k / len(group))
                    x, y = x + math.cos(angle) * t * 0.22, y - math.sin(angle) * t * 0.22
                    scale = 0.7
                _paint_ship(draw, view, style, (x, y), ship.heading, ship.size, colours[ship.name],
                            tags[ship.name], scale=scale)
        _paint_marks(draw, view, style, marks or [], {ship.at for ship in outcome.after.ships}, tags)
    for a, b in arrows:
        vd.arrow(draw, [view.centre(a), view.centre(b)], fill=vd.INK, width=line, head=t * 0.26)
    # Frame it with the coordinates along the top and left edges.
    lw, lh = _label_box(view, style)
    panel = Image.new("RGB", (board_img.width + lw + 2 * style.s, board_img.height + lh), vd.PAPER)
    panel.paste(board_img, (lw, lh))
    _paint_labels(panel, view, style, (lw, lh))
    return panel


def _offsets(scene: Scene, t: float) -> dict[str, float]:
    """How far right of its direction of travel each ship's path is drawn: a lane,
    like traffic, so that paths in opposite directions stay apart, plus a small
    shift per ship for paths in the same direction."""
    n = len(scene.ships)
    spread = min(t * 0.03, t * 0.12 / max(n, 1))
    return {s.name: t * 0.07 + (i - (n - 1) / 2) * spread for i, s in enumerate(scene.ships)}


def _round_label(draw, pts, label, colour, style, t, placer: vd.LabelPlacer, line: float) -> None:
    """A round's number in a badge beside the last leg of its arrow, just before the head, on
    its left; moved aside where that would cover an arrowhead or another badge."""
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ux, uy = vd.unit(x1 - x0, y1 - y0)
    mx, my = x1 - ux * t * 0.42, y1 - uy * t * 0.42
    px, py = uy, -ux
    size = max(10 * style.s, round(t * 0.22))
    radius = max(size * 0.75, vd.text_width(label, size) / 2 + size * 0.3)
    beside = radius + line / 2 + style.px(1)
    centre = (mx + px * beside, my + py * beside)
    spot = placer.place_box(centre, radius * 2, radius * 2, on_anchor=True, hug=True, leader_after=99)
    if spot is not None:
        centre = spot.xy
    placer.block_circle(centre, radius)
    vd.badge(draw, centre, label, size=size, fill=vd.PAPER, outline=colour, label_fill=vd.INK, width=style.px(1))


# Where repeated marks at one spot go, in tiles: around it rather than on top of each other.
_SPREAD = ((0.0, 0.0), (0.28, -0.28), (-0.28, -0.28), (0.28, 0.28), (-0.28, 0.28), (0.0, -0.4), (0.0, 0.4))


# Where a damage tag may go around its mark, in order of preference: below, right, above, left, diagonals.
_AROUND = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))


def _damage_text(event: Event, tags: Mapping[str, str], sep: str = " | ") -> str:
    """The ram damage of one event, short enough to sit beside its mark: "HS 0.5 | SB 3"."""
    return sep.join(f"{tags.get(name, name)} {amount:g}" for name, amount in event.damage)


def _paint_marks(draw: ImageDraw.ImageDraw, view: _View, style: _Style, marks: list[_Mark],
                 occupied: set[Tile], tags: Mapping[str, str]) -> None:
    t = view.t
    if style.crowded:
        # A summary: small unnumbered marks where things happened, none moved aside.
        radius = max(2 * style.s, t * 0.35)
        for m in marks:
            at = m.at if m.at is not None else _tile_point(m.end or (0, 0))
            vd.starburst(draw, view.point(at), radius, width=max(1, style.s // 2))
        return
    used: dict[tuple[int, int], int] = {}
    # Bangs keep their cores apart (their spikes may touch): the kit's placer keeps
    # each where it belongs if that is free, else moves it just clear of the others.
    placer = vd.LabelPlacer(gap=0)
    bangs: list[tuple[Event, float, float, float]] = []  # marks with ram damage: event, centre, radius
    for m in marks:
        if m.kind == "push":
            assert m.start is not None and m.end is not None  # every push mark has both
            # A fat hollow arrow beside the pushed ship's track, from its old tile to its new one.
            (ax, ay), (bx, by) = view.centre(m.start), view.centre(m.end)
            ux, uy = vd.unit(bx - ax, by - ay)
            side = t * 0.36
            a = (ax - uy * side + ux * t * 0.05, ay + ux * side + uy * t * 0.05)
            b = (bx - uy * side - ux * t * 0.1, by + ux * side - uy * t * 0.1)
            vd.block_arrow(draw, a, b, width=t * 0.16, fill=vd.PAPER, outline=vd.INK,
                           outline_width=style.px(1.5))
            vd.badge(draw, a, str(m.number), size=max(10 * style.s, round(t * 0.2)), fill=vd.PAPER,
                     outline=vd.INK, width=style.px(1))
            continue
        assert m.at is not None  # every bang mark has a centre
        key = (round(m.at[0] * 4), round(m.at[1] * 4))
        repeat = used.get(key, 0)
        used[key] = repeat + 1
        # A mark on a tile where a ship ended would hide it: move it to the tile's corner.
        if m.at[0] == int(m.at[0]) and m.at[1] == int(m.at[1]) and (int(m.at[0]), int(m.at[1])) in occupied:
            repeat += 1
        cx, cy = view.point(m.at)
        dx, dy = _SPREAD[repeat % len(_SPREAD)]
        cx, cy = cx + dx * t, cy + dy * t
        radius = max(7 * style.s, t * 0.22)
        core = radius * 1.3
        spot = placer.place_box((cx, cy), core, core, on_anchor=True, hug=True, angles=(45, 135, -45, -135),
                                rings=4, step=radius * 0.4, leader_after=99)
        if spot is not None:
            cx, cy = spot.xy
        vd.starburst(draw, (cx, cy), radius, width=style.px(1.5), label=str(m.number),
                     label_size=max(10 * style.s, round(radius * 0.85)))
        if m.event.damage:
            bangs.append((m.event, cx, cy, radius))
    # The ram damage each ship takes, in a tag beside its mark: the first spot around the mark
    # that keeps clear of the hulls, of every mark and of the tags placed before it.
    apart = [(*view.centre(tile), t * 0.3, t * 0.3) for tile in occupied]
    apart += [(x, y, r * 0.8, r * 0.8) for _, x, y, r in bangs]
    for event, cx, cy, radius in bangs:
        size = max(10 * style.s, round(radius * 0.75))
        words = _damage_text(event, tags)
        half_w, half_h = vd.tag_size(words, size)
        gap = style.px(2)
        spots = [(cx + dx * (radius + half_w + gap) * ring, cy + dy * (radius + half_h + gap) * ring)
                 for ring in (1, 2, 3) for dx, dy in _AROUND]
        # A tag cut off at the panel's edge cannot be read: only spots inside the panel.
        width, height = draw.im.size
        spots = [spot for spot in spots
                 if half_w + gap <= spot[0] <= width - half_w - gap and half_h + gap <= spot[1] <= height - half_h - gap
                 ] or [spots[0]]
        centre = next((spot for spot in spots if all(
            abs(spot[0] - x) >= half_w + w or abs(spot[1] - y) >= half_h + h for x, y, w, h in apart)),
            (min(max(spots[0][0], half_w + gap), width - half_w - gap),
             min(max(spots[0][1], half_h + gap), height - half_h - gap)))
        apart.append((centre[0], centre[1], half_w, half_h))
        vd.tag_box(draw, centre, words, size=size, fill=vd.PAPER, outline=vd.INK, width=style.px(1))


# --- legend ----------------------------------------------------------------------------


def _ship_glyph(colour: vd.RGB, size: SizeClass, s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        t = (x1 - x0) / HULL_LENGTH[SizeClass.GRAND]
        length = HULL_LENGTH[size] * t
        beam = length * 0.4 + t * 0.08
        vd.hull(draw, ((x0 + x1) / 2, (y0 + y1) / 2), (1, 0), length=length, beam=beam, fill=colour,
                outline=vd.INK, width=s)
    return paint


def _bang_glyph(label: str, s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        r = (y1 - y0) * 0.62
        vd.starburst(draw, ((x0 + x1) / 2, (y0 + y1) / 2), r, width=s, label=label,
                     label_size=max(10 * s, round(r * 0.85)))
    return paint


def _push_glyph(label: str, s: int):
    def paint(draw, box):
        x0, y0, x1, y1 = box
        h = y1 - y0
        cy = (y0 + y1) / 2
        size = max(vd.SMALLEST_TEXT * s, round(h * 0.62))
        vd.block_arrow(draw, (x0 + h * 0.5, cy), (x1, cy), width=h * 0.42, fill=vd.PAPER, outline=vd.INK,
                       outline_width=s)
        vd.badge(draw, (x0 + h * 0.45, cy), label, size=size, width=s)
    return paint


def _key_items(view: _View, style: _Style, marks_present: set[str], after: bool) -> list:
    s = style.s
    grey = vd.MUTED

    def planned(draw, box):
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        vd.arrow(draw, [(x0, cy), (x1, cy)], fill=grey, width=2 * s, head=(y1 - y0) * 0.5,
                 dash=(4 * s, 3 * s))

    def track(draw, box):
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        vd.polyline(draw, [(x0, cy), (x1, cy)], fill=grey, width=2 * s)

    def ghost(draw, box):
        x0, y0, x1, y1 = box
        h = y1 - y0
        vd.hull(draw, ((x0 + x1) / 2, (y0 + y1) / 2), (1, 0), length=h * 1.1, beam=h * 0.55,
                fill=vd.mix(grey, vd.PAPER, 0.7), outline=vd.mix(grey, vd.PAPER, 0.35), width=s)

    def rock(draw, box):
        x0, y0, x1, y1 = box
        vd.blob(draw, ((x0 + x1) / 2, (y0 + y1) / 2), (y1 - y0) * 0.45, fill=ROCK)

    def wind(draw, box):
        x0, y0, x1, y1 = box
        h = y1 - y0
        cx = (x0 + x1) / 2
        draw.rectangle([cx - h / 2, y0, cx + h / 2, y1], fill=WIND_TINT, outline=vd.GRID)
        vd.arrow(draw, [(cx - h * 0.35, (y0 + y1) / 2), (cx + h * 0.35, (y0 + y1) / 2)], fill=WIND_INK,
                 width=max(1, round(h * 0.08)), head=h * 0.3)

    def whirl(draw, box):
        x0, y0, x1, y1 = box
        h = y1 - y0
        cx = (x0 + x1) / 2
        draw.rectangle([cx - h / 2, y0, cx + h / 2, y1], fill=WHIRL_TINT, outline=vd.GRID)
        vd.circular_arrow(draw, (cx, (y0 + y1) / 2), h * 0.32, fill=WHIRL_INK, width=max(1, round(h * 0.08)),
                          head=h * 0.28)

    def bang(draw, box):
        _bang_glyph("", s)(draw, box)

    def push(draw, box):
        x0, y0, x1, y1 = box
        cy = (y0 + y1) / 2
        vd.block_arrow(draw, (x0, cy), (x1, cy), width=(y1 - y0) * 0.42, fill=vd.PAPER, outline=vd.INK,
                       outline_width=s)

    def damage(draw, box):
        x0, y0, x1, y1 = box
        h = y1 - y0
        vd.tag_box(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "3", size=max(vd.SMALLEST_TEXT * s, round(h * 0.6)),
                   fill=vd.PAPER, outline=vd.INK, width=s)

    if style.crowded:
        items = [(track, "actual track (after)")] if after else []
        if marks_present:
            items.append((bang, "collision, stop or push"))
    else:
        items = [(planned, "planned move (before)")]
        if after:
            items += [(track, "actual track (after)"), (ghost, "where a ship started")]
        if "bang" in marks_present:
            items.append((bang, "collision or stop, numbered as listed"))
        if "push" in marks_present:
            items.append((push, "ship pushed one tile"))
        if "damage" in marks_present:
            items.append((damage, "ram damage each ship takes"))
    winds, rocks = _visible_terrain(view)
    if rocks:
        items.append((rock, "rock"))
    if winds:
        items.append((wind, "wind tile: moves a ship one tile"))
    if any(_whirl_visible(view, w) for w in view.board.whirlpools):
        items.append((whirl, "whirlpool (2x2): turns a ship clockwise around it"))
    return items


def _ship_legend(scene: Scene, turn: Turn, colours: Mapping[str, vd.RGB], tags: Mapping[str, str] | None, s: int, *,
                 size: int, width: int | None, stacked: bool, heading: str | None = "Ships",
                 brief: bool = False, crowded: bool = False) -> Image.Image:
    """The ships: glyph, name (with the tag drawn on the hull, if ``tags``), type,
    size class and tokens (only the tokens if ``brief``); on a ``crowded`` board,
    how many ships of each size class."""
    if crowded:
        by_class: dict[SizeClass, int] = {}
        for sh in scene.ships:
            by_class[sh.size] = by_class.get(sh.size, 0) + 1
        summary = [vd.LegendEntry(_ship_glyph(vd.MUTED, size_class, s),
                                  f"{count:,} {size_class.label} class ship{'s' if count != 1 else ''}")
                   for size_class, count in sorted(by_class.items())]
        summary.append(vd.LegendEntry(None, f"{len(scene.ships):,} ships in all {_ALL_LISTED}"))
        return vd.legend(summary, size=size, padding=0, max_width=width, heading=heading, stacked=stacked)
    rows = []
    table = turn.by_round
    for sh in scene.ships:
        name = sh.name if tags is None or tags[sh.name] == sh.name else f"{sh.name} ({tags[sh.name]})"
        tokens = _tokens_text(table, sh.name)
        rows.append(vd.LegendEntry(_ship_glyph(colours[sh.name], sh.size, s), name,
                                   tokens if brief else f"{sh.type}, {sh.size.label} class;  {tokens}"))
    return vd.legend(capped(rows, noun="ships", hint=_ALL_LISTED), size=size, padding=0, max_width=width,
                     heading=heading, stacked=stacked)


_DAMAGE_LISTED = 12  # ships named in the legend's damage line; the rest are counted


def _damage_line(outcome: Outcome, tags: Mapping[str, str] | None, crowded: bool = False) -> str:
    """Each ship's ram damage over the turn, with the unit the reading counts it in; on a
    crowded board or with many damaged ships, the heaviest few and a count of the rest."""
    totals = outcome.damage_totals()
    unit = outcome.reading.get("ram_unit", "small")

    def name(ship: str) -> str:
        return ship if tags is None or tags.get(ship, ship) == ship else f"{ship} ({tags[ship]})"
    if crowded or len(totals) > _DAMAGE_LISTED:
        heaviest = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        return (f"in hits by a {unit} shot: {len(totals):,} ships took {sum(totals.values()):g} in all; most: "
                + ", ".join(f"{name(n)} {d:g}" for n, d in heaviest))
    listed = ", ".join(f"{name(n)} {d:g}" for n, d in totals.items())
    return f"in hits by a {unit} shot (tags beside the marks): {listed}"


def _reported(outcome: Outcome) -> Outcome:
    """The outcome without the ram damage another implementation does not report, so that
    the expected and the actual picture of a failure show the same parts."""
    if "damage" not in outcome.unreported:
        return outcome
    return replace(outcome, events=tuple(replace(e, damage=()) for e in outcome.events))


def _happened_legend(marks: Sequence[_Mark], heading: str, s: int, *, size: int, width: int,
                     stacked: bool, crowded: bool = False, unreported: bool = False,
                     outcome: Outcome | None = None, tags: Mapping[str, str] | None = None) -> Image.Image:
    """What happened: each event's mark, numbered as on the board, with its round,
    phase and words; or a line saying that nothing did. On a ``crowded`` board, how
    many events of each kind. ``unreported``: the events are not known (another
    implementation that does not report them) or not compared with such a one."""
    if outcome is not None and outcome.refusal is not None:
        entries = [vd.LegendEntry(None, "", outcome.refusal.what_happened())]
    elif unreported:
        entries = [vd.LegendEntry(None, "not compared:", "the implementation does not report collisions, bumps "
                                                         "or stops, so none are drawn")]
    elif not marks:
        entries = [vd.LegendEntry(None, "nothing: no collisions, bumps or stops")]
    elif crowded:
        entries = [vd.LegendEntry(_bang_glyph("", s), words) for _, words in _counted(marks)]
        entries.append(vd.LegendEntry(None, f"{len(marks):,} events in all {_ALL_LISTED}"))
    else:
        entries = [vd.LegendEntry(_push_glyph(str(m.number), s) if m.kind == "push" else _bang_glyph(str(m.number), s),
                                  f"round {m.event.round}, {_PHASE_WORDS.get(m.event.phase, m.event.phase)}:",
                                  _event_words(m.event, m)
                                  + (f"; ram damage {_damage_text(m.event, tags or {}, ', ')}"
                                     if m.event.damage else ""))
                   for m in marks]
        entries = capped(entries, noun="events", hint=_ALL_LISTED)
    if outcome is not None and outcome.damage_totals():
        entries.append(vd.LegendEntry(None, "Ram damage this turn", _damage_line(outcome, tags, crowded)))
    return vd.legend(entries, size=size, heading=heading, padding=0, max_width=width, stacked=stacked)


def _headline(turn: Turn, outcomes: Sequence[Outcome], title: str | None, subtitle: str | None
              ) -> tuple[str, str | None]:
    """The picture's title, and a subtitle naming the reading when every panel shares one."""
    if title is None:
        n = len(turn.rounds)
        title = f"{n} round{'s' if n != 1 else ''} of movement"
    if subtitle is None and outcomes:
        readings = [o.reading for o in outcomes if o.reading]
        # Only the points the resolution consulted: the others could be set to anything.
        consulted = set().union(*(o.consulted for o in outcomes))
        if readings and all(r == readings[0] for r in readings) and consulted & set(readings[0]):
            subtitle = "reading: " + ", ".join(f"{k}={v}" for k, v in sorted(readings[0].items()) if k in consulted)
    return title, subtitle


def _tokens_text(table: Sequence[Mapping[str, Token]], name: str) -> str:
    if not table:
        return "no moves"
    tokens = [tokens.get(name, Token.NONE) for tokens in table]
    if all(t is Token.NONE for t in tokens):
        return "no moves" if len(tokens) == 1 else "no moves in any round"
    if len(tokens) == 1:
        return f"token: {tokens[0].value}"
    return "tokens: " + ", ".join(f"{i}: {t.value}" for i, t in enumerate(tokens, 1))


# --- public -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Parts:
    """The panels of a picture, drawn over one view, and what their legends need."""

    images: list[tuple[str, Image.Image]]
    view: _View
    style: _Style
    colours: dict[str, vd.RGB]
    tags: dict[str, str]
    outcomes: list[Outcome]
    marks: list[list[_Mark]]


def _parts(scene: Scene, turn: Turn, panels: Sequence[tuple[str, Outcome | None]], *, tile: int, margin: int,
           whole_board: int, max_panel: int, s: int, font_size: int, max_width: int = vd.MAX_WIDTH, row: int = 1,
           highlight: Iterable[Tile] = (), arrows: Iterable[tuple[Tile, Tile]] = ()) -> _Parts:
    """Each panel over one shared window: the scene before (no outcome) or an
    outcome's after; ``row`` panels side by side share ``max_width``."""
    highlight, arrows = tuple(highlight), tuple(arrows)
    plans = _plan(scene, turn)
    outcomes = [_reported(o) for _, o in panels if o is not None]
    all_states = [_states(scene, o) for o in outcomes]
    all_marks = [[] if "events" in o.unreported else _marks(scene, turn, o, st) for o, st in zip(outcomes, all_states)]
    interest = _interest(scene, plans, all_states, all_marks, list(highlight) + [p for a in arrows for p in a])
    view = _fit_view(scene.board, interest, tile=tile, margin=margin, whole_board=whole_board, max_panel=max_panel,
                     s=s, panels=row, font_size=font_size, max_width=max_width)
    width, height = view.size
    check_budget((width * len(panels), height), supersample=s, what=f"a row of {len(panels)} board panel(s)",
                 advice="draw it with a smaller tile or max_panel")
    style = _Style(s, font_size * s, _crowded(view, s, scene.ships))
    colours = {ship.name: vd.piece_colour(i) for i, ship in enumerate(scene.ships)}
    tags = _tags([ship.name for ship in scene.ships])
    images = []
    marks_iter = iter(all_marks)
    for name, outcome in panels:
        marks = next(marks_iter) if outcome is not None else None
        images.append((name, _panel(scene, turn, outcome, view, style, colours, tags, plans, marks,
                                    highlight, arrows)))
    return _Parts(images, view, style, colours, tags, outcomes, all_marks)


def draw_panels(scene: Scene, turn: Turn, panels: Sequence[tuple[str, Outcome | None]], *, tile: int = 48,
                title: str | None = None, subtitle: str | None = None, legend: bool = True,
                margin: int = 1, whole_board: int = 12, max_panel: int = 480, supersample: int = 2,
                font_size: int = 12, max_width: int = vd.MAX_WIDTH, legend_width: int = 330,
                highlight: Iterable[Tile] = (), arrows: Iterable[tuple[Tile, Tile]] = ()) -> Image.Image:
    """Panels side by side over one shared window of the board. A panel with no
    outcome shows the scene before the turn with each ship's planned moves; a panel
    with an outcome shows where the ships ended, their tracks and the events.

    ``tile`` is the tile size in pixels; boards wider or taller than
    ``whole_board`` tiles are cropped to what happens plus ``margin`` tiles, and
    the tile shrinks so a panel stays within ``max_panel`` pixels (and, with more
    than two panels, so the row stays near ``max_width``). The legend goes in a
    column of ``legend_width`` pixels on the right if that fits in ``max_width``,
    else underneath (the kit's one rule); ``legend=False`` leaves it out.
    ``highlight`` outlines tiles and ``arrows`` adds black arrows between tiles on
    every panel. The picture is drawn at ``supersample`` times the size and
    shrunk, for smooth edges.
    """
    s = max(1, int(supersample))
    parts = _parts(scene, turn, panels, tile=tile, margin=margin, whole_board=whole_board, max_panel=max_panel, s=s,
                   font_size=font_size, max_width=max_width, row=len(panels), highlight=highlight, arrows=arrows)
    images, view, style, colours, tags = parts.images, parts.view, parts.style, parts.colours, parts.tags
    outcomes, all_marks = parts.outcomes, parts.marks

    fs = style.font
    gap = fs * 2
    beside = legend and vd.legend_beside(images, gap=gap, legend_width=legend_width * s, max_width=max_width * s)
    legends = []
    if legend:
        width_hint = legend_width * s if beside else int(max(vd.row_width(images, gap), 560 * s))
        present = {m.kind for ms in all_marks for m in ms}
        if any(m.event.damage for ms in all_marks for m in ms):
            present.add("damage")
        legends.append(vd.key_strip(_key_items(view, style, present, bool(outcomes)), size=fs,
                                    max_width=width_hint, padding=0, heading="Key"))
        legends.append(_ship_legend(scene, turn, colours, tags if view.t >= 24 * s else None, s, size=fs,
                                    width=width_hint, stacked=beside, crowded=style.crowded))
        named = [name for name, outcome in panels if outcome is not None]
        for name, marks, outcome in zip(named, all_marks, outcomes):
            heading = "What happened" if len(outcomes) == 1 else f"What happened ({name})"
            legends.append(_happened_legend(marks, heading, s, size=fs, width=width_hint, stacked=beside,
                                            crowded=style.crowded, unreported="events" in outcome.unreported,
                                            outcome=outcome, tags=tags))

    title, subtitle = _headline(turn, outcomes, title, subtitle)
    if style.crowded:
        subtitle = f"{subtitle}. {_summary_note(scene, all_marks)}" if subtitle else _summary_note(scene, all_marks)
    image = vd.compose(images, legends, beside=beside, title=title, subtitle=subtitle,
                       size=round(font_size * 1.15) * s, gap=gap, margin=font_size * s, supersample=s)
    return image


def draw_case(scene: Scene, turn: Turn, outcome: Outcome, *, tile: int = 48, title: str | None = None,
              **options) -> Image.Image:
    """The standard picture of a case: "Before" (ships and their planned moves)
    and "After" (tracks, final positions, collisions), with a legend."""
    return draw_panels(scene, turn, [("Before: planned moves", None), ("After: what happened", outcome)],
                       tile=tile, title=title, **options)
