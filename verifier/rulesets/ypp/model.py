"""Value types of the YPP sea-battle board: tiles, headings, ships, boards, turns.

Coordinates: ``(x, y)`` with x growing east and y growing south; (0, 0) is the
north-west corner of the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cached_property

Tile = tuple[int, int]


class Heading(Enum):
    N = (0, -1)
    E = (1, 0)
    S = (0, 1)
    W = (-1, 0)

    # Members are singletons, so identity hashing is exact, and it runs in C rather than
    # Enum's Python-level __hash__ (a hot spot when resolving thousands of ships).
    __hash__ = object.__hash__

    @property
    def dx(self) -> int:
        return self.value[0]

    @property
    def dy(self) -> int:
        return self.value[1]

    def opposite(self) -> Heading:
        return _CLOCKWISE[_CLOCKWISE[self]]

    def clockwise(self) -> Heading:
        return _CLOCKWISE[self]

    def counterclockwise(self) -> Heading:
        return _COUNTER[self]

    def ahead(self, tile: Tile, steps: int = 1) -> Tile:
        return (tile[0] + self.dx * steps, tile[1] + self.dy * steps)


_ORDER = [Heading.N, Heading.E, Heading.S, Heading.W]
_CLOCKWISE = {h: _ORDER[(i + 1) % 4] for i, h in enumerate(_ORDER)}
_COUNTER = {h: _ORDER[(i - 1) % 4] for i, h in enumerate(_ORDER)}


class SizeClass(IntEnum):
    SMALL = 1
    MEDIUM = 2
    LARGE = 3
    GRAND = 4

    @property
    def label(self) -> str:
        return self.name.lower()


# Ship types and their size classes, from the table in seed 000
# ("Collisions during movement", "Concepts"). The war galleon is not in it.
SHIP_TYPES: Mapping[str, SizeClass] = {
    "sloop": SizeClass.SMALL,
    "cutter": SizeClass.SMALL,
    "dhow": SizeClass.SMALL,
    "fanchuan": SizeClass.SMALL,
    "longship": SizeClass.MEDIUM,
    "baghlah": SizeClass.MEDIUM,
    "merchant brig": SizeClass.MEDIUM,
    "junk": SizeClass.MEDIUM,
    "war brig": SizeClass.MEDIUM,
    "merchant galleon": SizeClass.LARGE,
    "xebec": SizeClass.LARGE,
    "war frigate": SizeClass.LARGE,
    "grand frigate": SizeClass.GRAND,
}


# Ram values from the same table: the damage a ram is worth, as an equivalent number of
# hits by a small, a medium and a large shot.
RAM_VALUES: Mapping[str, tuple[float, float, float]] = {
    "sloop": (0.5, 0.333, 0.25),
    "cutter": (0.5, 0.333, 0.25),
    "dhow": (0.5, 0.333, 0.25),
    "fanchuan": (0.5, 0.333, 0.25),
    "longship": (0.5, 0.333, 0.25),
    "baghlah": (1.0, 0.667, 0.5),
    "merchant brig": (1.0, 0.667, 0.5),
    "junk": (1.5, 1.0, 0.75),
    "war brig": (2.0, 1.333, 1.0),
    "merchant galleon": (2.5, 1.667, 1.25),
    "xebec": (2.5, 1.667, 1.25),
    "war frigate": (3.0, 2.0, 1.5),
    "grand frigate": (4.0, 2.667, 2.0),
}
SHOT_SIZES = ("small", "medium", "large")  # the columns of RAM_VALUES, in order


class Token(Enum):
    NONE = "none"
    FORWARD = "forward"
    LEFT = "left"
    RIGHT = "right"

    __hash__ = object.__hash__  # see Heading

    def side(self, heading: Heading) -> Heading | None:
        if self is Token.LEFT:
            return heading.counterclockwise()
        if self is Token.RIGHT:
            return heading.clockwise()
        return None


@dataclass(frozen=True)
class Ship:
    name: str
    type: str
    at: Tile
    heading: Heading

    @property
    def size(self) -> SizeClass:
        return SHIP_TYPES[self.type]

    def moved(self, at: Tile, heading: Heading) -> Ship:
        return ship_at(self.name, self.type, at, heading)


def ship_at(name: str, kind: str, at: Tile, heading: Heading) -> Ship:
    """``Ship(name, kind, at, heading)`` as its __init__ makes it, without the frozen
    dataclass's four guarded assignments: resolving and reading answers make one per ship
    that moved."""
    ship = object.__new__(Ship)
    ship.__dict__.update(name=name, type=kind, at=at, heading=heading)
    return ship


class Corner(Enum):
    NW = (0, 0)
    NE = (1, 0)
    SE = (1, 1)
    SW = (0, 1)

    def next(self) -> Corner:
        return _NEXT_CORNER[self]


_NEXT_CORNER = {Corner.NW: Corner.NE, Corner.NE: Corner.SE, Corner.SE: Corner.SW, Corner.SW: Corner.NW}


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    rocks: frozenset[Tile] = frozenset()
    wind: tuple[tuple[Tile, Heading], ...] = ()  # sorted by tile
    whirlpools: tuple[Tile, ...] = ()  # north-west tile of each 2x2 clockwise whirlpool

    def on_board(self, tile: Tile) -> bool:
        return 0 <= tile[0] < self.width and 0 <= tile[1] < self.height

    @cached_property
    def wind_at(self) -> Mapping[Tile, Heading]:
        return dict(self.wind)

    @cached_property
    def whirl_at(self) -> Mapping[Tile, tuple[Tile, Corner]]:
        """For each whirlpool tile: the whirlpool's north-west tile and the corner."""
        table = {}
        for origin in self.whirlpools:
            for corner in Corner:
                table[(origin[0] + corner.value[0], origin[1] + corner.value[1])] = (origin, corner)
        return table

    def whirl_path(self, tile: Tile) -> tuple[Tile, Tile]:
        """The tile a whirlpool carries a ship through, and the one it ends on."""
        origin, corner = self.whirl_at[tile]
        via, to = corner.next(), corner.next().next()
        return ((origin[0] + via.value[0], origin[1] + via.value[1]),
                (origin[0] + to.value[0], origin[1] + to.value[1]))


@dataclass(frozen=True)
class Scene:
    board: Board
    ships: tuple[Ship, ...]  # sorted by name

    @cached_property
    def by_name(self) -> Mapping[str, Ship]:
        return {s.name: s for s in self.ships}


@dataclass(frozen=True)
class Turn:
    """Up to four rounds; each round gives some ships a token (others hold none)."""

    rounds: tuple[tuple[tuple[str, Token], ...], ...]

    @cached_property
    def by_round(self) -> tuple[Mapping[str, Token], ...]:
        """Each round's tokens by ship name."""
        return tuple(dict(tokens) for tokens in self.rounds)

    def token(self, round_index: int, ship: str) -> Token:
        return self.by_round[round_index].get(ship, Token.NONE)


def totals_key(totals: dict[str, float]) -> tuple[tuple[str, float], ...]:
    """Damage totals per piece as an outcome key holds them: by piece, rounded to 6 places
    (sums of the same amounts in another order may differ in the last bits)."""
    return tuple([(piece, round(totals[piece], 6)) for piece in sorted(totals)])
