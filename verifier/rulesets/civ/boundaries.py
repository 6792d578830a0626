"""Civ's boundaries (Capability.BOUNDARIES): a ship's load against its capacity, and equal
numbers of tokens meeting in a land conflict.

Both are counts, so they are reached by adding or taking away whole tokens: on the
boundary the count equals the capacity or the other side's count, just either side it is
one fewer or one more. A count that the case reader refuses (more aboard than a ship
holds) is not built.
"""

from __future__ import annotations

from dataclasses import replace

from ...kit.boundary import Boundary, Chooser, Path, readable
from .model import CAPACITY, Actions, Scene, ShipMove, Stop, Turn


def _valid(scene: Scene, actions: Actions) -> bool:
    from ... import registry
    return readable(registry.get("civ"))(scene, actions)


def _boardings(actions: Actions) -> list[tuple[int, int, int]]:
    """(turn, move, stop) of every stop where tokens board."""
    return [(t, m, s) for t, turn in enumerate(actions.turns) for m, move in enumerate(turn.moves)
            for s, stop in enumerate(move.path) if stop.board]


def load_over(scene: Scene, actions: Actions) -> float | None:
    """The first boarding's tokens (with those already aboard) less the ship's capacity."""
    found = _boardings(actions)
    if not found:
        return None
    t, m, s = found[0]
    move = actions.turns[t].moves[m]
    return float(move.path[s].board + scene.ship(move.ship).aboard - CAPACITY)


def _replace_stop(actions: Actions, t: int, m: int, s: int, stop: Stop) -> Actions:
    turn = actions.turns[t]
    move = turn.moves[m]
    moved = ShipMove(move.ship, move.path[:s] + (stop,) + move.path[s + 1:])
    turns = actions.turns[:t] + (Turn(turn.nation, turn.moves[:m] + (moved,) + turn.moves[m + 1:], turn.lift),) \
        + actions.turns[t + 1:]
    return replace(actions, turns=turns)


def _with_boarding(scene: Scene, actions: Actions) -> Actions | None:
    """Where no tokens board: the first ship that moves from an area where its nation has
    tokens takes one aboard there before it leaves, and sets it down where it ends (every
    token aboard must land)."""
    held = {(a, n) for a, n, c in scene.tokens if c > 0}
    for t, turn in enumerate(actions.turns):
        for m, move in enumerate(turn.moves):
            ship = scene.ship(move.ship)
            if (ship.at, ship.nation) not in held:
                continue
            path = move.path if move.path and move.path[0].area == ship.at else (Stop(ship.at),) + move.path
            if len(path) < 2:
                continue
            path = (replace(path[0], board=1),) + path[1:-1] + (replace(path[-1], drop=1),)
            moved = ShipMove(move.ship, path)
            turns = actions.turns[:t] + (Turn(turn.nation, turn.moves[:m] + (moved,) + turn.moves[m + 1:],
                                              turn.lift),) + actions.turns[t + 1:]
            return replace(actions, turns=turns)
    return None


def load_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """The first boarding (one added where there is none) takes one token more or fewer at
    a time (the tokens on the coast, and those it drops later, growing with it)."""
    found = _boardings(actions)
    if not found:
        boarding = _with_boarding(scene, actions)
        if boarding is None:
            return None
        actions, found = boarding, _boardings(boarding)
    t, m, s = found[0]
    move = actions.turns[t].moves[m]
    ship = scene.ship(move.ship)
    stop = move.path[s]
    nation = ship.nation

    def at(count: float) -> tuple[Scene, Actions]:
        n = int(count)
        tokens = tuple((a, k, max(c, n) if (a, k) == (stop.area, nation) else c) for a, k, c in scene.tokens)
        if not any((a, k) == (stop.area, nation) for a, k, _ in scene.tokens):
            tokens = tuple(sorted(tokens + ((stop.area, nation, n),)))
        changed = _replace_stop(actions, t, m, s, replace(stop, board=n))
        drops = [i for i, later in enumerate(move.path) if i > s and later.drop]
        if drops:
            later = move.path[drops[-1]]
            changed = _replace_stop(changed, t, m, drops[-1], replace(later, drop=n + ship.aboard))
        return replace(scene, tokens=tokens), changed

    return Path(at, 1, CAPACITY - ship.aboard + 1, integral=True, valid=_valid)


def _meetings(scene: Scene) -> list[tuple[str, str, str]]:
    """(area, nation, nation) where two nations have tokens in one area before the phase."""
    by_area: dict[str, list[str]] = {}
    for area, nation, count in sorted(scene.tokens):
        if count > 0:
            by_area.setdefault(area, []).append(nation)
    return [(area, nations[0], nations[1]) for area, nations in sorted(by_area.items()) if len(nations) > 1]


def count_difference(scene: Scene, actions: Actions) -> float | None:
    """In the first area where two nations' tokens stand together: the first nation's count
    less the second's (0: equal numbers)."""
    found = _meetings(scene)
    if not found:
        return None
    area, first, second = found[0]
    counts = {(a, n): c for a, n, c in scene.tokens}
    return float(counts[(area, first)] - counts[(area, second)])


def count_path(scene: Scene, actions: Actions, choose: Chooser) -> Path | None:
    """The first nation's tokens in an area the two share grow or shrink one at a time; where
    no area is shared, a second nation's tokens are set beside the first's on its coast."""
    found = _meetings(scene)
    if found:
        area, first, second = found[0]
    else:
        if len(scene.nations) < 2 or not scene.tokens:
            return None
        area, second, _ = scene.tokens[0]
        first = next(n.name for n in scene.nations if n.name != second)
    counts = {(a, n): c for a, n, c in scene.tokens}
    other = counts.get((area, second), 0)
    rest = tuple((a, n, c) for a, n, c in scene.tokens if (a, n) != (area, first))

    def at(count: float) -> tuple[Scene, Actions]:
        return replace(scene, tokens=tuple(sorted(rest + ((area, first, int(count)),)))), actions

    return Path(at, 1, max(other + 1, 2) + choose.integer(0, 2), integral=True, valid=_valid)


BOUNDARIES = (
    Boundary("load-at-capacity", ("ship.1", "ship.4"),
             "the tokens a ship carries after boarding against the most it holds", load_over, load_path, integral=True),
    Boundary("equal-numbers", ("conflict.1",),
             "two nations' tokens in one area: the difference of their counts",
             count_difference, count_path, integral=True),
)
