"""Boundaries: the contacts, ties and limits that a ruleset's clauses decide by, and scenes
built exactly on them and just either side.

A rule is decided where a quantity changes sign: the gap between two outlines (touching
or overlapping), a turn against its limit, a count against a capacity, two ranges that
tie. Generated scenes almost never land there by chance, and that is where other
implementations depart from the rules. A ruleset names each such quantity as a
``Boundary``: the clauses it decides, the signed quantity of a scene (0 on the boundary),
and a way to move a generated scene onto it: a one-parameter ``Path`` of scenes through
it (slide a piece along a direction, turn until the limit, stretch until two ranges tie,
add until the capacity is met) that ``land`` solves by bisection, or, where the ruleset's
arithmetic is exact, a ``place`` that builds the scene outright.

One tolerance decides "on": the geometry kit's ``TOLERANCE`` for lengths, unless a
boundary states the ruleset's own for its unit (degrees, say). A scene on a boundary has
its quantity within half the tolerance of 0; a scene just either side has it
``SIDE_STEPS`` tolerances from 0, so the kit's ``classify`` calls the first touching
and the others apart and overlapping. Integer quantities (counts, steps) are on at 0
and either side at -1 and +1; exact ones exactly at 0 and at a small exact offset.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from random import Random
from typing import Any, Protocol, TypeVar

from .geometry import TOLERANCE

Item = TypeVar("Item")

Scene = tuple[Any, Any]  # (before, actions), as a ruleset's strategy draws them

# How many tolerances from 0 a scene "just either side" lies: far enough past the
# tolerance that contact is decided (overlap needs the two outlines to share a disc of
# the tolerance's radius), near enough to be no more than a hair from the boundary.
SIDE_STEPS = 4.0
BISECTIONS = 200  # enough to halve any float interval down to adjacent doubles


class Chooser(Protocol):
    """The choices a way onto a boundary makes (which piece to slide, which side to turn to):
    drawn by Hypothesis while searching (``kit.choices.HypothesisChoices``), so that they shrink
    and replay, and by a seeded ``random.Random`` while enumerating a space (``SeededChoices``:
    uniform, unlike ``kit.choices.RandomChoices``, which leans to small numbers)."""

    def integer(self, low: int, high: int) -> int: ...
    def pick(self, items: Sequence[Item]) -> Item: ...
    def flag(self) -> bool: ...


@dataclass(frozen=True)
class SeededChoices:
    """Choices from a seeded ``random.Random``: the same seed, the same choices."""

    random: Random

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def pick(self, items: Sequence[Item]) -> Item:
        return self.random.choice(tuple(items))

    def flag(self) -> bool:
        return self.random.random() < 0.5


class Side(StrEnum):
    """Where a scene lies against a boundary. ``below`` is the negative side of the
    quantity (overlapping, within the limit, fewer than the capacity, the first of two
    ranges the shorter), ``above`` the positive side."""

    BELOW = "below"
    ON = "on"
    ABOVE = "above"


SIDES = (Side.ON, Side.BELOW, Side.ABOVE)


@dataclass(frozen=True)
class Path:
    """A one-parameter family of scenes through a generated one: ``scene(t)`` for ``t``
    from ``low`` to ``high`` (None where there is no possible scene). Along it the
    boundary's quantity should change sign once. ``integral`` paths take whole ``t``
    only (a count, a number of steps). ``valid`` says whether the scene found is one the
    ruleset accepts (pieces inside the table, none overlapping at the start, ...): the
    path may pass through impossible scenes on the way."""

    scene: Callable[[float], Scene | None]
    low: float
    high: float
    integral: bool = False
    valid: Callable[[Any, Any], bool] | None = None


@dataclass(frozen=True)
class Boundary:
    """A quantity whose sign decides some clauses, and a way onto it.

    ``quantity(before, actions)`` is the signed quantity (None: this scene has no such
    boundary, for instance no second piece to touch). ``path(before, actions, choose)``
    gives a family of scenes through the boundary, making its choices (what to move) with
    a ``Chooser``; ``place(before, actions, side, choose)`` builds a scene on ``side``
    outright, for rulesets with exact arithmetic. A boundary has one or the other.
    ``tolerance`` is the unit's stated tolerance (the geometry kit's for lengths);
    ``exact`` says the quantity is computed without rounding, so "on" means exactly 0;
    ``integral`` that it is a whole number (a count, a number of steps), on at 0 and just
    either side at -1 and +1."""

    name: str
    clauses: tuple[str, ...]
    summary: str
    quantity: Callable[[Any, Any], float | None]
    path: Callable[[Any, Any, Chooser], Path | None] | None = None
    place: Callable[[Any, Any, Side, Chooser], Scene | None] | None = None
    tolerance: float = TOLERANCE
    exact: bool = False
    integral: bool = False

    def __post_init__(self) -> None:
        if (self.path is None) == (self.place is None):
            raise ValueError(f"boundary {self.name!r} needs exactly one of a path and a place")

    def side_of(self, value: float) -> Side:
        """The side a value of the quantity lies on, under this boundary's tolerance."""
        if self.exact or self.integral:
            return Side.ON if value == 0 else (Side.BELOW if value < 0 else Side.ABOVE)
        if abs(value) <= self.tolerance / 2:
            return Side.ON
        return Side.BELOW if value < 0 else Side.ABOVE

    def target(self, side: Side, integral: bool) -> float:
        """The value of the quantity a scene on ``side`` is built to have."""
        step = 1.0 if integral else SIDE_STEPS * self.tolerance
        return {Side.ON: 0.0, Side.BELOW: -step, Side.ABOVE: step}[side]

    def holds(self, value: float, side: Side, integral: bool = False) -> bool:
        """Whether ``value`` is where a scene built for ``side`` must be."""
        if self.exact or integral:
            if side is Side.ON:
                return value == 0
            return value < 0 if side is Side.BELOW else value > 0
        goal = self.target(side, integral)
        return abs(value - goal) <= self.tolerance / 2


