"""A tuple that works its hash out once: an outcome key that fuzz and the explorer look up again
and again (per reading point, per reading) and whose parts are slow to hash (exact fractions,
dataclasses)."""

from __future__ import annotations

from typing import Any


class HashedTuple(tuple[Any, ...]):
    """Equal to the plain tuple, with the same hash, kept after the first time. Pickled (and
    copied) as the plain tuple: a string's hash differs from process to process, so a hash
    worked out here must not travel."""

    def __hash__(self) -> int:
        known = self.__dict__.get("hash")
        if known is None:
            known = self.__dict__["hash"] = tuple.__hash__(self)
        return known

    def __reduce__(self) -> tuple[Any, ...]:
        return tuple, (tuple(self),)
