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

from ..ruleset import BenchSettings, BenchSuite

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


# The meter of the running ``verifier bench`` (execute.Progress), set by the bench command while its
# suites run: a suite's steps then show on the meter's line, as check and explore show theirs.
_METER: Any = None


def set_meter(meter: Any) -> Any:
    """Make ``meter`` (an ``execute.Progress`` or None) the one ``progress`` reports to; returns the
    one it replaces."""
    global _METER
    previous, _METER = _METER, meter
    return previous


def progress(text: str) -> None:
    """Say on stderr what runs now (the figures go to stdout): on the bench's meter while
    ``verifier bench`` runs, else as a line of its own."""
    if _METER is not None:
        _METER.note(text.strip())
    else:
        print(text, file=sys.stderr, flush=True)


# --- growth in pieces -------------------------------------------------------------


@dataclass(frozen=True)
class GrowthStep:
    """One size of a growth measurement: ``pieces`` pieces took ``seconds`` (best of the
    repeats) and at most ``peak_bytes`` of newly allocated memory (tracemalloc) in one call."""

    pieces: int
    seconds: float
    peak_bytes: int


def growth(work: Callable[[int], Callable[[], Any]], sizes: Sequence[int], repeats: int = 1,
           what: str = "pieces") -> list[GrowthStep]:
    """Time and memory of ``work(n)()`` for every ``n`` in ``sizes``; ``work(n)`` builds
    the input outside the measurement and returns the call to measure."""
    import tracemalloc
    steps = []
    for pieces in sizes:
        progress(f"  {pieces:,} {what} ...")
        call = work(pieces)
        seconds = best_seconds(call, repeats)
        gc.collect()
        tracemalloc.start()
        try:
            call()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        steps.append(GrowthStep(pieces, seconds, peak))
    return steps


def growth_json(steps: Sequence[GrowthStep], bound: str) -> dict[str, Any]:
    """The figures of a growth measurement, with the stated ``bound`` and the growth in
    time and memory from the first size to the last."""
    first, last = steps[0], steps[-1]
    return {"bound": bound, "steps": [{"pieces": s.pieces, "seconds": s.seconds, "peak_bytes": s.peak_bytes}
                                      for s in steps],
            "pieces_factor": last.pieces / first.pieces,
            "time_factor": last.seconds / max(first.seconds, 1e-9),
            "memory_factor": last.peak_bytes / max(first.peak_bytes, 1)}


GROWTH_SCALES = (1, 10, 100)  # the sizes of every ruleset's growth suite, as multiples of its base


def growth_suite(what: str, work: Callable[[int], Callable[[], Any]], base: int, bound: str, *,
                 noun: str = "pieces", name: str = "growth") -> BenchSuite:
    """A ruleset's growth suite: the time (best of the repeats, one with ``--quick``) and the
    peak of newly allocated memory of ``work(n)()`` at 1x, 10x and 100x ``base`` ``noun``, and
    the growth against the stated ``bound``. ``work(n)`` builds a scene of ``n`` pieces outside
    the measurement and returns the call that reads and resolves it (``what``)."""
    sizes = tuple(base * scale for scale in GROWTH_SCALES)

    def run(settings: BenchSettings) -> dict[str, Any]:
        progress(f"{what}: {', '.join(f'{n:,}' for n in sizes)} {noun} ...")
        repeats = 1 if settings.quick else (settings.repeats or 3)
        figures = growth_json(growth(work, sizes, repeats, noun), bound)
        figures["scales"] = list(GROWTH_SCALES)
        figures["unit"] = noun
        return figures

    listed = ", ".join(f"{n:,}" for n in sizes)
    return BenchSuite(name, f"{what} at 1x, 10x and 100x {noun} ({listed}): time and peak memory, "
                            f"growth against the bound ({bound})", run, lambda figures: growth_table(what, figures))


def growth_table(what: str, figures: Mapping[str, Any]) -> str:
    """``growth_json``'s figures as lines: each size, then the factors against the bound."""
    noun = figures.get("unit", "pieces")
    lines = [f"{what} of {s['pieces']:>7,} {noun}: {secs(s['seconds']):>10}, peak {megabytes(s['peak_bytes'])}"
             for s in figures["steps"]]
    lines.append(f"{what}: {figures['pieces_factor']:.0f}x the {noun} took {figures['time_factor']:.1f}x the time "
                 f"and {figures['memory_factor']:.1f}x the memory (bound: {figures['bound']})")
    return "\n".join(lines)


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