@dataclass(frozen=True)
class Visit:
    """A scene built on a boundary: which boundary, which side, and its quantity there."""

    boundary: str
    side: Side
    value: float

    def __str__(self) -> str:
        return f"{self.boundary} ({self.side})"


def root(f: Callable[[float], float | None], low: float, high: float, *, tolerance: float = TOLERANCE,
         integral: bool = False) -> float | None:
    """A ``t`` between ``low`` and ``high`` where ``f`` is 0 (within an eighth of ``tolerance``,
    or exactly for ``integral`` paths, which take whole ``t`` only); None where ``f`` has the
    same sign at both ends, is undefined (None) on the way, or, on an integral path, skips 0.
    Integral paths are bisected; others are closed in on by false position with the Illinois
    correction (most quantities are smooth along a path, so a few steps do), bisecting
    instead whenever three steps have not halved the interval (where a quantity has corners)."""
    if integral:
        low, high = math.ceil(low), math.floor(high)
    f_low, f_high = f(low), f(high)
    if f_low is None or f_high is None or math.isnan(f_low) or math.isnan(f_high):
        return None
    if f_low == 0:
        return low
    if f_high == 0:
        return high
    if (f_low > 0) == (f_high > 0):
        return None
    weight_low, weight_high = f_low, f_high  # the ends' values, halved where an end is kept twice running
    kept = 0  # which end was kept last: -1 the low, +1 the high
    width = high - low  # at the last check that the interval halves
    for step in range(1, BISECTIONS + 1):
        mid = (low + high) // 2 if integral else (low * weight_high - high * weight_low) / (weight_high - weight_low)
        if not integral and (step % 3 == 0 and high - low > width / 2 or not low < mid < high):
            mid = (low + high) / 2
        if step % 3 == 0:
            width = high - low
        if mid in (low, high):
            break
        f_mid = f(mid)
        if f_mid is None or math.isnan(f_mid):
            return None
        if f_mid == 0 or (not integral and abs(f_mid) <= tolerance / 8):
            return mid
        if (f_mid > 0) == (f_low > 0):
            low, f_low, weight_low = mid, f_mid, f_mid
            weight_high = weight_high / 2 if kept == 1 else weight_high
            kept = 1
        else:
            high, f_high, weight_high = mid, f_mid, f_mid
            weight_low = weight_low / 2 if kept == -1 else weight_low
            kept = -1
    if integral:
        return None  # no whole t gives 0 exactly
    return low if abs(f_low) <= abs(f_high) else high


def _solve(boundary: Boundary, path: Path, goal: float) -> Scene | None:
    """The scene of ``path`` whose quantity is ``goal``; None when the path does not cross it."""
    def off(t: float) -> float | None:
        scene = path.scene(t)
        value = None if scene is None else boundary.quantity(*scene)
        return None if value is None else value - goal

    t = root(off, path.low, path.high, tolerance=boundary.tolerance, integral=path.integral)
    return None if t is None else path.scene(t)


def land(boundary: Boundary, before: Any, actions: Any, side: Side,
         choose: Chooser) -> tuple[Scene, Visit] | None:
    """A scene on ``side`` of ``boundary`` moved from the generated (``before``,
    ``actions``), with its visit; None where this scene cannot be moved onto it."""
    if boundary.place is not None:
        scene = boundary.place(before, actions, side, choose)
        integral = boundary.integral
    else:
        assert boundary.path is not None
        path = boundary.path(before, actions, choose)
        if path is None:
            return None
        integral = path.integral or boundary.integral
        scene = _solve(boundary, path, boundary.target(side, integral))
        if scene is not None and path.valid is not None and not path.valid(*scene):
            return None
    if scene is None:
        return None
    value = boundary.quantity(*scene)
    if value is None or not boundary.holds(value, side, integral):
        return None
    return scene, Visit(boundary.name, side, value)


