"""Pictures of Armada 2K cases, made of drawing-kit parts: the sea from above in
inches, ships as the outlines their pyramids cover (by the footprint reading),
coloured by player, with damage chits; each move's steps as numbered ghosts; the
fan of allowed next steps; firing areas with the hit or the obstruction marked;
sunk ships crossed out."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw
from shapely.geometry import LineString, Polygon
from shapely.ops import unary_union

from verifier.kit import draw as vd
from verifier.kit.geometry import Pose
from verifier.ruleset import Event, Outcome

from .geometry import firing_area, sight_line
from .model import TEMPLATES, Actions, Interval, Scene, Ship, State, area_shape, bow, flag_shape
from .model import footprint as _footprint

# A picture asks for the same ship's outline many times (its fill, outline, label room, the
# boxes that frame the view); the outline is a pure function of the ship and the reading.
footprint = lru_cache(maxsize=4096)(_footprint)

FONT = 12
SUPERSAMPLE = 2
DASH = (6, 4)
OUTSIDE = (228, 228, 224)
OBSTACLE = (160, 160, 156)
FAN = (120, 120, 120)
BLOCK = vd.OKABE_ITO["vermillion"]


def _reading(outcome: Outcome | None) -> dict[str, str]:
    from . import RULESET
    chosen = dict(RULESET.default_reading)
    if outcome is not None:
        chosen.update({k: v for k, v in outcome.reading.items() if k in chosen})
    return chosen


def _colours(scene: Scene) -> dict[str, vd.RGB]:
    return {p: vd.piece_colour(i) for i, p in enumerate(scene.players)}


def _state_before(outcome: Outcome | None, scene: Scene, step: int) -> Scene:
    """The scene just before action ``step`` (1-based); the scene itself where the outcome
    has no frame for it (an answer read from JSON has none, and its events no step)."""
    if outcome is not None and 1 <= step <= len(outcome.frames):
        return outcome.frames[step - 1].state.scene
    return scene


def _chain(ship: Ship, headings: Sequence[float], fp: str) -> list[Ship]:
    pieces = []
    current = ship
    for h in headings:
        x, y = bow(current, fp)
        current = Ship(ship.name, ship.player, ship.size, (x, y), h % 360.0, ship.damage)
        pieces.append(current)
    return pieces


@lru_cache(maxsize=64)
def _fan_shape(ship: Ship, spans: tuple[Interval, ...], fp: str) -> Polygon | None:
    x, y = bow(ship, fp)
    shapes = []
    for span in spans:
        count = max(1, math.ceil(span.width))
        for k in range(count + 1):
            shapes.append(footprint(ship, fp, Pose(x, y, span.lo + span.width * k / count)))
    return unary_union(shapes) if shapes else None


def _fan_ship(scene: Scene, actions: Actions, outcome: Outcome, name: str) -> Ship:
    last = max(i for i, a in enumerate(actions, 1) if a.kind == "fan" and a.ship == name)
    return _state_before(outcome, scene, last).ship(name)


def _aims(scene: Scene, actions: Actions, outcome: Outcome, fp: str, placement: str
          ) -> list[tuple[int, Ship, Polygon, tuple[float, float], str]]:
    """(action number, firer, area, middle of the side, side): the side of each shot, and every side of a
    range query."""
    found = []
    for step, action in enumerate(actions, 1):
        if action.kind not in ("fire", "range"):
            continue
        before = _state_before(outcome, scene, step)
        firer = before.ship(action.ship)
        if firer.sunk or (action.kind == "fire" and not any(e.step == step and e.kind in (
                "hit", "obstructed", "no-shot") for e in outcome.events)):
            continue
        sides = [action.side] if action.kind == "fire" else ["port", "starboard"] + (
            ["stern"] if scene.variants.rear_cannon and firer.size == "large" else [])
        for side in sides:
            area, mid = firing_area(firer, side, fp, placement)
            found.append((step, firer, area, mid, side))
    return found


def _fire_areas(scene: Scene, actions: Actions, outcome: Outcome, fp: str, placement: str
                ) -> list[tuple[Event, Ship, Polygon, tuple[float, float], str]]:
    """(event, firer, area, middle of the side, side) for each shot and each target a range query reached."""
    aims = {(step, side): (firer, area, mid) for step, firer, area, mid, side in _aims(scene, actions, outcome, fp,
                                                                                      placement)}
    found = []
    for e in outcome.events:
        if e.kind in ("hit", "obstructed", "no-shot", "in-range") and e.step:
            action = actions[e.step - 1]
            side = action.side if action.kind == "fire" else e.detail
            if (e.step, side) in aims:
                firer, area, mid = aims[(e.step, side)]
                found.append((e, firer, area, mid, side))
    return found


def _boxes(scene: Scene, actions: Actions, outcomes: Sequence[Outcome | None]) -> list[vd.Box]:
    boxes: list[vd.Box] = []
    for outcome in outcomes:
        reading = _reading(outcome)
        fp = reading["footprint"]
        states = [f.state.scene for f in outcome.frames] if outcome is not None and outcome.frames else [scene]
        if outcome is not None:
            states.append(outcome.after.scene)
        for state in states:
            boxes += [footprint(s, fp).bounds for s in state.ships]
        for i, action in enumerate(actions, 1):
            if action.kind == "move":
                ship = _state_before(outcome, scene, i).ship(action.ship)
                boxes += [footprint(p, fp).bounds for p in _chain(ship, action.steps, fp)]
        if outcome is not None:
            for name, spans in outcome.after.fans:
                if any(a.kind == "fan" and a.ship == name for a in actions):
                    shape = _fan_shape(_fan_ship(scene, actions, outcome, name), spans, fp)
                    if shape is not None:
                        boxes.append(shape.bounds)
            boxes += [area.bounds for _, _, area, _, _ in _aims(scene, actions, outcome, fp, reading["placement"])]
    boxes += [Polygon(o.points).bounds for o in scene.obstacles]
    boxes += [flag_shape(f).bounds for f in scene.flags]
    return boxes


DAMAGE_DOTS = 4  # more than any piece carries: the largest sinks at its third point of damage


def _ship(image: Image.Image, ship: Ship, fp: str, colour: vd.RGB, view: vd.PlaneView, placer: vd.LabelPlacer,
          *, sunk: bool = False) -> list[vd.Point]:
    s = view.supersample
    shape = footprint(ship, fp)
    pts = vd.polygon(image, shape, fill=colour, outline=vd.INK, width=s, alpha=90 if sunk else 255, view=view)
    placer.block_polygon(pts)
    template = TEMPLATES[(ship.size, fp)]
    length = template.bow[1]
    draw = ImageDraw.Draw(image)
    # One dot a point of damage, up to what a piece can carry; an answer claiming more is
    # written as a count beside the last dot rather than drawn dot by dot.
    for k in range(min(ship.damage, DAMAGE_DOTS)):
        cx, cy = view.px(ship.pose.apply((0.0, length * (0.22 + 0.2 * k))))
        r = max(2.5 * s, view.length(0.07))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=vd.INK, outline=vd.PAPER, width=s)
        if k == DAMAGE_DOTS - 1 and ship.damage > DAMAGE_DOTS:
            vd.text(draw, (cx + r + s, cy - r), f"{ship.damage}", size=10 * s, fill=vd.INK)
    if sunk:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = (min(xs), min(ys), max(xs), max(ys))
        draw.line([(box[0], box[1]), (box[2], box[3])], fill=vd.INK, width=3 * s)
        draw.line([(box[0], box[3]), (box[2], box[1])], fill=vd.INK, width=3 * s)
    return pts


def _cross(draw: ImageDraw.ImageDraw, centre: vd.Point, r: float, s: int) -> None:
    draw.line([(centre[0] - r, centre[1] - r), (centre[0] + r, centre[1] + r)], fill=BLOCK, width=3 * s)
    draw.line([(centre[0] - r, centre[1] + r), (centre[0] + r, centre[1] - r)], fill=BLOCK, width=3 * s)


def _background(image: Image.Image, scene: Scene, view: vd.PlaneView) -> None:
    s = view.supersample
    draw = ImageDraw.Draw(image)
    draw.rectangle(view.area, fill=OUTSIDE)
    edge = area_shape(scene.area)
    vd.polygon(image, edge, fill=vd.PLANE, view=view)
    vd.grid(draw, view, step=1.0, size=10 * s, width=s, area=None, unit="in")
    vd.polygon(image, edge, outline=vd.EDGE, width=2 * s, view=view)
    for obstacle in scene.obstacles:
        vd.polygon(image, obstacle.points, fill=OBSTACLE, outline=vd.EDGE, width=s, view=view)


# The last panels drawn, with the outcomes they show (held, so that their ids stay theirs):
# the wide and the stacked layout of a picture draw the same panels, one after the other.
_KEPT: OrderedDict[tuple[Any, ...], tuple[Outcome | None, Outcome | None, Image.Image, tuple[Any, ...]]] = \
    OrderedDict()


def _panel(scene: Scene, actions: Actions, outcome: Outcome | None, view: vd.PlaneView,
           marks: list[tuple[str, str]], guide: Outcome | None) -> Image.Image:
    """One panel, its numbered marks added to ``marks``; a copy of the same panel drawn a
    moment ago where there is one."""
    if marks:  # its numbers continue others': drawn afresh
        return _draw_panel(scene, actions, outcome, view, marks, guide)
    key = (scene, actions, id(outcome), id(guide), view)
    kept = _KEPT.get(key)
    if kept is None or kept[0] is not outcome or kept[1] is not guide:
        found: list[tuple[str, str]] = []
        kept = _KEPT[key] = (outcome, guide, _draw_panel(scene, actions, outcome, view, found, guide), tuple(found))
        while len(_KEPT) > 8:
            _KEPT.popitem(last=False)
    marks.extend(kept[3])
    return kept[2].copy()


def _draw_panel(scene: Scene, actions: Actions, outcome: Outcome | None, view: vd.PlaneView,
                marks: list[tuple[str, str]], guide: Outcome | None) -> Image.Image:
    s = view.supersample
    dash = (DASH[0] * s, DASH[1] * s)
    image, _ = vd.backdrop(("armada2k", scene.area, scene.obstacles, view), view.size,
                           lambda canvas: _background(canvas, scene, view))
    draw = ImageDraw.Draw(image)
    placer = vd.LabelPlacer(bounds=view.area, gap=2 * s)
    reading = _reading(outcome if outcome is not None else guide)  # a before panel draws the outline read after
    fp = reading["footprint"]
    colour = _colours(scene)
    # Step numbers and numbered marks go on top of the ships, each kept clear of the ships,
    # of the others and of the labels by the placer; the ghosts they number are then kept
    # clear of the labels.
    numbers: list[tuple[vd.Point, str, vd.RGB]] = []  # (where, number, outline) of a step's badge
    bangs: list[tuple[vd.Point, float, str]] = []  # (where, radius, number) of a numbered mark
    ghosts: list[list[vd.Point]] = []
    for flag in scene.flags:
        pts = vd.polygon(image, flag_shape(flag), fill=vd.mix(colour[flag.player], amount=0.3), outline=vd.INK,
                         width=s, view=view)
        placer.block_polygon(pts)
        placed = placer.place(vd.centroid(pts), f"{flag.player} flag", size=10 * s, stroke=2 * s,
                              clearance=view.length(0.3))
        placer.draw(draw, placed, stroke_fill=vd.PLANE, leader_width=s)
    step_label = _step_labels(actions)
    if outcome is None:
        shown = scene
        for i, action in enumerate(actions, 1):
            if action.kind == "move":
                ship = _state_before(guide, scene, i).ship(action.ship)
                for n, piece in enumerate(_chain(ship, action.steps, fp), 1):
                    pts = vd.polygon(image, footprint(piece, fp), fill=colour[ship.player], alpha=60,
                                     outline=colour[ship.player], width=2 * s, dash=dash, view=view)
                    ghosts.append(pts)
                    numbers.append((vd.centroid(pts), step_label(i, n), colour[ship.player]))
            elif action.kind == "fire":
                a, b = scene.ship(action.ship), scene.ship(action.target)
                aim = view.pts([footprint(a, fp).centroid.coords[0], footprint(b, fp).centroid.coords[0]])
                vd.arrow(image, aim, fill=vd.INK, width=2 * s, dash=dash)
                placer.block_line(aim, 2 * s)
    else:
        state: State = outcome.after
        shown = state.scene
        for name, spans in state.fans:
            if not any(a.kind == "fan" and a.ship == name for a in actions):
                continue
            ship = _fan_ship(scene, actions, outcome, name)
            shape = _fan_shape(ship, spans, fp)
            if shape is not None:
                geoms = getattr(shape, "geoms", [shape])
                for g in geoms:
                    vd.polygon(image, g, fill=FAN, alpha=70, outline=FAN, width=s, view=view)
            tip = bow(ship, fp)
            radius = TEMPLATES[(ship.size, fp)].bow[1] * 0.45
            for span in spans:
                vd.wedge(image, tip, radius, span.lo + span.width / 2, max(span.width / 2, 0.5), fill=FAN,
                         alpha=150, view=view)
            if _fan_ship(scene, actions, outcome, name) != shown.ship(name):
                vd.polygon(image, footprint(ship, fp), outline=colour[ship.player], width=s, dash=dash, view=view)
        for _step, firer, area, _mid, _side in _aims(scene, actions, outcome, fp, reading["placement"]):
            vd.polygon(image, area, fill=colour[firer.player], alpha=55, outline=colour[firer.player], width=s,
                       dash=dash, view=view)
        # An event read from an answer, which the reference does not have, has no place: it is
        # listed under what happened, not drawn.
        for e in (e for e in outcome.events if e.at is not None or e.kind not in ("move", "blocked")):
            if e.kind == "move":
                start = _state_before(outcome, scene, e.step).ship(e.pieces[0])
                vd.polygon(image, footprint(start, fp), fill=colour[start.player], alpha=45,
                           outline=vd.mix(colour[start.player]), width=s, dash=dash, view=view)
                chain = _chain(start, [p[2] for p in e.at], fp)
                for n, piece in enumerate(chain[:-1], 1):
                    pts = vd.polygon(image, footprint(piece, fp), fill=colour[start.player], alpha=90,
                                     outline=vd.INK, width=s, dash=dash, view=view)
                    ghosts.append(pts)
                    numbers.append((vd.centroid(pts), step_label(e.step, n), vd.INK))
            elif e.kind == "stuck" and not any(m[1].startswith(f"{e.pieces[0]} is stuck") for m in marks):
                ship = _state_before(outcome, scene, e.step).ship(e.pieces[0])
                centre = view.px(bow(ship, fp))
                marks.append(("stuck", f"{e.pieces[0]} is stuck: no heading allows a step"))
                _cross(draw, centre, 7 * s, s)
                vd.text(draw, (centre[0] + 10 * s, centre[1] - 10 * s), str(len(marks)), size=10 * s, fill=BLOCK)
            elif e.kind == "win" and "flag of" in e.detail:
                owner = e.detail.rsplit(" ", 1)[-1]
                touched = [f.at for f in scene.flags if f.player == owner]
                if touched:
                    marks.append(("win", f"{e.detail}: {e.pieces[0]} wins"))
                    bangs.append((view.px(touched[0]), 10 * s, str(len(marks))))
            elif e.kind == "blocked":
                start = _state_before(outcome, scene, e.step).ship(e.pieces[0])
                step, _ = e.at
                chain = _chain(start, actions[e.step - 1].steps[:step], fp)
                pts = vd.polygon(image, footprint(chain[-1], fp), fill=BLOCK, alpha=40, outline=BLOCK, width=2 * s,
                                 dash=dash, view=view)
                ghosts.append(pts)
                marks.append(("blocked", f"{e.pieces[0]} is blocked: {e.detail}"))
                bangs.append((vd.centroid(pts), 10 * s, str(len(marks))))
    for ship in sorted(shown.ships, key=lambda x: x.name):
        _ship(image, ship, fp, colour[ship.player], view, placer, sunk=ship.sunk)
    for at, number, outline in numbers:
        vd.badge(draw, at, number, size=10 * s, fill=vd.PAPER, outline=outline, placer=placer)
    for at, radius, number in bangs:
        vd.starburst(draw, at, radius, width=s, label=number, label_size=10 * s, placer=placer)
    for pts in ghosts:
        placer.block_polygon(pts)
    if outcome is not None:
        before_scenes = {}
        for event, _firer, area, mid, side in _fire_areas(scene, actions, outcome, fp, reading["placement"]):
            before_scenes[event.step] = _state_before(outcome, scene, event.step)
            target = before_scenes[event.step].ship(event.pieces[1])
            shape = footprint(target, fp)
            if event.kind == "hit":
                marks.append(("hit", f"{event.pieces[0]} fires {side} and hits {event.pieces[1]}"))
                vd.starburst(draw, view.px(area.intersection(shape).representative_point().coords[0]), 10 * s,
                             width=s, label=str(len(marks)), label_size=10 * s, placer=placer)
            elif event.kind == "obstructed":
                line: LineString = sight_line(mid, area, shape)
                if reading["sight"] == "centre-line":  # under the area reading the line decides nothing
                    vd.polyline(image, view.pts(line.coords), fill=BLOCK, width=2 * s, dash=dash)
                blocker = event.pieces[2]
                shapes = {o.name: Polygon(o.points) for o in scene.obstacles}
                shapes.update({sh.name: footprint(sh, fp) for sh in before_scenes[event.step].ships})
                shapes.update({f.name: flag_shape(f) for f in scene.flags})
                where = shapes[blocker].representative_point() if blocker in shapes else line.centroid
                marks.append(("obstructed", f"{event.pieces[0]}'s {side} shot at {event.pieces[1]} is obstructed "
                                            f"by {blocker}"))
                centre = view.px(where.coords[0])
                _cross(draw, centre, 6 * s, s)
                vd.text(draw, (centre[0] + 9 * s, centre[1] - 9 * s), str(len(marks)), size=10 * s, fill=BLOCK)
            elif event.kind == "in-range":
                marks.append(("in-range", f"{event.pieces[0]} can hit {event.pieces[1]} from its {side}"))
                vd.starburst(draw, view.px(area.intersection(shape).representative_point().coords[0]), 8 * s,
                             width=s, label=str(len(marks)), label_size=10 * s, placer=placer)
    if outcome is not None and any(a.kind == "setup" for a in actions):
        _nearest_opponents(image, shown, fp, view, placer, marks)
    for obstacle in sorted(scene.obstacles, key=lambda o: o.name):
        pts = view.pts(obstacle.points)
        placer.block_polygon(pts)
        placed = placer.place(vd.centroid(pts), obstacle.name, size=10 * s, stroke=2 * s, clearance=4 * s)
        placer.draw(draw, placed, fill=vd.MUTED, stroke_fill=vd.PLANE, leader_width=s)
    for ship in sorted(shown.ships, key=lambda x: x.name):
        pts = view.pts(footprint(ship, fp).exterior.coords)
        placed = placer.place(vd.centroid(pts[:-1]), ship.name, size=FONT * s, stroke=2 * s,
                              clearance=view.length(0.35))
        placer.draw(draw, placed, stroke_fill=vd.PLANE, leader_width=s)
    return image


def _nearest_opponents(image: Image.Image, scene: Scene, fp: str, view: vd.PlaneView, placer: vd.LabelPlacer,
                       marks: list[tuple[str, str]]) -> None:
    """The set-up distance: a measured line between the nearest ships of different players."""
    from shapely.ops import nearest_points
    s = view.supersample
    ships = [sh for sh in scene.ships if not sh.sunk]
    pairs = [(footprint(a, fp).distance(footprint(b, fp)), a, b) for i, a in enumerate(ships) for b in ships[i + 1:]
             if a.player != b.player]
    if not pairs:
        return
    gap, a, b = min(pairs, key=lambda p: (p[0], p[1].name, p[2].name))
    p, q = nearest_points(footprint(a, fp), footprint(b, fp))
    line = view.pts([p.coords[0], q.coords[0]])
    vd.arrow(image, line, fill=vd.MUTED, width=s)
    vd.arrow(image, line[::-1], fill=vd.MUTED, width=s)
    placer.block_line(line, s)
    marks.append(("measure", f"nearest ships of different players: {a.name} and {b.name}, {gap:.2f} in apart"))
    mid = ((line[0][0] + line[1][0]) / 2, (line[0][1] + line[1][1]) / 2)
    placed = placer.place(mid, f"{gap:.2f} in", size=FONT * s, stroke=2 * s, clearance=4 * s)
    placer.draw(ImageDraw.Draw(image), placed, stroke_fill=vd.PLANE, leader_width=s)


def _reading_words(outcome: Outcome) -> str:
    from . import RULESET
    chosen = _reading(outcome)
    changed = [f"{k}={v}" for k, v in chosen.items() if k != "footprint" and RULESET.default_reading[k] != v]
    return ", ".join([f"footprint={chosen['footprint']}"] + changed) + ("" if changed else " (others default)")


def _step_labels(actions: Actions) -> Callable[[int, int], str]:
    """A step ghost's badge: its number in the order its ship's moves plan their steps, counted
    on over the moves of one ship, so no two badges of a ship read alike."""
    first: dict[int, int] = {}
    planned: dict[str, int] = {}
    for i, action in enumerate(actions, 1):
        if action.kind == "move":
            first[i] = planned.get(action.ship, 0)
            planned[action.ship] = first[i] + len(action.steps)
    return lambda action, step: str(first.get(action, 0) + step)


def _key(scene: Scene, s: int, kinds: set[str], mover: vd.RGB = FAN) -> list[vd.LegendEntry]:
    """The key: the players' colours, then one row per kind of mark the picture draws; the
    step ghost in ``mover``, the colour of the ship whose steps are drawn."""
    entries = [vd.LegendEntry(colour, f"player {player}", f"{player}'s ships, drawn {vd.colour_name(colour)}; "
                              "the point is the bow")
               for player, colour in _colours(scene).items()]

    def ghost(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        corners = [(box[0], box[3]), (box[0], box[1]), (box[2], (box[1] + box[3]) / 2)]
        draw.polygon(corners, fill=vd.mix(mover, vd.PLANE, 1 - 60 / 255))
        vd.polygon(draw, corners, outline=mover, width=s, dash=(DASH[0] * s, DASH[1] * s))

    def fan_glyph(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        draw.pieslice((box[0], box[1] - 6 * s, box[2], box[3] + 6 * s), 200, 340, fill=vd.mix(FAN, amount=0.4))

    def chit(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        cx, cy, r = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 4 * s
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=vd.INK)

    def star(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        vd.starburst(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 9 * s, width=s)

    def cross(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        _cross(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 6 * s, s)

    def shade(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        draw.polygon([(box[0], box[3]), (box[2], box[3]), ((box[0] + box[2]) / 2, box[1])],
                     fill=vd.mix(vd.PALETTE[0], amount=0.75), outline=vd.PALETTE[0])

    if "move" in kinds:
        # a refused or blocked move's ghosts are steps it planned, not steps it took
        taken = ("as planned (before) and as taken (after), a place the ship could stop" if "moved" in kinds
                 else "as the move plans it")
        order = "numbered on over a ship's moves" if "moves" in kinds else "numbered"
        entries.append(vd.LegendEntry(ghost, "step", f"a ghost: a step {taken}; {order}"))
    if "fan" in kinds:
        entries.append(vd.LegendEntry(fan_glyph, "fan", "where the next step's piece may lie; wedge: its headings"))
    if "fire" in kinds:
        entries.append(vd.LegendEntry(shade, "aim", "the area a large laid against that side covers"))
    if kinds & {"hit", "in-range", "blocked"}:
        entries.append(vd.LegendEntry(star, "mark", "a hit, a target in reach, or a step not allowed (numbered)"))
    if kinds & {"obstructed", "stuck"}:
        entries.append(vd.LegendEntry(cross, "cross", "what obstructs a shot, or the bow of a stuck ship"))
    if "damage" in kinds:
        entries.append(vd.LegendEntry(chit, "damage", "one chit per damage taken"))
    return entries


def _parts(scene: Scene, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], s: int, legend_width: int
           ) -> tuple[list[vd.Panel], list[Image.Image], str | None]:
    """The panels over one view of the sea (a panel with no outcome is the scene before, the
    others one outcome each), the legends (the key, then what happened), and the subtitle."""
    fs = FONT * s
    outcomes = [o for _, o in panels if o is not None]
    boxes = _boxes(scene, actions, outcomes or [None])
    view = vd.fit(boxes, target_px=340 if len(panels) <= 2 else 260, margin=0.6, scale_range=(40, 110), min_span=5,
                  supersample=s, pad=(0, 6 * s, 10 * s, 0), tick_size=10 * s, budget=vd.panel_budget(len(panels)))
    images, found = [], []
    for name, outcome in panels:
        marks: list[tuple[str, str]] = []
        images.append((name, _panel(scene, actions, outcome, view, marks, outcomes[0] if outcomes else None)))
        if outcome is not None:
            found.append((name, marks))
    kinds = {a.kind for a in actions} | {e.kind for o in outcomes for e in o.events}
    if any(e.kind == "move" and e.at is not None and len(e.at) > 1 for o in outcomes for e in o.events):
        kinds.add("moved")
    moving = [a.ship for a in actions if a.kind == "move"]
    if len(moving) > len(set(moving)):
        kinds.add("moves")
    if any(sh.damage for o in outcomes for sh in o.after.scene.ships) or any(sh.damage for sh in scene.ships):
        kinds.add("damage")
    if any(a.kind in ("fire", "range") for a in actions):
        kinds.add("fire")
    players = {ship.name: ship.player for ship in scene.ships}
    movers = [players[a.ship] for a in actions if a.kind == "move" and a.ship in players]
    mover = _colours(scene)[movers[0]] if movers else FAN
    legends = [vd.legend(_key(scene, s, kinds, mover), size=fs, padding=0, heading="Key", max_width=legend_width)]
    for name, marks in found:
        outcome = dict(panels)[name]
        assert outcome is not None
        entries = [vd.LegendEntry(None, f"{n}." if kind != "measure" else "-", words)
                   for n, (kind, words) in enumerate(marks, 1)]
        others = [e for e in outcome.events if e.kind in ("move", "refused", "sunk", "win", "setup-breach",
                                                          "no-shot")]
        from . import event_text
        entries += [vd.LegendEntry(None, "-", event_text(e.kind, e.pieces, e.detail)) for e in others]
        for ship_name, spans in outcome.after.fans:
            text = ", ".join(f"{i.lo:.1f}° to {i.hi % 360 if i.hi >= 360 else i.hi:.1f}°" for i in spans)
            entries.append(vd.LegendEntry(None, "fan", f"{ship_name} may step at {text}" if text else
                                          f"{ship_name} has no allowed step: it is stuck"))
        heading = "What happened" + (f" ({name})" if len(found) > 1 else "")
        if outcome.refusal is not None:
            entries = [vd.LegendEntry(None, "", outcome.refusal.what_happened())]
        legends.append(vd.legend(entries or [vd.LegendEntry(None, "nothing happened")], size=fs, padding=0,
                                 heading=heading, max_width=legend_width))
    readings = {_reading_words(o) for o in outcomes}
    return images, legends, f"reading: {readings.pop()}" if len(readings) == 1 else None


def draw_panels(scene: Scene, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, supersample: int = SUPERSAMPLE) -> Image.Image:
    """Panels side by side with the key and what happened, beside or under them by the kit's rule."""
    s, fs = supersample, FONT * supersample
    images, legends, subtitle = _parts(scene, actions, panels, s, vd.LEGEND_WIDTH * s)
    beside = vd.legend_beside(images, gap=2 * fs, legend_width=vd.LEGEND_WIDTH * s, max_width=vd.MAX_WIDTH * s)
    image = vd.compose(images, legends, beside=beside, title=title or "Armada 2K", subtitle=subtitle,
                       size=round(FONT * 1.15) * s, gap=2 * fs, margin=fs, supersample=s)
    return image


def draw_case(scene: Scene, actions: Actions, outcome: Outcome, *, title: str | None = None,
              **options: Any) -> Image.Image:
    return draw_panels(scene, actions, [("Before", None), ("After", outcome)], title=title, **options)
