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


_eased = 0  # collector_eased blocks open (they nest)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    if phase == "stop":
        gc.freeze()


@contextmanager
def collector_eased() -> Iterator[None]:
    """The cyclic collector, for a long run, set to leave alone what was there before it
    (imports, rulesets: frozen) and what outlives one collection (a run's memos and the
    scenes it keeps: frozen as soon as a collection has looked at them once, where the
    collector would otherwise look again at every collection of their generation), and to
    look at young objects less often: each scene leaves many young objects that the default
    threshold rescans over and over, for the few cycles a run makes. A cycle that becomes
    garbage once frozen is collected after the block. Thresholds are restored after it."""
    global _eased
    threshold = gc.get_threshold()
    if not _eased:
        gc.freeze()
        gc.callbacks.append(_freeze_survivors)
    _eased += 1
    gc.set_threshold(max(threshold[0], 20_000), max(threshold[1], 20), threshold[2])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        _eased -= 1
        if not _eased:
            gc.callbacks.remove(_freeze_survivors)
            gc.unfreeze()
