"""Speed of the exact odds, for ``verifier bench`` (never asserted in tests).

``run(quick)`` returns (figure, value) pairs:

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
from fractions import Fraction
from itertools import cycle, product

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


def _median_each(calls, repeat: int = 3) -> float:
    """The median over calls of each call's best time out of ``repeat``."""
    times = []
    for call in calls:
        best = None
        for _ in range(repeat):
            start = time.perf_counter_ns()
            call()
            spent = time.perf_counter_ns() - start
            best = spent if best is None else min(best, spent)
        times.append(best)
    return statistics.median(times) / 1e9


def _seconds(fn) -> float:
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


def run(quick: bool = False) -> list[tuple[str, str]]:
    from . import RULESET

    samples = 200 if quick else 2000
    shots = _random_shots(samples)
    fast = _median_each([lambda s=s: probability(s, PUBLISHED_READING) for s in shots])
    full = _median_each([lambda s=s: resolve(s, ALL_ROLLS, PUBLISHED_READING) for s in shots[: samples // 4]])
    count = QUICK_SWEEP if quick else SWEEP
    sweep = _sweep_shots(count)
    one = _seconds(lambda: [probability(s, PUBLISHED_READING) for s in sweep])
    readings = RULESET.all_readings()
    every = _seconds(lambda: [probability(s, r) for s in sweep for r in readings])
    return [
        ("scatter: exact odds of one geometry, fast path (median)", _time_text(fast)),
        ("scatter: exact odds of one geometry, full resolver (median)", _time_text(full)),
        (f"scatter: sweep of {count:,} geometries, default reading",
         f"{_time_text(one)} ({count / one:,.0f} geometries/s)"),
        (f"scatter: sweep of {count:,} geometries x {len(readings)} readings",
         f"{_time_text(every)} ({count * len(readings) / every:,.0f} geometry-readings/s)"),
    ]


if __name__ == "__main__":
    for name, value in run():
        print(f"{name:<62} {value}")
