"""``verifier bench``: how fast checking, resolving and big turns are.

Figures (each the best of several repetitions timed with ``time.perf_counter``;
the median is shown next to it):

1. cases per second for ``verifier check`` on the bundled cases, with drawing and
   snapshot comparison, and without drawing, so the drawing share is visible;
2. resolver rounds per second for a two-ship scene, with ``record=False`` and
   ``record=True``;
3. the time of one four-round turn with 1,000, 10,000 and (unless ``--quick``)
   100,000 ships on a 1000x1000 board with rocks, wind and whirlpools, the growth
   ratios between sizes, and the peak memory of the 10,000-ship turn (measured
   with tracemalloc in a separate run, since tracing slows everything down).

Nothing is written into the repository: failure images of the check go to a
temporary folder, and snapshots are never updated.

Optional attributes read from ``args`` (the ``bench`` parser only defines
``cases`` and ``quick``): ``json`` (write the figures to this file),
``snapshots`` (snapshot folder), ``repeats`` (repetitions), ``sizes`` (ship
counts of the big turns) and ``memory_ships`` (ship count of the memory run).
"""

from __future__ import annotations

import gc
import json
import platform
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .rulesets.ypp import RULESET
from .rulesets.ypp.model import SHIP_TYPES, Board, Heading, Scene, Ship, Token, Turn
from .rulesets.ypp.resolver import resolve_turn

BOARD_SIZE = 1000
FULL_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 10_000)
MEMORY_SHIPS = 10_000
ROUNDS = 4


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


# --- 1. verifier check -------------------------------------------------------------


def bench_check(cases: str, snapshots: str, repeats: int) -> dict[str, Any]:
    from .case import find_case_files
    from .runner import RunOptions, check_paths
    from .snapshots import SnapshotStore

    try:
        files = list(find_case_files([cases]))
    except Exception as error:  # a missing folder and the like: report, do not crash
        return {"cases": 0, "error": f"{type(error).__name__}: {error}"}
    result: dict[str, Any] = {"cases": len(files), "folder": str(cases), "snapshots": str(snapshots)}
    if not files:
        result["error"] = f"no case files under {cases}"
        return result

    with tempfile.TemporaryDirectory(prefix="verifier-bench-") as failures:
        for key, draw in (("with_draw", True), ("without_draw", False)):
            options = RunOptions(SnapshotStore(snapshots, failures), draw=draw, update_snapshots=False)
            last: list = []

            def run(options=options, last=last) -> None:
                last[:] = check_paths([cases], options)

            try:
                timing = measure(run, repeats)
            except ImportError as error:
                result[key] = {"unavailable": f"drawing is not available ({type(error).__name__}: {error})"}
                continue
            except Exception as error:
                result[key] = {"error": f"{type(error).__name__}: {error}"}
                continue
            statuses: dict[str, int] = {}
            for r in last:
                statuses[r.status] = statuses.get(r.status, 0) + 1
            snaps: dict[str, int] = {}
            for r in last:
                if r.snapshot is not None:
                    snaps[r.snapshot.status] = snaps.get(r.snapshot.status, 0) + 1
            n = len(last)
            result[key] = {
                "cases_per_second": n / timing.best,
                "cases_per_second_median": n / timing.median,
                "seconds_per_pass": timing.best,
                "repeats": timing.repeats,
                "passes_per_repeat": timing.number,
                "statuses": statuses,
                "snapshot_statuses": snaps,
            }
    with_draw, without = result.get("with_draw", {}), result.get("without_draw", {})
    if "seconds_per_pass" in with_draw and "seconds_per_pass" in without:
        total = with_draw["seconds_per_pass"]
        result["draw_share"] = max(0.0, (total - without["seconds_per_pass"]) / total)
    return result


# --- 2. two-ship resolver rounds -----------------------------------------------------


