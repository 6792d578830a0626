"""Scene generation that depends on the seed alone.

Hypothesis now and then draws a literal constant found in the source of the modules that
happen to be imported (the "local constants" pool; only modules outside site-packages
count, so an editable install of this package feeds it). Which of our modules are loaded
differs between a command, a test run and a script, so the same seed gave different scenes
in different processes. While generating, the pool is pinned to empty, and the drawing
caches built from it are dropped on the way in and out."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def seed_only_generation() -> Iterator[None]:
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # a Hypothesis without the pool: nothing to pin
        yield
        return
    original: Any = getattr(providers, "_get_local_constants", None)
    cache: Any = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or cache is None:
        yield
        return
    empty = Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.cache.clear()
