"""Benchmarks (Capability.BENCHMARKS): ``verifier bench --suite civ.conflicts`` and
``civ.phase``: ship conflicts resolved per second, and one movement phase with the
ships of 20 nations on a map of 500 areas. ``civ.growth``: reading and resolving a phase
on 50, 500 and 5,000 areas (a nation for every 25 areas); ``civ.growth-tokens``: a land
conflict of 100, 1,000 and 10,000 tokens (the most a case may hold). Both are 1x, 10x and
100x through ``kit.bench.growth_suite``, with time and peak memory. The bound is n log n in
areas, ships and tokens: a conflict removes a token a step."""

from __future__ import annotations

import random
from typing import Any

from ...kit.bench import best_seconds, growth_suite
from ...ruleset import BenchSettings, BenchSuite
from .model import (
    ADVANTAGE_ADVANCES,
    CLOTH_MAKING,
    LAND,
    MAX_SHIPS,
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
from .resolver import fight, resolve


def _conflict_rate(count: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        sides = {f"n{i}": [f"n{i}s{k}" for k in range(rng.randint(1, 4))] for i in range(rng.randint(2, 4))}
        strength = {n: rng.randint(0, 3) for n in sides}
        cases.append((sides, strength))

    def fight_all() -> None:
        for sides, strength in cases:
            def key(nation: str, pieces: int, s: dict[str, int] = strength) -> tuple:
                return (0, pieces + s[nation])
            fight({n: list(v) for n, v in sides.items()}, key)

    seconds = best_seconds(fight_all, repeats=1)
    return {"conflicts": count, "seconds": seconds, "per_second": count / seconds}


def big_phase(areas: int = 500, nations: int = 20, seed: int = 7) -> tuple[Scene, Actions]:
    """A grid of ``areas`` areas (water, coasts, some inland and open sea), ``nations``
    nations with four ships each, every ship moving four areas, conflicts wanted everywhere."""
    rng = random.Random(seed)
    width = 25
    rows = areas // width
    kinds: dict[tuple[int, int], tuple[str, bool]] = {}
    for y in range(rows):
        for x in range(width):
            roll = rng.random()
            kinds[(x, y)] = ((WATER, False) if roll < 0.45 else (OPEN_SEA, False) if roll < 0.55 else
                             (LAND, True) if roll < 0.9 else (LAND, False))
    names = {xy: f"a{xy[0]}_{xy[1]}" for xy in kinds}
    area_list = []
    for (x, y), (kind, coast) in kinds.items():
        near = [names[(x + dx, y + dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if (x + dx, y + dy) in kinds]
        area_list.append(Area(names[(x, y)], kind, coast, tuple(sorted(near)), (2.0 * x, 2.0 * y)))
    game_map = Map("", tuple(sorted(area_list, key=lambda a: a.name)))
    navigable = sorted(a.name for a in game_map.areas if a.navigable and a.kind != OPEN_SEA)
    nation_list = tuple(Nation(f"N{i:02d}", frozenset(rng.sample(ADVANTAGE_ADVANCES + (CLOTH_MAKING,), 2)))
                        for i in range(nations))
    ships, turns = [], []
    for nation in nation_list:
        moves = []
        for k in range(MAX_SHIPS):
            at = rng.choice(navigable)
            ship = Ship(f"{nation.name}s{k}", nation.name, at)
            ships.append(ship)
            path, here = [], at
            for _ in range(4):
                options = [n for n in game_map.area(here).touches if game_map.area(n).navigable
                           and game_map.area(n).kind != OPEN_SEA]
                if not options:
                    break
                here = rng.choice(options)
                path.append(Stop(here))
            if path:
                moves.append(ShipMove(ship.name, tuple(path)))
        turns.append(Turn(nation.name, tuple(moves)))
    choices = Choices(conflict=tuple((a, True) for a in navigable), prevent=tuple((a, True) for a in navigable))
    return (Scene(game_map, frozenset({"A", "B"}), nation_list, tuple(ships), ()),
            Actions((), tuple(turns), choices))


def _scene_rate(reading: Any) -> dict[str, Any]:
    """Whole resolutions of the 576 two-nation conflicts of the exhaustive space."""
    from .explore import exhaustive_space
    _, scenes = exhaustive_space("two-sides")
    listed = list(scenes)
    seconds = best_seconds(lambda: [resolve(scene, actions, reading) for scene, actions in listed], repeats=1)
    return {"scenes": len(listed), "seconds": seconds, "per_second": len(listed) / seconds}


def _run(settings: BenchSettings) -> dict[str, Any]:
    from . import RULESET
    conflicts = _conflict_rate(2_000 if settings.quick else 20_000, 1)
    scenes = _scene_rate(RULESET.default_reading)
    scene, actions = big_phase()
    best = best_seconds(lambda: resolve(scene, actions, RULESET.default_reading), settings.repeats or 3)
    outcome = resolve(scene, actions, RULESET.default_reading)
    fought = sum(1 for e in outcome.events if e.kind == "conflict")
    phase = {"areas": len(scene.map.areas), "nations": len(scene.nations), "ships": len(scene.ships),
             "seconds": best, "ship_conflicts": fought}
    return {"conflicts": conflicts, "scenes": scenes, "phase": phase}


def _table(figures: Any) -> str:
    c, p, r = figures["conflicts"], figures["phase"], figures["scenes"]
    return (f"ship conflicts      {c['conflicts']:>7,} in {c['seconds'] * 1e3:8.1f} ms  ({c['per_second']:,.0f}/s)\n"
            f"conflict scenes     {r['scenes']:>7,} in {r['seconds'] * 1e3:8.1f} ms  ({r['per_second']:,.0f}/s, "
            "whole resolutions)\n"
            f"movement phase      {p['nations']} nations, {p['ships']} ships, {p['areas']} areas: "
            f"{p['seconds'] * 1e3:.1f} ms ({p['ship_conflicts']} ship conflicts)")


GROWTH_BOUND = "n log n in areas, ships and tokens"


def _read_and_resolve(scene: Scene, actions: Actions):
    """The call that reads the scene as a case file's data (every check, including the
    resolution the parser makes to check the branches) and resolves it."""
    from ...source import Located
    from . import RULESET
    from .parse import case_data
    before, acts = case_data(scene, actions)
    doc = Located("<bench>", {"before": before, "actions": acts}, {}, {})

    def call() -> None:
        read, read_actions, _ = RULESET.parse(doc, ("before",), ("actions",), None)
        resolve(read, read_actions, RULESET.default_reading)
    return call


def land_conflict(tokens: int) -> tuple[Scene, Actions]:
    """Two nations in one land area, ``tokens`` tokens and half as many."""
    areas = (Area("land", LAND, True, ("sea",), (0.0, 0.0)), Area("sea", WATER, False, ("land",), (1.0, 0.0)))
    nations = (Nation("A", frozenset()), Nation("B", frozenset()))
    return (Scene(Map("", areas), frozenset(), nations, (), (("land", "A", tokens - tokens // 3),
                                                           ("land", "B", tokens // 3))), Actions((), (), Choices()))


def _phase_of(areas: int):
    """Reading and resolving a movement phase on ``areas`` areas, with a nation (four ships)
    for every 25 areas."""
    return _read_and_resolve(*big_phase(areas=areas, nations=max(2, areas // 25)))


def _land_conflict_of(tokens: int):
    return _read_and_resolve(*land_conflict(tokens))


SUITES = (BenchSuite("phase", "ship conflicts per second, and one movement phase of 20 nations' ships on a map of "
                              "500 areas", _run, _table),
          growth_suite("read and resolve a phase", _phase_of, 50, GROWTH_BOUND, noun="areas"),
          growth_suite("read and resolve a land conflict", _land_conflict_of, 100, GROWTH_BOUND, noun="tokens",
                       name="growth-tokens"))
