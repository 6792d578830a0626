"""YPP's suites for ``verifier bench`` (never asserted in tests).

``ypp.rounds``
    resolver rounds per second for a two-ship scene, with ``record=False`` and
    ``record=True``.
``ypp.turns``
    the time of one four-round turn (``record=False``) with 1,000, 10,000 and
    (unless ``--quick``) 100,000 ships on a 1000x1000 board with rocks, wind and
    whirlpools; the growth ratios between sizes, read against the function calls
    made and against plainly linear dict work on the same machine; and the peak
    memory of the 10,000-ship turn (measured with tracemalloc in a separate run,
    since tracing slows everything down). The 100,000-ship turn runs once, and
    only if the 10,000-ship time projects to at most 30 s for it. The bound: n log n in
    ships (every collision question goes through a dict of tiles), and the 1,000 to
    10,000 ratio of this suite is the growth from 1x to 10x pieces.
``ypp.draw``
    the time of the standard before/after picture of one four-round turn with 250,
    1,000, 2,000 and (unless ``--quick``) 10,000 ships, and of a 1000x1000 board with
    a long rock list; the growth ratios between sizes, with the function calls
    made as a machine-independent measure of work; the picture's size, and the
    peak memory of the process that drew it. Each size runs in a fresh process
    (Pillow's pixels are not seen by tracemalloc, so memory is the peak resident
    size, shown next to that of a process that only built and resolved the scene).
``ypp.growth``
    reading (every set-up check) and resolving a four-round turn of 100, 1,000 and 10,000
    ships on the board of ``ypp.turns`` (1x, 10x and 100x, through ``kit.bench.growth_suite``):
    time and peak memory, as every ruleset's growth suite reports them.
``ypp.explore``
    the exhaustive two-ship space, and how soon the Hypothesis search finds each
    class of finding that the exhaustive run finds (with ``--quick``: only a short
    search, its scenes per second and the classes it finds).
"""

from __future__ import annotations

import gc
import json
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...kit.bench import (
    Row,
    count_calls,
    format_rows,
    growth_suite,
    measure,
    measure_once_each,
    megabytes,
    progress,
    rate,
    repeats_for,
    secs,
)
from ...ruleset import BenchSettings, BenchSuite, Outcome
from . import RULESET
from .model import SHIP_TYPES, Board, Heading, Scene, Ship, Token, Turn
from .resolver import resolve_turn

BOARD_SIZE = 1000
FULL_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 10_000)
MEMORY_SHIPS = 10_000
ROUNDS = 4


# --- ypp.rounds: two-ship resolver rounds ----------------------------------------------


def two_ship_scene() -> tuple[Scene, Turn]:
    """Two sloops approaching on one row. In round 3 one goes straight on while the other
    turns across its bow: both claim the same tile (a collision). In round 4 the first
    reaches a wind tile and the other sails into a whirlpool, so both phases have work."""
    board = Board(10, 10, rocks=frozenset({(8, 8)}), wind=(((4, 4), Heading.N),), whirlpools=((5, 5),))
    ships = (Ship("Alpha", "sloop", (1, 4), Heading.E), Ship("Bravo", "sloop", (7, 4), Heading.W))
    fwd, left = Token.FORWARD, Token.LEFT
    turn = Turn(((("Alpha", fwd), ("Bravo", fwd)),
                 (("Alpha", fwd), ("Bravo", fwd)),
                 (("Alpha", fwd), ("Bravo", left)),
                 (("Alpha", fwd), ("Bravo", fwd))))
    return Scene(board, ships), turn


def bench_rounds(repeats: int) -> dict[str, Any]:
    scene, turn = two_ship_scene()
    reading = RULESET.default_reading
    rounds = len(turn.rounds)
    events = len(resolve_turn(scene, turn, reading, record=False).events)
    result: dict[str, Any] = {"ships": len(scene.ships), "rounds_per_turn": rounds, "events": events}
    for record in (False, True):
        def run(record: bool = record) -> None:
            resolve_turn(scene, turn, reading, record=record)

        timing = measure(run, repeats, min_batch=0.1)
        result[f"record_{str(record).lower()}"] = {
            "rounds_per_second": rounds / timing.best,
            "rounds_per_second_median": rounds / timing.median,
            "seconds_per_turn": timing.best,
            "repeats": timing.repeats,
            "turns_per_repeat": timing.number,
        }
    return result


