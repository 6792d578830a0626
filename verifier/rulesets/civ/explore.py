"""What the explorer needs (Capability.SEARCH, FINDINGS, EXHAUSTIVE). ``CivRuleset``
forwards to these functions by name. Scenes are small maps where the ships of two or
three nations meet; the exhaustive spaces enumerate small ship conflicts."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from ...kept import KeptFor
from ...kit import choices as kit_choices
from ...kit.hashed import HashedTuple
from ...ruleset import Outcome, Transform
from .model import (
    ADVANTAGE_ADVANCES,
    ASTRONOMY,
    CAPACITY,
    CLOTH_MAKING,
    FEATURES,
    LAND,
    OPEN_SEA,
    WATER,
    Actions,
    Area,
    Choices,
    Map,
    Nation,
    Scene,
    Ship,
    ShipMove,
    Stop,
    Turn,
)

NATIONS = ("Assyria", "Babylon", "Crete")


def _map(name: str, spec: dict[str, tuple[str, bool, tuple[float, float], tuple[str, ...]]],
         limits: dict[str, int]) -> Map:
    touches: dict[str, set[str]] = {n: set() for n in spec}
    for n, (_, _, _, near) in spec.items():
        for other in near:
            touches[n].add(other)
            touches[other].add(n)
    return Map(name, tuple(sorted((Area(n, kind, coast, tuple(sorted(touches[n])), at, limit=limits.get(n, 0))
                                   for n, (kind, coast, at, _) in spec.items()), key=lambda a: a.name)))


# A hub of water with three coasts round it, a second sea and open sea: ships from
# anywhere meet in a move or two.
HUB = _map("", {
    "Hub": (WATER, False, (3.0, 3.0), ("North Coast", "East Coast", "West Coast", "South Sea")),
    "North Coast": (LAND, True, (3.0, 5.0), ()),
    "East Coast": (LAND, True, (5.0, 3.0), ("Deep",)),
    "West Coast": (LAND, True, (1.0, 3.0), ("South Sea",)),
    "South Sea": (WATER, False, (3.0, 1.0), ("Deep",)),
    "Deep": (OPEN_SEA, False, (5.0, 1.0), ()),
}, {"North Coast": 2, "East Coast": 3, "West Coast": 1})

# A chain: two coasts and an island between two channels, open sea alongside: ships
# meet head on, and a blockader in a channel lies across every way through.
CHAIN = _map("", {
    "Westshore": (LAND, True, (1.0, 3.0), ("West Channel", "Outer Sea")),
    "West Channel": (WATER, False, (3.0, 3.0), ("Isle", "Outer Sea")),
    "Isle": (LAND, True, (5.0, 3.0), ("East Channel",)),
    "East Channel": (WATER, False, (7.0, 3.0), ("Eastshore", "Outer Sea")),
    "Eastshore": (LAND, True, (9.0, 3.0), ("Outer Sea",)),
    "Outer Sea": (OPEN_SEA, False, (5.0, 1.0), ()),
}, {"Westshore": 2, "Isle": 1, "Eastshore": 3})


# --- Capability.SEARCH ---------------------------------------------------------------------------


def outcome_key(outcome: Outcome) -> tuple:
    branches = []
    for number, b in enumerate(outcome.after.branches, 1):
        events = tuple(sorted((e.kind, e.pieces) for e in outcome.events
                              if e.round == number and e.kind not in ("remove",)))
        branches.append((b.choices, b.state.ships, b.state.land, b.state.removals, events))
    return HashedTuple(branches)


def _walk(choose: kit_choices.Choices, game_map: Map, start: str, nation: Nation, steps: int) -> list[str]:
    path, at = [], start
    for _ in range(steps):
        options = [n for n in game_map.area(at).touches if game_map.area(n).navigable
                   and (game_map.area(n).kind != OPEN_SEA or ASTRONOMY in nation.advances)]
        at = choose.pick(sorted(options))
        path.append(at)
    while path and game_map.area(path[-1]).kind == OPEN_SEA:
        path.pop()
    return path


def scene(choose: kit_choices.Choices, features: frozenset[str] | None = None) -> tuple[Scene, Actions]:
    """Two or three nations with ships on a small map, their moves and the owners' choices; only the
    options in ``features`` (default: both, A always)."""
    if features is None:
        features = frozenset(f.name for f in FEATURES)
    game_map = choose.pick((HUB, CHAIN))
    options = frozenset(o for o in ("A", "B") if f"option-{o}" in features and (choose.flag() or o == "A"))
    count = choose.integer(2, 3)
    nations = tuple(Nation(n, frozenset(choose.subset(ADVANTAGE_ADVANCES + (ASTRONOMY, CLOTH_MAKING),
                                                       len(ADVANTAGE_ADVANCES) + 2)))
                    for n in NATIONS[:count])
    places = [a.name for a in game_map.areas if a.navigable and a.kind != OPEN_SEA]
    coasts = [a.name for a in game_map.areas if a.coastal_land]
    ships, tokens = [], []
    for nation in nations:
        for i in range(choose.integer(1, 2)):
            ships.append(Ship(f"{nation.name[0].lower()}{i + 1}", nation.name, choose.pick(places)))
        home = choose.pick(coasts)
        tokens.append((home, nation.name, choose.integer(1, CAPACITY)))
    blockade = tuple(s.name for s in ships if "B" in options and choose.integer(0, 3) == 0)
    turns = []
    for nation in nations:
        moves: list[ShipMove] = []
        for ship in (s for s in ships if s.nation == nation.name and s.name not in blockade):
            path = _walk(choose, game_map, ship.at, nation, choose.integer(0, 2))
            if not path:
                continue
            stops = [Stop(a) for a in path]
            aboard = next(((a, c) for a, n, c in tokens if n == nation.name and a == ship.at), None)
            end = game_map.area(path[-1])
            if aboard and end.coastal_land and choose.flag() and not any(m for m in moves if m.path[0].board):
                load = choose.integer(1, min(aboard[1], CAPACITY))
                moves.append(ShipMove(ship.name, (Stop(ship.at, board=load),) + tuple(stops[:-1])
                                      + (Stop(path[-1], drop=load),)))
            else:
                moves.append(ShipMove(ship.name, tuple(stops)))
        turns.append(Turn(nation.name, tuple(moves)))
    choices = Choices(conflict=tuple((a, choose.flag()) for a in places),
                      stop=((choose.pick(places), 1),) if choose.integer(0, 5) == 0 else ())
    return Scene(game_map, options, nations, tuple(ships), tuple(sorted(tokens))), Actions(blockade, tuple(turns),
                                                                                           choices)


def strategy(features: frozenset[str] | None = None) -> Any:
    """Scenes that play only the options in ``features`` (default: both, A always)."""
    return kit_choices.strategy(lambda choose: scene(choose, features))


def _mirrored(game_map: Map) -> Map:
    """The map with where its areas are drawn mirrored east-west."""
    return Map(game_map.name, tuple(Area(a.name, a.kind, a.coast, a.touches, (-a.at[0], a.at[1]),
                                         tuple((-x, y) for x, y in a.shape), a.limit)
                                    for a in game_map.areas))


# Fuzz draws its scenes on a few maps: each map's mirror image is made once (by the map's identity).
_MIRRORED: KeptFor[Map] = KeptFor(64)


def transforms(scene: Scene, actions: Actions) -> list[Transform]:
    """Listing nations, ships and tokens the other way round changes nothing; nor does
    mirroring where the areas are drawn (no position is a rule)."""
    mirrored = _MIRRORED.get(scene.map, lambda: _mirrored(scene.map))
    return [
        Transform("order", "reversed listing", Scene(scene.map, scene.options, scene.nations[::-1], scene.ships[::-1],
                                                     scene.tokens[::-1], scene.overland[::-1]), actions,
                  lambda key: key),
        Transform("symmetry", "drawing mirrored east-west", Scene(mirrored, scene.options, scene.nations,
                                                                  scene.ships, scene.tokens, scene.overland),
                  actions,
                  lambda key: key),
    ]


def invariant_breaches(scene: Scene, actions: Actions, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
    """What no reading may do: a ship ends in open sea or carries more than five tokens,
    or an unblocked ship keeps tokens aboard."""
    found: list[tuple[str, tuple[str, ...], str]] = []
    for branch in outcome.after.branches:
        for ship in branch.state.ships:
            if ship.sunk:
                continue
            if scene.map.area(ship.at).kind == OPEN_SEA:
                found.append(("a ship ends in open sea", (ship.name,), ship.at))
            if ship.aboard > CAPACITY:
                found.append(("a ship carries more than five tokens", (ship.name,), str(ship.aboard)))
            if ship.aboard and not ship.blocked_by:
                found.append(("tokens stay aboard an unblocked ship", (ship.name,), str(ship.aboard)))
    return found


def _without(scene: Scene, actions: Actions, ship: str) -> tuple[Scene, Actions]:
    turns = tuple(Turn(t.nation, tuple(m for m in t.moves if m.ship != ship and not any(
        o == ship for st_ in m.path for o, _ in st_.take)), tuple(x for x in t.lift if x != ship))
        for t in actions.turns)
    choices = Choices(actions.choices.conflict, actions.choices.prevent,
                      tuple(c for c in actions.choices.block if c[0] != ship), actions.choices.stop)
    return (Scene(scene.map, scene.options, scene.nations, tuple(s for s in scene.ships if s.name != ship),
                  scene.tokens, scene.overland),
            Actions(tuple(b for b in actions.blockade if b != ship), turns, choices))


def simpler(scene: Scene, actions: Actions) -> Iterator[tuple[Scene, Actions]]:
    """One ship fewer, then one move fewer."""
    for ship in scene.ships if len(scene.ships) > 2 else ():
        yield _without(scene, actions, ship.name)
    for t, turn in enumerate(actions.turns):
        for m in range(len(turn.moves)):
            moves = turn.moves[:m] + turn.moves[m + 1:]
            turns = actions.turns[:t] + (Turn(turn.nation, moves, turn.lift),) + actions.turns[t + 1:]
            yield scene, Actions(actions.blockade, turns, actions.choices)


# --- Capability.EXHAUSTIVE ---------------------------------------------------------------------------

SEA = Map("", (Area("Sea", WATER, False, (), (0.0, 0.0)),))
ADVANCE_SETS = tuple(frozenset(c) for r in range(4) for c in itertools.combinations(ADVANTAGE_ADVANCES, r))
EXHAUSTIVE_SPACES = {
    "two-sides": "one water area where two nations' ships meet and fight: 1 to 3 ships a side, every set of "
                 "Metalworking, Mathematics and Engineering for each (576 conflicts)",
    "three-sides": "one water area where three nations' ships meet and fight: 1 or 2 ships each, each nation "
                   "with no advance, Metalworking, or Mathematics and Engineering (216 conflicts)",
    "landings": "Crete lands two tokens on a coast where 0 to 2 of its own and 0 to 2 Babylonian ships lie (the "
                "first Babylonian one blockading or not), under every set of options, with and without a ship "
                "conflict; Babylon's decision on the landing left open (96 scenes)",
}

LANDING_MAP = _map("", {
    "Home": (LAND, True, (0.0, 0.0), ("Sound",)),
    "Sound": (WATER, False, (2.0, 0.0), ("Shore",)),
    "Shore": (LAND, True, (4.0, 0.0), ()),
}, {"Home": 3, "Shore": 2})


def _landing(own: int, enemy: int, options: frozenset[str], blockading: bool, conflict: bool
             ) -> tuple[Scene, Actions]:
    ships = [Ship("r1", "Crete", "Home")] + [Ship(f"r{k + 2}", "Crete", "Shore") for k in range(max(0, own - 1))]
    ships += [Ship(f"b{k + 1}", "Babylon", "Shore") for k in range(enemy)]
    path = (Stop("Home", board=2), Stop("Sound"), Stop("Shore", drop=2)) + (() if own else (Stop("Sound"),))
    block = (("r1", "none"),) if blockading else ()
    choices = Choices(conflict=(("Shore", conflict),), block=block)
    return (Scene(LANDING_MAP, options, (Nation("Crete"), Nation("Babylon")), tuple(ships), (("Home", "Crete", 2),)),
            Actions(("b1",) if blockading else (), (Turn("Crete", (ShipMove("r1", path),)),), choices))


def _conflict(counts: tuple[int, ...], advances: tuple[frozenset, ...]) -> tuple[Scene, Actions]:
    nations = tuple(Nation(NATIONS[i], advances[i]) for i in range(len(counts)))
    ships = tuple(Ship(f"{NATIONS[i][0].lower()}{k + 1}", NATIONS[i], "Sea")
                  for i, c in enumerate(counts) for k in range(c))
    return (Scene(SEA, frozenset({"A"}), nations, ships, ()),
            Actions(choices=Choices(conflict=(("Sea", True),))))


def exhaustive_space(name: str) -> tuple[int, Iterator[tuple[Scene, Actions]]]:
    if name == "two-sides":
        scenes = [_conflict((a, b), (x, y)) for a in range(1, 4) for b in range(1, 4)
                  for x in ADVANCE_SETS for y in ADVANCE_SETS]
    elif name == "three-sides":
        sets: tuple[frozenset[str], ...] = (frozenset(), frozenset({"Metalworking"}),
                                            frozenset({"Mathematics", "Engineering"}))
        scenes = [_conflict(counts, adv) for counts in itertools.product((1, 2), repeat=3)
                  for adv in itertools.product(sets, repeat=3)]
    elif name == "landings":
        option_sets: tuple[frozenset[str], ...] = (frozenset(), frozenset({"A"}), frozenset({"B"}),
                                                   frozenset({"A", "B"}))
        scenes = [_landing(own, enemy, options, blockading, conflict)
                  for own in range(3) for enemy in range(3) for options in option_sets
                  for blockading in ((False, True) if "B" in options and enemy else (False,))
                  for conflict in (False, True)]
    else:
        raise KeyError(name)
    return len(scenes), iter(scenes)


# --- Capability.REPORT_SECTIONS: where the readings of '+1 advantage' disagree ------------------------


def _survivors(outcome: Outcome) -> tuple:
    state = outcome.after.branches[0].state
    return tuple((n, sum(1 for x in state.ships if x.nation == n and not x.sunk))
                 for n in sorted({s.nation for s in state.ships}))


def advantage_matrix() -> dict[str, Any]:
    """Over the two-sides space: for each pair of advantage readings, in how many conflicts
    the removals differ, in how many the survivors differ, and the smallest such conflict."""
    from .clauses import READING_POINTS
    from .resolver import resolve
    options = next(p for p in READING_POINTS if p.name == "advantage").options
    defaults = {p.name: p.default for p in READING_POINTS}
    _, scenes = exhaustive_space("two-sides")
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    total = 0
    for scene, actions in scenes:
        total += 1
        results = {o: resolve(scene, actions, {**defaults, "advantage": o}) for o in options}
        for a, b in itertools.combinations(options, 2):
            row = rows.setdefault((a, b), {"removals": 0, "survivors": 0, "example": None})
            ra, rb = results[a].after.branches[0].state, results[b].after.branches[0].state
            if ra.removals != rb.removals:
                row["removals"] += 1
            if _survivors(results[a]) != _survivors(results[b]):
                row["survivors"] += 1
                if row["example"] is None:
                    row["example"] = (scene, ra, rb)
    out: dict[str, Any] = {"conflicts": total, "pairs": []}
    for (a, b), row in rows.items():
        example = None
        if row["example"] is not None:
            scene, ra, rb = row["example"]
            counts = {n.name: sum(1 for s in scene.ships if s.nation == n.name) for n in scene.nations}
            sides = ", ".join(f"{n.name} {counts[n.name]} ship{'s' if counts[n.name] != 1 else ''}"
                              + (f" ({', '.join(sorted(n.advances))})" if n.advances else "") for n in scene.nations)
            example = {"sides": sides, a: [list(st) for st in ra.removals[0][1]] if ra.removals else [],
                       b: [list(st) for st in rb.removals[0][1]] if rb.removals else []}
        out["pairs"].append({"readings": [a, b], "removals_differ": row["removals"],
                             "survivors_differ": row["survivors"], "example": example})
    return out


def report_sections(cases: Any, out: Any = None) -> list:
    from ...ruleset import ReportSection
    data = advantage_matrix()
    lines = [f"Over the {data['conflicts']} two-nation conflicts of the `two-sides` space (1 to 3 ships a side, "
             "every set of Metalworking, Mathematics and Engineering), each pair of readings of '+1 advantage':",
             "", "| readings | removals differ | survivors differ | smallest conflict where the survivors differ |",
             "|---|---|---|---|"]
    for pair in data["pairs"]:
        a, b = pair["readings"]
        ex = pair["example"]
        words = (f"{ex['sides']}: {a} removes {ex[a]}, {b} removes {ex[b]}" if ex else "none")
        lines.append(f"| {a} vs {b} | {pair['removals_differ']} | {pair['survivors_differ']} | {words} |")
    return [ReportSection("Where the readings of '+1 advantage' disagree", "\n".join(lines), data)]
