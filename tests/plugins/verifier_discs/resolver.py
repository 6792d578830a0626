"""The reference resolver: a pure function of (scene, slides, reading).

Every slide is measured against where the discs stood before the turn, so the
slides do not depend on one another, and the discs are taken in order of name,
so nothing depends on the order a case lists them in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

from shapely.geometry import LineString

from verifier.kit.geometry import TOLERANCE, Contact, Pose, ShapeIndex, rectangle
from verifier.ruleset import Cause, Decision, Event, Frame, Outcome

from .model import XY, Disc, Scene, Slides, contact


def ahead(at: XY, heading: float, distance: float) -> XY:
    """The point ``distance`` away from ``at`` along the compass ``heading``."""
    pose = Pose(at[0], at[1], heading).forward(distance)
    return pose.x, pose.y


def _square(disc: Disc) -> object:
    """The disc's bounding square: it holds the disc, so an index of squares misses none."""
    return rectangle(Pose(*disc.at), 2 * disc.radius, 2 * disc.radius)


def first_contact(disc: Disc, heading: float, distance: float, other: Disc) -> tuple[Contact, float]:
    """How ``disc``, sliding ``distance`` along ``heading``, meets ``other`` standing still,
    and how far it has slid then: overlapping (it runs into it), touching (its path
    only brushes it, at the closest approach) or apart (never, or only by moving away)."""
    ux, uy = ahead((0.0, 0.0), heading, 1.0)
    wx, wy = disc.at[0] - other.at[0], disc.at[1] - other.at[1]
    reach = disc.radius + other.radius
    along = wx * ux + wy * uy
    if along >= 0:  # not approaching: moving away, or across from where they touch
        return Contact.APART, math.inf
    closest = min(-along, distance)
    gap = math.hypot(wx + closest * ux, wy + closest * uy) - reach
    if gap > TOLERANCE:
        return Contact.APART, math.inf
    if gap >= -TOLERANCE:
        return Contact.TOUCHING, closest
    return Contact.OVERLAPPING, max(0.0, -along - math.sqrt(along * along - (wx * wx + wy * wy - reach * reach)))


def edge_distance(scene: Scene, disc: Disc, heading: float) -> float:
    """How far ``disc`` can slide along ``heading`` before its rim reaches the table's edge."""
    (ux, uy), (x, y), r = ahead((0.0, 0.0), heading, 1.0), disc.at, disc.radius
    limits = [(scene.width - r - x if ux > 0 else r - x) / ux] if ux else []
    limits += [(scene.height - r - y if uy > 0 else r - y) / uy] if uy else []
    return max(0.0, min(limits, default=math.inf))


def resolve(scene: Scene, slides: Slides, reading: Mapping[str, str]) -> Outcome:
    plans = dict(slides)
    discs = sorted(scene.discs, key=lambda d: d.name)
    index = ShapeIndex({d.name: _square(d) for d in discs})
    start = {d.name: d for d in discs}
    ends = dict(start)
    events: list[Event] = []
    causes: dict[str, list[Cause]] = {d.name: [] for d in discs}
    decisions: list[Decision] = []
    for disc in discs:
        slide = plans.get(disc.name)
        if slide is None or slide.distance == 0:
            continue
        causes[disc.name].append(Cause.applied("slide.move"))
        stops = [(slide.distance, "", ""), (edge_distance(scene, disc, slide.heading), "edge", "")]
        grazes = []
        track = LineString([disc.at, ahead(disc.at, slide.heading, slide.distance)])
        for name in index.near(track, tolerance=disc.radius + TOLERANCE):  # the candidates; then the exact test
            if name == disc.name:
                continue
            how, far = first_contact(disc, slide.heading, slide.distance, start[name])
            if how is Contact.OVERLAPPING:
                stops.append((far, "block", name))
            elif how is Contact.TOUCHING and far < slide.distance - TOLERANCE:
                grazes.append((far, "block", name))
        limit = min(far for far, _, _ in stops)
        grazes = [g for g in grazes if g[0] < limit - TOLERANCE]
        if grazes:  # "runs into" says nothing of a path that only brushes a disc: a gap, decided by reading
            causes[disc.name].append(Cause.followed("touch", reading["touch"]))
            for _, _, name in grazes:
                decisions.append(Decision("touch", (), (), (disc.name, name), near=("slide.block",),
                                          detail=f"the path of {disc.name} touches {name} without overlapping it"))
                if reading["touch"] == "passes":
                    events.append(Event("graze", (disc.name, name), clause="slide.block"))
            if reading["touch"] == "stops":
                stops += grazes
        stop = min(far for far, _, _ in stops)
        for far, kind, name in stops:
            if kind and far <= stop + TOLERANCE and far < slide.distance - TOLERANCE:
                clause = "slide.edge" if kind == "edge" else "slide.block"
                events.append(Event(kind, (disc.name, name) if name else (disc.name,), clause=clause))
                causes[disc.name].append(Cause.applied(clause))
        ends[disc.name] = Disc(disc.name, ahead(disc.at, slide.heading, stop), disc.radius)
    slid = Scene(scene.width, scene.height, tuple(ends[d.name] for d in discs))
    # Paths were measured against the discs' starts, so sending a disc back to its start
    # cannot make a new overlap: one pass is enough.
    back: set[str] = set()
    index = ShapeIndex({d.name: _square(d) for d in slid.discs})
    for disc in slid.discs:
        for name in index.near(_square(disc)):
            if name > disc.name and contact(disc, ends[name]) is Contact.OVERLAPPING:
                events.append(Event("clash", (disc.name, name), clause="turn.clash"))
                back |= {disc.name, name}
    for name in sorted(back):
        ends[name] = start[name]
        causes[name].append(Cause.applied("turn.clash"))
    after = Scene(scene.width, scene.height, tuple(ends[d.name] for d in discs))
    frames = (Frame(0, "start", 0, Scene(scene.width, scene.height, tuple(discs))), Frame(1, "slide", 0, slid))
    frames += (Frame(1, "clash", 0, after),) if back else ()
    return Outcome(after, tuple(sorted(events, key=lambda e: (e.pieces, e.kind))),
                   {name: tuple(c) for name, c in causes.items()}, frames, MappingProxyType(dict(reading)),
                   tuple(decisions), frozenset({"touch"}) if decisions else frozenset())
