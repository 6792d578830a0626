"""One way to run work over many items: in this process, over local cores, and (later) on a
cluster. Results always come back in the order of the items, so a command's output is the same
whatever the number of workers."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(frozen=True)
class Execution:
    """Where work runs. ``workers=None`` uses every local core; ``workers=1`` runs in this
    process, which is the easy one to debug."""
    workers: int | None = None

    @property
    def worker_count(self) -> int:
        return self.workers if self.workers else (os.cpu_count() or 1)


IN_PROCESS = Execution(workers=1)


def map_ordered(function: Callable[[Item], Result], items: Iterable[Item], execution: Execution = IN_PROCESS,
                *, chunksize: int = 1) -> Iterator[Result]:
    """``function`` over ``items``, results yielded in item order as they become available.

    Across processes, ``function`` must be a module-level function and items and results
    picklable. Local workers are forked on Linux, so they inherit what the parent has
    loaded (rulesets, fonts) and start fast."""
    workers = execution.worker_count
    if workers <= 1 or not sys.platform.startswith("linux"):
        yield from map(function, items)
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(function, items, chunksize=chunksize)
