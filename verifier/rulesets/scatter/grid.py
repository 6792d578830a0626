"""The seed's function over a whole grid of calls, exactly and fast; the same grid in
IEEE doubles; and the calls where the two disagree.

The grid (``SEED_GRID``) is every combination of the seed function's arguments
that its text exercises: the three template sizes, ``dist`` from 0 to 7 inches in
half inches (the worked example's 2.5 among them), the four base sizes, ``max`` 1
and 6 (the two values its tests pass) and the 36 rolls of the dice: 3 x 15 x 4 x 2
x 36 = 12,960 calls.

How the exact path is fast: every length in the grid is a rational number whose
denominator divides one common denominator ``scale`` (254 for the seed's grid:
1 inch is 25.4 mm and templates are whole inches across), so every length becomes
an integer once multiplied by it. The squared centre distance after a roll is

    sep^2 - (2p) * sep * moved + moved^2

with ``2p`` the doubled forward part of the direction (2, 1, -1 or -2; the sideways
part sqrt(3)/2 squares to 3/4 and completes 1), an integer polynomial, compared
with the integer (template radius + base radius)^2. The whole grid is then a few
numpy integer operations over arrays broadcast along the six axes, with no
Fraction and no float on the way; int64 is used only when a bound on the largest
intermediate value proves it cannot overflow, Python integers otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np

from .exact import decimal_text
from .model import DIE_FACES, MM_PER_INCH
from .seedcode import SeedCall, centre_distance, is_hit

GRID_AOES: tuple[int, ...] = (3, 4, 5)
GRID_DISTS: tuple[Fraction, ...] = tuple(Fraction(k, 2) for k in range(15))
GRID_BASES: tuple[int, ...] = (30, 40, 50, 120)
GRID_MAXES: tuple[Fraction, ...] = (Fraction(1), Fraction(6))
# The seed's code folds 5 and 6 onto 3 and 2; twice the forward part of each face.
TWICE_FORWARD: tuple[int, ...] = (2, 1, -1, -2, -1, 1)
_INT64_LIMIT = 2 ** 62  # below 2^63 with room for one addition


@dataclass(frozen=True)
class Grid:
    """Axes of a grid of calls of the seed's function: ``aoes`` (template diameters,
    inches), ``dists`` (the ``dist`` argument, inches; 0 means in range), ``bases``
    (mm), ``maxes`` (the ``max`` argument, inches); every call is tried with the 36
    rolls (distance die, then direction die)."""

    aoes: tuple[int, ...] = GRID_AOES
    dists: tuple[Fraction, ...] = GRID_DISTS
    bases: tuple[int, ...] = GRID_BASES
    maxes: tuple[Fraction, ...] = GRID_MAXES

    @property
    def shape(self) -> tuple[int, int, int, int, int, int]:
        return (len(self.aoes), len(self.dists), len(self.bases), len(self.maxes), 6, 6)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def calls(self) -> list[tuple[int, Fraction, int, Fraction, int, int]]:
        """Every call, in the order of the arrays' flattened (C) order."""
        return list(product(self.aoes, self.dists, self.bases, self.maxes, DIE_FACES, DIE_FACES))


SEED_GRID = Grid()


def _scaled(values: Sequence[Fraction], scale: int) -> list[int]:
    return [int(v * scale) for v in values]


@dataclass(frozen=True)
class ScaledGrid:
    """The grid's lengths as integers, all multiplied by ``scale``."""

    scale: int
    template_radius: list[int]  # per aoe
    base_radius: list[int]  # per base
    dist: list[int]  # per dist
    maximum: list[int]  # per max

    @staticmethod
    def of(grid: Grid) -> ScaledGrid:
        template = [Fraction(a) / 2 for a in grid.aoes]
        base = [Fraction(b) / MM_PER_INCH / 2 for b in grid.bases]
        dists = [Fraction(d) for d in grid.dists]
        maxes = [Fraction(m) for m in grid.maxes]
        scale = math.lcm(*(v.denominator for v in (*template, *base, *dists, *maxes)))
        return ScaledGrid(scale, _scaled(template, scale), _scaled(base, scale), _scaled(dists, scale),
                          _scaled(maxes, scale))

    def bound(self) -> int:
        """An upper bound on every integer the evaluation forms."""
        sep = max(self.dist, default=0) + max(self.base_radius, default=0)
        moved = min(max(self.maximum, default=0), 6 * self.scale)
        reach = max(self.template_radius, default=0) + max(self.base_radius, default=0)
        return max((abs(sep) + abs(moved)) ** 2, reach ** 2)


def exact_parts(grid: Grid = SEED_GRID) -> tuple[np.ndarray, np.ndarray]:
    """(squared centre distance, squared reach) of every call, both times ``scale^2``,
    as integer arrays broadcast to the grid's shape; exact (see the module's text)."""
    scaled = ScaledGrid.of(grid)
    dtype: type = np.int64 if scaled.bound() < _INT64_LIMIT else object
    rt: np.ndarray = np.array(scaled.template_radius, dtype=dtype).reshape(-1, 1, 1, 1, 1, 1)
    rb: np.ndarray = np.array(scaled.base_radius, dtype=dtype).reshape(1, 1, -1, 1, 1, 1)
    dist: np.ndarray = np.array(scaled.dist, dtype=dtype).reshape(1, -1, 1, 1, 1, 1)
    # The seed's code starts the template on the base's centre for a dist of 0, else the
    # base radius beyond dist.
    sep = np.where(dist == 0, 0, dist + rb)
    dice: np.ndarray = np.array(DIE_FACES, dtype=dtype) * scaled.scale
    moved = np.minimum(dice.reshape(1, -1), np.array(scaled.maximum, dtype=dtype).reshape(-1, 1))
    moved = moved.reshape(1, 1, 1, len(scaled.maximum), 6, 1)
    twice_forward: np.ndarray = np.array(TWICE_FORWARD, dtype=dtype).reshape(1, 1, 1, 1, 1, 6)
    distance_squared = sep * sep - twice_forward * sep * moved + moved * moved
    reach = rt + rb
    return np.broadcast_to(distance_squared, grid.shape), np.broadcast_to(reach * reach, grid.shape)


