"""Pictures of discs cases, made only of drawing-kit parts (``verifier.kit.draw``):
a plane view of the table, north up, one panel before and one after each outcome,
numbered stars where a disc was stopped, and a legend where the kit's rule puts it."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from verifier.kit import draw as vd
from verifier.ruleset import Outcome

from .model import XY, Scene, Slides
from .resolver import ahead, first_contact

FONT = 12  # pixels, before supersampling
SUPERSAMPLE = 2
DASH = (6, 4)


def _towards(a: XY, b: XY, share: float) -> XY:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def _slid(outcome: Outcome) -> Scene:
    """Where the discs stood when the slides ended, before a clash sent any back (an
    answer read from JSON has no frames: then where they ended)."""
    return outcome.frames[1].state if len(outcome.frames) > 1 else outcome.after


def _marks(scene: Scene, slides: Slides, outcome: Outcome) -> list[tuple[XY, str, str]]:
    """(point, kind, words) for everything that happened: where the rims met, where a
    rim reached the edge, where two discs would have ended overlapping."""
    from . import event_text
    plans, slid, marks = dict(slides), {d.name: d for d in _slid(outcome).discs}, []
    for e in outcome.events:
        mover = scene.disc(e.pieces[0])
        if e.kind in ("block", "graze") and mover.name in plans:
            other = scene.disc(e.pieces[1])
            _, far = first_contact(mover, plans[mover.name].heading, plans[mover.name].distance, other)
            at = _towards(ahead(mover.at, plans[mover.name].heading, far), other.at,
                          mover.radius / (mover.radius + other.radius))
        elif e.kind == "edge":  # the point of the rim nearest the table's edge
            (x, y), r = slid[mover.name].at, mover.radius
            at = min([(x - r, (x - r, y)), (scene.width - x - r, (x + r, y)), (y - r, (x, y - r)),
                      (scene.height - y - r, (x, y + r))])[1]
        elif e.kind == "clash":
            at = _towards(slid[e.pieces[0]].at, slid[e.pieces[1]].at, 0.5)
        else:
            continue
        marks.append((at, e.kind, event_text(e.kind, e.pieces)))
    return marks


def _mark(draw: ImageDraw.ImageDraw, centre: vd.Point, kind: str, s: int, label: str = "") -> float:
    """A star where something stopped a disc, a ring where a path only brushed one."""
    if kind == "graze":
        draw.ellipse((centre[0] - 7 * s, centre[1] - 7 * s, centre[0] + 7 * s, centre[1] + 7 * s), fill=vd.PAPER,
                     outline=vd.MARK_EDGE, width=2 * s)
        vd.text(draw, centre, label, size=9 * s, anchor="mm")
        return 7 * s
    vd.starburst(draw, centre, 11 * s, width=s, label=label, label_size=10 * s)
    return 11 * s


def _glyph(kind: str, s: int, label: str = "") -> vd.Glyph:
    """The mark as a legend glyph."""
    return lambda draw, box: _mark(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), kind, s, label)


def _panel(scene: Scene, slides: Slides, outcome: Outcome | None, view: vd.PlaneView) -> Image.Image:
    s = view.supersample
    dash = (DASH[0] * s, DASH[1] * s)
    image = Image.new("RGB", view.size, vd.PAPER)
    draw = ImageDraw.Draw(image)
    vd.grid(draw, view, step=1.0, size=10 * s, width=s)
    placer = vd.LabelPlacer(bounds=view.area, gap=2 * s)
    colour = {d.name: vd.piece_colour(i) for i, d in enumerate(sorted(scene.discs, key=lambda d: d.name))}
    plans = dict(slides)
    shown = scene.discs if outcome is None else outcome.after.discs
    ends = {d.name: d.at for d in shown}
    slid = {d.name: d.at for d in _slid(outcome).discs} if outcome is not None else ends
    for d in scene.discs:
        if outcome is None and d.name in plans:  # where the slide would end, if nothing stopped it
            vd.circle(image, ahead(d.at, plans[d.name].heading, plans[d.name].distance), d.radius,
                      outline=colour[d.name], width=s, dash=dash, view=view)
        elif outcome is not None:  # a ghost where it started, and its track
            vd.circle(image, d.at, d.radius, fill=colour[d.name], alpha=50, outline=vd.mix(colour[d.name]),
                      width=s, dash=dash, view=view)
            if slid[d.name] != ends[d.name]:  # sent back: where it would have ended
                vd.circle(image, slid[d.name], d.radius, outline=colour[d.name], width=s, dash=dash, view=view)
                vd.polyline(image, [d.at, slid[d.name]], fill=colour[d.name], width=2 * s, dash=dash, view=view)
            vd.polyline(image, [d.at, ends[d.name]], fill=colour[d.name], width=2 * s, view=view)
            placer.block_line(view.pts([d.at, ends[d.name]]), 2 * s)
    for d in shown:
        centre, radius = vd.circle(image, d.at, d.radius, fill=colour[d.name], outline=vd.INK, width=s, view=view)
        placer.block_circle(centre, radius)
    for name, plan in slides if outcome is None else ():  # the plans go on top, from the rim on
        d = scene.disc(name)
        path = view.pts([ahead(d.at, plan.heading, min(d.radius, plan.distance)),
                         ahead(d.at, plan.heading, plan.distance)])
        vd.arrow(image, path, fill=vd.INK, width=2 * s, dash=dash)
        placer.block_line(path, 2 * s)
    for n, (at, kind, _) in enumerate(_marks(scene, slides, outcome) if outcome is not None else (), 1):
        placer.block_circle(view.px(at), _mark(draw, view.px(at), kind, s, str(n)))
    for d in shown:
        placed = placer.place(view.px(d.at), d.name, size=FONT * s, stroke=2 * s, clearance=view.length(d.radius))
        placer.draw(draw, placed, stroke_fill=vd.PLANE, leader_width=s)
    return image


def _key(s: int, kinds: set[str]) -> list[vd.LegendEntry]:
    def plan(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y = (box[1] + box[3]) / 2
        vd.arrow(draw, [(box[0], y), (box[2] - 6 * s, y)], fill=vd.INK, width=2 * s, dash=(DASH[0] * s, DASH[1] * s))

    def track(draw: ImageDraw.ImageDraw, box: vd.Box) -> None:
        y, r = (box[1] + box[3]) / 2, 5 * s
        draw.line([(box[0] + r, y), (box[2] - r, y)], fill=vd.MUTED, width=2 * s)
        draw.ellipse((box[0], y - r, box[0] + 2 * r, y + r), fill=vd.mix(vd.MUTED, amount=0.8))
        draw.ellipse((box[2] - 2 * r, y - r, box[2], y + r), fill=vd.MUTED, outline=vd.INK, width=s)

    entries = [vd.LegendEntry(plan, "slide", "where a disc means to go (dashed ring: if nothing stops it)"),
               vd.LegendEntry(track, "track", "from where a disc started (faint) to where it ended")]
    if kinds - {"graze"}:
        entries.append(vd.LegendEntry(_glyph("block", s), "stop", "a disc ran into a disc or the edge, or two clashed"))
    if "graze" in kinds:
        entries.append(vd.LegendEntry(_glyph("graze", s), "touch", "a path touched a disc without overlapping it"))
    return entries


def draw_panels(scene: Scene, slides: Slides, panels: Sequence[tuple[str, Outcome | None]], *,
                title: str | None = None, supersample: int = SUPERSAMPLE) -> Image.Image:
    """Panels side by side over one view of the table: a panel with no outcome is the
    scene before, the others one outcome each; then the key and what happened."""
    s, fs = supersample, FONT * supersample
    view = vd.fit([(0.0, 0.0, scene.width, scene.height)], target_px=340 if len(panels) <= 2 else 260, margin=0,
                  scale_range=(16, 60), supersample=s, pad=(0, 6 * s, 10 * s, 0), tick_size=10 * s)
    images = [(name, _panel(scene, slides, outcome, view)) for name, outcome in panels]
    outcomes = [(name, o) for name, o in panels if o is not None]
    marks = {name: _marks(scene, slides, o) for name, o in outcomes}
    kinds = {kind for found in marks.values() for _, kind, _ in found}
    legends = [vd.legend(_key(s, kinds), size=fs, padding=0, heading="Key", max_width=vd.LEGEND_WIDTH * s)]
    for name, found in marks.items():
        entries = [vd.LegendEntry(_glyph(kind, s, str(n)), words) for n, (_, kind, words) in enumerate(found, 1)]
        heading = "What happened" + (f" ({name})" if len(outcomes) > 1 else "")
        legends.append(vd.legend(entries or [vd.LegendEntry(None, "nothing stopped a disc")], size=fs, padding=0,
                                 heading=heading, max_width=vd.LEGEND_WIDTH * s))
    beside = vd.legend_beside(images, gap=2 * fs, legend_width=vd.LEGEND_WIDTH * s, max_width=vd.MAX_WIDTH * s)
    readings = {", ".join(f"{k}={v}" for k, v in o.reading.items()) for _, o in outcomes}
    subtitle = f"reading: {readings.pop()}" if len(readings) == 1 else None
    image = vd.compose(images, legends, beside=beside, title=title or "Discs", subtitle=subtitle,
                       size=round(FONT * 1.15) * s, gap=2 * fs, margin=fs)
    return vd.finish(image, s)


def draw_case(scene: Scene, slides: Slides, outcome: Outcome, *, title: str | None = None,
              **options: object) -> Image.Image:
    return draw_panels(scene, slides, [("Before", None), ("After", outcome)], title=title, **options)
