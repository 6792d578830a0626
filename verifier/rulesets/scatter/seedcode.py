"""What the seed's R function computes, in IEEE doubles as R computes it.

This is our re-implementation of the behaviour of seed 002's ``is.scatter.hit``
(section "The is.scatter.hit function (R code)"), not a copy: it takes the same
arguments, performs the same floating-point steps in the same order (R's ``x^2``
is ``x * x``), and so gives the same TRUE/FALSE on every input. The exact
resolver under ``SEED_READING`` agrees with it except where the seed's doubles
round a tie one way or the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

_PERP = math.cos(math.pi / 6)  # 0.8660254037844387
_ALONG = math.sin(math.pi / 6)  # 0.49999999999999994 in doubles, not 0.5
# (sideways, forward) parts per direction face; the code's own table only covers one side.
_FACES = {1: (0.0, 1.0), 2: (_PERP, _ALONG), 3: (_PERP, -_ALONG), 4: (0.0, -1.0), 5: (_PERP, -_ALONG),
          6: (_PERP, _ALONG)}


@dataclass(frozen=True)
class SeedCall:
    """The arguments of one call: AOE stat, ``dist``, ``base`` (mm), ``max`` (here
    ``maximum``) and the dice."""

    aoe: float
    dist: float
    base: float
    maximum: float
    distance_die: int
    direction_die: int


def centre_distance(call: SeedCall) -> float:
    """The template-to-base centre distance the seed's code computes."""
    base_radius = 0.5 * call.base / 25.4
    moves = call.maximum if call.distance_die > call.maximum else call.distance_die
    sideways, forward = _FACES[call.direction_die]
    separation = 0.0 if call.dist == 0 else call.dist + base_radius
    along = separation - moves * forward
    across = moves * sideways
    return math.sqrt(along * along + across * across)


def is_hit(call: SeedCall) -> bool:
    """The seed function's answer for one call."""
    return abs(centre_distance(call)) < 0.5 * call.base / 25.4 + 0.5 * call.aoe


def hit_share(aoe: float, dist: float, base: float = 30, maximum: float = 6) -> float:
    """The seed's worked example: the share of the 36 dice pairs that hit, as R prints it."""
    hits = sum(is_hit(SeedCall(aoe, dist, base, maximum, d, k)) for d in range(1, 7) for k in range(1, 7))
    return hits / 36


def r_print(value: float) -> str:
    """A number as R prints it by default (7 significant digits)."""
    return f"{value:.7g}"


def seed_dist(short: Fraction | None, plus_base_radius: bool, base: int) -> float:
    """The ``dist`` argument a case's shot stands for, computed as the seed's tests compute it."""
    if short is None:
        return 0.0
    value = float(short)
    return value + 0.5 * base / 25.4 if plus_base_radius else value
