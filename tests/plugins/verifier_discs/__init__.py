"""Discs: a toy ruleset that lives outside ``verifier/``, the worked example of
docs/ruleset-guide.md. Round discs slide across a table and stop where they run
into each other or reach the edge. The rules are made up (tests/plugins/README.md)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from verifier.errors import ImplementationError
from verifier.kit.modular import ModularRuleset
from verifier.ruleset import BenchSuite, Capability, Cause, Citation, Clause, Event, Mismatch, Outcome, ReadingPoint

from .model import (
    ACTIONS_SCHEMA,
    BEFORE_SCHEMA,
    EVENT_SIZES,
    EXPECT_SCHEMA,
    OUTCOME_SCHEMA,
    XY,
    Disc,
    Expectation,
    Scene,
    Slides,
    parse_expect,
    parse_scene,
    parse_slides,
)
from .resolver import resolve

SOURCE = "tests/plugins/README.md"
CLAUSES = (
    Clause("table.fit", "Every disc lies wholly on the table; discs may touch but never overlap.",
           Citation(SOURCE, "Discs / Table")),
    Clause("slide.move", "All discs slide at once, each straight along its heading for its distance.",
           Citation(SOURCE, "Discs / Sliding")),
    Clause("slide.block", "A disc stops where it runs into another disc, as that disc stood before the turn.",
           Citation(SOURCE, "Discs / Sliding"), ("touch",)),
    Clause("slide.edge", "A disc stops where its rim reaches the edge of the table.",
           Citation(SOURCE, "Discs / Sliding")),
    Clause("turn.clash", "Two discs that end the turn overlapping both go back to where they started.",
           Citation(SOURCE, "Discs / After the slide")),
)
READING_POINTS = (
    ReadingPoint("touch", "A disc's path brushes another disc: they would touch, but not overlap. Has it run into "
                          "that disc?",
                 {"stops": "Yes: touching is contact, and the disc stops where it touches.",
                  "passes": "No: only a disc it would overlap stops it, so it brushes past."},
                 "stops", ("slide.block",)),
)
PAGE_NOTES = ("Each example shows the table from above, north up, with a grid one unit apart: before the turn on "
              "the left, after it on the right. Before: each disc in its own colour, and a dashed arrow to a dashed "
              "ring where its slide would end if nothing stopped it. After: a faint ghost where each disc started, "
              "a solid track to where it ended, and numbered marks, explained in the legend: a star where a disc "
              "ran into another or reached the edge, or where two discs clashed (then a dashed ring shows where "
              "each would have ended), and a ring where a path only touched a disc.")
POSITION_TOLERANCE = 0.001  # table units: how close an expected position must be


def _xy(point: XY) -> str:
    return "[" + ", ".join(f"{round(v, 3):g}" for v in point) + "]"


def event_text(kind: str, discs: tuple[str, ...]) -> str:
    return {"block": "{} runs into {}", "graze": "{} brushes past {}", "edge": "{} reaches the edge of the table",
            "clash": "{} and {} clash and go back"}[kind].format(*discs)


def _event_key(kind: str, discs: tuple[str, ...]) -> tuple:
    return (kind, tuple(sorted(discs)) if kind == "clash" else discs)


class DiscsRuleset(ModularRuleset):
    key = "discs"
    title = "Discs: sliding on a table (a toy for the tests)"
    drawing = "verifier_discs.draw"  # draw_case, draw_panels
    explorer = "verifier_discs.explore"  # outcome_key, strategy, transforms, case_data, ..., EXHAUSTIVE_SPACES
    draw_options = {"draw": frozenset({"title", "supersample"}), "draw_readings": frozenset({"title", "supersample"})}
    capabilities = frozenset({Capability.INTERCHANGE, Capability.SEARCH, Capability.FINDINGS, Capability.EXHAUSTIVE,
                              Capability.SCENE_TEXT, Capability.PAGE_NOTES, Capability.BENCHMARKS})
    clauses = CLAUSES
    reading_points = READING_POINTS
    before_schema = BEFORE_SCHEMA
    actions_schema = ACTIONS_SCHEMA
    expect_schema = EXPECT_SCHEMA
    outcome_schema = OUTCOME_SCHEMA

    # --- required ------------------------------------------------------------------------

    def parse(self, doc, before_path, actions_path, expect_path, *, breaches_allowed=False):
        # No reading of this toy breaks its invariants, so ``breaches_allowed`` changes nothing.
        scene = parse_scene(doc, before_path)
        slides = parse_slides(doc, actions_path, scene)
        return scene, slides, parse_expect(doc, expect_path, scene) if expect_path is not None else None

    def resolve(self, before: Scene, actions: Slides, reading: Mapping[str, str]) -> Outcome:
        return resolve(before, actions, reading)

    def compare(self, before: Scene, expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        problems = []
        listed = dict(expect.discs)
        for disc in sorted(outcome.after.discs, key=lambda d: d.name):
            start = before.disc(disc.name).at
            want = listed.get(disc.name, start)
            if math.dist(want, disc.at) > POSITION_TOLERANCE:
                path, words = (("discs", disc.name, "at"), "should end at") if disc.name in listed else (
                    ("discs",), "is not listed, so it should stay at")
                problems.append(Mismatch(path, list(want), [round(v, 3) for v in disc.at],
                                         f"{disc.name} {words} {_xy(want)} but ends at {_xy(disc.at)}"))
        wanted = Counter(_event_key(*e) for e in expect.events)
        actual = Counter(_event_key(e.kind, e.pieces) for e in outcome.events)
        for i, (kind, discs) in enumerate(expect.events):
            if actual[_event_key(kind, discs)] <= 0:
                problems.append(Mismatch(("events", i), event_text(kind, discs), None,
                                         f"expected event did not happen: {event_text(kind, discs)}"))
            actual[_event_key(kind, discs)] -= 1
        for e in outcome.events:
            if wanted[_event_key(e.kind, e.pieces)] <= 0:
                problems.append(Mismatch(("events",), None, event_text(e.kind, e.pieces),
                                         f"unexpected event: {event_text(e.kind, e.pieces)} [{e.clause}]"))
            wanted[_event_key(e.kind, e.pieces)] -= 1
        return problems

    def describe(self, before: Scene, actions: Slides, outcome: Outcome) -> str:
        plans = dict(actions)
        lines = []
        for disc in sorted(outcome.after.discs, key=lambda d: d.name):
            start, plan = before.disc(disc.name).at, plans.get(disc.name)
            slide = f"slides {plan.distance:g} at {plan.heading:g}°" if plan else "no slide"
            lines.append(f"{disc.name}: {_xy(start)} -> {_xy(disc.at)} ({slide})")
            lines += [f"    {cause}" for cause in outcome.provenance.get(disc.name, ())]
        lines.append("events:" if outcome.events else "events: none")
        lines += [f"  {event_text(e.kind, e.pieces)}  [{e.clause}]" for e in outcome.events]
        return "\n".join(lines)

    def summarise(self, before: Scene, outcome: Outcome) -> str:
        moved = [f"{d.name} ends at {_xy(d.at)}" for d in sorted(outcome.after.discs, key=lambda d: d.name)
                 if d.at != before.disc(d.name).at]
        events = [event_text(e.kind, e.pieces) for e in outcome.events]
        return f"{', '.join(moved) or 'no disc moves'}; {', '.join(events) or 'nothing stops a disc'}."

    # --- Capability.INTERCHANGE: the adapter protocol's answer ---------------------------

    def outcome_json(self, outcome: Outcome) -> dict[str, Any]:
        return {"discs": {d.name: {"at": [round(v, 6) for v in d.at]} for d in outcome.after.discs},
                "events": [{"kind": e.kind, "discs": list(e.pieces), "clause": e.clause} for e in outcome.events],
                "provenance": {name: [str(c) for c in causes] for name, causes in outcome.provenance.items()}}

    def outcome_from_json(self, before: Scene, data: dict[str, Any]) -> Outcome:
        names = {d.name for d in before.discs}
        given = set(data["discs"])
        if given != names:
            raise ImplementationError(f"the answer must place every disc of the scene and no other: missing "
                                      f"{sorted(names - given)}, unknown {sorted(given - names)}")
        for event in data["events"]:
            if len(event["discs"]) != EVENT_SIZES[event["kind"]] or not set(event["discs"]) <= names:
                raise ImplementationError(f"the answer's event {event} names discs the scene lacks, or too many")
        at = {name: (float(x), float(y)) for name, (x, y) in ((n, d["at"]) for n, d in data["discs"].items())}
        after = Scene(before.width, before.height,
                      tuple(Disc(d.name, at[d.name], d.radius) for d in sorted(before.discs, key=lambda d: d.name)))
        events = tuple(Event(e["kind"], tuple(e["discs"]), clause=e.get("clause", "")) for e in data["events"])
        provenance = {k: tuple(Cause.from_text(t) for t in v) for k, v in data.get("provenance", {}).items()}
        return Outcome(after, events, provenance)

    # --- the other capabilities this ruleset declares ----------------------------------------
    # SEARCH, FINDINGS and EXHAUSTIVE come from ``explorer``, drawing from ``drawing`` (ModularRuleset).

    def describe_scene(self, before: Scene, actions: Slides) -> str:
        plans = dict(actions)
        said = [f"{d.name} slides {plans[d.name].distance:g} at {plans[d.name].heading:g}°" if d.name in plans
                else f"{d.name} stays" for d in before.discs]
        return f"A {before.width:g} by {before.height:g} table with {len(before.discs)} discs: {', '.join(said)}."

    def page_notes(self) -> str:
        return PAGE_NOTES

    def benchmarks(self) -> tuple[BenchSuite, ...]:
        from .explore import SUITES
        return SUITES


RULESET = DiscsRuleset()
