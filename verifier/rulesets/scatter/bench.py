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
The bound: constant in pieces. A scatter case is one template and one target base,
resolved over the 36 rolls whatever its numbers, so its work grows only with the number
of geometries asked for: ``scatter.growth`` reads and resolves 5, 50 and 500 shots.

3. the seed's grid of 12,960 calls (``grid.SEED_GRID``) side by side: exactly, by
   the integer arrays of ``grid.exact_hits``; in doubles by our Python
   transcription of the seed's function; by the Fraction resolver (not with
   ``quick``); and by the seed's function in R through ``Rscript``, timed inside R
   around the loop of calls (R's start-up is not counted), when R is installed.
   Each is the best of a few runs. R's answers are compared with the Python
   transcription's and with the exact ones.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from itertools import cycle, product
from typing import Any

from ...kit.bench import Row, best_seconds, format_rows, growth_suite, median_of_bests, progress, secs
from ...ruleset import BenchSettings, BenchSuite
from .clauses import PUBLISHED_READING, SEED_READING
from .grid import SEED_GRID, Grid, double_hits, exact_hits, exact_hits_call_by_call
from .model import ALL_ROLLS, AOE_SIZES, BASE_SIZES, Shot
from .resolver import clear_caches, probability, resolve

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


def _afresh(shot: Shot, actions: Any, reading: Mapping[str, str]) -> Any:
    """``resolve``, with nothing kept from earlier resolutions (so a repeat times the work again)."""
    clear_caches()
    return resolve(shot, actions, reading)


def _sweep_shots(count: int) -> list[Shot]:
    """``count`` geometries: the 12 size pairs in turn, at distances 1/100 inch apart."""
    sizes = cycle(product(AOE_SIZES, BASE_SIZES))
    shots = []
    for k in range(count):
        aoe, base = next(sizes)
        distance = Fraction(k % 1000, 100)
        shots.append(Shot(aoe, base, Fraction(14), distance or None))
    return shots


def odds_figures(quick: bool = False) -> dict[str, Any]:
    """The figures above, in seconds (JSON-ready)."""
    from . import RULESET

    samples = 200 if quick else 2000
    shots = _random_shots(samples)
    fast = median_of_bests([partial(probability, s, PUBLISHED_READING) for s in shots])
    full = median_of_bests([partial(_afresh, s, ALL_ROLLS, PUBLISHED_READING) for s in shots[: samples // 4]])
    count = QUICK_SWEEP if quick else SWEEP
    sweep = _sweep_shots(count)
    one = best_seconds(lambda: [probability(s, PUBLISHED_READING) for s in sweep], repeats=1)
    readings = RULESET.all_readings()
    every = best_seconds(lambda: [probability(s, r) for s in sweep for r in readings], repeats=1)
    progress("computing the seed's grid exactly, in doubles and in R ...")
    grid = grid_figures(quick)
    return {"grid": grid, "samples": samples, "fast_path_seconds": fast, "full_resolver_samples": samples // 4,
            "full_resolver_seconds": full, "sweep": count, "sweep_seconds": one, "readings": len(readings),
            "sweep_all_readings_seconds": every}


# Our transcription of the seed's R function (seed 002, "The is.scatter.hit function (R
# code)"): the same arguments and the same floating-point steps in the same order, then
# the loop over the grid in the order of ``Grid.calls``, timed inside R.
R_PROGRAM = """
seed_scatter_hit <- function(weapon, dist = 0, base = 30, max = 6, dice) {
  template_r <- 0.5 * weapon$stats["AOE"]
  base_r <- 0.5 * base / 25.4
  hit <- FALSE
  if (!is.na(template_r)) {
    moved <- dice[1]
    if (moved > max) moved <- max
    across <- cos(pi / 6)
    along <- sin(pi / 6)
    unit <- switch(dice[2], c(0, 1), c(across, along), c(across, -along), c(0, -1), c(across, -along),
                   c(across, along))
    sep <- 0
    if (dist != 0) sep <- dist + base_r
    centres <- sqrt((sep - moved * unit[2])^2 + (moved * unit[1])^2)
    hit <- unname(abs(centres) < base_r + template_r)
  }
  hit
}
aoes <- c(%(aoes)s); dists <- c(%(dists)s); bases <- c(%(bases)s); maxes <- c(%(maxes)s)
answers <- logical(%(size)d)
best <- Inf
for (run in seq_len(%(repeats)d)) {
  started <- proc.time()[["elapsed"]]
  i <- 0L
  for (aoe in aoes) {
    weapon <- list(stats = c(AOE = aoe))
    for (dist in dists) for (base in bases) for (most in maxes) for (d in 1:6) for (k in 1:6) {
      i <- i + 1L
      answers[i] <- seed_scatter_hit(weapon, dist = dist, base = base, max = most, dice = c(d, k))
    }
  }
  best <- min(best, proc.time()[["elapsed"]] - started)
}
cat(sprintf("%%.6f\\n", best))
cat(paste(as.integer(answers), collapse = ""), "\\n")
"""


def _r_numbers(values: Sequence[Any]) -> str:
    return ", ".join(repr(float(v)) for v in values)


def r_program(grid: Grid = SEED_GRID, repeats: int = 3) -> str:
    return R_PROGRAM % {"aoes": _r_numbers(grid.aoes), "dists": _r_numbers(grid.dists),
                        "bases": _r_numbers(grid.bases), "maxes": _r_numbers(grid.maxes), "size": grid.size,
                        "repeats": repeats}


def run_r(grid: Grid = SEED_GRID, repeats: int = 3, rscript: str | None = None) -> dict[str, Any]:
    """R's loop over the grid: {"available": False, "why": ...} without R, else the best
    seconds of ``repeats`` loops and the answers as a string of 0 and 1."""
    rscript = rscript or shutil.which("Rscript")
    if rscript is None:
        return {"available": False, "why": "Rscript is not installed (on PATH)"}
    with tempfile.TemporaryDirectory() as folder:
        program = f"{folder}/seed_grid.R"
        with open(program, "w") as handle:
            handle.write(r_program(grid, repeats))
        try:
            done = subprocess.run([rscript, "--vanilla", program], capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as error:
            return {"available": False, "why": f"Rscript failed to run: {error}"}
    lines = done.stdout.split()
    if done.returncode != 0 or len(lines) != 2 or len(lines[1]) != grid.size:
        return {"available": False, "why": f"Rscript failed (exit {done.returncode}): "
                                           f"{(done.stderr or done.stdout).strip()[:200]}"}
    return {"available": True, "seconds": float(lines[0]), "answers": lines[1]}


def grid_figures(quick: bool = False, rscript: str | None = None) -> dict[str, Any]:
    """The seed grid side by side (see the module's text), in seconds (JSON-ready)."""
    from fractions import Fraction as F

    from .model import Roll
    from .resolver import land

    grid = SEED_GRID
    exact = exact_hits(grid)
    exact_seconds = best_seconds(lambda: exact_hits(grid), 20)
    by_call_seconds = best_seconds(lambda: exact_hits_call_by_call(grid), 3)
    doubles = double_hits(grid)
    double_seconds = best_seconds(lambda: double_hits(grid), 3)
    figures: dict[str, Any] = {"calls": grid.size, "exact_seconds": exact_seconds, "exact_hits": int(exact.sum()),
                               "exact_call_by_call_seconds": by_call_seconds,
                               "python_doubles_seconds": double_seconds, "python_doubles_hits": int(doubles.sum()),
                               "python_doubles_against_exact": int((doubles != exact).sum())}
    if not quick:
        def by_fractions() -> list[bool]:
            return [land(Shot(a, b, F(100), d or None, False, m), Roll(k, f), SEED_READING).hit
                    for a, d, b, m, k, f in grid.calls()]
        figures["fraction_resolver_seconds"] = best_seconds(by_fractions, repeats=1)
    r = run_r(grid, rscript=rscript)
    if r["available"]:
        answers = [c == "1" for c in r["answers"]]
        r_hits = sum(answers)
        flat_exact, flat_doubles = exact.ravel().tolist(), doubles.ravel().tolist()
        figures["r"] = {"available": True, "seconds": r["seconds"], "hits": r_hits,
                        "against_python_doubles": sum(a != b for a, b in zip(answers, flat_doubles)),
                        "against_exact": sum(a != b for a, b in zip(answers, flat_exact)),
                        "r_over_exact": r["seconds"] / exact_seconds if exact_seconds else None}
    else:
        figures["r"] = {"available": False, "why": r["why"]}
    return figures


def grid_rows(figures: Mapping[str, Any]) -> list[Row]:
    calls = figures["calls"]
    rows: list[Row] = [
        (f"scatter grid: {calls:,} seed calls, exact (integer arrays)", secs(figures["exact_seconds"]),
         f"{figures['exact_hits']:,} hits"),
        (f"scatter grid: {calls:,} seed calls, exact (Python integers, call by call)",
         secs(figures["exact_call_by_call_seconds"]), "the same answers, no arrays"),
        (f"scatter grid: {calls:,} seed calls, doubles in Python", secs(figures["python_doubles_seconds"]),
         f"{figures['python_doubles_hits']:,} hits; {figures['python_doubles_against_exact']} differ from exact")]
    if "fraction_resolver_seconds" in figures:
        rows.append((f"scatter grid: {calls:,} seed calls, Fraction resolver",
                     secs(figures["fraction_resolver_seconds"]), ""))
    r = figures["r"]
    if r["available"]:
        rows.append((f"scatter grid: {calls:,} seed calls, R's loop (Rscript)", secs(r["seconds"]),
                     f"{r['hits']:,} hits; {r['against_python_doubles']} differ from the Python doubles, "
                     f"{r['against_exact']} from exact"))
        ratio = r["r_over_exact"]
        by_call = r["seconds"] / figures["exact_call_by_call_seconds"]
        rows.append(("scatter grid: R's time / exact time", f"{ratio:,.1f}" if ratio else "-",
                     ("exact is faster" if ratio and ratio > 1 else "exact is NOT faster than R")
                     + f"; R / exact call by call: {by_call:,.1f}"))
    else:
        rows.append((f"scatter grid: {calls:,} seed calls, R's loop (Rscript)", "unavailable", r["why"]))
    return rows


def odds_rows(figures: Mapping[str, Any]) -> list[Row]:
    count, readings = figures["sweep"], figures["readings"]
    one, every = figures["sweep_seconds"], figures["sweep_all_readings_seconds"]
    return [
        ("scatter: exact odds of one geometry, fast path (median)", secs(figures["fast_path_seconds"]), ""),
        ("scatter: exact odds of one geometry, full resolver (median)",
         secs(figures["full_resolver_seconds"]), ""),
        (f"scatter: sweep of {count:,} geometries, default reading", secs(one),
         f"{count / one:,.0f} geometries/s"),
        (f"scatter: sweep of {count:,} geometries x {readings} readings", secs(every),
         f"{count * readings / every:,.0f} geometry-readings/s"),
    ] + (grid_rows(figures["grid"]) if "grid" in figures else [])


def run_odds(settings: BenchSettings) -> dict[str, Any]:
    progress("timing the exact odds of scatter geometries ...")
    return odds_figures(settings.quick)


def odds_table(figures: Mapping[str, Any]) -> str:
    return format_rows(odds_rows(figures))


GROWTH_BOUND = "linear in shots: each is one template and one base, over the 36 rolls"


def _read_and_resolve(shots: int):
    """The call that reads ``shots`` seeded shots as case files' data and resolves each (a scatter
    case holds two pieces whatever its numbers, so its growth is in the shots asked about)."""
    from ...source import Located
    from . import RULESET
    from .parse import case_data
    docs = []
    for shot in _random_shots(shots, seed=3):
        before, actions = case_data(shot, ALL_ROLLS)
        docs.append(Located("<bench>", {"before": before, "actions": actions}, {}, {}))

    def call() -> None:
        clear_caches()  # every run afresh: the resolver keeps the landings it made
        for doc in docs:
            shot, rolls, _ = RULESET.parse(doc, ("before",), ("actions",), None)
            RULESET.resolve(shot, rolls, RULESET.default_reading)
    return call


SUITES: tuple[BenchSuite, ...] = (
    BenchSuite("odds", "the exact chance of a hit over the 36 rolls for one geometry (fast path and full "
                       "resolver), and a sweep of 10,000 geometries (--quick: 1,000) under one and under all "
                       "readings; the seed's grid of 12,960 calls exactly, in doubles and in R (Rscript, when "
                       "installed), side by side", run_odds, odds_table),
    growth_suite("read and resolve", _read_and_resolve, 5, GROWTH_BOUND, noun="shots"),
)


if __name__ == "__main__":
    print(odds_table(odds_figures()))