def two_ship_scene() -> tuple[Scene, Turn]:
    """Two sloops approaching on one row: one goes straight on, the other goes forward,
    then turns into the first one's path (a head-on collision in round 3), with a wind
    tile and a whirlpool so both phases have work."""
    board = Board(10, 10, rocks=frozenset({(8, 8)}), wind=(((3, 2), Heading.S),), whirlpools=((6, 6),))
    ships = (Ship("Alpha", "sloop", (1, 4), Heading.E), Ship("Bravo", "sloop", (6, 4), Heading.W))
    f, l = Token.FORWARD, Token.LEFT
    turn = Turn(((("Alpha", f), ("Bravo", f)),
                 (("Alpha", f), ("Bravo", f)),
                 (("Alpha", f), ("Bravo", l)),
                 (("Alpha", f), ("Bravo", f))))
    return Scene(board, ships), turn


def bench_rounds(repeats: int) -> dict[str, Any]:
    scene, turn = two_ship_scene()
    reading = RULESET.default_reading
    rounds = len(turn.rounds)
    events = len(resolve_turn(scene, turn, reading, record=False).events)
    result: dict[str, Any] = {"ships": len(scene.ships), "rounds_per_turn": rounds, "events": events}
    for record in (False, True):
        timing = measure(lambda record=record: resolve_turn(scene, turn, reading, record=record), repeats,
                         min_batch=0.1)
        result[f"record_{str(record).lower()}"] = {
            "rounds_per_second": rounds / timing.best,
            "rounds_per_second_median": rounds / timing.median,
            "seconds_per_turn": timing.best,
            "repeats": timing.repeats,
            "turns_per_repeat": timing.number,
        }
    return result


# --- 3. big turns --------------------------------------------------------------------


@dataclass(frozen=True)
class BigScene:
    scene: Scene
    turn: Turn
    region: int  # side of the square the ships are packed into


