"""Pictures of civ cases from drawing-kit parts: the map as regions (a cell around each
area's drawing position unless the map gives a shape), ships and tokens as counted
markers in each nation's colour, the ships' paths as arrows through the areas, and
each conflict as a strip of removal steps.

Panels: before the phase (with the paths), after the movement (landing tokens wait
at the water's edge, blocked ships have their blocker across them), and the end of
the phase, one per branch where the case leaves decisions open.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import shapely
from PIL import Image, ImageDraw
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.geometry import box as shapely_box
from shapely.ops import voronoi_diagram

from ...kit import draw as vd
from ...kit.geometry import ShapeIndex
from ...ruleset import Outcome
from .model import LAND, OPEN_SEA, Actions, Area, Map, Scene, ShipState, State, label_text

FONT = 12
SMALL = 10
SUPERSAMPLE = 2
DASH = (5, 3)
LAND_FILL: vd.RGB = (233, 217, 175)
INLAND_FILL: vd.RGB = (214, 190, 140)
WATER_FILL: vd.RGB = (205, 229, 246)
OPEN_SEA_FILL: vd.RGB = (52, 92, 150)
COAST_EDGE: vd.RGB = (90, 150, 200)
HARBOUR_DEPTH = 0.22  # the water portion's top edge, below an area's drawing position (map units)


# --- the map as regions ------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def cells(game_map: Map) -> tuple[tuple[str, Polygon], ...]:
    """Each area's outline: its shape, or its cell of the points' Voronoi diagram."""
    points = [a.at for a in game_map.areas]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    frame = shapely_box(min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
    pieces = list(voronoi_diagram(MultiPoint(points), envelope=frame).geoms) if len(points) > 1 else [frame]
    tree = shapely.STRtree(pieces)
    out = []
    for area in game_map.areas:
        if area.shape:
            cell = Polygon(area.shape)
        else:
            here = Point(area.at)
            hits = tree.query(here, predicate="covered_by")
            cell = (pieces[int(min(hits))] if len(hits) else frame).intersection(frame)
        out.append((area.name, cell))
    return tuple(out)


@lru_cache(maxsize=16)
def borders(game_map: Map) -> tuple[tuple[str, str, float, bool, Any], ...]:
    """Every pair of areas (in name order) whose outlines meet or which the map says touch:
    (area, other, length of the border drawn, whether they touch, the border). Found through
    a spatial index, so a map of n areas costs n log n, not a test of every pair."""
    outlines = dict(cells(game_map))
    index = ShapeIndex(outlines)
    out = []
    for name in sorted(outlines):
        near = set(index.near(outlines[name], tolerance=0.0)) | set(game_map.area(name).touches)
        for other in sorted(n for n in near if n > name):
            border = outlines[name].intersection(outlines[other])
            out.append((name, other, border.length, other in game_map.area(name).touches, border))
    return tuple(out)


@lru_cache(maxsize=4096)  # the same cells are drawn in every panel and every case of a map
def _shrunk(cell: Polygon) -> Polygon:
    smaller = cell.buffer(-0.04, join_style="mitre")
    return smaller if not smaller.is_empty and smaller.geom_type == "Polygon" else cell


def _harbour(area: Area, cell: Polygon) -> Polygon | None:
    """A coast's water portion: the part of its cell below its drawing position."""
    if not area.coastal_land:
        return None
    x0, y0, x1, _ = cell.bounds
    part = cell.intersection(shapely_box(x0, y0, x1, area.at[1] - HARBOUR_DEPTH))
    return part if not part.is_empty and part.geom_type == "Polygon" else None


def _colours(scene: Scene) -> dict[str, vd.RGB]:
    return {n.name: vd.piece_colour(i) for i, n in enumerate(sorted(scene.nations, key=lambda n: n.name))}


def _ship_anchor(area: Area) -> tuple[float, float]:
    return (area.at[0], area.at[1] - HARBOUR_DEPTH - 0.38) if area.coastal_land else area.at


