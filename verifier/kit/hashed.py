"""Hashes worked out once: an outcome key that fuzz and the explorer look up again and again
(per reading point, per reading) and whose parts are slow to hash (exact fractions,
dataclasses), and a scene that resolvers' memos look up by value at every resolution."""

from __future__ import annotations

from dataclasses import fields
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


_KEPT = "_kept_hash"


def kept_hash(value: Any) -> int:
    """The hash of a frozen dataclass's fields, kept on it after the first time. A class
    uses it as ``__hash__ = kept_hash`` (a dataclass adds its own hash unless its body
    names one) and ``__getstate__ = state_without_hash``: a string's hash differs from
    process to process, so a hash kept here must not travel."""
    known: int | None = value.__dict__.get(_KEPT)
    if known is None:
        known = hash(tuple(getattr(value, f.name) for f in fields(value) if f.compare))
        object.__setattr__(value, _KEPT, known)
    return known


def state_without_hash(value: Any) -> dict[str, Any]:
    """What pickling and copying keep of a dataclass that uses ``kept_hash``: its state less the kept hash."""
    return {name: item for name, item in value.__dict__.items() if name != _KEPT}
