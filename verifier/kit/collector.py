"""Resolving builds many small objects and no reference cycles worth collecting, so the cyclic
garbage collector, left on, only rescans them over and over while they live."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager


class _Paused:
    """The context manager ``collector_paused`` gives: a plain class, since resolvers enter
    one per resolution and a generator-based one costs a few microseconds each time."""

    __slots__ = ("enabled",)

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        if self.enabled:
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            gc.enable()


def collector_paused() -> AbstractContextManager[None]:
    """The cyclic collector off for the block (and on again after it, if it was on before)."""
    return _Paused()


@contextmanager
def collector_eased() -> Iterator[None]:
    """The cyclic collector, for a long run, set to leave alone what was there before it
    (imports, rulesets: frozen) and to look at young objects less often: each scene leaves
    many young objects (trees of rounds) that the default threshold rescans over and over,
    for the few cycles a run makes. Thresholds are restored after the block."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], 20_000), max(threshold[1], 20), threshold[2])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()