def _draw_map(image: Image.Image, board: Map, view: vd.PlaneView, show_links: bool) -> None:
    """The areas, their harbours and coasts, and the borders the map and the drawing disagree on:
    what depends on the map and the view alone (the same in every panel of a case)."""
    s = view.supersample
    areas = {a.name: a for a in board.areas}
    outlines = dict(cells(board))
    for name, full in outlines.items():
        area = areas[name]
        cell = _shrunk(full)
        fill = {LAND: LAND_FILL if area.coast else INLAND_FILL, OPEN_SEA: OPEN_SEA_FILL}.get(area.kind, WATER_FILL)
        vd.polygon(image, list(cell.exterior.coords), fill=fill, outline=vd.mix(fill, vd.INK, 0.35), width=s,
                   view=view)
        harbour = _harbour(area, cell)
        if harbour is not None:
            vd.polygon(image, list(harbour.exterior.coords), fill=WATER_FILL, view=view)
            edge = area.at[1] - HARBOUR_DEPTH
            x0, _, x1, _ = cell.bounds
            shore = cell.intersection(LineString([(x0 - 1, edge), (x1 + 1, edge)]))
            for line in getattr(shore, "geoms", [shore]):
                if line.length > 0:
                    vd.polyline(image, view.pts(list(line.coords)), fill=COAST_EDGE, width=2 * s)
    for name, other, length, touching, border in borders(board):
        # the drawing's borders and the map's touches can differ: show where
        if length > 0.05 and not touching:
            for line in getattr(border, "geoms", [border]):
                if line.length > 0:
                    vd.polyline(image, view.pts(list(line.coords)), fill=vd.INK, width=4 * s)
        elif touching and length <= 0.05 and show_links:
            vd.polyline(image, view.pts([areas[name].at, areas[other].at]), fill=vd.INK, width=s,
                        dash=(2 * s, 3 * s))


def _name_areas(image: Image.Image, scene: Scene, view: vd.PlaneView, placer: vd.LabelPlacer) -> None:
    """Each area's name near the top of its region, clear of paths and pieces."""
    s = view.supersample
    draw = ImageDraw.Draw(image)
    outlines = dict(cells(scene.map))
    for area in scene.map.areas:
        x, y = area.at
        colour = vd.PAPER if area.kind == OPEN_SEA else vd.INK
        stroke_fill = OPEN_SEA_FILL if area.kind == OPEN_SEA else (LAND_FILL if area.kind == LAND else WATER_FILL)
        if area.kind == LAND and not area.coast:
            stroke_fill = INLAND_FILL
        inside = view.pts(list(_shrunk(outlines[area.name]).exterior.coords))
        placed = placer.place(view.px((x, y + 0.62)), area.name, size=SMALL * s, stroke=2 * s, on_anchor=True,
                              leader_after=99, inside=inside)
        if placed is None:  # no room clear of everything inside the region: over a path, but inside
            placed = placer.place(view.px((x, y + 0.62)), area.name, size=SMALL * s, stroke=2 * s, on_anchor=True,
                                  leader_after=99)
        placer.draw(draw, placed, fill=colour, stroke_fill=stroke_fill)


# --- markers ---------------------------------------------------------------------------------------------


def ship_glyph(canvas: Image.Image | ImageDraw.ImageDraw, centre: vd.Point, colour: vd.RGB, s: int, *,
               aboard: int = 0, turned: bool = False, across: bool = False, sunk: bool = False) -> None:
    """A ship: a hull in its nation's colour, hollow when turned over (blockading), upright
    when laid across a blocked ship; a badge with the tokens aboard; a cross when sunk."""
    draw = canvas if isinstance(canvas, ImageDraw.ImageDraw) else ImageDraw.Draw(canvas)
    direction = (0.0, -1.0) if across else (1.0, 0.0)
    fill = vd.PAPER if turned else (vd.mix(colour, vd.PAPER, 0.6) if sunk else colour)
    points = vd.hull(draw, centre, direction, length=24 * s, beam=11 * s, fill=fill,
                     outline=colour if turned else (vd.MUTED if sunk else vd.INK), width=(2 if turned else 1) * s)
    if turned:
        draw.line([points[0], centre], fill=colour, width=s)
    if sunk:
        cx, cy = centre
        draw.line([(cx - 9 * s, cy - 6 * s), (cx + 9 * s, cy + 6 * s)], fill=vd.INK, width=2 * s)
        draw.line([(cx - 9 * s, cy + 6 * s), (cx + 9 * s, cy - 6 * s)], fill=vd.INK, width=2 * s)
    if aboard and not sunk:
        vd.badge(draw, (centre[0] + 12 * s, centre[1] - 7 * s), str(aboard), size=10 * s, fill=vd.PAPER,
                 outline=colour)


