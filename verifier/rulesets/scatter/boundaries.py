"""Scatter's boundary (Capability.BOUNDARIES): where the template exactly touches the base.

Scatter's arithmetic is exact (fractions, and sqrt(3) carried symbolically), so these
scenes are built outright, not found by bisection: a tangency is a short distance (and,
for the slanted directions, a deviation cap) chosen so that the squared distance from the
template's centre to the base's centre equals the squared reach exactly. Just either side
is a thousandth of an inch nearer or further.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from ...kit.boundary import Boundary, Chooser, Side
from .clauses import READING_POINTS
from .model import ALL_ROLLS, DIE_FACES, ROLLS, Actions, Roll, Shot
from .resolver import cap, direction_vector, separation

DEFAULT = {p.name: p.default for p in READING_POINTS}
SIDE_STEP = Fraction(1, 1000)  # inches: how far a scene just either side lies from the tangency
# Rational slopes k of the line through (R, 0) on s^2 + 3 t^2 = R^2: each gives a tangency
# of a slanted roll with a rational deviation (see ``_slanted``).
_SLOPES = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(2, 3), Fraction(1, 5), Fraction(3, 4))


def _forward(roll: Roll, reading: Mapping[str, str]) -> Fraction:
    """The forward part of the roll's direction: 1, 1/2, -1/2 or -1."""
    return direction_vector(roll.direction, reading["side"]).y.rational


def _rolls(actions: Actions) -> tuple[Roll, ...]:
    return ROLLS if actions is ALL_ROLLS else (actions,)  # type: ignore[return-value]


# Twice the forward part of each direction face under the default reading: 2, 1, -1 or -2.
_TWICE_FORWARD = {face: int(2 * direction_vector(face, DEFAULT["side"]).y.rational) for face in DIE_FACES}


def _excesses(shot: Shot, rolls: tuple[Roll, ...]) -> tuple[list[int], int]:
    """For each roll, its squared centre distance less the squared reach under the default
    reading (0 touching), times ``scale ** 2``; and ``scale``. In integers, as ``hit_count``:
    with every length times a common denominator ``scale`` the squared distance
    sep^2 - 2 sep moved p + moved^2 is an integer (2p is too)."""
    sep, limit, reach = separation(shot, DEFAULT), cap(shot, DEFAULT), shot.reach
    scale = math.lcm(sep.denominator, limit.denominator, reach.denominator)
    s = sep.numerator * (scale // sep.denominator)
    most = limit.numerator * (scale // limit.denominator)
    reach_squared = (reach.numerator * (scale // reach.denominator)) ** 2
    excesses = []
    for roll in rolls:
        m = min(roll.distance * scale, most)
        excesses.append(s * s - _TWICE_FORWARD[roll.direction] * s * m + m * m - reach_squared)
    return excesses, scale


def touching_quantity(shot: Shot, actions: Actions) -> float | None:
    """Of the rolls of the scene, the one nearest touching: its squared distance less the
    squared reach (exact: 0 only at an exact tangency)."""
    excesses, scale = _excesses(shot, _rolls(actions))
    nearest = min(excesses, key=abs)
    # A quotient of integers is rounded once, as the float of the fraction it equals is.
    return 0.0 if nearest == 0 else nearest / (scale * scale)


def _with_separation(shot: Shot, sep: Fraction, from_attacker: Fraction | None = None) -> Shot | None:
    """The shot whose deviation starts ``sep`` short of the target's centre under the default reading."""
    short = sep if DEFAULT["distance"] == "centre" else sep - shot.base_radius
    if short <= 0:
        return None
    return replace(shot, short=short, short_plus_base_radius=False,
                   from_attacker=shot.from_attacker if from_attacker is None else from_attacker)


@lru_cache(maxsize=256)
def _slanted(reach: Fraction, distance: int, forward: Fraction) -> tuple[tuple[Fraction, Fraction], ...]:
    """(separation, deviation) putting a roll of forward part +-1/2 and distance die ``distance``
    exactly on the tangency, one for each slope that gives one. The squared distance is
    (sep - m p)^2 + 3 m^2 / 4, so with s = sep - m p and t = m / 2 the tangency is
    s^2 + 3 t^2 = R^2, whose rational points are R (1 - 3k^2, 2k) / (1 + 3k^2)."""
    fits = []
    for k in _SLOPES:
        s = reach * (1 - 3 * k * k) / (1 + 3 * k * k)
        moved = 4 * reach * k / (1 + 3 * k * k)
        if moved <= 0 or moved > distance:
            continue
        for sign in (1, -1):
            sep = moved * forward + sign * s
            if sep > 0:
                fits.append((sep, moved))
                break
    return tuple(fits)


def place_touching(shot: Shot, actions: Actions, side: Side, choose: Chooser) -> tuple[Shot, Actions] | None:
    """The shot moved so that one roll (the scene's, or one of the 36: one that touches already
    where there is one) ends exactly touching the base, or a thousandth of an inch inside or
    outside. Straight rolls need only the short distance; slanted ones also a deviation (set
    through the distance to the attacker, which the default reading halves into the cap).
    A roll that touches already keeps its short distance and deviation."""
    rolls = _rolls(actions)
    excesses, _ = _excesses(shot, rolls)
    touching = [r for r, excess in zip(rolls, excesses) if excess == 0]
    roll = actions if isinstance(actions, Roll) else choose.pick(touching or ROLLS)
    forward = _forward(roll, DEFAULT)
    reach = shot.reach
    if roll in touching:  # already touching: it stays where it is, or moves a hair
        sep, from_attacker = separation(shot, DEFAULT), shot.from_attacker
    elif abs(forward) == 1:
        moved = min(Fraction(roll.distance), cap(shot, DEFAULT))
        candidates = [moved * forward + reach, moved * forward - reach]
        outside = next((c for c in candidates if c > 0), None)
        if outside is None:
            return None
        sep, from_attacker = outside, None
    else:
        if DEFAULT["cap"] != "half-distance":
            return None
        fits = list(_slanted(reach, roll.distance, forward))
        if not fits:
            return None
        sep, moved = choose.pick(fits)
        from_attacker = 2 * moved
    # Nearer or further by a thousandth: the squared distance grows with sep where sep > m p.
    moved = min(Fraction(roll.distance), from_attacker / 2 if from_attacker is not None else cap(shot, DEFAULT))
    outward = 1 if sep > moved * forward else -1
    shift: Fraction = {Side.ON: Fraction(0), Side.BELOW: -outward * SIDE_STEP, Side.ABOVE: outward * SIDE_STEP}[side]
    moved_shot = _with_separation(shot, sep + shift, from_attacker)
    return None if moved_shot is None else (moved_shot, actions)


BOUNDARIES = (
    Boundary("template-touches-base", ("hit.overlap",),
             "the template's edge meets the base's edge exactly: the squared centre distance against the "
             "squared sum of the radii, exact", touching_quantity, place=place_touching, exact=True),
)
