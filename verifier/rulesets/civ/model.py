"""Civ value types: a map of areas, nations, ships and population tokens; what the
nations do in one movement phase; and what a case expects.

No coordinate matters to the rules: an area's ``at`` and ``shape`` are for drawing
only. Everything is immutable, so outcomes compare with ``==``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...kit.hashed import kept_hash, state_without_hash
from ...ruleset import Feature

XY = tuple[float, float]

LAND, WATER, OPEN_SEA = "land", "water", "open-sea"
AREA_KINDS = (LAND, WATER, OPEN_SEA)
OPTIONS = ("A", "B")  # the seed's two options: A naval battles, B blockades

ASTRONOMY, CLOTH_MAKING, METALWORKING, MATHEMATICS, ENGINEERING = (
    "Astronomy", "Cloth Making", "Metalworking", "Mathematics", "Engineering")
ADVANCES = (ASTRONOMY, CLOTH_MAKING, ENGINEERING, MATHEMATICS, METALWORKING)
ADVANTAGE_ADVANCES = (METALWORKING, MATHEMATICS, ENGINEERING)  # +1 each in a ship conflict (option A)

CAPACITY = 5  # tokens aboard one ship
MOVES, MOVES_CLOTH = 4, 5  # areas a ship may enter in a phase, without and with Cloth Making
MAX_SHIPS = 4  # per nation


@dataclass(frozen=True)
class Area:
    name: str
    kind: str  # land | water | open-sea
    coast: bool  # land only: it has a water portion that ships may enter
    touches: tuple[str, ...]  # sorted; symmetric over the map
    at: XY  # for drawing only
    shape: tuple[XY, ...] = ()  # for drawing only; empty: a cell around ``at``
    limit: int = 0  # land only: the population limit printed on the board (base rule 24)

    @property
    def navigable(self) -> bool:
        """Whether a ship may be in this area: water, open sea, or a coast's water portion."""
        return self.kind != LAND or self.coast

    @property
    def coastal_land(self) -> bool:
        return self.kind == LAND and self.coast


@dataclass(frozen=True)
class Map:
    name: str  # the named map under cases/civ/maps/, or "" for one the case defines
    areas: tuple[Area, ...]  # sorted by name

    # The resolver's memos look a scene up by value at every resolution: its hash is kept.
    __hash__ = kept_hash
    __getstate__ = state_without_hash

    def area(self, name: str) -> Area:
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, Area]:
        return {a.name: a for a in self.areas}

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.areas)


@dataclass(frozen=True)
class Nation:
    name: str
    advances: frozenset[str] = frozenset()

    @property
    def allowance(self) -> int:
        return MOVES_CLOTH if CLOTH_MAKING in self.advances else MOVES

    @cached_property
    def advantage(self) -> int:
        return sum(1 for a in ADVANTAGE_ADVANCES if a in self.advances)


@dataclass(frozen=True)
class Ship:
    name: str
    nation: str
    at: str
    aboard: int = 0


@dataclass(frozen=True)
class Scene:
    map: Map
    options: frozenset[str]
    nations: tuple[Nation, ...]  # as the case lists them; the resolver never relies on this order
    ships: tuple[Ship, ...]
    tokens: tuple[tuple[str, str, int], ...]  # (land area, nation, count) on land before the phase
    overland: tuple[tuple[str, str, int], ...] = ()  # of those, tokens that already moved overland this phase

    __hash__ = kept_hash  # see Map
    __getstate__ = state_without_hash

    def nation(self, name: str) -> Nation:
        return _named(self._nation_by_name, name)

    def ship(self, name: str) -> Ship:
        return _named(self._ship_by_name, name)

    @cached_property
    def _nation_by_name(self) -> dict[str, Nation]:
        return _by_name(self.nations)

    @cached_property
    def _ship_by_name(self) -> dict[str, Ship]:
        return _by_name(self.ships)