def token_glyph(draw: ImageDraw.ImageDraw, centre: vd.Point, colour: vd.RGB, count: int, s: int, *,
                waiting: bool = False) -> float:
    """Population tokens: a disc in the nation's colour with their count; dashed rim
    while they wait at the water's edge."""
    r = 8 * s
    box = (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
    if waiting:
        draw.ellipse(box, fill=vd.mix(colour, vd.PAPER, 0.45))
        for i in range(8):
            draw.arc(box, i * 45, i * 45 + 28, fill=vd.INK, width=s)
    else:
        draw.ellipse(box, fill=colour, outline=vd.INK, width=s)
    vd.text(draw, centre, str(count), size=SMALL * s, fill=vd.text_colour_on(colour), anchor="mm")
    return r


def _row(centre: vd.Point, count: int, step: float) -> list[vd.Point]:
    x0 = centre[0] - step * (count - 1) / 2
    return [(x0 + i * step, centre[1]) for i in range(count)]


def _draw_pieces(image: Image.Image, scene: Scene, state: State, view: vd.PlaneView, placer: vd.LabelPlacer,
                 colours: dict[str, vd.RGB], *, ghosts: bool) -> None:
    s = view.supersample
    draw = ImageDraw.Draw(image)
    areas = {a.name: a for a in scene.map.areas}
    by_area: dict[str, list[ShipState]] = {}
    for ship in state.ships:
        if ship.sunk and not ghosts:
            continue
        by_area.setdefault(ship.at, []).append(ship)
    blockers = {ship.blocked_by for ship in state.ships if ship.blocked_by and not ship.sunk}
    outlines = dict(cells(scene.map))
    fleets: dict[str, list[tuple[ShipState, float, float]]] = {}  # each area's ships where they are drawn
    for name, ships in sorted(by_area.items()):
        shown = [sh for sh in sorted(ships, key=lambda sh: (sh.nation, sh.name)) if sh.name not in blockers]
        anchor = view.px(_ship_anchor(areas[name]))
        x0, _, x1, _ = outlines[name].bounds
        per_row = max(1, min(3, int(view.length(x1 - x0) // (31 * s))))
        rows = (len(shown) - 1) // per_row + 1
        for i, ship in enumerate(shown):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(shown) - row * per_row)
            fleets.setdefault(name, []).append((ship, anchor[0] + (col - (in_row - 1) / 2) * 31 * s,
                                                anchor[1] + (row - (rows - 1) / 2) * 30 * s - (4 * s if rows > 1
                                                                                                else 0)))
    for area in scene.map.areas:
        land = state.land_of(area.name)
        spots = _row(view.px((area.at[0], area.at[1] + 0.12)), len(land), 20 * s)
        for spot, nation in zip(spots, sorted(land)):
            placer.block_circle(spot, token_glyph(draw, spot, colours[nation], land[nation], s))
        waiting = sorted((n, c) for a, n, c in state.landing if a == area.name)
        edge = view.px((area.at[0], area.at[1] - HARBOUR_DEPTH))
        # Waiting tokens stand at the water's edge, or above the ships where a crowd reaches it.
        hulls = [y - (13 if ship.blocked_by else 8) * s for ship, _, y in fleets.get(area.name, ())]
        if hulls and min(hulls) < edge[1] + 8 * s:  # the badge (radius 8) would lie over a hull
            edge = (edge[0], min(hulls) - 9 * s)
        for spot, (nation, count) in zip(_row(edge, len(waiting), 20 * s), waiting):
            placer.block_circle(spot, token_glyph(draw, spot, colours[nation], count, s, waiting=True))
    for fleet in fleets.values():
        rows = len({y for _, _, y in fleet})
        for ship, x, y in fleet:
            ship_glyph(image, (x, y), colours[ship.nation], s, aboard=ship.aboard, turned=ship.blockading,
                       sunk=ship.sunk)
            placer.block_box((x - 13 * s, y - 8 * s, x + 18 * s, y + 8 * s))
            if ship.blocked_by:
                blocker = state.ship(ship.blocked_by)
                ship_glyph(image, (x, y), colours[blocker.nation], s, turned=True, across=True)
                placer.block_box((x - 6 * s, y - 13 * s, x + 6 * s, y + 13 * s))
            words = ship.name + (f"/{ship.blocked_by}" if ship.blocked_by else "")
            if rows > 1:  # crowded: the name sits right under its hull
                vd.text(draw, (x, y + 13 * s), words, size=SMALL * s, anchor="mm", stroke=2 * s,
                        stroke_fill=vd.PAPER)
                placer.block_box(vd.text_box((x, y + 13 * s), words, size=SMALL * s, anchor="mm"))
                continue
            placed = placer.place((x, y), words, size=SMALL * s, stroke=2 * s, clearance=12 * s,
                                  angles=(270, 90, 0, 180, 315, 225, 45, 135), leader_after=2)
            placer.draw(draw, placed, stroke_fill=vd.PAPER, leader_width=s)


def _stop_short(points: list[vd.Point], by: float) -> list[vd.Point]:
    """The path with its head pulled back ``by`` pixels, so a ship drawn at the end does not hide it."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length <= 2 * by:
        return points
    return points[:-1] + [(x1 - (x1 - x0) * by / length, y1 - (y1 - y0) * by / length)]


def _draw_paths(image: Image.Image, scene: Scene, actions: Actions, view: vd.PlaneView, placer: vd.LabelPlacer,
                colours: dict[str, vd.RGB]) -> list[tuple[vd.Point, str, vd.RGB]]:
    """The paths as arrows; returns the words to write along them (+n board, -n drop),
    to be placed once the pieces are down."""
    s = view.supersample
    areas = {a.name: a for a in scene.map.areas}
    draw = ImageDraw.Draw(image)
    n = 0
    notes = []
    for turn in actions.turns:
        for move in turn.moves:
            ship = scene.ship(move.ship)
            stops = [ship.at] + [st.area for i, st in enumerate(move.path) if not (i == 0 and st.area == ship.at)]
            if len(stops) < 2:
                continue
            points = [view.px(_ship_anchor(areas[stops[0]]))] + [view.px(areas[a].at) for a in stops[1:-1]]
            points.append(view.px(_ship_anchor(areas[stops[-1]])))
            points = _stop_short(vd.offset_polyline(points, (n % 3 - 1) * 4 * s), 15 * s)
            vd.arrow(draw, points, fill=colours[turn.nation], width=2 * s, dash=(DASH[0] * s, DASH[1] * s))
            placer.block_line(points, 2 * s)
            n += 1
            at = 0
            for i, stop in enumerate(move.path):
                if not (i == 0 and stop.area == ship.at):
                    at += 1
                words = " ".join(w for w in (f"+{stop.board}" if stop.board else "",
                                             f"-{stop.drop}" if stop.drop else "",
                                             "".join(f"+{c} from {o}" for o, c in stop.take)) if w)
                if words:
                    notes.append((points[min(at, len(points) - 1)], words, colours[turn.nation]))
    return notes


def _view(scene: Scene, count: int) -> vd.PlaneView:
    s = SUPERSAMPLE
    bounds = [cell.bounds for _, cell in cells(scene.map)]
    return vd.fit(bounds, target_px=300 if count <= 3 else 250,
                  margin=0, snap=0, scale_range=(30, 60), supersample=s, pad=(2 * s, 2 * s, 2 * s, 2 * s),
                  budget=vd.panel_budget(count))


def _panel(scene: Scene, actions: Actions, state: State, view: vd.PlaneView, *, paths: bool,
           ghosts: bool) -> Image.Image:
    """One map panel. The wide and the stacked layout of a picture draw the same panels, one
    after the other: the last few are kept, and a copy is handed out."""
    return _drawn_panel(scene, actions, state, view, paths, ghosts).copy()


@functools.lru_cache(maxsize=8)
def _drawn_panel(scene: Scene, actions: Actions, state: State, view: vd.PlaneView, paths: bool,
                 ghosts: bool) -> Image.Image:
    image, _ = vd.backdrop(("civ", scene.map, view, paths), view.size,
                           lambda canvas: _draw_map(canvas, scene.map, view, show_links=paths))
    placer = vd.LabelPlacer(bounds=(0, 0, view.size[0], view.size[1]), gap=2 * view.supersample)
    colours = _colours(scene)
    notes = _draw_paths(image, scene, actions, view, placer, colours) if paths else []
    _draw_pieces(image, scene, state, view, placer, colours, ghosts=ghosts)
    _name_areas(image, scene, view, placer)
    draw = ImageDraw.Draw(image)
    s = view.supersample
    for at, words, colour in notes:
        placed = placer.place(at, words, size=SMALL * s, stroke=2 * s, clearance=6 * s, leader_after=3)
        placer.draw(draw, placed, fill=vd.mix(colour, vd.INK, 0.3), stroke_fill=vd.PAPER, leader_width=s)
    return image


# --- the removal strip ---------------------------------------------------------------------------------

STRIP_COLUMNS = 25  # the most columns (start and steps) a removal strip draws; a longer one is summed up


def removal_strip(scene: Scene, start: State, end: State, area: str, steps: tuple[tuple[str, ...], ...], s: int,
                  heading: str) -> Image.Image:
    """One conflict as a row of steps: for each side, the pieces it has after each step,
    the pieces removed in that step crossed out beneath."""
    colours = _colours(scene)
    owner = {sh.name: sh.nation for sh in start.ships}
    sides: dict[str, int] = {}
    for ship in start.ships:
        if ship.at == area and not ship.sunk:
            sides[ship.nation] = sides.get(ship.nation, 0) + 1

    def side_of(entry: str) -> str:
        return owner.get(entry) or entry.rsplit(" ", 1)[0]

    for step in steps:
        for entry in step:
            sides.setdefault(side_of(entry), 0)
    if any(e.endswith(" token") for st in steps for e in st):  # on land: count back from the end
        sides = {n: c for n, c in end.land_of(area).items()}
        for step in steps:
            for entry in step:
                sides[side_of(entry)] = sides.get(side_of(entry), 0) + 1
    fs, col, row = FONT * s, 58 * s, 22 * s
    names = sorted(sides)
    # A long conflict shows its first and last steps and says how many lie between: one column a step
    # would make a picture as wide as the conflict is long.
    if len(steps) + 1 > STRIP_COLUMNS:
        half = STRIP_COLUMNS // 2
        shown: list[int | None] = [*range(half), None, *range(len(steps) + 1 - half, len(steps) + 1)]
    else:
        shown = list(range(len(steps) + 1))
    slot = {c: i for i, c in enumerate(shown) if c is not None}
    left = max(vd.text_width(n, fs) for n in names) + 12 * s
    width = max(left + col * len(shown) + 8 * s, vd.text_width(heading, fs) + 4 * s)
    height = row * (len(names) + 2) + 8 * s
    image = Image.new("RGB", (width, height), vd.PAPER)
    draw = ImageDraw.Draw(image)
    vd.text(draw, (0, row / 2), heading, size=fs, anchor="lm")
    counts = dict(sides)
    phantom = {n: 0 for n in names}
    if None in shown:
        x = left + col * shown.index(None) + col / 2
        vd.text(draw, (x, row * 1.5), f"{len(steps) + 2 - STRIP_COLUMNS:,} more", size=SMALL * s, fill=vd.MUTED,
                anchor="mm")
        vd.text(draw, (x, row * (len(names) + 2) / 2 + row), "...", size=fs, fill=vd.MUTED, anchor="mm")
    for c in range(len(steps) + 1):
        removed = steps[c - 1] if c else ()
        for entry in removed:
            nation = side_of(entry)
            if entry.endswith(" advantage"):
                phantom[nation] += 1
            else:
                counts[nation] -= 1
        if c not in slot:
            continue
        x = left + col * slot[c] + col / 2
        vd.text(draw, (x, row * 1.5), "start" if c == 0 else f"step {c}", size=SMALL * s, fill=vd.MUTED,
                anchor="mm")
        for r, nation in enumerate(names):
            y = row * (r + 2) + row / 2
            if c == 0:
                vd.text(draw, (0, y), nation, size=fs, fill=vd.INK, anchor="lm")
            hit = [e for e in removed if side_of(e) == nation]
            box = (x - col / 2 + 3 * s, y - row / 2 + 2 * s, x + col / 2 - 3 * s, y + row / 2 - 2 * s)
            draw.rounded_rectangle(box, radius=4 * s, fill=vd.mix(colours[nation], vd.PAPER, 0.25 if hit else 0.8),
                                   outline=vd.INK if hit else vd.GRID, width=s)
            words = str(counts[nation]) + (f" (-{', '.join(hit)})" if hit and len(hit[0]) <= 3 else
                                           (" (adv.)" if hit and hit[0].endswith("advantage") else
                                            (" (-1)" if hit else "")))
            vd.text(draw, (x, y), words, size=SMALL * s, fill=vd.INK, anchor="mm")
    return image


# --- legends and layout ------------------------------------------------------------------------------------


def _key(scene: Scene, s: int, shown: set[str]) -> list[vd.LegendEntry]:
    colours = _colours(scene)
    first = colours[sorted(colours)[0]]

    def swatch(fill: vd.RGB, strip: bool = False):
        def glyph(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
            draw.rectangle(box, fill=fill, outline=vd.MUTED)
            if strip:
                mid = (box[1] + box[3]) / 2 + 2 * s
                draw.rectangle((box[0] + s, mid, box[2] - s, box[3] - s), fill=WATER_FILL)
                draw.line([(box[0] + s, mid), (box[2] - s, mid)], fill=COAST_EDGE, width=2 * s)
        return glyph

    def ship(**kw):
        return lambda draw, box: ship_glyph(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), first, s, **kw)

    def blocked(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        ship_glyph(draw, centre, first, s)
        ship_glyph(draw, centre, colours[sorted(colours)[-1]], s, turned=True, across=True)

    def tokens(waiting: bool):
        return lambda draw, box: token_glyph(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), first, 3, s,
                                             waiting=waiting)

    def path(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        vd.arrow(draw, [(box[0], y), (box[2], y)], fill=first, width=2 * s, dash=(DASH[0] * s, DASH[1] * s))

    def wall(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        draw.line([(box[0], y), (box[2], y)], fill=vd.INK, width=4 * s)

    def link(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        vd.polyline(draw, [(box[0], y), (box[2], y)], fill=vd.INK, width=s, dash=(2 * s, 3 * s))

    entries = [
        vd.LegendEntry(swatch(LAND_FILL, strip=True), "coast", "land with a water portion (blue strip) for ships"),
        vd.LegendEntry(swatch(INLAND_FILL), "inland", "land without a coast"),
        vd.LegendEntry(swatch(WATER_FILL), "water", "coastal water"),
        vd.LegendEntry(swatch(OPEN_SEA_FILL), "open sea", "only with Astronomy; no ship ends there"),
        vd.LegendEntry(ship(aboard=2), "ship", "in its nation's colour; badge: tokens aboard"),
        vd.LegendEntry(ship(turned=True), "blockader", "turned over (option B)"),
        vd.LegendEntry(blocked, "blocked", "its blocker laid across it; label: ship/blocker"),
        vd.LegendEntry(ship(sunk=True), "sunk", "removed in a ship conflict"),
        vd.LegendEntry(tokens(False), "tokens", "population tokens on land, with their count"),
        vd.LegendEntry(tokens(True), "waiting", "tokens landing, at the water's edge (option A)"),
        vd.LegendEntry(path, "path", "a ship's move; +n board, -n drop"),
        vd.LegendEntry(wall, "no passage", "drawn side by side, but the areas do not touch"),
        vd.LegendEntry(link, "link", "dotted: these areas touch, though drawn apart"),
    ]
    entries = [e for e in entries if e.name in shown]
    nations = [vd.LegendEntry(colours[n], n, ", ".join(sorted(scene.nation(n).advances)) or "no advances")
               for n in sorted(colours)]
    return entries + nations


def _shown(scene: Scene, actions: Actions, outcomes: list[Outcome]) -> set[str]:
    """The key's entries this picture needs."""
    kinds = {a.kind for a in scene.map.areas}
    shown = {"ship"} | ({"water"} if "water" in kinds else set())
    # A path is drawn where a ship leaves its area (as _draw_paths draws it).
    shown |= {"path"} if any(any(st.area != scene.ship(m.ship).at for st in m.path)
                             for t in actions.turns for m in t.moves) else set()
    shown |= {"open sea"} if OPEN_SEA in kinds else set()
    shown |= {"coast"} if any(a.coastal_land for a in scene.map.areas) else set()
    shown |= {"inland"} if any(a.kind == LAND and not a.coast for a in scene.map.areas) else set()
    shown |= {"blockader"} if actions.blockade else set()
    shown |= {"tokens"} if scene.tokens else set()
    for outcome in outcomes:
        for b in outcome.after.branches:
            shown |= {"blocked"} if any(sh.blocked_by for sh in b.state.ships) else set()
            shown |= {"sunk"} if any(sh.sunk for sh in b.state.ships) else set()
            shown |= {"waiting"} if b.moved.landing else set()
            shown |= {"tokens"} if b.state.land else set()
    for _, _, border, touching, _ in borders(scene.map):
        shown |= {"no passage"} if border > 0.05 and not touching else set()
        shown |= {"link"} if border <= 0.05 and touching else set()
    return shown


def _happened(outcome: Outcome, number: int) -> list[str]:
    from . import event_text
    skip = {"remove", "board", "wade"}
    detailed = {"within-limit", "no-board"}  # the counts are the point of these
    return [event_text(e.kind, e.pieces) + (f" ({e.detail})" if e.kind in detailed and e.detail else "")
            for e in outcome.events if e.round == number and e.kind not in skip]


def _differs(moved: State, start: State) -> bool:
    return (moved.landing != () or moved.land != start.land
            or any((a.at, a.aboard, a.blocked_by) != (b.at, b.aboard, b.blocked_by)
                   for a, b in zip(moved.ships, start.ships)))


def draw_panels(scene: Scene, actions: Actions, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, supersample: int = SUPERSAMPLE, stacked: bool = False) -> Image.Image:
    """The panels side by side (or, ``stacked``, one under another for a narrow screen):
    before the phase, after the movement, and the end of each branch of each outcome;
    then the key, the removal strips and what happened."""
    s, fs = supersample, FONT * supersample
    start = State(tuple(ShipState(sh.name, sh.nation, sh.at, sh.aboard, sh.name in actions.blockade)
                        for sh in sorted(scene.ships, key=lambda x: x.name)), tuple(sorted(scene.tokens)))
    plan: list[tuple[str, State, bool, bool]] = []  # (title, state, paths, ghosts)
    strips = []
    stories = []
    for name, outcome in panels:
        if outcome is None:
            plan.append((name, start, True, False))
            continue
        branches = outcome.after.branches
        moved = {b.moved for b in branches}
        several = len(branches) > 1
        # "After" (or "After: what happened", the narrow layout's) names the end itself; a reading's
        # name ("after, ends=first-out") is put before each of its panels.
        plain = name.lower() in ("after", "") or name.lower().startswith("after:")
        prefix = "" if plain else f"{name}: "
        if len(moved) == 1 and branches[0].moved != branches[0].state and _differs(branches[0].moved, start):
            plan.append((f"{prefix}after the movement" if prefix else "After the movement", branches[0].moved, False,
                         False))
        for number, branch in enumerate(branches, 1):
            words = label_text(branch.choices) if several else ""
            if len(moved) > 1 and branch.moved != branch.state:
                plan.append((f"{prefix}moved ({words})", branch.moved, False, False))
            # Without a prefix the panels read as in every ruleset: Before, (After the movement,) After.
            end = f"{prefix}end" if prefix else ("At the end" if "After the movement" in (t for t, *_ in plan)
                                                 else name or "After")
            plan.append((end + (f" ({words})" if words else ""), branch.state, False, True))
            for area, steps in branch.state.removals:
                same = all(dict(b.state.removals).get(area) == steps for b in branches)
                if same and number > 1:
                    continue
                at_sea = tuple(st_ for st_ in steps if not any(e.endswith(" token") for e in st_))
                on_land = tuple(st_ for st_ in steps if any(e.endswith(" token") for e in st_))
                for part, where in ((at_sea, "at sea"), (on_land, "on land")):
                    if not part:
                        continue
                    limit = f" (population limit {scene.map.area(area).limit})" if where == "on land" else ""
                    heading = f"Removals {where} in {area}{limit}" + (f" ({words})" if words and not same else "") + (
                        f", {name}" if len(panels) > 2 else "")
                    strips.append(removal_strip(scene, branch.moved, branch.state, area, part, s, heading))
            said = ([outcome.refusal.what_happened()] if outcome.refusal is not None
                    else _happened(outcome, number if several else 1))
            stories.append((f"What happened{f' ({words})' if words else ''}{f', {name}' if len(panels) > 2 else ''}",
                            said, outcome.refusal is not None))
    view = _view(scene, len(plan))
    images = [(t, _panel(scene, actions, state, view, paths=paths, ghosts=ghosts)) for t, state, paths, ghosts in plan]
    shown = _shown(scene, actions, [o for _, o in panels if o is not None])
    legends = [vd.legend(_key(scene, s, shown), size=fs, padding=0, heading="Key", max_width=vd.LEGEND_WIDTH * s)]
    legends += strips
    for heading, said, refused in stories:
        entries = [vd.LegendEntry(None, "" if refused else f"{i}.", words) for i, words in enumerate(said, 1)]
        legends.append(vd.legend(entries or [vd.LegendEntry(None, "nothing contested")], size=fs, padding=0,
                                 heading=heading, max_width=vd.LEGEND_WIDTH * s, glyph_width=0))
    readings = {", ".join(f"{k}={v}" for k, v in o.reading.items()) for _, o in panels if o is not None}
    options = "options " + " and ".join(sorted(scene.options)) if scene.options else "base rules only"
    subtitle = options + (f"; reading: {readings.pop()}" if len(readings) == 1 else "")
    if stacked:
        width = max([img.width for _, img in images] + [lg.width for lg in legends])
        return vd.stacked(title or "Civ", subtitle, images, legends, width=width, size=fs,
                          title_size=round(FONT * 1.15) * s, supersample=s)
    beside = vd.legend_beside(images, gap=2 * fs, legend_width=vd.LEGEND_WIDTH * s, max_width=vd.MAX_WIDTH * s)
    image = vd.compose(images, legends, beside=beside, title=title or "Civ", subtitle=subtitle,
                       size=round(FONT * 1.15) * s, gap=2 * fs, margin=fs, supersample=s)
    return image


def draw_case(scene: Scene, actions: Actions, outcome: Outcome, *, title: str | None = None,
              **options: Any) -> Image.Image:
    return draw_panels(scene, actions, [("Before", None), ("After", outcome)], title=title, **options)
