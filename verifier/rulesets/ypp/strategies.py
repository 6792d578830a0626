"""YPP scenes that favour interaction: ships packed close together (half the fleets of three
or more of one size class), tokens that aim at the same tiles, wind and whirlpools next to
ships, rocks and edges in the way. Written once
against ``kit.choices.Choices``: Hypothesis draws them (``scenes_and_turns``), and the
explorer's search builds them from a seeded ``random.Random`` (``scene``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...kit.choices import Choices, strategy
from .model import SHIP_TYPES, Board, Heading, Scene, Token, Turn, ship_at

# One representative type per size class keeps shrunk examples readable.
TYPES_BY_CLASS = ("sloop", "war brig", "war frigate", "grand frigate")
HEADINGS = tuple(Heading)
TOKENS = tuple(Token)
NAMES = "ABCDEFGH"


@lru_cache(maxsize=64)
def _tiles(width: int, height: int) -> tuple[tuple[int, int], ...]:
    """Every tile of a board of this size, column by column."""
    return tuple([(x, y) for x in range(width) for y in range(height)])


@lru_cache(maxsize=2048)
def _nearest(width: int, height: int, centre: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Every tile of a board of this size, nearest ``centre`` first (Manhattan), then by tile."""
    cx, cy = centre
    return tuple([t for _, t in sorted([(abs(t[0] - cx) + abs(t[1] - cy), t) for t in _tiles(width, height)])])


def board(choose: Choices, min_size: int = 3, max_size: int = 7) -> Board:
    width = choose.integer(min_size, max_size)
    height = choose.integer(min_size, max_size)
    tiles = _tiles(width, height)
    whirlpools: tuple[tuple[int, int], ...] = ()
    free = tiles
    if choose.flag():
        x = choose.integer(0, width - 2)
        y = choose.integer(0, height - 2)
        whirlpools = ((x, y),)
        taken = {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
        free = tuple([t for t in tiles if t not in taken])
    wind = [(tile, choose.pick(HEADINGS)) for tile in choose.subset(free, 3)]
    if wind:
        blown = {tile for tile, _ in wind}
        free = tuple([t for t in free if t not in blown])
    rocks = choose.subset(free, 2)
    return Board(width, height, frozenset(rocks), tuple(sorted(wind)), whirlpools)


def ships(choose: Choices, where: Board, max_ships: int = 4, types: tuple[str, ...] = TYPES_BY_CLASS) -> Scene:
    rocks = where.rocks
    tiles = _tiles(where.width, where.height)
    free = tuple([t for t in tiles if t not in rocks]) if rocks else tiles
    count = choose.integer(1, min(max_ships, len(free)))
    # Cluster ships around one centre so that they meet: the nearest tiles, then by tile.
    centre = choose.pick(free)
    nearest = _nearest(where.width, where.height, centre)
    near = (nearest[: count + 4] if not rocks
            else tuple([t for t in nearest if t not in rocks][: count + 4]))
    spots = choose.subset(near, count, count)
    if count > 2 and choose.flag():
        # Half the fleets of three or more ships are of one class: a bump between ships of one
        # class is decided by the motion bullets alone (a forward mover knocks the other on), and
        # two such bumps on one ship need three ships of a class, one in 16 fleets otherwise.
        types = (choose.pick(types),)
    return Scene(where, tuple([ship_at(NAMES[i], choose.pick(types), at, choose.pick(HEADINGS))
                               for i, at in enumerate(spots)]))


def turn(choose: Choices, scene: Scene, max_rounds: int = 4) -> Turn:
    names = [ship.name for ship in scene.ships]
    pick = choose.pick
    rounds = []
    for _ in range(choose.integer(1, max_rounds)):
        tokens = [(name, pick(TOKENS)) for name in names]
        rounds.append(tuple([(name, token) for name, token in tokens if token is not Token.NONE]))
    return Turn(tuple(rounds))


def scene(choose: Choices, max_ships: int = 4, max_rounds: int = 4) -> tuple[Scene, Turn]:
    """A board, ships clustered on it, and a turn of up to ``max_rounds`` rounds."""
    placed = ships(choose, board(choose), max_ships)
    return placed, turn(choose, placed, max_rounds)


def scenes_and_turns(max_ships: int = 4, max_rounds: int = 4) -> Any:
    """The Hypothesis strategy of ``scene``."""
    return strategy(lambda choose: scene(choose, max_ships, max_rounds))


assert all(t in SHIP_TYPES for t in TYPES_BY_CLASS)
