"""What the explorer needs from scatter: comparable outcome keys, the mirror
across the line of attack, invariants, simpler variants of a shot for
shrinking, the exhaustive space of shots, and turning a shot back into case data."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

from ...kept import KeptFor
from ...kit.hashed import HashedTuple
from ...ruleset import Outcome, Transform
from .exact import PlanePoint
from .model import (
    ALL_ROLLS,
    AOE_SIZES,
    BASE_SIZES,
    MIRROR_DIRECTION,
    ROLLS,
    SEED_DEFAULT_MAX,
    Actions,
    AllRolls,
    Landing,
    Odds,
    Roll,
    Shot,
)
from .parse import reference_roll
from .resolver import _landed, _side_for

_ZERO = Fraction(0)


def _landing_key(landing: Landing) -> tuple:
    roll = landing.roll
    assert roll is not None  # as in _roll, inline: this is on the explorer's hot path
    return (roll.distance, roll.direction, landing.point.key(), landing.hit)


def outcome_key(outcome: Outcome) -> tuple:
    """Where the template lands and whether it hits; for all 36 rolls, that for each."""
    after = outcome.after
    if isinstance(after, Odds):
        return HashedTuple(("all", tuple(sorted(_landing_key(landing) for landing in after.landings))))
    return HashedTuple(("roll",) + _landing_key(after))


def _mirror_entry(entry: tuple) -> tuple:
    distance, direction, (xr, x3, yr, y3), hit = entry
    return (distance, MIRROR_DIRECTION[direction], (-xr, -x3, yr, y3), hit)


def _mirror_key(key: tuple) -> tuple:
    if key[0] == "all":
        return ("all", tuple(sorted(_mirror_entry(entry) for entry in key[1])))
    return ("roll",) + _mirror_entry(key[1:])


def transforms(shot: Shot, actions: Actions) -> list[Transform]:
    """Mirroring the shot across the line of attack swaps directions 2 and 6, 3 and 5,
    and must mirror where the template lands, nothing else."""
    mirrored = actions if isinstance(actions, AllRolls) else actions.mirrored()
    return [Transform("symmetry", "mirror across the line of attack", shot, mirrored, _mirror_key)]


def scene(choose: Any) -> tuple[Shot, Actions]:
    from .strategies import scene as build
    return build(choose)


def strategy() -> Any:
    from .strategies import shots_and_rolls
    return shots_and_rolls()


def invariant_breaches(shot: Shot, actions: Actions, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
    """(invariant, pieces, detail) for every breach under the outcome's reading."""
    after = outcome.after
    landings = after.landings if isinstance(after, Odds) else (after,)
    found: dict[str, tuple[tuple[str, ...], str]] = {}
    reading = outcome.reading
    # What the mirror-image roll's landing depends on: the options of the start, the cap and the side.
    twin_key = (reading["distance"] if shot.short_distance is not None else None, reading["cap"],
                reading["side"]) if reading else None
    for landing in landings:
        for kind, pieces, detail in _landing_breaches(shot, landing, twin_key):
            found.setdefault(kind, (pieces, detail))
    if isinstance(after, Odds):
        p = after.probability
        if not (0 <= p <= 1) or (p * 36).denominator != 1:
            found["the chance of a hit is not a share of the 36 rolls"] = (("target",), str(p))
    return [(kind, pieces, detail) for kind, (pieces, detail) in sorted(found.items())]


_Breach = tuple[str, tuple[str, ...], str]
_TwinKey = tuple[str | None, str, str] | None
# Breaches found before, by landing (the resolver hands out the same landing object under
# every reading that lands the roll alike). By identity, not by value: hashing a landing's
# exact numbers costs about as much as checking it.
_BREACHES: KeptFor[tuple[_Breach, ...]] = KeptFor(2048)


def _landing_breaches(shot: Shot, landing: Landing, twin_key: _TwinKey) -> tuple[_Breach, ...]:
    """The breaches one landing shows, in order; ``twin_key``: the start, cap and side its
    mirror-image roll lands with, None where the outcome has no reading."""
    # Straight on and straight back have no mirror-image twin: the options do not matter to them.
    given = (shot, twin_key if landing.roll is None or landing.roll.direction not in (1, 4) else None)
    return _BREACHES.get(landing, lambda: _breaches_of(shot, landing, twin_key), given)


def _moved_its_distance(landing: Landing) -> bool:
    """Whether the template moved exactly ``landing.moved``: |point - start|^2 = moved^2, in
    integers. Each difference of coordinates is p/q + r/s * sqrt(3); its square has a
    sqrt(3) part that must vanish (sqrt(3) is irrational) and a rational part to compare."""
    point, start = landing.point, landing.start
    a, b = point.x.rational, start.x.rational
    p1, q1 = a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator
    a, b = point.x.root3, start.x.root3
    p2, q2 = a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator
    a, b = point.y.rational, start.y.rational
    p3, q3 = a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator
    a, b = point.y.root3, start.y.root3
    p4, q4 = a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator
    if p1 * p2 * q3 * q4 + p3 * p4 * q1 * q2 != 0:  # twice the sqrt(3) part, over q1 q2 q3 q4
        return False
    # The rational part, p1^2/q1^2 + 3 p2^2/q2^2 + p3^2/q3^2 + 3 p4^2/q4^2, over (q1 q2 q3 q4)^2.
    norm = (p1 * q2 * q3 * q4) ** 2 + 3 * (p2 * q1 * q3 * q4) ** 2 + (p3 * q1 * q2 * q4) ** 2 + 3 * (
        p4 * q1 * q2 * q3) ** 2
    moved = landing.moved
    return norm * moved.denominator ** 2 == moved.numerator ** 2 * (q1 * q2 * q3 * q4) ** 2


