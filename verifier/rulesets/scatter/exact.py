"""Exact numbers of the form a + b*sqrt(3), with a and b rational.

The deviation directions are multiples of 60 degrees, whose sines and cosines
are 0, +-1/2, +-1 and +-sqrt(3)/2. Starting from rational distances, every
coordinate of a landing spot is therefore in Q(sqrt 3), and every comparison
can be decided exactly: the sign of a + b*sqrt(3) follows from comparing a^2
with 3*b^2 when a and b have opposite signs. Squared distances between such
points along the line of attack turn out rational (sqrt(3)^2 = 3), which is why
the hit test never needs a square root.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ...kit.hashed import HashedTuple

Rational = int | Fraction

SQRT3 = math.sqrt(3.0)


def _sign(value: Rational) -> int:
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class QSqrt3:
    """``rational + root3 * sqrt(3)``; the representation is unique (sqrt(3) is
    irrational), so equality of fields is equality of numbers."""

    rational: Fraction = Fraction(0)
    root3: Fraction = Fraction(0)

    @staticmethod
    def of(value: Rational | QSqrt3) -> QSqrt3:
        if isinstance(value, QSqrt3):
            return value
        return QSqrt3(Fraction(value), Fraction(0))

    def __add__(self, other: Rational | QSqrt3) -> QSqrt3:
        other = QSqrt3.of(other)
        return QSqrt3(self.rational + other.rational, self.root3 + other.root3)

    __radd__ = __add__

    def __neg__(self) -> QSqrt3:
        return QSqrt3(-self.rational, -self.root3)

    def __sub__(self, other: Rational | QSqrt3) -> QSqrt3:
        return self + (-QSqrt3.of(other))

    def __rsub__(self, other: Rational | QSqrt3) -> QSqrt3:
        return QSqrt3.of(other) - self

    def __mul__(self, other: Rational | QSqrt3) -> QSqrt3:
        if not isinstance(other, QSqrt3):
            return self.times(other)
        if not other.root3:
            return self.times(other.rational)
        if not self.root3:
            return other.times(self.rational)
        return QSqrt3(self.rational * other.rational + 3 * self.root3 * other.root3,
                      self.rational * other.root3 + self.root3 * other.rational)

    def times(self, factor: Rational) -> QSqrt3:
        """Multiplied by a rational number (the common case, kept cheap)."""
        return QSqrt3(self.rational * factor if self.rational else self.rational,
                      self.root3 * factor if self.root3 else self.root3)

    __rmul__ = __mul__

    def sign(self) -> int:
        """-1, 0 or 1, decided without floating point."""
        a, b = _sign(self.rational), _sign(self.root3)
        if b == 0 or a == b:
            return a or b
        if a == 0:
            return b
        # Opposite signs: the larger of |a| and |b|*sqrt(3) wins; compare squares.
        return a if self.rational ** 2 > 3 * self.root3 ** 2 else b

    def compare(self, other: Rational | QSqrt3) -> int:
        return (self - other).sign()

    def __lt__(self, other: Rational | QSqrt3) -> bool:
        return self.compare(other) < 0

    def __le__(self, other: Rational | QSqrt3) -> bool:
        return self.compare(other) <= 0

    def __gt__(self, other: Rational | QSqrt3) -> bool:
        return self.compare(other) > 0

    def __ge__(self, other: Rational | QSqrt3) -> bool:
        return self.compare(other) >= 0

    @property
    def is_rational(self) -> bool:
        return self.root3 == 0

    def as_fraction(self) -> Fraction:
        if self.root3:
            raise ValueError(f"{self} is irrational")
        return self.rational

    def __float__(self) -> float:
        return float(self.rational) + float(self.root3) * SQRT3

    def __str__(self) -> str:
        if not self.root3:
            return str(self.rational)
        root = "√3" if self.root3 == 1 else "-√3" if self.root3 == -1 else f"{self.root3}·√3"
        if not self.rational:
            return root
        return f"{self.rational} {'-' if self.root3 < 0 else '+'} {root.lstrip('-')}"


@dataclass(frozen=True)
class PlanePoint:
    """A point of the table in inches, exactly. ``x`` grows to the attacker's right
    of the line of attack, ``y`` grows forward, away from the attacker."""

    x: QSqrt3
    y: QSqrt3

    def __add__(self, other: PlanePoint) -> PlanePoint:
        return PlanePoint(self.x + other.x, self.y + other.y)

    def __sub__(self, other: PlanePoint) -> PlanePoint:
        return PlanePoint(self.x - other.x, self.y - other.y)

    def scaled(self, factor: Rational) -> PlanePoint:
        return PlanePoint(self.x.times(factor), self.y.times(factor))

    def mirrored(self) -> PlanePoint:
        """Mirror image across the line of attack."""
        return PlanePoint(-self.x, self.y)

    def norm_squared(self) -> QSqrt3:
        return self.x * self.x + self.y * self.y

    def floats(self) -> tuple[float, float]:
        return (float(self.x), float(self.y))

    def key(self) -> tuple:
        return self._key

    @cached_property
    def _key(self) -> HashedTuple:
        # Kept, with its hash: outcome keys hash a landing's spot at every look-up, and the
        # resolver hands the same point to every landing on that spot.
        return HashedTuple((self.x.rational, self.x.root3, self.y.rational, self.y.root3))



def parse_fraction(text: str) -> Fraction:
    """'2.5', '5/2' or '785/254' as an exact fraction (ValueError otherwise)."""
    return Fraction(text.strip())


def number(value: Rational | float | str) -> Fraction:
    """An exact fraction of a number as written in a case file: YAML floats are read
    back through their shortest decimal form, so 2.5 is 5/2 and 0.1 is 1/10."""
    if isinstance(value, bool):
        raise ValueError("not a number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("not a finite number")
        return Fraction(repr(value))
    if isinstance(value, str):
        return parse_fraction(value)
    return Fraction(value)


def fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def decimal_text(value: Fraction | float, places: int = 2) -> str:
    """A short decimal for people: 2.5, 0.59, 3."""
    text = f"{float(value):.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
