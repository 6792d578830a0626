"""Value types of a scattering AOE shot: the shot before deviation, a roll of the
two dice, and where the template lands.

Coordinates are inches on the table, centred on the target: ``x`` grows to the
attacker's right of the line of attack, ``y`` grows forward (away from the
attacker). The target's centre is always on the line of attack, at (0, 0).
All lengths are exact fractions; see ``exact.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from .exact import PlanePoint

# Template diameters in inches and base diameters in mm (guide/facts.md, scatter / Sizes).
AOE_SIZES = (3, 4, 5)
BASE_SIZES = (30, 40, 50, 120)
MM_PER_INCH = Fraction(254, 10)
# The seed's default for its cap argument: a d6 can never exceed it.
SEED_DEFAULT_MAX = Fraction(6)
DIE_FACES = (1, 2, 3, 4, 5, 6)


def inches_of_mm(mm: int | Fraction) -> Fraction:
    return Fraction(mm) / MM_PER_INCH


@dataclass(frozen=True)
class Shot:
    """An AOE attack that missed, before the deviation roll.

    ``from_attacker`` is the distance from the attacker to the point where deviation
    starts: the target's distance for a shot at a target in range, the weapon's
    range for a shot that falls short. ``short`` is how far short of the target the
    shot fell (None: it was aimed at a target in range); what it is measured to is a
    reading. ``short_plus_base_radius`` records a short distance written, as the
    seed's tests write it, as a figure plus the target's base radius."""

    aoe: int
    base: int
    from_attacker: Fraction
    short: Fraction | None = None
    short_plus_base_radius: bool = False
    max_deviation: Fraction = SEED_DEFAULT_MAX  # the seed's `max` argument

    def __hash__(self) -> int:
        """Kept once worked out: the resolver's memos hash a shot per landing, and hashing its
        fractions is slow."""
        known = self.__dict__.get("_hash")
        if known is None:
            known = hash((self.aoe, self.base, self.from_attacker, self.short, self.short_plus_base_radius,
                          self.max_deviation))
            object.__setattr__(self, "_hash", known)
        return known

    @cached_property
    def template_radius(self) -> Fraction:
        return Fraction(self.aoe, 2)

    @cached_property
    def base_radius(self) -> Fraction:
        return inches_of_mm(self.base) / 2

    @cached_property
    def reach(self) -> Fraction:
        """Template radius plus base radius: how close the centres must come to overlap."""
        return self.template_radius + self.base_radius

    @property
    def on_target(self) -> bool:
        return self.short is None

    @cached_property
    def short_distance(self) -> Fraction | None:
        """The short distance as a number, with the base radius added where the case says so."""
        if self.short is None:
            return None
        return self.short + (self.base_radius if self.short_plus_base_radius else 0)


@dataclass(frozen=True, order=True)
class Roll:
    """One throw of the two deviation dice: inches, then direction."""

    distance: int
    direction: int

    def mirrored(self) -> Roll:
        return Roll(self.distance, MIRROR_DIRECTION[self.direction])

    def __str__(self) -> str:
        return f"distance {self.distance}, direction {self.direction}"


@dataclass(frozen=True)
class AllRolls:
    """Every one of the 36 equally likely rolls, to get the exact chance of a hit."""

    def __str__(self) -> str:
        return "all 36 rolls"


ALL_ROLLS = AllRolls()
ROLLS: tuple[Roll, ...] = tuple(Roll(d, k) for k in DIE_FACES for d in DIE_FACES)
Actions = Roll | AllRolls

# The mirror image of each direction across the line of attack.
MIRROR_DIRECTION = {1: 1, 2: 6, 3: 5, 4: 4, 5: 3, 6: 2}


@dataclass(frozen=True)
class Landing:
    """Where one roll puts the template, and whether it then covers the base."""

    roll: Roll | None  # None only in an answer read from JSON that did not echo the roll
    start: PlanePoint  # the template's centre before deviating
    point: PlanePoint  # the template's centre after deviating
    moved: Fraction  # inches moved: the distance die, capped
    cap: Fraction  # the cap that applied
    distance_squared: Fraction  # template centre to base centre, squared, after deviating
    start_distance_squared: Fraction
    reach: Fraction  # template radius + base radius
    hit: bool
    touching: bool  # the edges meet exactly

    @cached_property
    def capped(self) -> bool:
        return self.roll is not None and self.moved < self.roll.distance

    @property
    def rolled(self) -> Roll:
        """The roll, where the landing is known to have one: the resolver's always do."""
        if self.roll is None:
            raise ValueError("this landing was read from an answer that did not echo its roll")
        return self.roll

    @property
    def centre_distance(self) -> float:
        return math.sqrt(self.distance_squared)

    # Kept once worked out (square roots of fractions): the resolver hands the same landing
    # to every outcome that lands the roll alike, and each answer of one is written out.
    @cached_property
    def clearance(self) -> float:
        """Inches between the template's edge and the base's edge: positive is a gap,
        negative an overlap, zero exactly touching."""
        return _clearance(self.distance_squared, self.reach)

    @cached_property
    def start_clearance(self) -> float:
        return _clearance(self.start_distance_squared, self.reach)


def _clearance(distance_squared: Fraction, reach: Fraction) -> float:
    if distance_squared == reach * reach:
        return 0.0
    return math.sqrt(distance_squared) - float(reach)


@dataclass(frozen=True)
class Odds:
    """All 36 rolls of one shot, and the exact chance that the template hits."""

    landings: tuple[Landing, ...]  # in ROLLS order

    @cached_property
    def hits(self) -> int:
        return sum(landing.hit for landing in self.landings)

    @cached_property
    def probability(self) -> Fraction:
        return Fraction(self.hits, len(self.landings))

    @property
    def start(self) -> PlanePoint:
        return self.landings[0].start

    @property
    def start_clearance(self) -> float:
        return self.landings[0].start_clearance

    @cached_property
    def hit_rolls(self) -> tuple[Roll, ...]:
        """The rolls that hit, sorted."""
        # The resolver's landings all carry their roll (only a Landing read from JSON may not).
        return tuple(sorted(landing.roll for landing in self.landings if landing.hit and landing.roll is not None))

    def landing(self, roll: Roll) -> Landing:
        return self.landings[ROLLS.index(roll)]
