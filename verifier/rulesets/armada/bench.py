"""Armada's suite for ``verifier bench`` (never asserted in tests).

``armada.maneuvers``
    maneuvers a second, with overlap checks, among 10, 100 and 1,000 other ships.
``armada.growth``
    reading (every set-up check) and resolving a crowd of 20, 200 and 2,000 ships (1x, 10x and
    100x, through ``kit.bench.growth_suite``), a tenth of them maneuvering: time and peak memory;
    the bound is n log n in ships (bases sit in a spatial index).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...kit.bench import best_seconds, growth_suite
from ...kit.geometry import Pose
from ...ruleset import BenchSettings, BenchSuite
from .model import SHIP_TYPES, Maneuver, Maneuvers, Scene, Ship
from .resolver import clear_caches, resolve


def crowd(others: int, maneuvers: int) -> tuple[Scene, Maneuvers]:
    """``others`` standing ships on a lattice 120 mm apart, and ``maneuvers`` more ships among
    them that each make a speed-2 maneuver into the crowd (many overlap and drop speed)."""
    total = others + maneuvers
    side = int(total ** 0.5) + 1
    every = max(1, total // maneuvers)
    ships = []
    moving: list[Maneuver] = []
    for i in range(total):
        row, col = divmod(i, side)
        mover = i % every == 0 and len(moving) < maneuvers
        name = f"m{i}" if mover else f"s{i}"
        ships.append(Ship(name, "red", SHIP_TYPES["cr90"], Pose(80.0 + 120.0 * col, 80.0 + 120.0 * row, 0.0), 2))
        if mover:
            moving.append(Maneuver(name, (1, -2) if len(moving) % 2 else (0, 1), "starboard"))
    width = 160.0 + 120.0 * side
    return Scene(width, width + 200.0, tuple(ships)), tuple(moving)


def _best(scene: Scene, moves: Maneuvers, repeats: int) -> float:
    from . import RULESET

    def afresh() -> None:  # nothing kept from the run before: the resolver keeps outcomes and shapes
        clear_caches()
        resolve(scene, moves, RULESET.default_reading)
    return best_seconds(afresh, repeats)


def _run(settings: BenchSettings) -> dict[str, Any]:
    rows = []
    count = 20 if settings.quick else 50
    for others in (10, 100, 1_000):
        scene, moves = crowd(others, count)
        fresh = replace(scene, ships=tuple(Ship(s.name, s.owner, s.type, s.pose, s.speed) for s in scene.ships))
        setup = _best(fresh, (), settings.repeats or 3)  # the index over every base, once per resolution
        total = _best(scene, moves, settings.repeats or 3)
        each = max(total - setup, 1e-9) / len(moves)
        rows.append({"others": others, "maneuvers": len(moves), "seconds": total, "setup_seconds": setup,
                     "seconds_per_maneuver": each, "maneuvers_per_second": 1 / each})
    return {"rows": rows}


def _table(figures: Any) -> str:
    return "\n".join(f"{r['maneuvers']} maneuvers among {r['others']:>5,} other ships: {r['seconds'] * 1e3:7.1f} ms "
                     f"(setup {r['setup_seconds'] * 1e3:5.1f} ms, then {r['seconds_per_maneuver'] * 1e3:5.2f} ms a "
                     f"maneuver: {r['maneuvers_per_second']:,.0f} maneuvers/s)" for r in figures["rows"])


GROWTH_BOUND = "n log n in ships"


def _read_and_resolve(ships: int):
    """The call that reads ``crowd`` of ``ships`` ships as a case file's data (every set-up
    check) and resolves it."""
    from ...source import Located
    from . import RULESET
    from .parse import case_data
    before, actions = case_data(*crowd(ships - ships // 10, ships // 10))
    doc = Located("<bench>", {"before": before, "actions": actions}, {}, {})

    def call() -> None:
        clear_caches()  # every run afresh: the resolver keeps outcomes and shapes it made
        scene, maneuvers, _ = RULESET.parse(doc, ("before",), ("actions",), None)
        RULESET.resolve(scene, maneuvers, RULESET.default_reading)
    return call


SUITES = (BenchSuite("maneuvers", "maneuvers a second, with overlap checks, among 10, 100 and 1,000 other ships "
                                  "(a spatial index: the cost grows far slower than the crowd)", _run, _table),
          growth_suite("read and resolve", _read_and_resolve, 20, GROWTH_BOUND, noun="ships"))
