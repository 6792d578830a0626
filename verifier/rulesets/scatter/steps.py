"""The chance of a hit as an exact step function of distance.

Hold the template, the base, the cap and the reading fixed and let the template
start ``s`` inches from the target's centre. A roll moving it ``m`` inches in a
direction whose forward part is ``p`` leaves its centre at a squared distance
``s^2 - 2 p m s + m^2`` from the base's centre, so the roll hits for ``s`` between
the two roots of ``s^2 - 2 p m s + m^2 = R^2`` (``R`` the template radius plus the
base radius):

    s = p m -+ sqrt(R^2 - (1 - p^2) m^2)

with the ends excluded when touching misses and included when it hits. For
straight on and straight back (p = +-1) the roots are rational; for the other
faces (p = +-1/2) they are ``+-m/2 -+ sqrt(R^2 - 3 m^2 / 4)``, a rational plus a
square root of a rational. Between consecutive roots the number of hitting rolls
is constant: those roots are the breakpoints, kept exactly as :class:`Surd` and
ordered without floating point.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key

from .exact import decimal_text, fraction_text
from .model import DIE_FACES, Shot
from .resolver import cap, direction_vector

Rational = int | Fraction


def _sign(value: Rational) -> int:
    return (value > 0) - (value < 0)


def _sign_with_root(a: Fraction, b: Fraction, c: Fraction) -> int:
    """The sign of a + b*sqrt(c), c >= 0, exactly."""
    sa, sb = _sign(a), _sign(b) if c else 0
    if sb == 0 or sa == sb:
        return sa or sb
    if sa == 0:
        return sb
    return sa if a * a > b * b * c else (sb if a * a < b * b * c else 0)


def _rational_root(value: Fraction) -> Fraction | None:
    """sqrt(value) if it is rational, else None."""
    n, d = value.numerator, value.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    return Fraction(rn, rd) if rn * rn == n and rd * rd == d else None


def _square_free_part(n: int, limit: int = 10 ** 6) -> int | None:
    """The least k with n*k a square (None if n has a prime factor above ``limit``)."""
    part, p = 1, 2
    while p * p <= n:
        if p > limit:
            return None
        while n % (p * p) == 0:
            n //= p * p
        if n % p == 0:
            part *= p
            n //= p
        p += 1 if p == 2 else 2
    return part * n


@dataclass(frozen=True)
class Surd:
    """The number ``rational + coefficient * sqrt(radicand)``, radicand >= 0. Not kept
    in a canonical form: equality and order are decided by :meth:`compare`."""

    rational: Fraction
    coefficient: Fraction = Fraction(0)
    radicand: Fraction = Fraction(0)

    @staticmethod
    def make(rational: Rational, coefficient: Rational = 0, radicand: Rational = 0) -> Surd:
        rational, coefficient, radicand = Fraction(rational), Fraction(coefficient), Fraction(radicand)
        if radicand < 0:
            raise ValueError("a negative radicand")
        root = _rational_root(radicand)
        if root is not None or not coefficient:
            return Surd(rational + coefficient * (root or 0))
        return Surd(rational, coefficient, radicand)

    @property
    def is_rational(self) -> bool:
        return not self.coefficient

    def sign(self) -> int:
        return _sign_with_root(self.rational, self.coefficient, self.radicand)

    def compare(self, other: Surd | Rational) -> int:
        """-1, 0 or 1 as self is below, equal to or above ``other``, exactly."""
        if not isinstance(other, Surd):
            other = Surd(Fraction(other))
        q = self.rational - other.rational
        u, c1 = self.coefficient, self.radicand
        v, c2 = -other.coefficient, other.radicand
        if not v or not c2:
            return _sign_with_root(q, u, c1)
        if not u or not c1:
            return _sign_with_root(q, v, c2)
        # The sign of X + Y with X = q + u sqrt(c1) and Y = v sqrt(c2).
        sx, sy = _sign_with_root(q, u, c1), _sign(v)
        if sx == 0 or sx == sy:
            return sx or sy
        # Opposite signs: the one of larger magnitude wins; X^2 - Y^2 has one root in it.
        bigger = _sign_with_root(q * q + u * u * c1 - v * v * c2, 2 * q * u, c1)
        return 0 if bigger == 0 else (sx if bigger > 0 else sy)

    def __lt__(self, other: Surd | Rational) -> bool:
        return self.compare(other) < 0

    def __le__(self, other: Surd | Rational) -> bool:
        return self.compare(other) <= 0

    def __gt__(self, other: Surd | Rational) -> bool:
        return self.compare(other) > 0

    def __ge__(self, other: Surd | Rational) -> bool:
        return self.compare(other) >= 0

    def equals(self, other: Surd | Rational) -> bool:
        return self.compare(other) == 0

    def approximation(self, digits: int = 30) -> Fraction:
        """A fraction within 10^-digits of the number (the root rounded down)."""
        if self.is_rational:
            return self.rational
        scale = 10 ** digits
        c = self.radicand
        root = Fraction(math.isqrt(c.numerator * scale * scale // c.denominator), scale)
        return self.rational + self.coefficient * root

    def __float__(self) -> float:
        return float(self.approximation(20))

    def __str__(self) -> str:
        if self.is_rational:
            return fraction_text(self.rational)
        # sqrt(n/d^2) is written sqrt(n)/d, and a coefficient is folded into the denominator.
        coefficient = abs(self.coefficient)
        n, d = self.radicand.numerator, self.radicand.denominator
        widen = _square_free_part(d)  # sqrt(n/d) = sqrt(n*k)/sqrt(d*k), d*k a square
        d_root = _rational_root(Fraction(d * widen)) if widen else None
        if widen and d_root is not None:
            over = coefficient / d_root
            root = f"√{n * widen}"
            if over.numerator != 1:
                root = f"{over.numerator}·{root}"
            if over.denominator != 1:
                root = f"{root}/{over.denominator}"
        else:
            root = f"√({fraction_text(self.radicand)})"
            if coefficient != 1:
                root = f"{fraction_text(coefficient)}·{root}"
        if not self.rational:
            return root if self.coefficient > 0 else f"-{root}"
        return f"{fraction_text(self.rational)} {'+' if self.coefficient > 0 else '-'} {root}"


def _sorted_unique(values: Sequence[Surd]) -> list[Surd]:
    def order(a: Surd, b: Surd) -> int:
        return a.compare(b)

    ordered = sorted(values, key=cmp_to_key(order))
    unique: list[Surd] = []
    for value in ordered:
        if not unique or not unique[-1].equals(value):
            unique.append(value)
    return unique


@dataclass(frozen=True)
class RollSpan:
    """Where one direction face with one distance die hits: the template's starting
    distance ``s`` between ``low`` and ``high`` (ends included when ``closed``);
    ``faces`` rolls share it (mirror-image faces have one forward part)."""

    distance_die: int
    twice_forward: int
    faces: int
    low: Surd
    high: Surd
    closed: bool

    def holds(self, s: Surd) -> bool:
        lo, hi = s.compare(self.low), s.compare(self.high)
        if self.closed:
            return lo >= 0 and hi <= 0
        return lo > 0 and hi < 0


def roll_spans(shot: Shot, reading: Mapping[str, str]) -> list[RollSpan]:
    """The hitting range of each (distance die, forward part) pair under ``reading``;
    pairs that never hit are left out."""
    reach = shot.reach
    limit = cap(shot, reading)
    closed = reading["touch"] == "hit"
    counts: dict[int, int] = {}
    for face in DIE_FACES:
        twice = int(2 * direction_vector(face, reading["side"]).y.as_fraction())
        counts[twice] = counts.get(twice, 0) + 1
    spans = []
    for die in DIE_FACES:
        moved = min(Fraction(die), limit)
        for twice, faces in sorted(counts.items(), reverse=True):
            p = Fraction(twice, 2)
            radicand = reach * reach - (1 - p * p) * moved * moved
            if radicand < 0 or (radicand == 0 and not closed):
                continue
            middle = p * moved
            spans.append(RollSpan(die, twice, faces, Surd.make(middle, -1, radicand), Surd.make(middle, 1, radicand),
                                  closed))
    return spans


@dataclass(frozen=True)
class HitSteps:
    """The number of hitting rolls (of 36) against the template's starting distance
    from the target's centre, ``s >= 0``: ``at_zero`` at s = 0, ``between[i]`` on the
    open interval from ``breakpoints[i - 1]`` (0 for i = 0) to ``breakpoints[i]`` (no
    end for the last), and ``at[i]`` at ``breakpoints[i]`` itself."""

    aoe: int
    base: int
    reach: Fraction
    cap: Fraction
    touch: str
    breakpoints: tuple[Surd, ...]
    between: tuple[int, ...]
    at: tuple[int, ...]
    at_zero: int

    def hits(self, s: Surd | Rational) -> int:
        """The number of hitting rolls for a template starting ``s`` from the centre."""
        s = s if isinstance(s, Surd) else Surd(Fraction(s))
        if s.sign() < 0:
            raise ValueError("a distance below 0")
        if s.sign() == 0:
            return self.at_zero
        for i, point in enumerate(self.breakpoints):
            order = s.compare(point)
            if order == 0:
                return self.at[i]
            if order < 0:
                return self.between[i]
        return self.between[-1]

    def rows(self) -> list[tuple[str, str, int]]:
        """(from, to, hits) of each piece, the breakpoints as pieces of their own."""
        rows = [("0", "0", self.at_zero)]
        lower = "0"
        for point, inside, on in zip(self.breakpoints, self.between, self.at):
            rows.append((lower, str(point), inside))
            rows.append((str(point), str(point), on))
            lower = str(point)
        rows.append((lower, "∞", self.between[-1]))
        return rows


def hit_steps(shot: Shot, reading: Mapping[str, str]) -> HitSteps:
    """The exact step function of ``shot``'s template and base (its cap under ``reading``)."""
    spans = roll_spans(shot, reading)
    zero = Surd(Fraction(0))
    roots = _sorted_unique([end for span in spans for end in (span.low, span.high) if end.sign() > 0])

    def count(s: Surd) -> int:
        return sum(span.faces for span in spans if span.holds(s))

    def count_open(lower: Surd, upper: Surd | None) -> int:
        """Hits inside the open interval (lower, upper): a span covers all of it or none."""
        return sum(span.faces for span in spans
                   if span.low <= lower and (upper is None or span.high >= upper) and span.high > lower)

    between = [count_open(lower, upper) for lower, upper in zip([zero, *roots], [*roots, None])]
    at = [count(point) for point in roots]
    # Keep only the roots where the count changes (two spans may meet there).
    keep = [i for i in range(len(roots)) if not (between[i] == at[i] == between[i + 1])]
    return HitSteps(shot.aoe, shot.base, shot.reach, cap(shot, reading), reading["touch"],
                    tuple(roots[i] for i in keep), tuple([between[i] for i in keep] + [between[-1]]),
                    tuple(at[i] for i in keep), count(zero))