def run_rounds(settings: BenchSettings) -> dict[str, Any]:
    progress("resolving a two-ship scene ...")
    return bench_rounds(repeats_for(settings))


def rounds_table(rounds: Mapping[str, Any]) -> str:
    rows: list[Row] = []
    for record in ("false", "true"):
        entry = rounds[f"record_{record}"]
        rows.append((f"resolver: rounds/s (2 ships, record={record.capitalize()})",
                     rate(entry["rounds_per_second"]),
                     f"median {rate(entry['rounds_per_second_median'])}; "
                     f"{secs(entry['seconds_per_turn'])} per {rounds['rounds_per_turn']}-round turn, "
                     f"{rounds['events']} events"))
    return format_rows(rows)


# --- ypp.turns: big turns -------------------------------------------------------------


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

    whirl: list[tuple[int, int]] = []
    while len(whirl) < whirlpools:
        x, y = rng.randrange(lo, lo + terrain_side - 1), rng.randrange(lo, lo + terrain_side - 1)
        square = {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
        if square & taken:
            continue
        taken |= square
        whirl.append((x, y))
    headings = list(Heading)
    wind: dict[tuple[int, int], Heading] = {}
    while len(wind) < wind_tiles:
        tile = (rng.randrange(lo, lo + terrain_side), rng.randrange(lo, lo + terrain_side))
        if tile in taken:
            continue
        taken.add(tile)
        wind[tile] = rng.choice(headings)
    rock: set[tuple[int, int]] = set()
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
        last_outcome: list[Outcome] = []

        def run(big: BigScene = big, last_outcome: list[Outcome] = last_outcome) -> None:
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
            memory_outcome = resolve_turn(big.scene, big.turn, reading, record=record)
            current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        result["memory"] = {"ships": memory_ships, "peak_bytes": peak - base, "outcome_bytes": current - base}
        del memory_outcome
    return result


def run_turns(settings: BenchSettings, sizes: tuple[int, ...] | None = None,
              memory_ships: int | None = None) -> dict[str, Any]:
    """``bench_big`` with the sizes of ``--quick`` or of a full run (read when called, so a
    test can make them small), and the memory run at 10,000 ships or the largest size below."""
    sizes = tuple(sizes or (QUICK_SIZES if settings.quick else FULL_SIZES))
    if memory_ships is None:
        memory_ships = max([n for n in sizes if n <= MEMORY_SHIPS] or [min(sizes)])
    progress("resolving big turns ...")
    return bench_big(sizes, repeats_for(settings), memory_ships, progress=progress)


def turns_table(big: Mapping[str, Any]) -> str:
    rows: list[Row] = []
    for row in big["turns"]:
        kinds = ", ".join(f"{v:,} {k}" for k, v in row["event_kinds"].items()) or "no events"
        timing = (f"median {secs(row['seconds_median'])}" if row["repeats"] > 1 else "1 run") + \
            f", {row['microseconds_per_ship']:.0f} us/ship"
        if "seconds_gc_paused" in row:
            timing += f"; with the GC paused {secs(row['seconds_gc_paused'])}"
        rows.append((f"turn: {row['ships']:,} ships, {big['rounds']} rounds", secs(row["seconds"]),
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
        rows.append((f"turn: peak memory, {memory['ships']:,} ships", megabytes(memory["peak_bytes"]),
                     f"tracemalloc, separate run; the outcome itself keeps {megabytes(memory['outcome_bytes'])}"))
    return format_rows(rows)


# --- ypp.draw: drawing big turns ------------------------------------------------------

DRAW_SIZES = (250, 1_000, 2_000, 10_000)
QUICK_DRAW_SIZES = (250, 1_000)
DRAW_ROCKS = 100_000
DRAW_TIMEOUT = 600.0  # seconds one size may take in its own process before it is given up


def rock_scene(rocks: int, board_size: int = BOARD_SIZE, seed: int = 1) -> tuple[Scene, Turn]:
    """Two sloops in opposite corners of a board strewn with ``rocks`` rocks, each going
    forward once: the picture must show the whole board and every rock on it."""
    rng = random.Random(seed)
    ships = (Ship("Alpha", "sloop", (1, 1), Heading.E),
             Ship("Bravo", "sloop", (board_size - 2, board_size - 2), Heading.W))
    taken = {ship.at for ship in ships}
    rock: set[tuple[int, int]] = set()
    while len(rock) < rocks:
        tile = (rng.randrange(board_size), rng.randrange(board_size))
        if tile not in taken:
            rock.add(tile)
    turn = Turn(((("Alpha", Token.FORWARD), ("Bravo", Token.FORWARD)),))
    return Scene(Board(board_size, board_size, frozenset(rock)), ships), turn


def draw_once(kind: str, n: int, repeats: int, draw: bool = True, calls: bool = False) -> dict[str, Any]:
    """Build and resolve one scene (``kind`` "ships": ``big_scene(n)``; "rocks":
    ``rock_scene(n)``), then draw it ``repeats`` times; this process's figures."""
    if kind == "ships":
        big = big_scene(n)
        scene, turn = big.scene, big.turn
    else:
        scene, turn = rock_scene(n)
    outcome = resolve_turn(scene, turn, RULESET.default_reading, record=True)
    result: dict[str, Any] = {"kind": kind, "n": n, "ships": len(scene.ships), "rocks": len(scene.board.rocks),
                              "events": len(outcome.events)}
    if draw:
        sizes: list[tuple[int, int]] = []

        def run() -> None:
            sizes[:] = [RULESET.draw(scene, turn, outcome).size]

        timing = measure_once_each(run, repeats)
        result.update(seconds=timing.best, seconds_median=timing.median, repeats=timing.repeats,
                      width=sizes[0][0], height=sizes[0][1])
        if calls:
            result["function_calls"] = count_calls(run)
    result["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return result


def _in_child(kind: str, n: int, repeats: int, draw: bool, calls: bool, timeout: float) -> dict[str, Any]:
    """:func:`draw_once` in a fresh Python process, so that its peak memory is its own."""
    code = (f"import json; from verifier.rulesets.ypp.bench import draw_once; "
            f"print(json.dumps(draw_once({kind!r}, {n}, {repeats}, {draw}, {calls})))")
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"kind": kind, "n": n, "gave_up_after_seconds": timeout}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"kind": kind, "n": n, "error": last}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def bench_draw(sizes: tuple[int, ...], repeats: int, rocks: int | None = DRAW_ROCKS,
               timeout: float = DRAW_TIMEOUT, calls_up_to: int = 2_000) -> dict[str, Any]:
    """Draw each size (and the rock board) in its own process; function calls are
    counted (in the same process, an extra run) up to ``calls_up_to`` ships."""
    rows: list[dict[str, Any]] = []
    for n in sorted(sizes):
        reps = 1 if n > 2_000 else repeats
        progress(f"  drawing a four-round turn with {n:,} ships ({reps}x, own process) ...")
        row = _in_child("ships", n, reps, True, n <= calls_up_to, timeout)
        if "seconds" in row:
            row["resolve_only_peak_rss_bytes"] = _in_child("ships", n, 1, False, False, timeout).get(
                "peak_rss_bytes")
        rows.append(row)
    timed = [r for r in rows if "seconds" in r]
    ratios = {}
    for a, b in zip(timed, timed[1:]):
        ratios[f"{b['n']}/{a['n']}"] = {
            "ships": b["n"] / a["n"], "time": b["seconds"] / a["seconds"],
            **({"function_calls": b["function_calls"] / a["function_calls"]}
               if "function_calls" in a and "function_calls" in b else {})}
    result: dict[str, Any] = {"board": [BOARD_SIZE, BOARD_SIZE], "rounds": ROUNDS, "pictures": rows,
                              "ratios": ratios}
    if rocks:
        progress(f"  drawing a {BOARD_SIZE}x{BOARD_SIZE} board with {rocks:,} rocks (own process) ...")
        result["rocks"] = _in_child("rocks", rocks, repeats, True, False, timeout)
    return result


def run_draw(settings: BenchSettings, sizes: tuple[int, ...] | None = None) -> dict[str, Any]:
    progress("drawing big turns ...")
    sizes = tuple(sizes or (QUICK_DRAW_SIZES if settings.quick else DRAW_SIZES))
    return bench_draw(sizes, repeats_for(settings), rocks=DRAW_ROCKS // 10 if settings.quick else DRAW_ROCKS)


def _picture_row(label: str, row: Mapping[str, Any]) -> Row:
    if "gave_up_after_seconds" in row:
        return (label, "gave up", f"not done within {row['gave_up_after_seconds']:.0f} s")
    if "error" in row:
        return (label, "error", str(row["error"]))
    timing = (f"median {secs(row['seconds_median'])}" if row["repeats"] > 1 else "1 run")
    memory = f"peak memory {megabytes(row['peak_rss_bytes'])}"
    if row.get("resolve_only_peak_rss_bytes"):
        memory += f" (building and resolving alone: {megabytes(row['resolve_only_peak_rss_bytes'])})"
    return (label, secs(row["seconds"]), f"{timing}; {row['width']:,} x {row['height']:,} px; "
                                         f"{row['events']:,} events; {memory}")


def draw_table(figures: Mapping[str, Any]) -> str:
    rows: list[Row] = []
    for row in figures["pictures"]:
        rows.append(_picture_row(f"draw: {row['n']:,} ships, {figures['rounds']} rounds", row))
    for name, ratio in figures["ratios"].items():
        b, a = name.split("/")
        work = f"; function calls grow {ratio['function_calls']:.2f}x" if "function_calls" in ratio else ""
        rows.append((f"draw: t({int(b):,})/t({int(a):,})", f"{ratio['time']:.2f}",
                     f"{ratio['ships']:.0f}x the ships (linear growth gives about {ratio['ships']:.0f}){work}"))
    if "rocks" in figures:
        rock = figures["rocks"]
        board = figures["board"]
        rows.append(_picture_row(f"draw: {rock['n']:,} rocks on {board[0]}x{board[1]}", rock))
    return format_rows(rows)


GROWTH_BOUND = "n log n in ships: every collision question goes through a dict of tiles"


def _read_and_resolve(ships: int) -> Callable[[], None]:
    """The call that reads ``big_scene(ships)`` as a case file's data (every set-up check) and
    resolves its four-round turn. The terrain is the same at every size; the ships grow."""
    from ...source import Located
    from .parse import case_data
    big = big_scene(ships)
    before, actions = case_data(big.scene, big.turn)
    doc = Located("<bench>", {"before": before, "actions": actions}, {}, {})

    def call() -> None:
        scene, turn, _ = RULESET.parse(doc, ("before",), ("actions",), None)
        RULESET.resolve(scene, turn, RULESET.default_reading)
    return call


SUITES: tuple[BenchSuite, ...] = (
    BenchSuite("rounds", "resolver rounds per second for a two-ship scene, with record=False and record=True",
               run_rounds, rounds_table),
    BenchSuite("turns", "one four-round turn with 1,000, 10,000 and (unless --quick) 100,000 ships on a "
                        "1000x1000 board: time, growth against function calls and plainly linear work, "
                        "peak memory", run_turns, turns_table),
    BenchSuite("draw", "the before/after picture of a four-round turn with 250, 1,000, 2,000 and (unless --quick) "
                       "10,000 ships, and of a board with a long rock list: time, growth, picture size, peak "
                       "memory (each size in its own process)", run_draw, draw_table),
    growth_suite("read and resolve", _read_and_resolve, 100, GROWTH_BOUND, noun="ships"),
)