def _mirror_images(a: PlanePoint, b: PlanePoint) -> bool:
    """Whether ``a`` is ``b`` mirrored across the line of attack (x negated), without making the
    mirror image: a fraction's sign is in its numerator, its denominator positive."""
    return (a.y == b.y and a.x.rational.numerator == -b.x.rational.numerator
            and a.x.rational.denominator == b.x.rational.denominator
            and a.x.root3.numerator == -b.x.root3.numerator and a.x.root3.denominator == b.x.root3.denominator)


def _breaches_of(shot: Shot, landing: Landing, twin_key: _TwinKey) -> tuple[_Breach, ...]:
    found: list[_Breach] = []
    roll = reference_roll(landing)
    moved, reach = landing.moved, shot.from_attacker
    if 2 * moved.numerator * reach.denominator > reach.numerator * moved.denominator:  # moved > from_attacker / 2
        found.append(("the template deviates more than half the distance to the target",
                      ("template",), f"roll {roll.distance}-{roll.direction} moves it {float(landing.moved):g} in, "
                                     f"{float(shot.from_attacker):g} in from the attacker"))
    if not _moved_its_distance(landing):
        found.append(("the template moves another distance than the capped die", ("template",),
                      f"roll {roll.distance}-{roll.direction}"))
    if twin_key is not None and roll.direction not in (1, 4):
        mirrored = roll.mirrored()
        distance, capped_by, side = twin_key
        twin = _landed(shot, mirrored, distance, capped_by, _side_for(mirrored.direction, side))
        if not _mirror_images(twin.point, landing.point):
            found.append(("mirror-image rolls land on spots that are not mirror images", ("template",),
                          f"rolls {roll.distance}-{roll.direction} and {roll.distance}-"
                          f"{MIRROR_DIRECTION[roll.direction]} land at "
                          f"({float(landing.point.x):.3f}, {float(landing.point.y):.3f}) and "
                          f"({float(twin.point.x):.3f}, {float(twin.point.y):.3f})"))
    return tuple(found)


# --- shrinking --------------------------------------------------------------------------


PLAIN_DISTANCE = Fraction(12)


def simpler(shot: Shot, actions: Actions) -> Iterator[tuple[Shot, Actions]]:
    """Strictly simpler variants, simplest changes first: one roll instead of all,
    smaller dice, a shot at the target instead of a short one, smaller sizes, rounder
    distances, the seed's default maximum, an attacker 12 inches away."""
    if isinstance(actions, AllRolls):
        for roll in ROLLS:
            yield shot, roll
    else:
        if actions.distance > 1:
            yield shot, Roll(actions.distance - 1, actions.direction)
        if actions.direction > 1:
            yield shot, Roll(actions.distance, actions.direction - 1)
    if shot.short is not None:
        yield replace(shot, short=None, short_plus_base_radius=False), actions
        if shot.short_plus_base_radius:
            yield replace(shot, short_plus_base_radius=False), actions
        if shot.short.denominator != 1 and shot.short > 1:
            yield replace(shot, short=Fraction(int(shot.short))), actions
        elif shot.short > 1:
            yield replace(shot, short=shot.short - 1), actions
    if shot.max_deviation != SEED_DEFAULT_MAX:
        yield replace(shot, max_deviation=SEED_DEFAULT_MAX), actions
    for size in AOE_SIZES:
        if size < shot.aoe:
            yield replace(shot, aoe=size), actions
    for size in BASE_SIZES:
        if size < shot.base:
            yield replace(shot, base=size), actions
    # An attacker 12 inches away is the plainest: no cap binds a d6 there.
    if shot.from_attacker != PLAIN_DISTANCE:
        yield replace(shot, from_attacker=PLAIN_DISTANCE), actions
        if shot.from_attacker.denominator != 1 and shot.from_attacker > 1:
            yield replace(shot, from_attacker=Fraction(int(shot.from_attacker))), actions


# --- the exhaustive space ---------------------------------------------------------------

ON_TARGET_DISTANCES = (2, 4, 8, 12)
WEAPON_RANGES = (6, 12)


EXHAUSTIVE_SPACES = {
    "half-inch": "every template and base, on target or short by 1/2 to 6 inches in half-inch steps, "
                 "under each of the 36 rolls and 'all'",
    "quarter-inch": "the same in quarter-inch steps",
}


def exhaustive_space(name: str = "half-inch") -> tuple[int, Iterator[tuple[Shot, Actions]]]:
    """Every template and base size, with every aim below, under every one of the 36
    rolls and under 'all': a target in range at 2, 4, 8 or 12 inches; or a shot
    that fell short, by half an inch to 6 inches in half-inch steps (quarter-inch
    steps in the "quarter-inch" space), written plain or plus the base radius, from a
    weapon of range 6 or 12."""
    if name not in EXHAUSTIVE_SPACES:
        raise KeyError(name)
    step = Fraction(1, 4) if name == "quarter-inch" else Fraction(1, 2)
    shorts = [step * k for k in range(1, int(6 / step) + 1)]
    aims: list[tuple[Fraction, Fraction | None, bool]] = [(Fraction(d), None, False) for d in ON_TARGET_DISTANCES]
    aims += [(Fraction(rng), short, plus) for rng in WEAPON_RANGES for short in shorts for plus in (False, True)]
    actions: list[Actions] = list(ROLLS) + [ALL_ROLLS]
    total = len(AOE_SIZES) * len(BASE_SIZES) * len(aims) * len(actions)

    def scenes():
        for aoe, base in product(AOE_SIZES, BASE_SIZES):
            for from_attacker, short, plus in aims:
                shot = Shot(aoe, base, from_attacker, short, plus)
                for action in actions:
                    yield shot, action

    return total, scenes()
