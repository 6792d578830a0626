"""Exhaustive spaces of three and four ships on a small square board, one scene per class
of scenes that symmetry makes equivalent.

Two scenes are equivalent when one is the other turned by quarter turns, mirrored (tokens
left and right swapped with it), or with its ships named otherwise: the board has no
whirlpool, so all eight symmetries of the square apply (see ``explore.transforms``), and a
ship's name only fixes the order ships are listed in. Each class is enumerated once, from
its smallest member, with its weight: how many named scenes it stands for. The explorer
still checks every class representative for order and symmetry findings, so a rule that
broke one of these symmetries would show as a finding rather than hide in the reduction.

A space is cut into shards by units of (placement of the ships and the rock, state of the
first ship): unit ``u`` belongs to shard ``u % count``, which keeps shards balanced and lets
a worker enumerate its shard without going through the others.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from math import factorial

from .model import Board, Heading, Scene, Ship, Token, Turn

HEADINGS = tuple(Heading)  # N, E, S, W: clockwise
TOKENS = tuple(Token)
NAMES = "ABCD"
_MIRRORED_TOKEN = {Token.LEFT: Token.RIGHT, Token.RIGHT: Token.LEFT}


@dataclass(frozen=True)
class Space:
    ships: int
    size: int  # the board is size x size tiles
    types: tuple[str, ...]  # every ship takes each of these in turn
    rock: bool  # one rock on any tile no ship is on
    summary: str

    @property
    def states(self) -> int:
        return len(HEADINGS) * len(TOKENS) * len(self.types)

    @property
    def raw_scenes(self) -> int:
        """Scenes with named ships, before any reduction."""
        tiles = self.size * self.size
        placements = 1
        for k in range(self.ships):
            placements *= tiles - k
        return placements * self.states ** self.ships * ((tiles - self.ships) if self.rock else 1)


SPACES = {
    "three-ships": Space(3, 4, ("sloop",), False,
                         "three sloops anywhere on an open 4x4 board, every heading and token: 13,762,560 scenes "
                         "in 286,720 classes"),
    "three-ships-terrain": Space(3, 4, ("sloop",), True,
                                 "three sloops and one rock anywhere on a 4x4 board, every heading and token: "
                                 "178,913,280 scenes in about 3.7 million classes (for a cluster)"),
    "four-ships": Space(4, 4, ("sloop",), False,
                        "four sloops anywhere on an open 4x4 board, every heading and token: 2,862,612,480 scenes "
                        "in 14,913,104 classes (for a cluster)"),
    "four-ships-terrain": Space(4, 4, ("sloop",), True,
                               "four sloops and one rock anywhere on a 4x4 board, every heading and token: "
                               "34,351,349,760 scenes in about 179 million classes (for a cluster)"),
}

Tile = tuple[int, int]
State = tuple[int, int, int]  # heading, token, type: indices
# One symmetry of the square: tiles, heading indices and token indices mapped.
Symmetry = tuple[Callable[[Tile], Tile], Callable[[int], int], Callable[[int], int]]


def symmetries(size: int) -> list[Symmetry]:
    """The eight symmetries of a size x size board, the identity first."""
    def turn(tile: Tile, times: int) -> Tile:
        for _ in range(times):
            tile = (size - 1 - tile[1], tile[0])
        return tile

    mirror_token = {i: TOKENS.index(_MIRRORED_TOKEN.get(t, t)) for i, t in enumerate(TOKENS)}
    found: list[Symmetry] = []
    for mirrored in (False, True):
        for times in range(4):
            def tile_map(t: Tile, times: int = times, mirrored: bool = mirrored) -> Tile:
                return turn((size - 1 - t[0], t[1]) if mirrored else t, times)

            def heading_map(h: int, times: int = times, mirrored: bool = mirrored) -> int:
                return ((-h if mirrored else h) + times) % 4

            def token_map(k: int, mirrored: bool = mirrored) -> int:
                return mirror_token[k] if mirrored else k

            found.append((tile_map, heading_map, token_map))
    return found


Layout = tuple[tuple[Tile, ...], Tile | None]  # ship tiles, sorted; the rock


def _moved_layout(layout: Layout, symmetry: Symmetry) -> Layout:
    tiles, rock = layout
    tile = symmetry[0]
    return tuple(sorted(tile(t) for t in tiles)), (tile(rock) if rock is not None else None)


@cache
def layouts(space: Space) -> tuple[tuple[Layout, tuple[int, ...]], ...]:
    """Every placement of the ships (and the rock) that is the smallest of its class, with the
    symmetries (by index) that leave it where it is."""
    board = sorted((x, y) for y in range(space.size) for x in range(space.size))
    moves = symmetries(space.size)
    found = []
    for tiles in combinations(board, space.ships):
        for rock in ([t for t in board if t not in tiles] if space.rock else [None]):
            layout: Layout = (tiles, rock)
            images = [_moved_layout(layout, g) for g in moves]
            if all(_order(layout) <= _order(image) for image in images):
                found.append((layout, tuple(i for i, image in enumerate(images) if image == layout)))
    return tuple(found)


def _order(layout: Layout) -> tuple:
    tiles, rock = layout
    return tiles, rock or (-1, -1)


def _code(state: State, types: int) -> int:
    heading, token, kind = state
    return (heading * len(TOKENS) + token) * types + kind


def _moved_states(tiles: tuple[Tile, ...], states: tuple[State, ...], symmetry: Symmetry) -> tuple[State, ...]:
    tile, heading, token = symmetry
    moved = sorted((tile(t), (heading(s[0]), token(s[1]), s[2])) for t, s in zip(tiles, states))
    return tuple(s for _, s in moved)


def _weight(space: Space, tiles: tuple[Tile, ...], states: tuple[State, ...], keep: tuple[int, ...],
            moves: list[Symmetry]) -> int:
    """0 if the scene is not the smallest of its class; otherwise the named scenes the class holds."""
    fixed = 1  # the identity
    codes = [_code(s, len(space.types)) for s in states]
    for index in keep:
        image = _moved_states(tiles, states, moves[index])
        image_codes = [_code(s, len(space.types)) for s in image]
        if image_codes < codes:
            return 0
        fixed += image_codes == codes
    return factorial(space.ships) * len(moves) // fixed


def _all_states(space: Space) -> list[State]:
    return list(product(range(len(HEADINGS)), range(len(TOKENS)), range(len(space.types))))


def _units(space: Space) -> Iterator[tuple[int, Layout, tuple[int, ...], State]]:
    unit = 0
    for layout, keep in layouts(space):
        for state in _all_states(space):
            yield unit, layout, keep, state
            unit += 1


def shard(name: str, index: int, count: int) -> Iterator[tuple[Scene, Turn, int]]:
    """The classes of shard ``index`` of ``count``: (scene, turn, weight)."""
    space = SPACES[name]
    moves = symmetries(space.size)
    states = _all_states(space)
    boards: dict[Tile | None, Board] = {}
    for unit, (tiles, rock), keep, first in _units(space):
        if unit % count != index:
            continue
        board = boards.get(rock)
        if board is None:
            board = boards[rock] = Board(space.size, space.size, frozenset({rock}) if rock is not None else frozenset())
        for rest in product(states, repeat=space.ships - 1):
            chosen = (first, *rest)
            weight = _weight(space, tiles, chosen, keep[1:], moves) if len(keep) > 1 else \
                factorial(space.ships) * len(moves)
            if not weight:
                continue
            ships = tuple(Ship(NAMES[i], space.types[s[2]], t, HEADINGS[s[0]]) for i, (t, s) in
                          enumerate(zip(tiles, chosen)))
            turn = Turn((tuple((NAMES[i], TOKENS[s[1]]) for i, s in enumerate(chosen)),))
            yield Scene(board, ships), turn, weight


def classes(name: str) -> int:
    """How many classes the space holds (enumerating only the placements that some symmetry
    leaves in place; the others hold every assignment of states)."""
    space = SPACES[name]
    moves = symmetries(space.size)
    total = 0
    for (tiles, _), keep in layouts(space):
        if len(keep) == 1:
            total += space.states ** space.ships
            continue
        total += sum(1 for chosen in product(_all_states(space), repeat=space.ships)
                     if _weight(space, tiles, chosen, keep[1:], moves))
    return total


def space_scenes(name: str) -> tuple[int, Iterator[tuple[Scene, Turn]]]:
    """(classes, scenes) of the space, for the explorer's ``exhaustive_space``."""
    return classes(name), ((scene, turn) for scene, turn, _ in shard(name, 0, 1))
