"""Scattering shots that favour the interesting cases: templates that end exactly touching
the base, short distances written as the seed's tests write them, attackers close enough
for the caps to differ. Written once against ``kit.choices.Choices``: Hypothesis draws them
(``shots_and_rolls``), and the explorer's search builds them from a seeded
``random.Random`` (``scene``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...kit.choices import Choices, HypothesisChoices, strategy
from .model import ALL_ROLLS, AOE_SIZES, BASE_SIZES, DIE_FACES, SEED_DEFAULT_MAX, AllRolls, Roll, Shot

# Half inches up to 8, and a few awkward fractions.
_LENGTHS = tuple(Fraction(k, 2) for k in range(1, 17)) + (Fraction(1, 3), Fraction(7, 4), Fraction(22, 7))
_FROM_ATTACKER = (Fraction(2), Fraction(4), Fraction(7), Fraction(10), Fraction(12), Fraction(14)) + _LENGTHS
_MAXIMA = (SEED_DEFAULT_MAX,) * 3 + tuple(Fraction(k) for k in range(1, 6))


def roll(choose: Choices) -> Roll:
    return Roll(choose.pick(DIE_FACES), choose.pick(DIE_FACES))


def shot(choose: Choices) -> Shot:
    aoe = choose.pick(AOE_SIZES)
    base = choose.pick(BASE_SIZES)
    from_attacker = choose.pick(_FROM_ATTACKER)
    maximum = choose.pick(_MAXIMA)
    kind = choose.pick(("target", "short", "touching"))
    if kind == "target":
        return Shot(aoe, base, from_attacker, max_deviation=maximum)
    if kind == "touching":
        # Template radius plus a whole number, written plus the base radius: a straight-on
        # roll of that number then ends exactly touching under the centre reading.
        short = Fraction(aoe, 2) + choose.integer(0, 6)
        return Shot(aoe, base, from_attacker, short, True, maximum)
    return Shot(aoe, base, from_attacker, choose.pick(_LENGTHS), choose.flag(), maximum)


def scene(choose: Choices) -> tuple[Shot, Roll | AllRolls]:
    """A shot, and one roll or (a quarter of the time) all 36."""
    fired = shot(choose)
    return fired, (ALL_ROLLS if choose.integer(0, 3) == 3 else roll(choose))


def shots() -> Any:
    """The Hypothesis strategy of ``shot``."""
    from hypothesis import strategies as st
    return st.composite(lambda draw: shot(HypothesisChoices(draw)))()


def shots_and_rolls() -> Any:
    """The Hypothesis strategy of ``scene``."""
    return strategy(scene)
