"""Armada 2K (seed 004): fleets of Icehouse pyramids lying flat on an open table.

Ships move in whole steps of their own length (a spare piece laid stern to bow at
any heading), fire by laying a large piece against a long side, take a damage a
hit and sink at their size. Where the text leaves the answer open (the outline a
flat pyramid covers, whether touching is contact, what obstructs a shot, ...) the
resolver follows a named reading; see ``clauses.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from verifier.kit.compare import beyond, event_mismatches, numbers_text
from verifier.kit.modular import ModularRuleset
from verifier.ruleset import (
    DRAWING_METHODS,
    Capability,
    Mismatch,
    Outcome,
    ReportSection,
)

from .clauses import CLAUSES, GLOSSARY, INTRODUCTION, READING_POINTS, SOURCE_TITLES
from .interchange import OUTCOME_PARTS, OUTCOME_SCHEMA
from .model import FEATURES, XY, Actions, Interval, Scene, State, features_needed
from .parse import (
    ACTIONS_SCHEMA,
    BEFORE_SCHEMA,
    EXPECT_SCHEMA,
    Expectation,
    parse_actions,
    parse_expect,
    parse_scene,
)
from .resolver import resolve, unchanged

POSITION_TOLERANCE = 0.001  # inches
HEADING_TOLERANCE = 0.01  # degrees

PAGE_NOTES = (
    "Each example shows the sea from above, north up, on a one-inch grid, before and after. Ships are the "
    "outlines their pyramids cover lying flat (the footprint reading says which outline), coloured by player, "
    "the point being the bow; under the pentagon reading the outline takes in the raised base corners, which are "
    "in the air, so two outlines may overlap near a stern while the pieces themselves do not touch. Black dots "
    "on a ship are its damage chits, and a sunk ship is crossed out. A move "
    "shows each step's piece as a faint ghost with its number in a ring: before, the steps the move plans; "
    "after, the steps it took, each a place the ship could have stopped. A step that may not be made is outlined "
    "in red and starred, and the ship stands in colour where it ended. A grey fan is every place the next "
    "step's piece could lie, and its wedge at the bow the headings allowed. A shaded triangle beside a ship is "
    "the area its cannons reach (the large piece laid against that side); a star marks a hit, a cross an "
    "object that obstructs the shot. Grey polygons are reefs and islands; the curve or line is the edge of the "
    "playing area.")


def _xy(point: XY) -> str:
    return "[" + ", ".join(f"{round(v, 3):g}" for v in point) + "]"


def _angle_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def event_text(kind: str, pieces: tuple[str, ...], detail: str = "") -> str:
    words = {"move": "{0} moves", "blocked": "{0} is blocked", "stuck": "{0} is stuck",
             "refused": "{0} may not act", "hit": "{0} hits {1}", "sunk": "{0} sinks",
             "no-shot": "{0} cannot hit {1}", "obstructed": "{0}'s shot at {1} is obstructed by {2}",
             "in-range": "{0} can hit {1}", "setup-breach": "set-up breach: {pieces}", "win": "{0} wins"}[kind]
    text = words.format(*pieces, pieces=", ".join(pieces))
    return text + (f" ({detail})" if detail else "")


def _event_key(kind: str, pieces: tuple[str, ...]) -> tuple:
    return (kind, tuple(sorted(pieces)) if kind == "setup-breach" else pieces)


def fans_of(state: State) -> dict[str, tuple[Interval, ...]]:
    return dict(state.fans)


class Armada2kRuleset(ModularRuleset):
    key = "armada2k"
    title = "Armada 2K: Icehouse pyramid fleets, step movement and cannon fire"
    package = "verifier.rulesets.armada2k"  # its modules as docs/ruleset-guide.md lays them out

    def pieces_drawn(self, before: Scene, actions: Actions, outcomes: Sequence[Outcome]) -> tuple[int, str]:
        return len(before.ships) + len(before.obstacles), "ships and obstacles"
    draw_options = MappingProxyType({method: frozenset({"title", "supersample"}) for method in DRAWING_METHODS})
    capabilities = frozenset({Capability.INTERCHANGE, Capability.SEARCH, Capability.FINDINGS,
                              Capability.EXHAUSTIVE, Capability.FRAMES, Capability.NARROW, Capability.SCENE_TEXT,
                              Capability.PAGE_NOTES, Capability.REPORT_SECTIONS, Capability.BENCHMARKS})
    capabilities |= {Capability.BOUNDARIES}  # the module boundaries.py
    capabilities |= {Capability.SCENES}  # explore.scene: the seeded search's scenes (kit.choices)
    clauses = CLAUSES
    reading_points = READING_POINTS
    glossary, introduction, source_titles = GLOSSARY, INTRODUCTION, SOURCE_TITLES
    before_schema = BEFORE_SCHEMA
    actions_schema = ACTIONS_SCHEMA
    expect_schema = EXPECT_SCHEMA
    outcome_schema = OUTCOME_SCHEMA
    outcome_parts = OUTCOME_PARTS
    features = FEATURES

    def features_needed(self, before: Scene, actions) -> frozenset[str]:
        return features_needed(before, actions)

    def parse(self, doc: Any, before_path: tuple[Any, ...], actions_path: tuple[Any, ...],
              expect_path: tuple[Any, ...] | None, *, breaches_allowed: bool = False) -> tuple[Any, Any, Any]:
        # No reading breaks the scene's invariants (a refused step leaves the ship where it was).
        scene = parse_scene(doc, before_path)
        actions = parse_actions(doc, actions_path, scene)
        return scene, actions, parse_expect(doc, expect_path, scene) if expect_path is not None else None

    def resolve(self, before: Scene, actions: Actions, reading: Mapping[str, str]) -> Outcome:
        return resolve(before, actions, reading)

    def unchanged(self, before: Scene, actions: Actions) -> State:
        return unchanged(before)

    def compare(self, before: Scene, expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        problems: list[Mismatch] = []
        state: State = outcome.after
        listed = dict(expect.ships)
        for ship in sorted(state.scene.ships, key=lambda s: s.name):
            start = before.ship(ship.name)
            want = listed.get(ship.name)
            where = ("ships", ship.name) if want is not None else ("ships",)
            words = "" if want is not None else " (not listed, so unchanged)"
            at = want.at if want is not None and want.at is not None else start.at if want is None else None
            if at is not None and beyond(math.dist(at, ship.at), POSITION_TOLERANCE):
                wanted_at, ended_at = numbers_text([round(v, 3) for v in at], [round(v, 3) for v in ship.at])
                problems.append(Mismatch(where + (("at",) if want else ()), list(at), [round(v, 4) for v in ship.at],
                                         f"{ship.name} should end at {wanted_at}{words} but ends at {ended_at}"))
            heading = want.heading if want is not None and want.heading is not None else (
                start.heading if want is None else None)
            if heading is not None and beyond(_angle_gap(heading, ship.heading), HEADING_TOLERANCE):
                problems.append(Mismatch(where + (("heading",) if want else ()), heading, round(ship.heading, 4),
                                         f"{ship.name} should end heading {heading:g}°{words} but heads "
                                         f"{ship.heading:g}°"))
            damage = want.damage if want is not None and want.damage is not None else (
                start.damage if want is None else None)
            if damage is not None and damage != ship.damage:
                problems.append(Mismatch(where + (("damage",) if want else ()), damage, ship.damage,
                                         f"{ship.name} should end with {damage} damage{words} but has {ship.damage}"))
            sunk = want.sunk if want is not None and want.sunk is not None else (False if want is None else None)
            if sunk is not None and sunk != ship.sunk:
                problems.append(Mismatch(where + (("sunk",) if want else ()), sunk, ship.sunk,
                                         f"{ship.name} should {'' if sunk else 'not '}be sunk{words}"))
        problems += event_mismatches(expect.events, outcome.events, key=_event_key, text=event_text)
        if expect.fans is not None:
            got = fans_of(state)
            for name, spans in expect.fans:
                have = [(i.lo, i.hi) for i in got.get(name, ())]
                same = len(have) == len(spans) and all(
                    not beyond(_angle_gap(a[0], b[0]), HEADING_TOLERANCE)
                    and not beyond(abs((a[1] - a[0]) - (b[1] - b[0])), HEADING_TOLERANCE) for a, b in zip(spans, have))
                if not same:
                    problems.append(Mismatch(("fans", name), [list(s) for s in spans],
                                             [[round(lo, 3), round(hi, 3)] for lo, hi in have],
                                             f"the fan of {name} should be {_spans(spans)} but is {_spans(have)}"))
        if expect.winner_given and expect.winner != state.winner:
            problems.append(Mismatch(("winner",), expect.winner, state.winner,
                                     f"the winner should be {expect.winner} but is {state.winner}"))
        return problems

    def describe(self, before: Scene, actions: Actions, outcome: Outcome) -> str:
        state: State = outcome.after
        lines = []
        for ship in sorted(state.scene.ships, key=lambda s: s.name):
            start = before.ship(ship.name)
            fate = "sunk" if ship.sunk else f"{_xy(ship.at)} heading {ship.heading:g}°, damage {ship.damage}"
            lines.append(f"{ship.name} ({ship.player}, {ship.size}): {_xy(start.at)} heading {start.heading:g}° "
                         f"-> {fate}")
            lines += [f"    {cause}" for cause in outcome.provenance.get(ship.name, ())]
        for name, spans in state.fans:
            lines.append(f"fan of {name}: {_spans([(i.lo, i.hi) for i in spans])}")
        lines.append("events:" if outcome.events else "events: none")
        lines += [f"  {event_text(e.kind, e.pieces, e.detail)}  [{e.clause}]" for e in outcome.events]
        if state.winner:
            lines.append(f"winner: {state.winner}")
        return "\n".join(lines)

    def summarise(self, before: Scene, outcome: Outcome) -> str:
        state: State = outcome.after
        said = [event_text(e.kind, e.pieces) for e in outcome.events]
        said += [f"{name} may step at {_spans([(i.lo, i.hi) for i in spans])}" for name, spans in state.fans]
        if not said and any(c.startswith("setup.") for c in outcome.clauses_used()):
            said = ["the set-up breaks no rule" + _nearest_words(state.scene, outcome)]
        return (", ".join(said) or "nothing happens") + "."

    # --- the rule pages and the benchmarks ---------------------------------------------------

    def page_notes(self) -> str:
        return PAGE_NOTES

    def report_sections(self, cases: Sequence[Any], out: Any = None) -> list[ReportSection]:
        from .explore import report_sections
        return [ReportSection(title, markdown, data) for title, markdown, data in report_sections(cases, out)]


def _nearest_words(scene: Scene, outcome: Outcome) -> str:
    """Where the set-up distance is measured: the nearest ships of different players, in words."""
    from .model import footprint
    fp = outcome.reading.get("footprint", RULESET.default_reading["footprint"])
    ships = [sh for sh in scene.ships if not sh.sunk]
    pairs = [(footprint(a, fp).distance(footprint(b, fp)), a.name, b.name) for i, a in enumerate(ships)
             for b in ships[i + 1:] if a.player != b.player]
    if not pairs:
        return ""
    gap, a, b = min(pairs)
    return f": the nearest ships of different players, {a} and {b}, stand {gap:.2f} in apart"


def _spans(spans: Any) -> str:
    return ", ".join(f"{lo:.2f}° to {hi:.2f}°" for lo, hi in spans) or "none (stuck)"


RULESET = Armada2kRuleset()
