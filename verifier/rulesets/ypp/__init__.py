"""YPP: Puzzle Pirates sea-battle movement and collisions (seed 000) on a square grid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ...kit.compare import beyond
from ...kit.modular import ModularRuleset
from ...ruleset import Capability, Citation, Mismatch, Outcome, ReferenceTable, Resolution
from .clauses import CLAUSES, CONCEPTS, GLOSSARY, INTRODUCTION, READING_POINTS, SEED, SOURCE_TITLES
from .interchange import OUTCOME_PARTS, OUTCOME_SCHEMA, outcome_json, state_json
from .model import RAM_VALUES, SHIP_TYPES, Scene, Ship, Turn
from .parse import ACTIONS_SCHEMA, BEFORE_SCHEMA, EXPECT_SCHEMA, Expectation, parse_actions, parse_before, parse_expect
from .resolver import Resolution as YppResolution
from .resolver import resolve

_ORDERED_EVENTS = ("bump", "push")


def _event_text(kind: str, ships: tuple[str, ...], round_no: int) -> str:
    if kind == "collision":
        what = f"collision between {ships[0]} and {ships[1]}"
    elif kind == "bump":
        what = f"{ships[0]} bumps {ships[1]}"
    elif kind == "push":
        what = f"{ships[0]} pushes {ships[1]}"
    else:
        what = f"{ships[0]} hits the {'board edge' if kind == 'edge' else 'rock'}"
    return f"{what} (round {round_no})"


PAGE_NOTES = (
    "Each example is drawn as before (the ships, their tokens and their planned paths, dashed) and after "
    "(where they ended, with their tracks solid and their starting places as faint ghosts), side by side, with "
    "a legend of its own. A hull's length shows its size class. Collisions, bumps, rocks and board edges that "
    "stopped a ship are numbered marks in the order the legend lists them; a push is a block arrow from the "
    "pushed ship's old tile to its new one. A small tag beside a collision or bump mark gives the ram damage each "
    "of the two ships takes (by the initials drawn on the hulls), and the legend adds it up per ship for the "
    "turn. Wind tiles carry an arrow and whirlpools a curling arrow. Examples "
    "with several rounds or steps also play step by step.")


RAM_TABLE = ReferenceTable(
    "Size classes and ram values",
    ("ship type", "size class", "ram, small-shot hits", "ram, medium-shot hits", "ram, large-shot hits"),
    tuple((kind, SHIP_TYPES[kind].label, *(f"{v:g}" for v in RAM_VALUES[kind])) for kind in SHIP_TYPES),
    Citation(SEED, CONCEPTS),
    "Clause ram.1 reads a ship's ram value from this table; the readings ram_value and ram_unit say whose value "
    "a rammed ship takes and which column the damage is counted in. YPPedia's Collision mechanics page leaves the "
    "war galleon out of its table.")

# What the before/after panels honour: a highlight outlines tiles, arrows join tiles.
PANEL_OPTIONS = frozenset({"title", "subtitle", "legend", "supersample", "font_size", "max_width", "highlight",
                           "arrows"})


class YppRuleset(ModularRuleset):
    key = "ypp"
    package = "verifier.rulesets.ypp"  # its modules as docs/ruleset-guide.md lays them out

    draw_piece_budget = 20_000  # its pictures of 10,000 ships are timed by ypp.draw

    def pieces_drawn(self, before: Scene, actions: Turn, outcomes: Sequence[Outcome]) -> tuple[int, str]:
        return len(before.ships), "ships"
    draw_options = MappingProxyType({
        "draw": PANEL_OPTIONS, "draw_readings": PANEL_OPTIONS,
        "draw_frames": frozenset({"title", "supersample", "font_size", "legend"}),
        "draw_narrow": frozenset({"title", "subtitle", "supersample", "font_size"})})
    capabilities = frozenset({Capability.INTERCHANGE, Capability.SEARCH, Capability.FINDINGS,
                              Capability.EXHAUSTIVE, Capability.FRAMES, Capability.NARROW,
                              Capability.SCENE_TEXT, Capability.PAGE_NOTES, Capability.BENCHMARKS,
                              Capability.STATES})
    capabilities |= {Capability.BOUNDARIES}  # the module boundaries.py
    capabilities |= {Capability.SCENES}  # explore.scene: the seeded search's scenes (kit.choices)
    title = "Puzzle Pirates: collision mechanics"
    clauses = CLAUSES
    reading_points = READING_POINTS
    glossary, introduction, source_titles = GLOSSARY, INTRODUCTION, SOURCE_TITLES
    tables = (RAM_TABLE,)
    before_schema = BEFORE_SCHEMA
    actions_schema = ACTIONS_SCHEMA
    expect_schema = EXPECT_SCHEMA
    outcome_schema = OUTCOME_SCHEMA
    outcome_parts = OUTCOME_PARTS

    def parse(self, doc, before_path, actions_path, expect_path, *, breaches_allowed=False):
        scene = parse_before(doc, before_path)
        turn = parse_actions(doc, actions_path, scene)
        expect = parse_expect(doc, expect_path, scene, turn, breaches_allowed) if expect_path is not None else None
        return scene, turn, expect

    # The interchange module's own, without the modular ruleset's look-up and copy of each new
    # dict: the reference adapter answers with one per phase and step of a turn.
    def outcome_json(self, outcome: Outcome) -> dict[str, Any]:
        return outcome_json(outcome)

    def state_json(self, state: Any) -> dict[str, Any]:
        return state_json(state)

    def resolve(self, before: Scene, actions: Turn, reading: Mapping[str, str]) -> Outcome:
        return resolve(before, actions, reading)

    def resolution(self, before: Scene, actions: Turn, reading: dict[str, str]) -> Resolution:
        return YppResolution.of(self, before, actions, reading)

    def unchanged(self, before: Scene, actions: Turn) -> Scene:
        return before

    def compare(self, before: Scene, expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        problems = []
        after = outcome.after.by_name
        listed = {name: (tile, heading) for name, tile, heading in expect.ships}
        for ship in before.ships:
            got = after[ship.name]
            if ship.name in listed:
                tile, heading = listed[ship.name]
                if got.at != tile:
                    problems.append(Mismatch(("ships", ship.name, "at"), list(tile), list(got.at),
                                             f"{ship.name} should end at {list(tile)} but ends at {list(got.at)}"))
                if got.heading != heading:
                    problems.append(Mismatch(("ships", ship.name, "heading"), heading.name, got.heading.name,
                                             f"{ship.name} should face {heading.name} but faces {got.heading.name}"))
            elif (got.at, got.heading) != (ship.at, ship.heading):
                problems.append(Mismatch(
                    ("ships",), [list(ship.at), ship.heading.name], [list(got.at), got.heading.name],
                    f"{ship.name} is not listed, so it should stay at {list(ship.at)} facing "
                    f"{ship.heading.name}, but it ends at {list(got.at)} facing {got.heading.name}"))

        def key(kind, ships, round_no):
            return (round_no, kind, tuple(ships) if kind in _ORDERED_EVENTS else tuple(sorted(ships)))

        actual = Counter(key(e.kind, e.pieces, e.round) for e in outcome.events)
        wanted: Counter[tuple] = Counter()
        for event in expect.events:
            k = key(event.kind, event.ships, event.round)
            wanted[k] += 1
            if wanted[k] > actual.get(k, 0):
                problems.append(Mismatch(("events", event.index), _event_text(event.kind, event.ships, event.round),
                                         None, f"expected event did not happen: "
                                               f"{_event_text(event.kind, event.ships, event.round)}"))
        for e in outcome.events:
            k = key(e.kind, e.pieces, e.round)
            if actual[k] > wanted.get(k, 0):
                actual[k] -= 1
                problems.append(Mismatch(("events",), None, _event_text(e.kind, e.pieces, e.round),
                                         f"unexpected event: {_event_text(e.kind, e.pieces, e.round)}"
                                         + (f" [{e.clause}]" if e.clause else "")))
        if expect.damage is not None:
            totals = outcome.damage_totals()
            wanted_damage = dict(expect.damage)
            for ship in before.ships:
                want, got = wanted_damage.get(ship.name, 0.0), totals.get(ship.name, 0.0)
                if beyond(abs(want - got), 1e-6):
                    problems.append(Mismatch(("damage", ship.name), want, got,
                                             f"{ship.name} should take {want:g} ram damage but takes {got:g}"))
        return problems

    def summarise(self, before: Scene, outcome: Outcome) -> str:
        start = before.by_name
        moved = [f"{s.name} {_move_words(start[s.name], s)}" for s in outcome.after.ships
                 if (s.at, s.heading) != (start[s.name].at, start[s.name].heading)]
        events = [_event_text(e.kind, e.pieces, e.round) for e in outcome.events]
        return f"{'; '.join(moved) or 'no ship moves'}; {', '.join(events) or 'no events'}."

    def describe(self, before: Scene, actions: Turn, outcome: Outcome) -> str:
        lines = []
        after = outcome.after.by_name
        width = max(len(s.name) for s in before.ships)
        for ship in before.ships:
            end = after[ship.name]
            moved = "" if (end.at, end.heading) != (ship.at, ship.heading) else "  (unchanged)"
            lines.append(f"{ship.name:<{width}}  {ship.type} ({ship.size.label})  {list(ship.at)} {ship.heading.name}"
                         f" -> {list(end.at)} {end.heading.name}{moved}")
            for cause in outcome.provenance.get(ship.name, ()):
                lines.append(f"{'':<{width}}    {cause}")
        lines.append("events:" if outcome.events else "events: none")
        for e in outcome.events:
            lines.append(f"  r{e.round} {e.phase:<4} {_event_text(e.kind, e.pieces, e.round)}"
                         + (f"  [{e.clause}]" if e.clause else "") + (f"  {e.detail}" if e.detail else "")
                         + ("  damage " + ", ".join(f"{n} {d:g}" for n, d in e.damage) if e.damage else ""))
        totals = outcome.damage_totals()
        if totals:
            unit = outcome.reading.get("ram_unit", "small")
            lines.append(f"ram damage (hits by a {unit} shot): "
                         + ", ".join(f"{n} {d:g}" for n, d in totals.items()))
        return "\n".join(lines)

    def page_notes(self) -> str:
        return PAGE_NOTES



_COMPASS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _move_words(start: Ship, end: Ship) -> str:
    """How a ship moved over the turn, in tiles from where it stood: "moves 1 tile north
    and 2 tiles west, now facing west" (y grows southward on the board)."""
    dx, dy = end.at[0] - start.at[0], end.at[1] - start.at[1]
    legs = [f"{abs(d)} tile{'' if abs(d) == 1 else 's'} {way}"
            for d, way in ((-dy, "north"), (dy, "south"), (dx, "east"), (-dx, "west")) if d > 0]
    facing = _COMPASS.get(end.heading.name, end.heading.name)
    if not legs:
        return f"turns to face {facing} where it stood"
    return f"moves {' and '.join(legs)}, " + (f"now facing {facing}" if end.heading != start.heading
                                                else f"still facing {facing}")


RULESET = YppRuleset()