def beside(boundary: Boundary, before: Any, actions: Any) -> bool:
    """Whether a scene lies on ``boundary`` or just either side of it (within the side's
    distance and half a tolerance more; exactly on it for an exact boundary), however it
    was made: a shrunk scene, say."""
    value = boundary.quantity(before, actions)
    if value is None:
        return False
    if boundary.exact:
        return value == 0
    if boundary.integral:
        return abs(value) <= 1
    return abs(value) <= (SIDE_STEPS + 0.5) * boundary.tolerance


def visit_of(boundaries: Sequence[Boundary], before: Any, actions: Any) -> Visit | None:
    """The first boundary the scene lies on, if any (for scenes not built by ``land``,
    such as shrunk ones)."""
    for boundary in boundaries:
        value = boundary.quantity(before, actions)
        if value is not None and boundary.side_of(value) is Side.ON:
            return Visit(boundary.name, Side.ON, value)
    return None


@dataclass(frozen=True)
class Settled:
    """A scene moved onto the boundary that decides what it shows, and the side it is on."""

    before: Any
    actions: Any
    boundary: str
    side: Side

    def __str__(self) -> str:
        return f"{self.boundary} ({self.side})"


def settle(boundaries: Sequence[Boundary], before: Any, actions: Any, verdict: Callable[[Any, Any], bool | None],
           first: Sequence[str] = ()) -> Settled | None:
    """The scene, which departs from the rules, moved onto the boundary that decides it. A
    boundary decides it when, moved onto the boundary and just either side (with the same
    choices each time, seeded by the scene), it departs on one side (``verdict`` True) and
    agrees on another (False; None for neither); a scene already beside the boundary counts
    as departing on its own side. Boundaries the scene has no quantity for are passed over;
    those named in ``first`` are tried first. Returns, for the first boundary that decides,
    the departing scene on it if there is one, else the one beside it; None where no
    boundary decides it: what the scene shows does not change across any of them."""
    ranked = sorted(boundaries, key=lambda b: list(first).index(b.name) if b.name in first else len(first))
    for boundary in ranked:
        value = boundary.quantity(before, actions)
        if value is None:
            continue
        departing: dict[Side, Settled] = {}
        if beside(boundary, before, actions):
            departing[boundary.side_of(value)] = Settled(before, actions, boundary.name, boundary.side_of(value))
        agreeing = False
        for side in SIDES:
            if side in departing:
                continue
            landed = land(boundary, before, actions, side, SeededChoices(Random(repr((before, actions)))))
            if landed is None:
                continue
            (moved_before, moved_actions), _ = landed
            said = verdict(moved_before, moved_actions)
            if said:
                departing[side] = Settled(moved_before, moved_actions, boundary.name, side)
            agreeing = agreeing or said is False
        if departing and agreeing:
            return departing.get(Side.ON) or next(iter(departing.values()))
    return None


ATTEMPTS = 3  # further drawn scenes tried for a scene chosen for a boundary that none fits
SIDE_WEIGHT = {Side.ON: 2, Side.BELOW: 1, Side.ABOVE: 1}  # half the boundary scenes on it, a quarter each side


class _Turns:
    """Whose turn it is among the (boundary, side) pairs: the one built least often for its
    weight so far (a failure to build counts a quarter), so that over a run every pair is
    visited about equally, and one a scene seldom fits is tried first more often. The
    choice depends on the scenes built before, never on what Hypothesis draws, so the
    draws stay the same whatever the order (Hypothesis replays them)."""

    def __init__(self, boundaries: tuple[Boundary, ...]) -> None:
        self.pairs = [(boundary, side) for side in SIDES for boundary in boundaries]
        self.built = [0.0] * len(self.pairs)

    def land(self, before: Any, actions: Any, seed: int) -> tuple[Scene, Visit] | None:
        """The scene moved onto the first pair in turn that it fits, the choices of each pair
        seeded by ``seed`` and the pair alone; None where it fits no pair on the boundaries."""
        order = sorted(range(len(self.pairs)), key=lambda i: (self.built[i] / SIDE_WEIGHT[self.pairs[i][1]], i))
        on_left = sum(side is Side.ON for _, side in self.pairs)
        for i in order:
            boundary, side = self.pairs[i]
            landed = land(boundary, before, actions, side, SeededChoices(Random(f"{seed}:{boundary.name}:{side}")))
            if landed is not None:
                self.built[i] += 1
                return landed
            self.built[i] += 0.25
            on_left -= side is Side.ON
            if not on_left:  # a scene that fits no boundary on it is drawn again (whatever the order)
                return None
        return None