def big_scene(ships: int, seed: int = 1, board_size: int = BOARD_SIZE, wind_tiles: int = 4000,
              whirlpools: int = 300, rocks: int = 1500, terrain_side: int = 400,
              density: float = 0.35) -> BigScene:
    """A deterministic crowded board. Terrain is spread over a central square of side
    ``terrain_side`` (the same for every ship count, so the board does not grow with
    it); the ships fill a central square holding them at ``density`` ships per tile
    (clipped to the board), so neighbours bump, push and collide. Rocks, wind and
    whirlpool tiles never overlap; ships never start on a rock or on each other."""
    rng = random.Random(seed)
    lo = (board_size - terrain_side) // 2
    taken: set[tuple[int, int]] = set()

    whirl = []
    while len(whirl) < whirlpools:
        x, y = rng.randrange(lo, lo + terrain_side - 1), rng.randrange(lo, lo + terrain_side - 1)
        tiles = {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
        if tiles & taken:
            continue
        taken |= tiles
        whirl.append((x, y))
    headings = list(Heading)
    wind = {}
    while len(wind) < wind_tiles:
        tile = (rng.randrange(lo, lo + terrain_side), rng.randrange(lo, lo + terrain_side))
        if tile in taken:
            continue
        taken.add(tile)
        wind[tile] = rng.choice(headings)
    rock = set()
    while len(rock) < rocks:
        tile = (rng.randrange(lo, lo + terrain_side), rng.randrange(lo, lo + terrain_side))
        if tile in taken:
            continue
        taken.add(tile)
        rock.add(tile)
    board = Board(board_size, board_size, frozenset(rock), tuple(sorted(wind.items())), tuple(sorted(whirl)))

    region = min(board_size, max(2, round((ships / density) ** 0.5)))
    while region * region - len(rock) < ships and region < board_size:
        region += 1
    start = (board_size - region) // 2
    free = [(start + i % region, start + i // region) for i in range(region * region)]
    free = [t for t in free if t not in rock]
    if len(free) < ships:
        raise ValueError(f"{ships} ships do not fit on the board")
    tiles = rng.sample(free, ships)
    types = list(SHIP_TYPES)
    width = len(str(ships))
    fleet = tuple(Ship(f"s{i:0{width}d}", rng.choice(types), tiles[i], rng.choice(headings))
                  for i in range(ships))
    # Most ships act in most rounds; no token is less likely than any one move.
    tokens = [Token.NONE, Token.FORWARD, Token.FORWARD, Token.LEFT, Token.RIGHT]
    rounds = []
    for _ in range(ROUNDS):
        picks = rng.choices(tokens, k=ships)
        rounds.append(tuple((s.name, t) for s, t in zip(fleet, picks) if t is not Token.NONE))
    return BigScene(Scene(board, fleet), Turn(tuple(rounds)), region)


def bench_big(sizes: tuple[int, ...], repeats: int, memory_ships: int | None, record: bool = False,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    reading = RULESET.default_reading
    rows = []
    for n in sizes:
        if progress:
            progress(f"  building a {n:,}-ship scene ...")
        big = big_scene(n)
        reps = repeats if n <= 10_000 else max(1, min(repeats, 3))
        if progress:
            progress(f"  resolving a four-round turn with {n:,} ships ({reps}x) ...")
        outcome = resolve_turn(big.scene, big.turn, reading, record=record)  # warm up, and count
        timing = measure_once_each(lambda: resolve_turn(big.scene, big.turn, reading, record=record), reps)
        before = {s.name: (s.at, s.heading) for s in big.scene.ships}
        changed = sum((s.at, s.heading) != before[s.name] for s in outcome.after.ships)
        kinds: dict[str, int] = {}
        for e in outcome.events:
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
        rows.append({
            "ships": n,
            "seconds": timing.best,
            "seconds_median": timing.median,
            "repeats": timing.repeats,
            "ships_per_second": n * ROUNDS / timing.best,
            "region": big.region,
            "tokens": sum(len(r) for r in big.turn.rounds),
            "ships_changed": changed,
            "events": len(outcome.events),
            "event_kinds": dict(sorted(kinds.items())),
        })
        del big, outcome
    ratios = {}
    for a, b in zip(rows, rows[1:]):
        ratios[f"{b['ships']}/{a['ships']}"] = {"ships": b["ships"] / a["ships"],
                                                "time": b["seconds"] / a["seconds"]}
    result: dict[str, Any] = {"board": [BOARD_SIZE, BOARD_SIZE], "rounds": ROUNDS, "record": record,
                              "turns": rows, "ratios": ratios}
    if memory_ships:
        if progress:
            progress(f"  measuring peak memory of the {memory_ships:,}-ship turn (tracemalloc) ...")
        big = big_scene(memory_ships)
        gc.collect()
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            outcome = resolve_turn(big.scene, big.turn, reading, record=record)
            current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        result["memory"] = {"ships": memory_ships, "peak_bytes": peak - base, "outcome_bytes": current - base}
        del outcome
    return result


# --- output ----------------------------------------------------------------------------


def _rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def _secs(value: float) -> str:
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"


def _mb(value: float) -> str:
    return f"{value / 2**20:.1f} MB"


def table(results: dict[str, Any]) -> str:
    rows: list[tuple[str, str, str]] = []
    check = results.get("check", {})
    n = check.get("cases", 0)
    if "error" in check:
        rows.append(("check: cases/s", "unavailable", check["error"]))
    for key, label in (("with_draw", "check: cases/s (with drawing)"),
                       ("without_draw", "check: cases/s (no drawing)")):
        entry = check.get(key)
        if entry is None:
            continue
        if "cases_per_second" in entry:
            status = ", ".join(f"{v} {k}" for k, v in sorted(entry["statuses"].items()))
            snaps = entry["snapshot_statuses"]
            if snaps:
                status += "; snapshots " + ", ".join(f"{v} {k}" for k, v in sorted(snaps.items()))
            rows.append((label, _rate(entry["cases_per_second"]),
                         f"median {_rate(entry['cases_per_second_median'])}; {n} cases, "
                         f"{_secs(entry['seconds_per_pass'])}/pass; {status}"))
        else:
            rows.append((label, "unavailable" if "unavailable" in entry else "error",
                         entry.get("unavailable") or entry.get("error", "")))
    if "draw_share" in check:
        rows.append(("check: drawing share", f"{check['draw_share'] * 100:.0f} %",
                     "of the time per case spent drawing and comparing snapshots"))

    rounds = results.get("rounds")
    if rounds:
        for record in ("false", "true"):
            entry = rounds[f"record_{record}"]
            rows.append((f"resolver: rounds/s (2 ships, record={record.capitalize()})",
                         _rate(entry["rounds_per_second"]),
                         f"median {_rate(entry['rounds_per_second_median'])}; "
                         f"{_secs(entry['seconds_per_turn'])} per {rounds['rounds_per_turn']}-round turn, "
                         f"{rounds['events']} events"))

    big = results.get("big")
    if big:
        for row in big["turns"]:
            kinds = ", ".join(f"{v:,} {k}" for k, v in row["event_kinds"].items()) or "no events"
            rows.append((f"turn: {row['ships']:,} ships, {big['rounds']} rounds", _secs(row["seconds"]),
                         f"median {_secs(row['seconds_median'])}; {row['ships_changed']:,} ships moved/turned; "
                         f"{kinds}"))
        for name, ratio in big["ratios"].items():
            a, b = name.split("/")
            rows.append((f"turn: t({int(a):,})/t({int(b):,})", f"{ratio['time']:.1f}",
                         f"{ratio['ships']:.0f}x the ships (linear growth gives about {ratio['ships']:.0f})"))
        memory = big.get("memory")
        if memory:
            rows.append((f"turn: peak memory, {memory['ships']:,} ships", _mb(memory["peak_bytes"]),
                         f"tracemalloc, separate run; the outcome itself keeps {_mb(memory['outcome_bytes'])}"))

    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    lines = [f"{'figure':<{width}}  {'value':>{vwidth}}  detail", f"{'-' * width}  {'-' * vwidth}  ------"]
    lines += [f"{a:<{width}}  {b:>{vwidth}}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def main(args) -> int:
    quick = bool(getattr(args, "quick", False))
    cases = str(getattr(args, "cases", None) or "cases")
    snapshots = getattr(args, "snapshots", None)
    if snapshots is None:
        beside = Path(cases).parent / "snapshots"
        snapshots = str(beside if beside.is_dir() else Path("snapshots"))
    repeats = int(getattr(args, "repeats", None) or (2 if quick else 7))
    sizes = tuple(getattr(args, "sizes", None) or (QUICK_SIZES if quick else FULL_SIZES))
    memory_ships = getattr(args, "memory_ships", None)
    if memory_ships is None:
        memory_ships = MEMORY_SHIPS if MEMORY_SHIPS in sizes else max(n for n in sizes if n <= MEMORY_SHIPS) \
            if any(n <= MEMORY_SHIPS for n in sizes) else min(sizes)

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    results: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "quick": quick,
        "repeats": repeats,
    }
    progress(f"checking the cases under {cases} ...")
    results["check"] = bench_check(cases, snapshots, repeats)
    progress("resolving a two-ship scene ...")
    results["rounds"] = bench_rounds(repeats)
    progress("resolving big turns ...")
    results["big"] = bench_big(sizes, repeats, memory_ships, progress=progress)

    print(f"verifier bench (Python {results['python']}, {'quick, ' if quick else ''}"
          f"best of {repeats}; times are per call)")
    print(table(results))
    out = getattr(args, "json", None)
    if out:
        Path(out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    check = results["check"]
    broken = "error" in check or any("error" in check.get(k, {}) for k in ("with_draw", "without_draw"))
    return 1 if broken else 0
