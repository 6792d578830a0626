"""Pictures of armada cases, to scale, made of drawing-kit parts: the play area in
millimetres, bases as rotated rectangles with the front drawn thick, the tool as
it was inserted, the start and every given-up placement as ghosts, overlaps
shaded, damage cards as numbered stars, the range to the closest ship as a dotted
line, and destroyed ships crossed out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw
from shapely import ops
from shapely.geometry import box as shapely_box

from ...kit import draw as vd
from ...kit.geometry import Pose, circle
from ...kit.words import count
from ...ruleset import Outcome
from .model import Maneuver, Maneuvers, Move, Result, Scene, Ship
from .resolver import base_at, tool_of
from .tool import centreline, inserted, tool_shape

FONT = 12
SUPERSAMPLE = 2
DASH = (6, 4)
OVERLAP = vd.OKABE_ITO["vermillion"]
TOOL = (150, 150, 150)
OBSTACLE = (120, 120, 120)
OUTSIDE = (232, 232, 232)


def _colours(scene: Scene) -> dict[str, vd.RGB]:
    return {s.name: vd.piece_colour(i) for i, s in enumerate(sorted(scene.ships, key=lambda s: s.name))}


def _result(outcome: Outcome | None, scene: Scene) -> Result:
    if outcome is None:
        return Result(tuple(sorted(scene.ships, key=lambda s: s.name)), ())
    return outcome.after


def _world_boxes(scene: Scene, results: Sequence[Result], tool_model, maneuvers: Maneuvers = ()) -> list[vd.Box]:
    boxes: list[vd.Box] = []
    for ship in scene.ships:
        boxes.append(ship.base.bounds)
    for plan in _planned(maneuvers):  # the "before" panel draws each planned course
        pose = inserted(scene.ship(plan.ship), tool_model, plan.side or "starboard", plan.course)
        boxes.append(tool_shape(tool_model, pose).bounds)
    for result in results:
        for ship in result.ships:
            boxes.append(ship.base.bounds)
        for move in result.moves:
            ship = scene.ship(move.ship)
            for attempt in move.attempts:
                boxes.append(base_at(ship, attempt.pose).bounds)
            if move.tool is not None:
                boxes.append(tool_shape(tool_model, move.tool).bounds)
            if move.alternative is not None:
                boxes.append(base_at(ship, move.alternative.end).bounds)
    for q in scene.squadrons:
        boxes.append(vd.circle_box(q.at, q.radius))
    for o in scene.obstacles:
        boxes.append(o.shape.bounds)
    return boxes


def _planned(maneuvers: Maneuvers) -> list[Maneuver]:
    """The first maneuver of each ship that moves: the course the "before" panel draws."""
    planned: dict[str, Maneuver] = {}
    for plan in maneuvers:
        if plan.ship not in planned and plan.speed != 0:
            planned[plan.ship] = plan
    return list(planned.values())


def make_view(scene: Scene, results: Sequence[Result], tool_model, *, target_px: float = 420,
              supersample: int = SUPERSAMPLE, panels: int = 1, maneuvers: Maneuvers = ()) -> vd.PlaneView:
    s = supersample
    boxes = _world_boxes(scene, results, tool_model, maneuvers)
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y0 = min(b[1] for b in boxes)
    y1 = max(b[3] for b in boxes)
    span = max(x1 - x0, y1 - y0)
    # Show the whole play area when the pieces spread over much of it; else a window around them.
    if span > 0.6 * max(scene.width, scene.height):
        boxes.append((0.0, 0.0, scene.width, scene.height))
    return vd.fit(boxes, target_px=target_px, margin=25.0, snap=50.0, scale_range=(0.3, 4.0), whole_scale=False,
                  supersample=s, pad=(0, 6 * s, 10 * s, 0), tick_size=10 * s, budget=vd.panel_budget(panels))


def _area(image: Image.Image, draw: ImageDraw.ImageDraw, scene: Scene, view: vd.PlaneView) -> vd.Point | None:
    """The grid, the world outside the play area greyed, and the play area's edge. Returns a
    point inside the biggest grey part, for its words (None if none is shown)."""
    s = view.supersample
    vd.grid(draw, view, step=50.0, label_step=100.0 if view.scale / s >= 0.35 else 200.0, size=10 * s, width=s,
            unit="mm")
    window = shapely_box(view.x0, view.y0, view.x1, view.y1)
    outside = window.difference(shapely_box(0, 0, scene.width, scene.height))
    for part in getattr(outside, "geoms", [outside]):
        if not part.is_empty:
            vd.polygon(image, part, fill=OUTSIDE, alpha=200, view=view)
    corners = [(0, 0), (scene.width, 0), (scene.width, scene.height), (0, scene.height)]
    vd.polygon(image, corners, outline=vd.EDGE, width=2 * s, view=view)
    parts = [p for p in getattr(outside, "geoms", [outside]) if not p.is_empty and p.area > 0]
    if not parts:
        return None
    biggest = max(parts, key=lambda p: p.area)
    if min(view.length(biggest.bounds[2] - biggest.bounds[0]), view.length(biggest.bounds[3] - biggest.bounds[1])) \
            < 14 * s:
        return None
    inside = biggest.representative_point()
    return view.px((inside.x, inside.y))


def _base(image: Image.Image, ship: Ship, pose: Pose, view: vd.PlaneView, colour: vd.RGB, *, ghost: int = 0,
          dash: bool = False) -> list[vd.Point]:
    """A base: filled in its colour (faint for a ghost), the front edge thick."""
    s = view.supersample
    width, length = ship.size
    alpha = (255, 70, 40)[ghost]
    outline = vd.INK if not ghost else vd.mix(colour, amount=0.3 if ghost == 1 else 0.55)
    corners = vd.rect(image, (pose.x, pose.y), width, length, pose.heading, fill=colour, alpha=alpha,
                      outline=outline, line=s, dash=(DASH[0] * s, DASH[1] * s) if dash else None, view=view)
    draw = ImageDraw.Draw(image)
    draw.line([corners[0], corners[1]], fill=outline, width=(3 if not ghost else 2) * s)
    return corners


def _tool(image: Image.Image, move: Move, view: vd.PlaneView, tool_model, placer: vd.LabelPlacer,
          clicks: Sequence[int], yaw: bool, badges: list[tuple[vd.Point, str]]) -> None:
    """The tool, piece by piece; the click badges of its joints go to ``badges``, drawn last."""
    s = view.supersample
    if move.tool is None:
        return
    shape = tool_shape(tool_model, move.tool)
    vd.polygon(image, shape, fill=TOOL, alpha=110, outline=vd.mix(vd.INK, amount=0.45), width=s, view=view)
    line = view.pts(centreline(move.tool))
    vd.polyline(image, line, fill=vd.mix(vd.INK, amount=0.3), width=s)
    placer.block_polygon(view.pts(vd.points_of(shape)))
    joints = move.tool.joints[1:-1] if not yaw else move.tool.joints[1:2]
    marks = clicks if not yaw else clicks[-1:]
    for joint, n in zip(joints, marks):
        centre = view.px((joint.x, joint.y))
        badges.append((centre, "0" if n == 0 else f"{abs(n)}{'R' if n > 0 else 'L'}"))


def _cross(draw: ImageDraw.ImageDraw, corners: Sequence[vd.Point], s: int) -> None:
    draw.line([corners[0], corners[2]], fill=OVERLAP, width=3 * s)
    draw.line([corners[1], corners[3]], fill=OVERLAP, width=3 * s)


def _shade(image: Image.Image, a, b, view: vd.PlaneView) -> bool:
    """Shades where ``a`` and ``b`` overlap; whether there was anything to shade."""
    common = a.intersection(b)
    shaded = False
    for part in getattr(common, "geoms", [common]):
        if part.geom_type == "Polygon" and not part.is_empty and part.area > 0:
            vd.polygon(image, part, fill=OVERLAP, alpha=170, outline=OVERLAP, width=view.supersample, view=view)
            shaded = True
    return shaded


def _panel(scene: Scene, maneuvers: Maneuvers, outcome: Outcome | None, view: vd.PlaneView,
           marks: list[tuple[vd.Point, str]], tool_model, drawn: dict[str, vd.RGB]) -> Image.Image:
    """One panel; each kind of mark it draws goes into ``drawn`` with the colour it is drawn in
    (the first one wins), so that the key lists only what the picture shows."""
    s = view.supersample
    image, outside = vd.backdrop(("armada", scene.width, scene.height, view), view.size,
                                 lambda canvas: _area(canvas, ImageDraw.Draw(canvas), scene, view))
    draw = ImageDraw.Draw(image)
    placer = vd.LabelPlacer(bounds=view.area, gap=2 * s)
    colour = _colours(scene)
    result = _result(outcome, scene)
    for o in scene.obstacles:
        pts = vd.polygon(image, o.shape, fill=OBSTACLE, alpha=90, outline=OBSTACLE, width=s, view=view)
        placer.block_polygon(pts)
    for q in scene.squadrons:
        centre, r = vd.circle(image, q.at, q.radius, fill=vd.mix(vd.MUTED, amount=0.7), outline=vd.INK, width=s,
                              view=view)
        placer.block_circle(centre, r)
    labels: list[tuple[vd.Point, str, float]] = []
    shading: list[tuple[Any, Any]] = []
    badges: list[tuple[vd.Point, str]] = []
    for q in scene.squadrons:
        labels.append((view.px(q.at), q.name, view.length(q.radius)))
    for o in scene.obstacles:
        c = o.shape.centroid
        labels.append((view.px((c.x, c.y)), o.name, 0.0))
    if outcome is None:
        for plan in _planned(maneuvers):
            pose = inserted(scene.ship(plan.ship), tool_model, plan.side or "starboard", plan.course)
            pts = vd.polygon(image, tool_shape(tool_model, pose), outline=vd.MUTED, width=s,
                             dash=(DASH[0] * s, DASH[1] * s), view=view)
            placer.block_polygon(pts)
            drawn.setdefault("course", vd.MUTED)
    if outcome is not None:
        for n, move in enumerate(result.moves):
            ship = scene.ship(move.ship)
            maneuver = maneuvers[n] if n < len(maneuvers) else None
            _base(image, ship, move.start, view, colour[ship.name], ghost=2, dash=True)
            drawn.setdefault("start", colour[ship.name])
            if move.tool is not None:
                drawn.setdefault("tool", TOOL)
            clicks = maneuver.course if maneuver is not None else ()
            if maneuver is not None and maneuver.yaw:
                clicks = (maneuver.yaw,)
            _tool(image, move, view, tool_model, placer, clicks, bool(maneuver is not None and maneuver.yaw), badges)
            final_base = base_at(ship, move.end)
            for attempt in move.attempts:
                if attempt.pose == move.end:
                    shading += [(final_base, _ship_before(result, scene, other, n).base) for other in attempt.ships]
                    continue
                corners = _base(image, ship, attempt.pose, view, colour[ship.name], ghost=1, dash=True)
                drawn.setdefault("given up", colour[ship.name])
                attempt_base = base_at(ship, attempt.pose)
                for other in attempt.ships:
                    shading.append((attempt_base, _ship_before(result, scene, other, n).base))
                cx = sum(p[0] for p in corners) / 4
                cy = sum(p[1] for p in corners) / 4
                labels.append(((cx, cy), f"speed {attempt.speed}" if move.speed != attempt.speed or not move.yaw_back
                               else "yaw", 0.0))
            if move.alternative is not None:
                alt = move.alternative
                _tool(image, alt, view, tool_model, placer, clicks, False, badges)
                corners = _base(image, ship, alt.end, view, colour[ship.name], ghost=1)
                cx = sum(p[0] for p in corners) / 4
                cy = sum(p[1] for p in corners) / 4
                labels.append(((cx, cy), f"or {alt.side}", 0.0))
            if move.tool is not None and move.speed > 0 and any(a.tool for a in move.attempts if a.pose == move.end):
                shading.append((final_base, tool_shape(tool_model, move.tool)))
            for name in move.obstacles:
                shading.append((final_base, next(o for o in scene.obstacles if o.name == name).shape))
            for name in move.squadrons:
                q = next(q for q in scene.squadrons if q.name == name)
                shading.append((final_base, circle(q.at, q.radius)))
    for ship in result.ships:
        corners = _base(image, ship, ship.pose, view, colour[ship.name])
        drawn.setdefault("base", colour[ship.name])
        placer.block_polygon(corners)
        if ship.destroyed:
            _cross(draw, corners, s)
            drawn.setdefault("destroyed", OVERLAP)
        labels.insert(0, (view.px((ship.pose.x, ship.pose.y)), ship.name, view.length(min(ship.size) / 2)))
    for a, b in shading:
        if _shade(image, a, b, view):
            drawn.setdefault("overlap", OVERLAP)
    for centre, label in badges:
        placer.block_circle(centre, vd.badge(image, centre, label, size=10 * s, fill=vd.PAPER, outline=vd.MUTED,
                                             width=s))
    if outcome is not None:
        for move in result.moves:
            ship = scene.ship(move.ship)
            for name, reach in move.distances:  # every range measured; the closest one dark
                a, b = ops.nearest_points(base_at(ship, move.end), result.ship(name).base)
                ends = view.pts([(a.x, a.y), (b.x, b.y)])
                dark = name in move.closest
                vd.polyline(image, ends, fill=vd.INK if dark else vd.MUTED, width=(2 if dark else 1) * s,
                            dash=(2 * s, 3 * s))
                placer.block_line(ends, 2 * s)
                drawn.setdefault("range", vd.INK)
                if len(move.distances) > 1:
                    labels.append((((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2),
                                   f"{reach:.1f} mm", 0.0))
    for n, (at, _) in enumerate(marks, 1):
        vd.starburst(draw, at, 10 * s, width=s, label=str(n), label_size=10 * s)
        placer.block_circle(at, 10 * s)
    if outside is not None:
        labels.append((outside, "outside the play area", 0.0))
    for anchor, name, clearance in labels:
        placed = placer.place(anchor, name, size=FONT * s if clearance else 10 * s, stroke=2 * s,
                              clearance=clearance, on_anchor=not clearance)
        placer.draw(draw, placed, stroke_fill=vd.PLANE, leader_width=s)
    return image


def _ship_before(result: Result, scene: Scene, name: str, index: int) -> Ship:
    """Where ``name`` stood when maneuver ``index`` was made."""
    pose = scene.ship(name).pose
    for move in result.moves[:index]:
        if move.ship == name:
            pose = move.end
    return scene.ship(name).at(pose)


def _marks(scene: Scene, outcome: Outcome, view: vd.PlaneView) -> list[tuple[vd.Point, str]]:
    """A numbered star for each damage card and each destroyed ship, on the ship; several on one
    ship stand side by side. (What happened without a place on the ship is in ``_notes``.)"""
    from . import event_text
    result: Result = outcome.after
    where = {s.name: s.pose for s in result.ships}
    out = []
    seen: dict[str, int] = {}
    for e in outcome.events:
        if e.kind not in ("damage", "destroyed"):
            continue
        pose = where[e.pieces[0]]
        x, y = view.px((pose.x, pose.y))
        k = seen.get(e.pieces[0], 0)
        seen[e.pieces[0]] = k + 1
        out.append(((x + 22 * view.supersample * k, y), event_text(e.kind, e.pieces)))
    return out


def _notes(outcome: Outcome) -> list[str]:
    from . import event_text
    notes = [event_text(e.kind, e.pieces) for e in outcome.events
             if e.kind in ("obstacle", "squadron", "switch", "tool-both", "yaw-back", "open-side", "still")]
    if any(m.alternative is not None for m in outcome.after.moves):
        notes.append("both choices are drawn: port solid, starboard faint ('or starboard')")
    return notes


def _key(s: int, drawn: dict[str, vd.RGB]) -> list[vd.LegendEntry]:
    """The key: one row for each kind of mark in ``drawn``, its swatch drawn as the picture
    draws that mark (the same colour, see-through amount and dashes)."""
    def swatch(box: vd.Box) -> vd.Box:
        y = (box[1] + box[3]) / 2
        return (box[0] + 4 * s, y - 5 * s, box[2] - 4 * s, y + 5 * s)

    def base(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        left, top, right, bottom = swatch(box)
        draw.rectangle((left, top, right, bottom), fill=drawn["base"], outline=vd.INK, width=s)
        draw.line([(right, top), (right, bottom)], fill=vd.INK, width=3 * s)

    def tool(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        draw.rectangle((box[0], y - 3 * s, box[2], y + 3 * s), fill=vd.mix(TOOL, vd.PLANE, 1 - 110 / 255),
                       outline=vd.mix(vd.INK, amount=0.45), width=s)

    def ghost(kind: str, alpha: int, edge: float) -> vd.Glyph:
        def glyph(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
            left, top, right, bottom = swatch(box)
            corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
            draw.polygon(corners, fill=vd.mix(drawn[kind], vd.PLANE, 1 - alpha / 255))
            vd.polygon(draw, corners, outline=vd.mix(drawn[kind], amount=edge), width=s,
                       dash=(DASH[0] * s, DASH[1] * s))
        return glyph

    def shade(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        draw.rectangle(swatch(box), fill=vd.mix(OVERLAP, vd.PLANE, 1 - 170 / 255))

    def cross(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        left, top, right, bottom = swatch(box)
        draw.line([(left, top), (right, bottom)], fill=OVERLAP, width=3 * s)
        draw.line([(left, bottom), (right, top)], fill=OVERLAP, width=3 * s)

    def line(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        vd.polyline(draw, [(box[0], y), (box[2], y)], fill=vd.INK, width=2 * s, dash=(2 * s, 3 * s))

    def plan(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        corners = [(box[0], y - 3 * s), (box[2], y - 3 * s), (box[2], y + 3 * s), (box[0], y + 3 * s)]
        vd.polygon(draw, corners, outline=vd.MUTED, width=s, dash=(DASH[0] * s, DASH[1] * s))

    rows: list[tuple[str, vd.Glyph, str, str]] = [
        ("base", base, "base", "a ship's base, in its own colour; the thick edge is its front"),
        ("course", plan, "course", "where the maneuver tool will be inserted"),
        ("tool", tool, "tool", "the maneuver tool as inserted; clicks at each joint (R, L)"),
        ("start", ghost("start", 40, 0.55), "start", "faint, dashed: where the ship started"),
        ("given up", ghost("given up", 70, 0.3), "given up", "dashed and labelled: a placement given up"),
        ("overlap", shade, "overlap", "where a placement overlaps a ship, the tool or an obstacle"),
        ("destroyed", cross, "destroyed", "a ship destroyed"),
        ("range", line, "range", "measured to each ship it overlapped; the closest dark"),
    ]
    return [vd.LegendEntry(glyph, name, words) for kind, glyph, name, words in rows if kind in drawn]


def draw_panels(scene: Scene, maneuvers: Maneuvers, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, supersample: int = SUPERSAMPLE) -> Image.Image:
    s, fs = supersample, FONT * supersample
    outcomes = [(name, o) for name, o in panels if o is not None]
    reading = outcomes[0][1].reading if outcomes else None
    tool_model = tool_of(scene, reading or {"tool": "model-a"})
    view = make_view(scene, [o.after for _, o in outcomes], tool_model, target_px=420 if len(panels) <= 2 else 320,
                     supersample=s, panels=len(panels),
                     maneuvers=maneuvers if any(outcome is None for _, outcome in panels) else ())
    images = []
    drawn: dict[str, vd.RGB] = {}
    legends: list[Image.Image] = []
    for name, outcome in panels:
        marks = _marks(scene, outcome, view) if outcome is not None else []
        images.append((name, _panel(scene, maneuvers, outcome, view, marks, tool_model, drawn)))
        if outcome is None:
            continue
        entries = [vd.LegendEntry(_star(s, str(n)), "", words) for n, (_, words) in enumerate(marks, 1)]
        entries += [vd.LegendEntry(None, "", words) for words in _notes(outcome)]
        if outcome.refusal is not None:
            entries = [vd.LegendEntry(None, "", outcome.refusal.what_happened())]
        heading = "What happened" + (f" ({name})" if len(outcomes) > 1 else "")
        legends.append(vd.legend(entries or [vd.LegendEntry(None, "", "no overlap, no damage")], size=fs, padding=0,
                                 heading=heading, max_width=vd.LEGEND_WIDTH * s))
    plan = vd.legend([vd.LegendEntry(None, "", _plan_text(scene, m)) for m in maneuvers], size=fs, padding=0,
                     heading="Maneuvers", max_width=vd.LEGEND_WIDTH * s)
    legends.insert(0, plan)
    legends.insert(0, vd.legend(_key(s, drawn), size=fs, padding=0, heading="Key", max_width=vd.LEGEND_WIDTH * s))
    beside = vd.legend_beside(images, gap=2 * fs, legend_width=vd.LEGEND_WIDTH * s, max_width=vd.MAX_WIDTH * s)
    readings = {", ".join(f"{k}={v}" for k, v in o.reading.items() if not (k == "tool" and scene.tool is not None))
                for _, o in outcomes}
    subtitle = f"reading: {readings.pop()}" if len(readings) == 1 else None
    if scene.tool is not None and subtitle:
        subtitle += f" (the case's own tool: {scene.tool.step:g} mm a speed)"
    image = vd.compose(images, legends, beside=beside, title=title or "Armada", subtitle=subtitle,
                       size=round(FONT * 1.15) * s, gap=2 * fs, margin=fs, supersample=s)
    return image


def _star(s: int, label: str) -> vd.Glyph:
    def glyph(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        vd.starburst(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 10 * s, width=s, label=label,
                     label_size=10 * s)
    return glyph


def _plan_text(scene: Scene, maneuver) -> str:
    ship = scene.ship(maneuver.ship)
    if maneuver.speed == 0:
        if maneuver.yaw:
            way = "starboard" if maneuver.yaw > 0 else "port"
            return f"{ship.name} ({ship.type.name}): speed 0, yaw {count(abs(maneuver.yaw), 'click')} to {way}"
        return f"{ship.name} ({ship.type.name}): speed 0"
    clicks = " ".join("0" if c == 0 else f"{abs(c)}{'R' if c > 0 else 'L'}" for c in maneuver.course)
    extra = [maneuver.side and f"tool {maneuver.side}" or "side open",
             "navigate" if maneuver.navigate else "", "additional" if maneuver.additional else ""]
    return f"{ship.name} ({ship.type.name}): speed {maneuver.speed}, clicks {clicks}; " + ", ".join(
        e for e in extra if e)


def draw_case(scene: Scene, maneuvers: Maneuvers, outcome: Outcome, *, title: str | None = None,
              **options: Any) -> Image.Image:
    return draw_panels(scene, maneuvers, [("Before", None), ("After", outcome)], title=title, **options)
