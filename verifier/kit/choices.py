"""Scenes built from choices: one generator per ruleset, driven by Hypothesis or by a seeded
``random.Random``.

A ruleset writes its scene generator once, as a plain function of a ``Choices`` (which
integer, which item, yes or no, which few of these). Driven by Hypothesis
(``HypothesisChoices``, through ``strategy``) every choice is a draw, so examples shrink
and replay as Hypothesis's always do; driven by a ``random.Random`` (``RandomChoices``,
through ``seeded_scene``) a scene costs what building it costs, tens of microseconds
rather than the milliseconds a Hypothesis example takes, which is what lets the
explorer's search and fuzz try thousands of scenes a second. Scene ``index`` of ``seed``
depends on those two numbers alone, in any process and whatever was imported, so a
search can be cut into batches and spread over workers and still try the same scenes.

``Choices`` answers the boundary kit's ``Chooser`` too (``integer``, ``pick``, ``flag``),
so the same object moves a generated scene onto a boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol, TypeVar

Item = TypeVar("Item")

# Drawn at random, a whole number lands on its smallest value this often (a count at its
# fewest, a size at its least), as Hypothesis's draws do too; the rest of the time every value
# is equally likely. Items are picked uniformly.
SMALL_ODDS = 0.125


class Choices(Protocol):
    """The choices a scene generator makes."""

    def integer(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` (both included)."""
        ...

    def pick(self, items: Sequence[Item]) -> Item:
        """One of ``items`` (not empty)."""
        ...

    def flag(self) -> bool:
        """Yes or no."""
        ...

    def subset(self, items: Sequence[Item], max_size: int, min_size: int = 0) -> tuple[Item, ...]:
        """From ``min_size`` to ``max_size`` different items of ``items``, in the order chosen."""
        ...


@dataclass(frozen=True)
class HypothesisChoices:
    """Every choice a Hypothesis draw (inside ``st.composite``): shrinks toward the smallest
    integer, the first item, no, and fewer items."""

    draw: Callable[[Any], Any]

    def integer(self, low: int, high: int) -> int:
        from hypothesis import strategies as st
        return int(self.draw(st.integers(low, high)))

    def pick(self, items: Sequence[Item]) -> Item:
        from hypothesis import strategies as st
        return self.draw(st.sampled_from(tuple(items)))  # type: ignore[no-any-return]

    def flag(self) -> bool:
        from hypothesis import strategies as st
        return bool(self.draw(st.booleans()))

    def subset(self, items: Sequence[Item], max_size: int, min_size: int = 0) -> tuple[Item, ...]:
        from hypothesis import strategies as st
        if not items:
            return ()
        return tuple(self.draw(st.lists(st.sampled_from(tuple(items)), min_size=min_size,
                                        max_size=min(max_size, len(items)), unique=True)))


@dataclass(frozen=True)
class RandomChoices:
    """Every choice from a seeded ``random.Random``: the same seed, the same choices. A
    whole number (and so a subset's size) is its smallest ``SMALL_ODDS`` of the time and
    any value otherwise; items and flags are uniform."""

    random: Random

    def integer(self, low: int, high: int) -> int:
        r = self.random.random()
        if r < SMALL_ODDS or high <= low:
            return low
        return low + int((r - SMALL_ODDS) / (1 - SMALL_ODDS) * (high - low + 1))

    def pick(self, items: Sequence[Item]) -> Item:
        return items[int(self.random.random() * len(items))]

    def flag(self) -> bool:
        return self.random.random() >= 0.5

    def subset(self, items: Sequence[Item], max_size: int, min_size: int = 0) -> tuple[Item, ...]:
        size = self.integer(min_size, min(max_size, len(items)))
        return tuple(self.random.sample(list(items), size)) if size else ()


Build = Callable[[Choices], tuple[Any, Any]]  # a scene generator: choices -> (before, actions)


def strategy(build: Build) -> Any:
    """A Hypothesis strategy of the (before, actions) that ``build`` makes from drawn choices."""
    from hypothesis import strategies as st

    @st.composite
    def scenes(draw: Callable[[Any], Any]) -> tuple[Any, Any]:
        return build(HypothesisChoices(draw))

    return scenes()


def scene_random(seed: int, index: int) -> Random:
    """The ``random.Random`` of scene ``index`` of ``seed``: two integers seed it (not a
    string or a hash of one, whose value may change from one process to the next)."""
    return Random((abs(seed) << 40) ^ (index << 1) ^ (seed < 0))


def seeded_scene(build: Build, seed: int, index: int) -> tuple[Any, Any]:
    """Scene ``index`` of ``seed``: the same in every process."""
    return build(RandomChoices(scene_random(seed, index)))
