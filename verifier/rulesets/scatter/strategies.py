"""Hypothesis strategies for scattering shots that favour the interesting cases:
templates that end exactly touching the base, short distances written as the
seed's tests write them, attackers close enough for the caps to differ."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from .model import ALL_ROLLS, AOE_SIZES, BASE_SIZES, DIE_FACES, SEED_DEFAULT_MAX, Roll, Shot

# Half inches up to 8, and a few awkward fractions.
_LENGTHS = tuple(Fraction(k, 2) for k in range(1, 17)) + (Fraction(1, 3), Fraction(7, 4), Fraction(22, 7))


@st.composite
def rolls(draw) -> Roll:
    return Roll(draw(st.sampled_from(DIE_FACES)), draw(st.sampled_from(DIE_FACES)))


@st.composite
def shots(draw) -> Shot:
    aoe = draw(st.sampled_from(AOE_SIZES))
    base = draw(st.sampled_from(BASE_SIZES))
    from_attacker = draw(st.sampled_from((Fraction(2), Fraction(4), Fraction(7), Fraction(10), Fraction(12),
                                          Fraction(14)) + _LENGTHS))
    maximum = draw(st.sampled_from((SEED_DEFAULT_MAX,) * 3 + tuple(Fraction(k) for k in range(1, 6))))
    kind = draw(st.sampled_from(("target", "short", "touching")))
    if kind == "target":
        return Shot(aoe, base, from_attacker, max_deviation=maximum)
    if kind == "touching":
        # Template radius plus a whole number, written plus the base radius: a straight-on
        # roll of that number then ends exactly touching under the centre reading.
        short = Fraction(aoe, 2) + draw(st.integers(0, 6))
        return Shot(aoe, base, from_attacker, short, True, maximum)
    return Shot(aoe, base, from_attacker, draw(st.sampled_from(_LENGTHS)), draw(st.booleans()), maximum)


@st.composite
def shots_and_rolls(draw):
    shot = draw(shots())
    actions = draw(st.one_of(rolls(), rolls(), rolls(), st.just(ALL_ROLLS)))
    return shot, actions