def exact_hits(grid: Grid = SEED_GRID, *, touch_hits: bool = False) -> np.ndarray:
    """Whether each call of ``grid`` hits, exactly (a boolean array of the grid's shape).
    The seed's code compares with '<', so touching misses unless ``touch_hits``."""
    distance_squared, reach_squared = exact_parts(grid)
    hits = distance_squared <= reach_squared if touch_hits else distance_squared < reach_squared
    return np.asarray(hits, dtype=bool)


def exact_hits_call_by_call(grid: Grid = SEED_GRID) -> list[bool]:
    """The same answers as :func:`exact_hits` (flattened), one call at a time in Python
    integers: no arrays, only the common scale."""
    scaled = ScaledGrid.of(grid)
    dice = [die * scaled.scale for die in DIE_FACES]
    answers = []
    for rt in scaled.template_radius:
        for dist in scaled.dist:
            for rb in scaled.base_radius:
                sep = dist + rb if dist else 0
                reach_squared = (rt + rb) * (rt + rb)
                for most in scaled.maximum:
                    for die in dice:
                        moved = die if die < most else most
                        near = sep * sep + moved * moved
                        for twice_forward in TWICE_FORWARD:
                            answers.append(near - twice_forward * sep * moved < reach_squared)
    return answers


def double_hits(grid: Grid = SEED_GRID) -> np.ndarray:
    """The seed's function in IEEE doubles, call by call (``seedcode.is_hit``), as R runs it."""
    flat = [is_hit(SeedCall(float(a), float(d), float(b), float(m), die, face))
            for a, d, b, m, die, face in grid.calls()]
    return np.array(flat, dtype=bool).reshape(grid.shape)


@dataclass(frozen=True)
class RoundingDifference:
    """One call where the seed's function in doubles and the exact answer differ."""

    aoe: int
    dist: Fraction
    base: int
    maximum: Fraction
    distance_die: int
    direction_die: int
    distance_squared: Fraction  # template centre to base centre after the roll, exactly
    reach: Fraction  # template radius + base radius, exactly
    double_distance: float  # the centre distance the doubles compute
    double_reach: float  # radBase + rad as the doubles compute it
    exact_hit: bool
    double_hit: bool

    @property
    def touching(self) -> bool:
        return self.distance_squared == self.reach ** 2

    def call_text(self) -> str:
        return (f"AOE {self.aoe}, dist {decimal_text(self.dist, 3)}, base {self.base} mm, "
                f"max {decimal_text(self.maximum, 3)}, dice ({self.distance_die}, {self.direction_die})")

    def verdict(self) -> str:
        """Which side is right, and why."""
        exact_word, double_word = ("hit" if self.exact_hit else "miss"), ("hit" if self.double_hit else "miss")
        if self.touching:
            why = ("the edges meet exactly, and the seed's own '<' counts a touch as no overlap" if not self.exact_hit
                   else "the edges meet exactly, and touching counts")
        else:
            why = "the exact distances differ, so rounding alone flipped the comparison"
        gap = self.double_distance - self.double_reach
        return (f"the exact answer is right, a {exact_word}: {why}; the doubles' {double_word} comes from a centre "
                f"distance rounded {abs(gap):.3g} in {'below' if gap < 0 else 'above'} the rounded reach")


def rounding_differences(grid: Grid = SEED_GRID) -> list[RoundingDifference]:
    """Every call of ``grid`` where the doubles and the exact answer differ."""
    exact = exact_hits(grid)
    doubles = double_hits(grid)
    distance_squared, _ = exact_parts(grid)
    scaled = ScaledGrid.of(grid)
    found = []
    for index in zip(*np.nonzero(exact != doubles)):
        i, j, k, m, die, face = (int(x) for x in index)
        aoe, dist, base, maximum = grid.aoes[i], grid.dists[j], grid.bases[k], grid.maxes[m]
        call = SeedCall(float(aoe), float(dist), float(base), float(maximum), die + 1, face + 1)
        reach = Fraction(scaled.template_radius[i] + scaled.base_radius[k], scaled.scale)
        found.append(RoundingDifference(
            aoe, dist, base, maximum, die + 1, face + 1,
            Fraction(int(distance_squared[index]), scaled.scale ** 2), reach,
            centre_distance(call), 0.5 * float(base) / 25.4 + 0.5 * float(aoe),
            bool(exact[index]), bool(doubles[index])))
    return found


def tangencies(grid: Grid = SEED_GRID) -> int:
    """How many calls of ``grid`` put the template's edge exactly on the base's edge."""
    distance_squared, reach_squared = exact_parts(grid)
    return int(np.count_nonzero(distance_squared == reach_squared))
