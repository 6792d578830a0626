"""Timing, tables and the explore benchmark that ruleset suites for ``verifier bench`` share.

The ``bench`` command runs suites; a ruleset's ``bench.py`` measures with these helpers
and formats its figures with them, so every suite times the same way (best and median of
repeated batches, ``time.perf_counter``, a collection before each batch) and prints the
same table. ``explore_figures`` measures the explorer on any ruleset with an exhaustive
space; a ruleset offers it as one of its suites.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

from ..ruleset import BenchSettings, Ruleset

Row = tuple[str, str, str]  # figure, value, detail


# --- timing ----------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Seconds per call: the best and the median of ``repeats`` batches of ``number`` calls."""

    best: float
    median: float
    repeats: int
    number: int


def measure(fn: Callable[[], Any], repeats: int, min_batch: float = 0.05) -> Timing:
    """Time ``fn`` like timeit: calls are batched so each batch lasts at least
    ``min_batch`` seconds, then the batch is repeated ``repeats`` times."""
    fn()  # warm up (imports, caches) and check that it runs at all
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_batch or number >= 1 << 20:
            break
        number *= 2 if elapsed * 4 >= min_batch else 10
    per_call = [elapsed / number]
    for _ in range(repeats - 1):
        gc.collect()
        start = time.perf_counter()
        for _ in range(number):
            fn()
        per_call.append((time.perf_counter() - start) / number)
    return Timing(min(per_call), statistics.median(per_call), len(per_call), number)


def measure_once_each(fn: Callable[[], Any], repeats: int) -> Timing:
    """Time ``repeats`` single calls (for calls that take a good fraction of a second)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return Timing(min(times), statistics.median(times), repeats, 1)


def best_seconds(fn: Callable[[], Any], repeats: int) -> float:
    """The best of ``repeats`` single calls of ``fn`` (for calls that each take a while)."""
    return measure_once_each(fn, repeats).best


def median_of_bests(calls: Sequence[Callable[[], Any]], repeats: int = 3) -> float:
    """The median over ``calls`` of each call's best time out of ``repeats``: the typical
    cost of one call of a family whose members differ (one geometry among many, say)."""
    def once(call: Callable[[], Any]) -> int:
        start = time.perf_counter_ns()
        call()
        return time.perf_counter_ns() - start

    return statistics.median(min(once(call) for _ in range(repeats)) for call in calls) / 1e9



def count_calls(fn: Callable[[], Any]) -> int:
    """Python and C function calls made by ``fn``: a machine-independent measure of work,
    which shows whether growth is in the algorithm or in the memory hierarchy."""
    count = 0

    def tally(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(tally)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def repeats_for(settings: BenchSettings) -> int:
    """The repetitions of each timing: as asked, else 2 with ``quick`` and 7 without."""
    return settings.repeats or (2 if settings.quick else 7)


def progress(text: str) -> None:
    """A line on stderr saying what runs now; the figures go to stdout."""
    print(text, file=sys.stderr, flush=True)


# --- output ----------------------------------------------------------------------


def rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def secs(value: float) -> str:
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"


def megabytes(value: float) -> str:
    return f"{value / 2**20:.1f} MB"


def format_rows(rows: Sequence[Row]) -> str:
    """A plain-text table of (figure, value, detail) rows, values right-aligned."""
    if not rows:
        return "(no figures)"
    width = max(len("figure"), *(len(r[0]) for r in rows))
    vwidth = max(len("value"), *(len(r[1]) for r in rows))
    lines = [f"{'figure':<{width}}  {'value':>{vwidth}}  detail", f"{'-' * width}  {'-' * vwidth}  ------"]
    lines += [f"{a:<{width}}  {b:>{vwidth}}  {c}".rstrip() for a, b, c in rows]
    return "\n".join(lines)


# --- the explorer: exhaustive space against the Hypothesis search -----------------------

EXPLORE_BUDGET = 60.0
QUICK_EXPLORE_BUDGET = 5.0


def explore_figures(ruleset: Ruleset, quick: bool = False, budget: float = EXPLORE_BUDGET,
                    seed: int = 0) -> dict[str, Any]:
    """With ``quick``: a search of at most 200 scenes (and 5 s). Otherwise the exhaustive
    space on every core, then a search of ``budget`` seconds, and when it first found each
    class of finding the exhaustive run found."""
    from ..explore import search
    from ..shards import exhaustive

    key = ruleset.key
    if quick:
        budget = min(budget, QUICK_EXPLORE_BUDGET)
        progress(f"searching {key} with Hypothesis (at most 200 scenes, {budget:g} s) ...")
        result = search(ruleset, budget=budget, seed=seed, max_examples=200)
        return {"ruleset": key, "quick": True, "budget_seconds": budget, "seed": seed,
                "search": {"scenes": result.examples, "seconds": result.seconds, "classes": len(result.findings)}}
    progress(f"enumerating the exhaustive {key} space ...")
    space = exhaustive(ruleset)
    progress(f"searching {key} with Hypothesis for {budget:g} s ...")
    found = search(ruleset, budget=budget, seed=seed, max_examples=10 ** 7)
    first_seen = {fingerprint: found.first_seen.get(fingerprint) for fingerprint in space.counts}
    hits = [seconds for seconds in first_seen.values() if seconds is not None]
    return {"ruleset": key, "quick": False, "budget_seconds": budget, "seed": seed,
            "exhaustive": {"space": space.space, "scenes": space.scenes, "seconds": space.seconds,
                           "workers": space.workers, "classes": len(space.counts)},
            "search": {"scenes": found.examples, "seconds": found.seconds, "classes": len(found.findings),
                       "first_seen": first_seen},
            "recall": len(hits) / max(len(space.counts), 1),
            "slowest_seconds": max(hits, default=0.0)}


def explore_rows(figures: Mapping[str, Any]) -> list[Row]:
    key, found = figures["ruleset"], figures["search"]
    rows: list[Row] = []
    if figures["quick"]:
        rows.append((f"{key} search: scenes / s", f"{found['scenes'] / max(found['seconds'], 1e-9):,.0f}", ""))
        rows.append((f"{key} search: classes found in {found['seconds']:.1f} s", str(found["classes"]), ""))
        return rows
    space = figures["exhaustive"]
    rows.append((f"{key} exhaustive: scenes", f"{space['scenes']:,}", ""))
    rows.append((f"{key} exhaustive: total time ({space['workers']} processes)", f"{space['seconds']:.1f} s", ""))
    rows.append((f"{key} exhaustive: scenes / s", f"{space['scenes'] / space['seconds']:,.0f}", ""))
    rows.append((f"{key} exhaustive: finding classes", str(space["classes"]), ""))
    rows.append((f"{key} search: scenes in {found['seconds']:.1f} s", f"{found['scenes']:,}", ""))
    for fingerprint, seconds in found["first_seen"].items():
        rows.append((f"  first found: {fingerprint}",
                     f"{seconds:.2f} s" if seconds is not None else f"not within {figures['budget_seconds']:g} s", ""))
    rows.append((f"{key} search recall against exhaustive classes", f"{figures['recall']:.0%}", ""))
    rows.append((f"{key} slowest class to find", f"{figures['slowest_seconds']:.2f} s", ""))
    return rows


def explore_table(figures: Mapping[str, Any]) -> str:
    return format_rows(explore_rows(figures))