def steps_text(steps: HitSteps, *, mark: Fraction | None = None, edge_offset: Fraction | None = None) -> str:
    """The step function as a table for ``verifier show``: each breakpoint exactly and
    in decimals, the hitting rolls (of 36) at it and on the interval above it; ``mark``
    is the case's own starting distance. With ``edge_offset`` (the base radius, under
    distance=edge) each breakpoint is also given as the short distance a case states."""
    lines = [f"hits against s, the template's starting distance from the target's centre ({steps.aoe}-inch AOE, "
             f"{steps.base} mm base, reach {fraction_text(steps.reach)} in, cap {decimal_text(steps.cap, 3)} in, "
             f"touch={steps.touch}): {len(steps.breakpoints)} breakpoints",
             f"  at s = 0: {steps.at_zero}/36; from there up to the first breakpoint: {steps.between[0]}/36"]
    exact = [str(point) for point in steps.breakpoints]
    width = max([len("breakpoint s (exact)"), *map(len, exact)])
    short = "  short (edge)" if edge_offset is not None else ""
    lines.append(f"  {'breakpoint s (exact)':<{width}}  {'decimal':>10}{short}  at it  above it")
    for text, point, on, above in zip(exact, steps.breakpoints, steps.at, steps.between[1:]):
        row = f"  {text:<{width}}  {float(point):>10.6f}"
        if edge_offset is not None:
            value = point.approximation() - edge_offset
            row += f"  {float(value):>13.6f}" if value >= 0 else f"  {'-':>13}"
        lines.append(row + f"  {on:>3}/36  {above:>3}/36")
    if mark is not None:
        lines.append(f"  this case: s = {fraction_text(mark)} ≈ {float(mark):.6f}: {steps.hits(mark)}/36")
    return "\n".join(lines)
