"""What a resolver worked out once and may meet again: the explorer, fuzz and the rule pages
resolve one scene under many readings, and each resolution under a reading it has already
met costs nothing. Both kinds of memo are bounded (the oldest entry goes first) and locked,
because the in-process adapter resolves on a thread of its own."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Generic, TypeVar

from ..ruleset import NotedReading, Outcome

Made = TypeVar("Made")


class Recent(Generic[Made]):
    """The values made for the last ``size`` keys."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[Hashable, Made] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Made]) -> Made:
        with self._lock:
            known = self._kept.get(key)
            if known is not None:
                self._kept.move_to_end(key)
                return known
        made = make()  # outside the lock: making may take long, and two threads making one key agree
        with self._lock:
            self._kept[key] = made
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return made

    def peek(self, key: Hashable) -> Made | None:
        """The value kept for ``key``, if any (made by no one)."""
        with self._lock:
            return self._kept.get(key)

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._kept.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


class ReadingMemo:
    """Outcomes by scene and actions, each with the options of the reading points it consulted.
    A point the resolver did not consult cannot change the outcome (``Outcome.consulted``), so
    an outcome found under one reading is the outcome under every reading that agrees with it
    on those points.

    Those points are kept, and looked up again, in the order the resolver first looked them
    up, not by name: the reference under every reading (``fuzz.reference``) branches first on
    the point a resolution looked up first, so an outcome taken from the memo must look up what
    a fresh resolution would, in its order, or a scene's table would depend on what the process
    resolved before. Checked in that order, a kept outcome looks up no point a fresh resolution
    would not look up first: up to the first option that differs, both took the same way."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._kept: OrderedDict[Hashable, list[tuple[tuple[tuple[str, str], ...], Outcome]]] = OrderedDict()
        self._lock = threading.Lock()

    def resolve(self, key: Hashable, reading: Mapping[str, str],
                carry_out: Callable[[Mapping[str, str]], Outcome]) -> Outcome:
        """The outcome under ``reading`` of the scene and actions ``key`` stands for: one kept
        under an agreeing reading, else ``carry_out(reading)``, kept."""
        with self._lock:
            known = list(self._kept.get(key, ()))
            if known:
                self._kept.move_to_end(key)
        for pins, outcome in known:
            if all(reading.get(point) == option for point, option in pins):
                return replace(outcome, reading=MappingProxyType(dict(reading)))
        noted = NotedReading(reading)
        outcome = carry_out(noted)
        consulted = outcome.consulted
        asked = [point for point in noted.asked if point in consulted]
        asked += [point for point in reading if point in consulted and point not in noted.asked]
        pins = tuple((point, reading[point]) for point in asked)
        with self._lock:
            self._kept.setdefault(key, []).append((pins, outcome))
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return outcome

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
