"""Resolving builds many small objects and no reference cycles worth collecting, so the cyclic
garbage collector, left on, only rescans them over and over while they live."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block (and on again after it, if it was on before)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
