"""Armada 2000's suite for ``verifier bench`` (never asserted in tests).

``armada2k.fleet``
    step checks, firing checks and allowed-heading fans with 12 ships a side and four reefs.
``armada2k.growth``
    reading, checking and resolving a crowd of 5, 50 and 500 ships (1x, 10x and 100x, through
    ``kit.bench.growth_suite``), each moving one step: time and peak memory; the bound is
    n log n in ships (every overlap question goes through a spatial index).
"""

from __future__ import annotations

import math
from typing import Any

from ...kit.bench import best_seconds, growth_suite
from ...ruleset import BenchSettings, BenchSuite
from .model import SIZES, Action, Area, Obstacle, Scene, Ship, Variants


def fleet(per_side: int = 12) -> Scene:
    """Two fleets of ``per_side`` ships (four of each size) facing each other across a round
    sea 20 inches across, with four reefs between them."""
    ships = []
    for side, player, y, heading in ((0, "blue", -3.0, 0.0), (1, "red", 3.0, 180.0)):
        for i in range(per_side):
            size = SIZES[i % 3]
            x = -6.6 + 1.2 * (i % 12)
            row = i // 12
            ships.append(Ship(f"{player[0]}{i}", player, size, (x, y - row * 2.2 if side == 0 else y + row * 2.2),
                              heading))
    reefs = tuple(Obstacle(f"reef{i}", ((x, -0.5), (x + 1, -0.5), (x + 1, 0.5), (x, 0.5)))
                  for i, x in enumerate((-6.0, -2.5, 1.5, 5.0)))
    return Scene(Area(), tuple(ships), ("blue", "red"), "blue", reefs, (), (), Variants(obstructed=True))


def afresh(world: Any) -> None:
    """Forget what ``world`` and the resolver worked out before, so a repeat times the work again."""
    from .resolver import clear_caches
    clear_caches()
    world.steps.clear()
    world.critical.clear()


def _rate(count: int, seconds: float) -> dict[str, Any]:
    return {"count": count, "seconds": seconds, "per_second": count / seconds}


def _run(settings: BenchSettings) -> dict[str, Any]:
    from . import RULESET
    from .geometry import World, check_step, fan
    from .resolver import _aim, _Run, clear_caches
    reading = RULESET.default_reading
    scene = fleet()
    ships = {s.name: s for s in scene.ships}
    repeats = settings.repeats or (1 if settings.quick else 3)
    rows = {}
    world = World(scene, ships, "slant")
    blue = [s for s in scene.ships if s.player == "blue"]
    red = [s for s in scene.ships if s.player == "red"]
    turns = range(-60, 61, 10)

    def steps() -> None:
        afresh(world)
        for ship in blue:
            for turn in turns:
                check_step(ship, ship.heading + turn, world, frozenset({ship.name}))

    rows["steps"] = _rate(len(blue) * len(turns), best_seconds(steps, repeats))
    best = math.inf
    for _ in range(repeats):  # a fresh run each time, made outside the timing
        run = _Run(scene, reading, dict(ships), 0)

        def shots(run: _Run = run) -> None:
            clear_caches()
            for ship in blue:
                for target in red[:6]:
                    _aim(run, ship, "starboard", target, False)

        best = min(best, best_seconds(shots, 1))
    rows["shots"] = _rate(len(blue) * len(red[:6]), best)

    def fans() -> None:
        afresh(world)
        for ship in blue + red:
            fan(ship, world, reading, frozenset({ship.name}))

    rows["fans"] = _rate(len(blue) + len(red), best_seconds(fans, repeats))
    return {"ships_per_side": 12, "obstacles": 4, **rows}


def _table(figures: Any) -> str:
    words = {"steps": "step checks (one heading)", "shots": "firing checks", "fans": "allowed-heading fans"}
    return "\n".join(f"{words[k]:<28} {figures[k]['count']:>5} in {figures[k]['seconds'] * 1e3:8.1f} ms  "
                     f"({figures[k]['per_second']:,.0f}/s)" for k in ("steps", "shots", "fans"))


GROWTH_BOUND = "n log n in ships"


def crowd(ships: int) -> tuple[Scene, tuple[Action, ...]]:
    """``ships`` small ships of two players on a square lattice 1.5 inches apart, in a
    square sea just large enough, each moving one step straight ahead."""
    side = int(ships ** 0.5) + 1
    half = 1.5 * side / 2 + 2.0
    pieces = tuple(Ship(f"s{i}", ("blue", "red")[i % 2], "small", (1.5 * (i % side) - half + 2.0,
                                                                   1.5 * (i // side) - half + 2.0), 0.0)
                   for i in range(ships))
    area = Area(points=((-half, -half), (half, -half), (half, half), (-half, half)))
    scene = Scene(area, pieces, ("blue", "red"), "blue", (), (), (), Variants(stashes=ships // 5 + 1))
    return scene, tuple(Action("move", s.name, (0.0,)) for s in pieces if s.player == "blue")


def _read_and_resolve(ships: int):
    """The call that reads ``crowd(ships)`` as a case file's data (every set-up check) and
    resolves it."""
    from ...source import Located
    from . import RULESET
    from .parse import case_data
    before, actions = case_data(*crowd(ships))
    doc = Located("<bench>", {"before": before, "actions": actions}, {}, {})

    from .resolver import clear_caches

    def call() -> None:
        clear_caches()  # every run afresh: the resolver keeps outcomes, worlds and shapes it made
        scene, parsed, _ = RULESET.parse(doc, ("before",), ("actions",), None)
        RULESET.resolve(scene, parsed, RULESET.default_reading)
    return call


SUITES = (BenchSuite("fleet", "step checks, firing checks and allowed-heading fans with 12 ships a side and four "
                              "reefs", _run, _table),
          growth_suite("read and resolve", _read_and_resolve, 5, GROWTH_BOUND, noun="ships"))
