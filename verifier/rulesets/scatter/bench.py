"""Speed of the exact odds, for ``verifier bench`` (never asserted in tests).

One suite, ``scatter.odds`` (``SUITES``); ``odds_figures(quick)`` measures:

1. the exact chance over the 36 rolls for one geometry, by the integer fast path
   (``probability``) and by the full resolver (36 landings with exact Q(sqrt 3)
   points, events and provenance): the median over many random geometries, each
   timed on its own;
2. a sweep of 10,000 geometries (1,000 with ``quick``): every template and base
   size at distances from 0 to 10 inches in steps of 1/100 inch and a mix of
   short and on-target shots, under the default reading, then again under all 24
   readings; total seconds and geometries per second.

Geometries come from a seeded random generator, so every run times the same ones.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import partial
from itertools import cycle, product
from typing import Any

from ...bench import Row, format_rows, progress
from ...ruleset import BenchSettings, BenchSuite
from .clauses import PUBLISHED_READING
from .model import ALL_ROLLS, AOE_SIZES, BASE_SIZES, Shot
from .resolver import probability, resolve

SWEEP = 10_000
QUICK_SWEEP = 1_000


def _random_shots(count: int, seed: int = 0) -> list[Shot]:
    rng = random.Random(seed)
    shots = []
    for _ in range(count):
        aoe, base = rng.choice(AOE_SIZES), rng.choice(BASE_SIZES)
        from_attacker = Fraction(rng.randint(2, 28), 2)
        if rng.random() < 0.25:
            shots.append(Shot(aoe, base, from_attacker))
        else:
            shots.append(Shot(aoe, base, from_attacker, Fraction(rng.randint(1, 800), 100), rng.random() < 0.5))
    return shots


def _sweep_shots(count: int) -> list[Shot]:
    """``count`` geometries: the 12 size pairs in turn, at distances 1/100 inch apart."""
    sizes = cycle(product(AOE_SIZES, BASE_SIZES))
    shots = []
    for k in range(count):
        aoe, base = next(sizes)
        distance = Fraction(k % 1000, 100)
        shots.append(Shot(aoe, base, Fraction(14), distance or None))
    return shots


def _median_each(calls: Sequence[Callable[[], Any]], repeat: int = 3) -> float:
    """The median over calls of each call's best time out of ``repeat``."""
    def once(call: Callable[[], Any]) -> int:
        start = time.perf_counter_ns()
        call()
        return time.perf_counter_ns() - start

    return statistics.median(min(once(call) for _ in range(repeat)) for call in calls) / 1e9


def _seconds(fn: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _time_text(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def odds_figures(quick: bool = False) -> dict[str, Any]:
    """The figures above, in seconds (JSON-ready)."""
    from . import RULESET

    samples = 200 if quick else 2000
    shots = _random_shots(samples)
    fast = _median_each([partial(probability, s, PUBLISHED_READING) for s in shots])
    full = _median_each([partial(resolve, s, ALL_ROLLS, PUBLISHED_READING) for s in shots[: samples // 4]])
    count = QUICK_SWEEP if quick else SWEEP
    sweep = _sweep_shots(count)
    one = _seconds(lambda: [probability(s, PUBLISHED_READING) for s in sweep])
    readings = RULESET.all_readings()
    every = _seconds(lambda: [probability(s, r) for s in sweep for r in readings])
    return {"samples": samples, "fast_path_seconds": fast, "full_resolver_samples": samples // 4,
            "full_resolver_seconds": full, "sweep": count, "sweep_seconds": one, "readings": len(readings),
            "sweep_all_readings_seconds": every}


def odds_rows(figures: Mapping[str, Any]) -> list[Row]:
    count, readings = figures["sweep"], figures["readings"]
    one, every = figures["sweep_seconds"], figures["sweep_all_readings_seconds"]
    return [
        ("scatter: exact odds of one geometry, fast path (median)", _time_text(figures["fast_path_seconds"]), ""),
        ("scatter: exact odds of one geometry, full resolver (median)",
         _time_text(figures["full_resolver_seconds"]), ""),
        (f"scatter: sweep of {count:,} geometries, default reading", _time_text(one),
         f"{count / one:,.0f} geometries/s"),
        (f"scatter: sweep of {count:,} geometries x {readings} readings", _time_text(every),
         f"{count * readings / every:,.0f} geometry-readings/s"),
    ]


def run_odds(settings: BenchSettings) -> dict[str, Any]:
    progress("timing the exact odds of scatter geometries ...")
    return odds_figures(settings.quick)


def odds_table(figures: Mapping[str, Any]) -> str:
    return format_rows(odds_rows(figures))


SUITES: tuple[BenchSuite, ...] = (
    BenchSuite("odds", "the exact chance of a hit over the 36 rolls for one geometry (fast path and full "
                       "resolver), and a sweep of 10,000 geometries (--quick: 1,000) under one and under all "
                       "readings", run_odds, odds_table),
)


if __name__ == "__main__":
    print(odds_table(odds_figures()))
