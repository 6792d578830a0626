"""``verifier bench``: how fast checking, resolving and big turns are.

Figures (each the best of several repetitions timed with ``time.perf_counter``;
the median is shown next to it):

1. cases per second for ``verifier check`` on the bundled cases, with drawing and
   snapshot comparison, and without drawing, so the drawing share is visible;
2. resolver rounds per second for a two-ship scene, with ``record=False`` and
   ``record=True``;
3. the time of one four-round turn (``record=False``) with 1,000, 10,000 and
   (unless ``--quick``) 100,000 ships on a 1000x1000 board with rocks, wind and
   whirlpools, the growth ratios between sizes, and the peak memory of the
   10,000-ship turn (measured with tracemalloc in a separate run, since tracing
   slows everything down). The 100,000-ship turn runs once, and only if the
   10,000-ship time projects to at most 30 s for it.

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
import os
import platform
import random
import shutil
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


def _count(values) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items()))


def _seeded_snapshots(cases: str, snapshots: str, folder: Path) -> Path:
    """A temporary snapshot folder in which every case has a snapshot: the ones in
    ``snapshots`` are copied, the missing ones drawn. Only ``folder`` is written."""
    from .runner import RunOptions, check_paths
    from .snapshots import SnapshotStore, png_bytes

    root = folder / "snapshots"
    if Path(snapshots).is_dir():
        shutil.copytree(snapshots, root)
    root.mkdir(parents=True, exist_ok=True)

    class SeedingStore(SnapshotStore):
        def check(self, ruleset, case_id, image, update=False):
            path = self.path_for(ruleset, case_id)
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(png_bytes(image))
            return super().check(ruleset, case_id, image, update=False)

    check_paths([cases], RunOptions(SeedingStore(root, folder / "seed-failures"), draw=True))
    return root


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

    def timed(options: RunOptions) -> dict[str, Any]:
        last: list = []

        def run() -> None:
            last[:] = check_paths([cases], options)

        try:
            timing = measure(run, repeats)
        except ImportError as error:
            return {"unavailable": f"drawing is not available ({type(error).__name__}: {error})"}
        except Exception as error:
            return {"error": f"{type(error).__name__}: {error}"}
        n = len(last)
        return {
            "cases_per_second": n / timing.best,
            "cases_per_second_median": n / timing.median,
            "seconds_per_pass": timing.best,
            "repeats": timing.repeats,
            "passes_per_repeat": timing.number,
            "statuses": _count(r.status for r in last),
            "snapshot_statuses": _count(r.snapshot.status for r in last if r.snapshot is not None),
        }

    with tempfile.TemporaryDirectory(prefix="verifier-bench-") as temp:
        folder = Path(temp)
        # update_snapshots stays False throughout: mismatches only write into the temporary folder.
        result["with_draw"] = timed(RunOptions(SnapshotStore(snapshots, folder / "failures"), draw=True))
        result["without_draw"] = timed(RunOptions(SnapshotStore(snapshots, folder / "failures"), draw=False))
        missing = result["with_draw"].get("snapshot_statuses", {}).get("missing", 0)
        if missing:
            # Missing snapshots make every pass encode failure images, which a passing check never
            # does; time it again against a complete temporary snapshot folder.
            try:
                seeded = _seeded_snapshots(cases, snapshots, folder)
            except Exception as error:
                result["with_draw_all_snapshots"] = {"error": f"{type(error).__name__}: {error}"}
            else:
                entry = timed(RunOptions(SnapshotStore(seeded, folder / "failures"), draw=True))
                entry["seeded"] = missing
                result["with_draw_all_snapshots"] = entry

    plain = result["without_draw"].get("seconds_per_pass")
    drawn = result.get("with_draw_all_snapshots", result["with_draw"]).get("seconds_per_pass")
    if plain and drawn:
        result["draw_share"] = max(0.0, (drawn - plain) / drawn)
        result["draw_share_of"] = "with_draw_all_snapshots" if "with_draw_all_snapshots" in result else "with_draw"
    return result


# --- 2. two-ship resolver rounds -----------------------------------------------------


def two_ship_scene() -> tuple[Scene, Turn]:
    """Two sloops approaching on one row. In round 3 one goes straight on while the other
    turns across its bow: both claim the same tile (a collision). In round 4 the first
    reaches a wind tile and the other sails into a whirlpool, so both phases have work."""
    board = Board(10, 10, rocks=frozenset({(8, 8)}), wind=(((4, 4), Heading.N),), whirlpools=((5, 5),))
    ships = (Ship("Alpha", "sloop", (1, 4), Heading.E), Ship("Bravo", "sloop", (7, 4), Heading.W))
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
    # A ship holds no token one round in five; otherwise it goes forward or turns, half and half.
    tokens = [Token.NONE, Token.FORWARD, Token.FORWARD, Token.LEFT, Token.RIGHT]
    rounds = []
    for _ in range(ROUNDS):
        picks = rng.choices(tokens, k=ships)
        rounds.append(tuple((s.name, t) for s, t in zip(fleet, picks) if t is not Token.NONE))
    return BigScene(Scene(board, fleet), Turn(tuple(rounds)), region)


def count_calls(fn: Callable[[], Any]) -> int:
    """Python and C function calls made by ``fn``: a machine-independent measure of work,
    which shows whether growth is in the algorithm or in the memory hierarchy."""
    count = 0

    def tally(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(tally)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def linear_baseline(n: int, seed: int = 1) -> float:
    """Seconds for plainly linear work shaped like a turn: build name- and tile-keyed dicts
    for ``n`` pieces, then visit every piece four times in random order and probe its four
    neighbours. On a real machine this too grows faster than 10x per 10x pieces (caches,
    allocator), so the resolver's growth is read against it."""
    rng = random.Random(seed)
    names = [f"s{i:06d}" for i in range(n)]
    tiles = [(rng.randrange(BOARD_SIZE), rng.randrange(BOARD_SIZE)) for _ in range(n)]
    order = names[:]
    rng.shuffle(order)
    start = time.perf_counter()
    pos = dict(zip(names, tiles))
    occupied = {tile: name for name, tile in pos.items()}
    for _ in range(ROUNDS):
        for name in order:
            x, y = pos[name]
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                if (x + dx, y + dy) in occupied:
                    pass
            pos[name] = (x, y)
    return time.perf_counter() - start


