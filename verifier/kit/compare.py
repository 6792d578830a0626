"""Comparing what a case expects with what came out, for the parts every ruleset has."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from ..ruleset import Event, Mismatch

EventKey = Callable[[str, tuple[str, ...]], Hashable]
EventText = Callable[[str, tuple[str, ...], str], str]


def event_mismatches(expected: Sequence[tuple[str, tuple[str, ...]]], events: Sequence[Event], *,
                     key: EventKey, text: EventText) -> list[Mismatch]:
    """The expected events (kind, pieces) that did not happen, each at its place in the
    case's ``events`` list, then the events that happened but were not expected. Events
    are matched as a multiset by ``key`` (which may ignore the order of some pieces);
    ``text(kind, pieces, detail)`` says one in words."""
    problems: list[Mismatch] = []
    wanted = Counter(key(kind, pieces) for kind, pieces in expected)
    actual = Counter(key(e.kind, e.pieces) for e in events)
    for i, (kind, pieces) in enumerate(expected):
        if actual[key(kind, pieces)] <= 0:
            words = text(kind, pieces, "")
            problems.append(Mismatch(("events", i), words, None, f"expected event did not happen: {words}"))
        actual[key(kind, pieces)] -= 1
    for e in events:
        if wanted[key(e.kind, e.pieces)] <= 0:
            problems.append(Mismatch(("events",), None, text(e.kind, e.pieces, ""),
                                     f"unexpected event: {text(e.kind, e.pieces, e.detail)} [{e.clause}]"))
        wanted[key(e.kind, e.pieces)] -= 1
    return problems


def beyond(gap: float, tolerance: float) -> bool:
    """Whether ``gap`` is more than ``tolerance`` or not a number at all: a NaN or an
    infinite gap is a mismatch, never a match (``gap > tolerance`` is false for NaN)."""
    return not (math.isfinite(gap) and gap <= tolerance)


def numbers_text(want: Sequence[float], got: Sequence[float]) -> tuple[str, str]:
    """The two lists of numbers in words, ``[x, y]``, with as many significant digits as
    it takes for the texts to differ where the numbers do (far from the origin six digits
    print 1e+15 and 1e+15+3 alike)."""
    for digits in (6, 9, 12, 17):
        texts = tuple("[" + ", ".join(f"{v:.{digits}g}" for v in numbers) + "]" for numbers in (want, got))
        if texts[0] != texts[1] or list(want) == list(got):
            break
    return texts[0], texts[1]
