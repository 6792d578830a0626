"""Values worked out once and asked for again on a hot path, in a plain dict bounded by
dropping every entry when it is full: cheaper than evicting one at a time, and the few keys
still in use are made again at once. Not locked: two threads that make the same key make
equal values, and a dict's get and set are atomic, so the worst case is one value made twice.
(``kit.memo`` holds the locked, least-recently-used memos of resolvers' outcomes.)"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class Kept(Generic[Key, Value]):
    """Values by key, at most ``most`` of them."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._values: dict[Key, Value] = {}

    def get(self, key: Key, make: Callable[[], Value]) -> Value:
        try:
            return self._values[key]
        except KeyError:
            pass
        value = make()
        if len(self._values) >= self._most:
            self._values.clear()
        self._values[key] = value
        return value

    def clear(self) -> None:
        self._values.clear()


class KeptFor(Generic[Value]):
    """Values by an object's identity, at most ``most`` of them: for objects costly to hash,
    or unhashable (a schema, a shape). The object is kept with its value, so that its id
    cannot pass to another object while the entry lives. ``given``: what else the value was
    made from, compared by equality (one value per object: other ``given`` replaces it)."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._values: dict[int, tuple[object, Any, Value]] = {}

    def get(self, owner: object, make: Callable[[], Value], given: Any = None) -> Value:
        known = self._values.get(id(owner))
        if known is not None and known[0] is owner and known[1] == given:
            return known[2]
        value = make()
        if len(self._values) >= self._most:
            self._values.clear()
        self._values[id(owner)] = (owner, given, value)
        return value

    def clear(self) -> None:
        self._values.clear()


class KeptByData(Generic[Value]):
    """Values read from a document's data (a scene parsed from its JSON or YAML form), kept
    by the data's ``repr``, at most ``most`` of them. The ``repr`` tells apart everything a
    reader could tell apart (the order of a mapping's keys, a list from a tuple, 1 from 1.0
    and True), where equality would not. A read that raises keeps nothing, so the same data
    raises again, with the document it is in."""

    def __init__(self, most: int) -> None:
        self._kept: Kept[str, Value] = Kept(most)

    def get(self, data: Any, read: Callable[[], Value]) -> Value:
        return self._kept.get(repr(data), read)

    def clear(self) -> None:
        self._kept.clear()