def bench_big(sizes: tuple[int, ...], repeats: int, memory_ships: int | None, record: bool = False,
              budget: float = 30.0, progress: Callable[[str], None] | None = None,
              gc_ships: int | None = None) -> dict[str, Any]:
    """Time one four-round turn per size. Sizes above 10,000 ships run once, and only
    when the last measured size projects (linearly) to at most ``budget`` seconds.
    The ``gc_ships`` turn (default: the memory one) is also timed with the GC paused."""
    gc_ships = memory_ships if gc_ships is None else gc_ships
    reading = RULESET.default_reading
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for n in sorted(sizes):
        big_size = n > 10_000
        if big_size and rows:
            last = rows[-1]
            projected = last["seconds"] * n / last["ships"]
            if projected > budget:
                skipped.append({"ships": n, "projected_seconds": projected, "budget_seconds": budget})
                continue
        if progress:
            progress(f"  building a {n:,}-ship scene ...")
        big = big_scene(n)
        reps = 1 if big_size else repeats
        if progress:
            progress(f"  resolving a four-round turn with {n:,} ships ({reps}x) ...")
        last_outcome: list = []

        def run(big=big, last_outcome=last_outcome) -> None:
            last_outcome[:] = [resolve_turn(big.scene, big.turn, reading, record=record)]

        if not big_size:
            run()  # warm up
        timing = measure_once_each(run, reps)
        outcome = last_outcome[0]
        paused = None
        if n == gc_ships:  # the same turn with the cyclic GC paused: how much of the time it takes
            gc.disable()
            try:
                paused = measure_once_each(run, reps)
            finally:
                gc.enable()
        calls = count_calls(run) if n <= 10_000 else None
        baseline = min(linear_baseline(n) for _ in range(reps))
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
            "microseconds_per_ship": timing.best / n * 1e6,
            "region": big.region,
            "tokens": sum(len(r) for r in big.turn.rounds),
            "ships_changed": changed,
            "events": len(outcome.events),
            "event_kinds": dict(sorted(kinds.items())),
            **({"function_calls": calls} if calls else {}),
            "baseline_seconds": baseline,
            **({"seconds_gc_paused": paused.best, "seconds_gc_paused_median": paused.median} if paused else {}),
        })
        del big, outcome, last_outcome[:]
    ratios = {}
    for a, b in zip(rows, rows[1:]):
        ratios[f"{b['ships']}/{a['ships']}"] = {
            "ships": b["ships"] / a["ships"], "time": b["seconds"] / a["seconds"],
            "baseline": b["baseline_seconds"] / a["baseline_seconds"],
            **({"function_calls": b["function_calls"] / a["function_calls"]}
               if "function_calls" in a and "function_calls" in b else {})}
    result: dict[str, Any] = {"board": [BOARD_SIZE, BOARD_SIZE], "rounds": ROUNDS, "record": record,
                              "turns": rows, "ratios": ratios, "skipped": skipped}
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
    labels = (("with_draw", "check: cases/s (with drawing)"),
              ("with_draw_all_snapshots", "check: cases/s (drawing, snapshots complete)"),
              ("without_draw", "check: cases/s (no drawing)"))
    for key, label in labels:
        entry = check.get(key)
        if entry is None:
            continue
        if "cases_per_second" in entry:
            status = ", ".join(f"{v} {k}" for k, v in entry["statuses"].items())
            if entry["snapshot_statuses"]:
                status += "; snapshots " + ", ".join(f"{v} {k}" for k, v in entry["snapshot_statuses"].items())
            if entry.get("seeded"):
                status += f" ({entry['seeded']} missing ones drawn into a temporary folder first)"
            rows.append((label, _rate(entry["cases_per_second"]),
                         f"median {_rate(entry['cases_per_second_median'])}; {n} cases, "
                         f"{_secs(entry['seconds_per_pass'])}/pass; {status}"))
        else:
            rows.append((label, "unavailable" if "unavailable" in entry else "error",
                         entry.get("unavailable") or entry.get("error", "")))
    if "draw_share" in check:
        rows.append(("check: drawing share", f"{check['draw_share'] * 100:.0f} %",
                     "of the time per case spent drawing and comparing snapshots"
                     + (" (snapshots complete)" if check["draw_share_of"] == "with_draw_all_snapshots" else "")))

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
            timing = (f"median {_secs(row['seconds_median'])}" if row["repeats"] > 1 else "1 run") + \
                f", {row['microseconds_per_ship']:.0f} us/ship"
            if "seconds_gc_paused" in row:
                timing += f"; with the GC paused {_secs(row['seconds_gc_paused'])}"
            rows.append((f"turn: {row['ships']:,} ships, {big['rounds']} rounds", _secs(row["seconds"]),
                         f"{timing}; {row['ships_changed']:,} ships moved/turned; {kinds}"))
        for row in big["skipped"]:
            rows.append((f"turn: {row['ships']:,} ships, {big['rounds']} rounds", "skipped",
                         f"projected {row['projected_seconds']:.0f} s > budget {row['budget_seconds']:.0f} s"))
        for name, ratio in big["ratios"].items():
            a, b = name.split("/")
            work = (f"; function calls grow {ratio['function_calls']:.2f}x" if "function_calls" in ratio else "")
            work += (f"; plainly linear dict work grows {ratio['baseline']:.1f}x here, so the turn grows "
                     f"{ratio['time'] / ratio['baseline']:.2f}x as fast as linear work" if "baseline" in ratio else "")
            rows.append((f"turn: t({int(a):,})/t({int(b):,})", f"{ratio['time']:.1f}",
                         f"{ratio['ships']:.0f}x the ships (linear growth gives about {ratio['ships']:.0f}){work}"))
        memory = big.get("memory")
        if memory:
            rows.append((f"turn: peak memory, {memory['ships']:,} ships", _mb(memory["peak_bytes"]),
                         f"tracemalloc, separate run; the outcome itself keeps {_mb(memory['outcome_bytes'])}"))

    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    lines = [f"{'figure':<{width}}  {'value':>{vwidth}}  detail", f"{'-' * width}  {'-' * vwidth}  ------"]
    lines += [f"{a:<{width}}  {b:>{vwidth}}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def _load_average() -> tuple[float, float, float] | None:
    """Other work on the machine skews every figure; the load average says how much there was."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return None


def main(args) -> int:
    suite = getattr(args, "suite", None) or "core"
    code = main_core(args) if suite in ("core", "all") else 0
    quick = bool(getattr(args, "quick", False))
    extra = []
    if suite in ("explore", "all"):
        from .bench_explore import run as explore_figures
        extra.append(("explorer", explore_figures(quick=quick)))
    if suite in ("scatter", "all"):
        from .rulesets.scatter.bench import run as scatter_figures
        extra.append(("scatter", scatter_figures(quick)))
    for title, rows in extra:
        width = max(len(name) for name, _ in rows)
        print(title)
        for name, value in rows:
            print(f"  {name:<{width}}  {value}")
    return code


def main_core(args) -> int:
    quick = bool(getattr(args, "quick", False))
    cases = str(getattr(args, "cases", None) or "cases")
    snapshots = getattr(args, "snapshots", None)
    if snapshots is None:
        beside = Path(cases).parent / "snapshots"
        snapshots = str(beside if beside.is_dir() else Path("snapshots"))
    repeats = int(getattr(args, "repeats", None) or (2 if quick else 7))
    sizes = tuple(getattr(args, "sizes", None) or (QUICK_SIZES if quick else FULL_SIZES))
    memory_ships = getattr(args, "memory_ships", None)
    if memory_ships is None:  # the 10,000-ship turn, or the largest measured size below it
        memory_ships = max([n for n in sizes if n <= MEMORY_SHIPS] or [min(sizes)])

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    results: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "quick": quick,
        "repeats": repeats,
    }
    # The resolver runs first, in a process that has not yet loaded cases, schemas and images
    # (more live objects make each full GC pass longer); the table keeps the brief's order.
    progress("resolving a two-ship scene ...")
    rounds = bench_rounds(repeats)
    progress("resolving big turns ...")
    big = bench_big(sizes, repeats, memory_ships, progress=progress)
    progress(f"checking the cases under {cases} ...")
    results["check"] = bench_check(cases, snapshots, repeats)
    results["rounds"], results["big"] = rounds, big

    results["load_average"] = _load_average()
    load = results["load_average"]
    print(f"verifier bench (Python {results['python']}, {'quick, ' if quick else ''}best of {repeats}; "
          f"times are per call" + (f"; load average {load[0]:.1f} at the end, {os.cpu_count()} CPUs" if load else "")
          + ")")
    print(table(results))
    out = getattr(args, "json", None)
    if out:
        Path(out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    check = results["check"]
    broken = "error" in check or any("error" in entry for entry in check.values() if isinstance(entry, dict))
    return 1 if broken else 0