def _by_name(items: tuple) -> dict:
    """The first of ``items`` with each name, by name."""
    found: dict = {}
    for item in items:
        found.setdefault(item.name, item)
    return found


def _named(by_name: dict, name: str):
    """The item named ``name``; StopIteration where there is none, as a search of the list would raise."""
    found = by_name.get(name)
    if found is None:
        raise StopIteration
    return found


@dataclass(frozen=True)
class Stop:
    """One area of a ship's path, and what happens there: tokens ``board`` from the land,
    ``drop`` onto it, or are taken off a blocked friendly ship (``take``, option B)."""

    area: str
    board: int = 0
    drop: int = 0
    take: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class ShipMove:
    ship: str
    path: tuple[Stop, ...]  # the first stop may be the ship's own area (boarding before it leaves)


@dataclass(frozen=True)
class Turn:
    nation: str
    moves: tuple[ShipMove, ...]  # in the order the ships move
    lift: tuple[str, ...] = ()  # blockaders turned back without moving (option B)


@dataclass(frozen=True)
class Choices:
    """Decisions the players make, as the case states them. A decision the case
    leaves open is taken both ways: the outcome has a branch for each."""

    conflict: tuple[tuple[str, bool], ...] = ()  # area -> whether some nation wants a ship conflict
    prevent: tuple[tuple[str, bool], ...] = ()  # area -> whether the enemy prevents the landing
    block: tuple[tuple[str, str], ...] = ()  # ship -> the area where it is blocked, or "none"
    stop: tuple[tuple[str, int], ...] = ()  # area -> removal steps after which all agree to stop


@dataclass(frozen=True)
class Actions:
    blockade: tuple[str, ...] = ()  # ships turned over at the start of the phase (option B)
    turns: tuple[Turn, ...] = ()  # the nations' turns, in the order of play
    choices: Choices = field(default_factory=Choices)

    __hash__ = kept_hash  # see Map
    __getstate__ = state_without_hash


# --- the state after, per branch --------------------------------------------------------------


@dataclass(frozen=True)
class ShipState:
    name: str
    nation: str
    at: str
    aboard: int = 0
    blockading: bool = False
    blocked_by: str = ""
    sunk: bool = False


@dataclass(frozen=True)
class State:
    ships: tuple[ShipState, ...]  # sorted by name
    land: tuple[tuple[str, str, int], ...]  # (area, nation, count), sorted, counts > 0
    landing: tuple[tuple[str, str, int], ...] = ()  # tokens waiting on a coast's water edge (option A)
    removals: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()  # area -> removal steps, in order
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()  # ship -> areas it went through, for drawing

    def ship(self, name: str) -> ShipState:
        return next(s for s in self.ships if s.name == name)

    def land_of(self, area: str) -> dict[str, int]:
        return {n: c for a, n, c in self.land if a == area}


Label = tuple[tuple[str, str, str], ...]  # (kind, key, value) of each decision the case left open


@dataclass(frozen=True)
class Branch:
    choices: Label  # sorted; empty where the case left nothing open
    state: State
    moved: State  # at the end of the movement, before conflicts and landings


@dataclass(frozen=True)
class Result:
    branches: tuple[Branch, ...]


@dataclass(frozen=True)
class BranchExpect:
    when: Label
    ships: tuple[tuple[str, ShipState], ...]  # listed ships (sunk or where they end)
    land: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]  # listed areas: every nation's count
    removals: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]
    events: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Expectation:
    branches: tuple[BranchExpect, ...]
    single: bool  # written without ``branches``


def label_text(label: Label) -> str:
    return ", ".join(f"{kind} {key}={value}" for kind, key, value in label)


FEATURES = (
    Feature("option-A", "the source's option A: naval battles, ship conflicts and landings from the water edge"),
    Feature("option-B", "the source's option B: blockades"),
)


def features_needed(scene: Scene, actions: Actions) -> frozenset[str]:
    """The options the scene plays."""
    return frozenset(f"option-{o}" for o in scene.options)
