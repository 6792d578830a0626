"""Civ: Advanced Civilization ship combat (seed 001, a fan variant with option A,
naval battles, and option B, blockades) on top of the base game's ship and conflict
rules, on a map of areas: no grid, only areas and which touch which."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ...kit.modular import ModularRuleset
from ...ruleset import DRAWING_METHODS, Capability, Mismatch, Outcome, ReportSection
from .clauses import CLAUSES, GLOSSARY, INTRODUCTION, READING_POINTS, SOURCE_TITLES
from .interchange import OUTCOME_PARTS, OUTCOME_SCHEMA
from .model import (
    FEATURES,
    Actions,
    Branch,
    Expectation,
    Result,
    Scene,
    ShipState,
    State,
    features_needed,
    label_text,
)
from .parse import ACTIONS_SCHEMA, BEFORE_SCHEMA, EXPECT_SCHEMA, map_data, parse_actions, parse_expect, parse_scene
from .resolver import Resolution, resolve, unchanged

PAGE_NOTES = (
    "Each example draws its map as regions, not a board: land is sand-coloured, and a land area with a coast "
    "has a blue strip along one side, its water portion, where ships lie and landing tokens wait; coastal water "
    "is light blue and open sea dark blue. Faint dotted lines join the middles of areas that touch. Ships are "
    "boat shapes in their nation's colour with the number of tokens aboard; population tokens are discs with "
    "their count. A blockading ship is drawn hollow (turned over), and a blocked ship has its blocker drawn "
    "across it. Before the phase, arrows trace each ship's path through the areas. The panel after the movement "
    "shows tokens waiting at the water's edge; the last panel is the end of the phase. Where a conflict was "
    "fought, a strip lists its removals step by step, with the number of pieces each side has after each step. "
    "Where the case leaves a decision open there is one end panel per way of taking it.")

EVENT_WORDS = {
    "blockade": "{} turns over to blockade", "lift": "{} turns back from blockading",
    "held": "{} must keep blockading", "block": "{} blocks {}", "pass": "{} gets through {}",
    "rescue": "{} takes tokens off {}", "refused": "{} may not take the tokens off {}",
    "missed": "{} finds no blocked ship {} to take tokens from", "board": "{} takes tokens aboard in {}",
    "wade": "{} tokens wait at the water's edge of {}", "land": "{} tokens come ashore in {}",
    "prevented": "{} tokens are refused in {} and lost", "conflict": "ship conflict in {}",
    "declined": "no ship conflict in {}", "stopped": "the conflict in {} stops by agreement",
    "crossed": "{} and {} cross open sea without a conflict", "stranded": "tokens stay on blocked {}",
    "lost": "tokens left on {} are lost", "land-conflict": "conflict on land in {}", "remove": "removed: {}",
    "within-limit": "tokens share {} within its population limit: no conflict",
    "no-board": "{} may not take aboard tokens that moved overland in {}",
}


def event_text(kind: str, pieces: tuple[str, ...]) -> str:
    words = EVENT_WORDS.get(kind)
    if words is None or kind == "remove":
        return f"{kind}: {', '.join(pieces)}"
    try:
        return words.format(*pieces)
    except IndexError:
        return f"{kind}: {', '.join(pieces)}"


def _event_key(kind: str, pieces: tuple[str, ...]) -> tuple:
    return (kind, tuple(sorted(pieces)) if kind in ("crossed",) else pieces)


def _start_ship(before: Scene, name: str) -> ShipState:
    ship = before.ship(name)
    return ShipState(ship.name, ship.nation, ship.at, ship.aboard)


def _ship_words(s: ShipState) -> str:
    if s.sunk:
        return "sunk"
    words = f"in {s.at}" + (f" with {s.aboard} aboard" if s.aboard else "")
    words += ", blockading" if s.blockading else ""
    return words + (f", blocked by {s.blocked_by}" if s.blocked_by else "")


def _same_ship(want: ShipState, got: ShipState) -> bool:
    if want.sunk or got.sunk:
        return want.sunk == got.sunk
    return (want.at, want.aboard, want.blockading, want.blocked_by) == (got.at, got.aboard, got.blockading,
                                                                        got.blocked_by)


def _steps_text(steps: tuple[tuple[str, ...], ...]) -> str:
    return "; ".join(" + ".join(step) for step in steps) or "none"


class CivRuleset(ModularRuleset):
    key = "civ"
    title = "Civ: Advanced Civilization ship combat (landings, naval conflict, blockades) on a map of areas"
    package = "verifier.rulesets.civ"  # its modules as docs/ruleset-guide.md lays them out

    def pieces_drawn(self, before: Scene, actions: Actions, outcomes: Sequence[Outcome]) -> tuple[int, str]:
        return len(before.map.areas) + len(before.ships), "areas and ships"
    draw_options = MappingProxyType({method: frozenset({"title", "supersample"}) for method in DRAWING_METHODS})
    capabilities = frozenset({Capability.INTERCHANGE, Capability.SEARCH, Capability.FINDINGS, Capability.EXHAUSTIVE,
                              Capability.SCENE_TEXT, Capability.PAGE_NOTES, Capability.BENCHMARKS,
                              Capability.FRAMES, Capability.NARROW, Capability.REPORT_SECTIONS})
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

    def request_before(self, before_data: Any, before: Scene) -> Any:
        """The map travels inside the request, not by the name of a file the implementation lacks."""
        if isinstance(before_data, dict) and isinstance(before_data.get("map"), str):
            return {**before_data, "map": map_data(before.map, inline=True)}
        return before_data

    def features_needed(self, before: Scene, actions) -> frozenset[str]:
        return features_needed(before, actions)

    def parse(self, doc, before_path, actions_path, expect_path, *, breaches_allowed=False):
        scene = parse_scene(doc, before_path)
        actions = parse_actions(doc, actions_path, scene)
        return scene, actions, parse_expect(doc, expect_path, scene) if expect_path is not None else None

    def resolve(self, before: Scene, actions: Actions, reading: Mapping[str, str]) -> Outcome:
        return resolve(before, actions, reading)

    def resolution(self, before: Scene, actions: Actions, reading: dict[str, str]) -> Resolution:
        return Resolution(self, before, actions, reading)

    # --- compare ------------------------------------------------------------------------------------

    def unchanged(self, before: Scene, actions: Actions) -> Result:
        return unchanged(before)

    def compare(self, before: Scene, expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        branches: tuple[Branch, ...] = outcome.after.branches
        problems: list[Mismatch] = []
        by_label = {b.choices: (i, b) for i, b in enumerate(branches, 1)}
        wanted = {e.when for e in expect.branches}
        if expect.single and len(branches) > 1:
            return [Mismatch((), "one outcome", [label_text(b.choices) for b in branches],
                             "the case leaves decisions open, so the outcome has a branch for each: "
                             + " | ".join(label_text(b.choices) for b in branches) + "; list them as branches")]
        for i, want in enumerate(expect.branches):
            prefix: tuple = () if expect.single else ("branches", i)
            if expect.single:
                number, got = 1, branches[0]
            elif want.when not in by_label:
                problems.append(Mismatch(prefix + ("when",), label_text(want.when), None,
                                         f"no branch takes the decisions {label_text(want.when) or '(none)'}; the "
                                         f"branches are: {' | '.join(label_text(b.choices) for b in branches)}"))
                continue
            else:
                number, got = by_label[want.when]
            problems += self._compare_branch(before, want, got.state, outcome, number, prefix)
        for b in branches:
            if not expect.single and b.choices not in wanted:
                problems.append(Mismatch(("branches",), None, label_text(b.choices),
                                         f"unexpected branch: {label_text(b.choices)}"))
        return problems

    def _compare_branch(self, before: Scene, want, state: State, outcome: Outcome, number: int,
                        prefix: tuple) -> list[Mismatch]:
        problems = []
        listed = dict(want.ships)
        for ship in state.ships:
            expected = listed.get(ship.name, _start_ship(before, ship.name))
            if not _same_ship(expected, ship):
                path, words = ((prefix + ("ships", ship.name), "should end") if ship.name in listed else
                               (prefix + ("ships",), "is not listed, so it should end as it began:"))
                problems.append(Mismatch(path, _ship_words(expected), _ship_words(ship),
                                         f"{ship.name} {words} {_ship_words(expected)} but ends {_ship_words(ship)}"))
        start_land: dict[str, dict[str, int]] = {}
        for area, nation, count in before.tokens:
            start_land.setdefault(area, {})[nation] = count
        listed_land = {area: dict(counts) for area, counts in want.land}
        areas = sorted(set(start_land) | set(listed_land) | {a for a, _, _ in state.land})
        for area in areas:
            expected = {n: c for n, c in listed_land.get(area, start_land.get(area, {})).items() if c}
            got = state.land_of(area)
            if expected != got:
                path = prefix + (("land", area) if area in listed_land else ("land",))
                problems.append(Mismatch(path, expected, got, f"tokens in {area}: expected {expected or 'none'}, "
                                                              f"got {got or 'none'}"))
        listed_removals = dict(want.removals)
        got_removals = dict(state.removals)
        for area in sorted(set(listed_removals) | set(got_removals)):
            expected_steps = tuple(tuple(sorted(s)) for s in listed_removals.get(area, ()))
            got_steps = tuple(tuple(sorted(s)) for s in got_removals.get(area, ()))
            if expected_steps != got_steps:
                path = prefix + (("removals", area) if area in listed_removals else ("removals",))
                problems.append(Mismatch(path, _steps_text(expected_steps), _steps_text(got_steps),
                                         f"removals in {area}: expected {_steps_text(expected_steps)}, got "
                                         f"{_steps_text(got_steps)}"))
        actual = Counter(_event_key(e.kind, e.pieces) for e in outcome.events
                         if e.round == number and e.kind != "remove")
        expected_events = Counter(_event_key(k, p) for k, p in want.events)
        for i, (kind, pieces) in enumerate(want.events):
            if actual[_event_key(kind, pieces)] <= 0:
                problems.append(Mismatch(prefix + ("events", i), event_text(kind, pieces), None,
                                         f"expected event did not happen: {event_text(kind, pieces)}"))
            actual[_event_key(kind, pieces)] -= 1
        for e in outcome.events:
            if e.round != number or e.kind == "remove":
                continue
            if expected_events[_event_key(e.kind, e.pieces)] <= 0:
                problems.append(Mismatch(prefix + ("events",), None, event_text(e.kind, e.pieces),
                                         f"unexpected event: {event_text(e.kind, e.pieces)} [{e.clause}]"))
            expected_events[_event_key(e.kind, e.pieces)] -= 1
        return problems

    # --- words --------------------------------------------------------------------------------------

    def describe(self, before: Scene, actions: Actions, outcome: Outcome) -> str:
        lines = []
        branches = outcome.after.branches
        for number, branch in enumerate(branches, 1):
            if len(branches) > 1:
                lines.append(f"branch {number}: {label_text(branch.choices)}")
            for ship in branch.state.ships:
                start = _start_ship(before, ship.name)
                lines.append(f"  {ship.name} ({ship.nation}): {_ship_words(start)} -> {_ship_words(ship)}")
            land = ", ".join(f"{a}: {n} {c}" for a, n, c in branch.state.land) or "none"
            lines.append(f"  tokens on land: {land}")
            for area, steps in branch.state.removals:
                lines.append(f"  removals in {area}: {_steps_text(steps)}")
            events = [e for e in outcome.events if e.round == number and e.kind != "remove"]
            lines += [f"  {event_text(e.kind, e.pieces)}  [{e.clause}]" for e in events]
        lines.append("provenance:")
        for piece, causes in outcome.provenance.items():
            lines.append(f"  {piece}: " + ", ".join(str(c) for c in causes))
        return "\n".join(lines)

    def summarise(self, before: Scene, outcome: Outcome) -> str:
        parts = []
        branches = outcome.after.branches
        for number, branch in enumerate(branches, 1):
            sunk = [s.name for s in branch.state.ships if s.sunk]
            said = [event_text(e.kind, e.pieces) for e in outcome.events
                    if e.round == number and e.kind in ("land", "prevented", "block", "conflict", "declined",
                                                        "stranded", "lost", "rescue", "refused")]
            text = ", ".join(said + ([f"sunk: {', '.join(sunk)}"] if sunk else [])) or "nothing contested"
            parts.append((f"if {label_text(branch.choices)}: " if len(branches) > 1 else "") + text)
        return "; ".join(parts) + "."

    # --- pages and benchmarks ------------------------------------------------------------------------

    def page_notes(self) -> str:
        return PAGE_NOTES

    def report_sections(self, cases: Sequence[Any], out: Any = None) -> list[ReportSection]:
        from .explore import report_sections
        return list(report_sections(cases, out))


RULESET = CivRuleset()