def on_boundaries(base: Any, boundaries: Sequence[Boundary], share: float, *, tagged: bool = False) -> Any:
    """A Hypothesis strategy: the scenes of ``base``, of which a ``share`` (0 to 1) are
    moved onto one of ``boundaries``: half of them exactly on it, a quarter just either
    side. Which scenes are moved is chosen with a ``random.Random`` seeded by the draw
    (Hypothesis's own numbers lean to the ends of their range); which boundary and side
    in turn (``_Turns``), so that each is visited about equally often. A drawn scene that
    fits no boundary on it is replaced by up to ``ATTEMPTS`` further drawn scenes, and
    kept as first drawn when none fits. With ``tagged`` each example is (before, actions,
    visit), the visit None for a scene left as drawn."""
    from hypothesis import strategies as st

    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the boundary share must lie between 0 and 1, not {share}")
    chosen = tuple(boundaries)
    turns = _Turns(chosen)

    @st.composite
    def scenes(draw: Callable[[Any], Any]) -> tuple[Any, ...]:
        before, actions = draw(base)
        visit: Visit | None = None
        if chosen and share:
            uniform = draw(st.randoms(use_true_random=True))  # its own Random, seeded by the draw: uniform
            if uniform.random() < share:
                seed = uniform.getrandbits(64)
                landed = turns.land(before, actions, seed)
                for _ in range(ATTEMPTS):
                    if landed is not None:
                        break
                    again_before, again_actions = draw(base)
                    landed = turns.land(again_before, again_actions, seed)
                if landed is not None:
                    (before, actions), visit = landed
        return (before, actions, visit) if tagged else (before, actions)

    return scenes()


@dataclass
class BoundaryTally:
    """How often each boundary was visited on each side, out of how many scenes."""

    scenes: int = 0
    visits: dict[str, dict[Side, int]] = field(default_factory=dict)

    def count(self, visit: Visit | None) -> None:
        self.scenes += 1
        if visit is not None:
            self.visits.setdefault(visit.boundary, dict.fromkeys(Side, 0))[visit.side] += 1

    @property
    def on_boundaries(self) -> int:
        return sum(sum(sides.values()) for sides in self.visits.values())

    @property
    def share(self) -> float:
        return self.on_boundaries / self.scenes if self.scenes else 0.0

    def as_json(self, names: Sequence[str] = ()) -> dict[str, Any]:
        """Every named boundary (visited or not) with its visits per side."""
        visits = self.visits
        every = list(names) + sorted(set(visits) - set(names))
        return {"scenes": self.scenes, "on_boundaries": self.on_boundaries, "share": round(self.share, 4),
                "boundaries": {name: {str(side): n for side, n in visits.get(name, dict.fromkeys(Side, 0)).items()}
                               for name in every}}


def boundaries_text(data: Mapping[str, Any]) -> str:
    """A Markdown paragraph and table of ``BoundaryTally.as_json``."""
    lines = [f"{data['on_boundaries']} of {data['scenes']} scenes ({data['share']:.0%}) were built on a boundary "
             "or just either side of it.", "", "| boundary | on | below | above |", "|---|---|---|---|"]
    for name, sides in data["boundaries"].items():
        lines.append(f"| {name} | {sides['on']} | {sides['below']} | {sides['above']} |")
    return "\n".join(lines)


def readable(ruleset: Any) -> Callable[[Any, Any], bool]:
    """Whether a scene is one the ruleset's case reader accepts: its case data read back
    through ``parse`` without an error. For rulesets whose paths pass through scenes that
    may be impossible (a count past what a piece holds, two pieces on one spot)."""
    from ..errors import VerifierError
    from ..source import Located

    def accepts(before: Any, actions: Any) -> bool:
        data_before, data_actions = ruleset.case_data(before, actions)
        doc = Located("<boundary>", {"before": data_before, "actions": data_actions}, {}, {})
        try:
            ruleset.parse(doc, ("before",), ("actions",), None)
        except VerifierError:
            return False
        return True

    return accepts


def with_boundaries(boundaries: Sequence[Boundary],
                    scenes: Iterable[tuple[Any, Any, int]]) -> Iterator[tuple[Any, Any, int]]:
    """Each (before, actions, weight) of ``scenes``, followed by the scenes it moves onto each
    of ``boundaries`` on each side (weight 1 each), the choices seeded by the scene itself (its
    ``repr``), so that a scene gives the same boundary scenes wherever it is enumerated."""
    for before, actions, weight in scenes:
        yield before, actions, weight
        choices = SeededChoices(Random(repr((before, actions))))
        for boundary in boundaries:
            for side in SIDES:
                landed = land(boundary, before, actions, side, choices)
                if landed is not None:
                    (moved_before, moved_actions), _ = landed
                    yield moved_before, moved_actions, 1
