"""A long fuzz run of the case loader, for figures rather than for CI.

    .venv/bin/python tests/fuzz_loader.py --files 100000 [--seed 1] [--resolve]

Each file is one of the bundled cases, mutated the way hostile or careless files
are: values swapped for junk (whole-number floats, NaN, huge integers, long or
odd strings, deep nesting), keys renamed, fields dropped, and text-level damage
(tags, aliases, control characters, cut lines). Loading must end in a case or in
one of the verifier's located errors; anything else is counted as unexpected, by
exception type and the line that raised it. ``--resolve`` also resolves, compares
and draws every file that loads, through the same runner ``verifier check`` uses.
The test suite runs a short version of the same mutations (tests/test_case_fuzz.py).
"""

from __future__ import annotations

import argparse
import collections
import copy
import random
import signal
import sys
import time
import traceback
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.case import load_case_text  # noqa: E402
from verifier.errors import CaseError, CaseErrors  # noqa: E402

SAMPLES = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "cases").rglob("*.yaml"))]


def junk(rng: random.Random) -> object:
    choices = [
        None, True, 0, -1, 2, 7.0, 2.5, float("nan"), float("inf"), -float("inf"), 10 ** 30, 10 ** 400,
        "", "x", "N", "a" * 300, "ship\nname", "\x1b[2J", "\u202eevil", [], [1, 2], [[1, 2], [3, 4]],
        {}, {"a": 1}, {"": None}, {1.5: "x"}, {None: 1}, [0.0, 1.0], [1e300, 1e300], {"at": [1.0, 2.0]},
    ]
    value = rng.choice(choices)
    if rng.random() < 0.03:
        for _ in range(rng.randint(20, 200)):
            value = [value] if rng.random() < 0.5 else {"k": value}
    return copy.deepcopy(value)


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths(value, prefix + (i,))


def mutate_data(rng: random.Random) -> object:
    data = copy.deepcopy(rng.choice(SAMPLES))
    for _ in range(rng.randint(1, 3)):
        where = rng.choice(list(paths(data)))
        if not where:
            continue
        parent = data
        for part in where[:-1]:
            parent = parent[part]
        action = rng.choice(["replace", "replace", "delete", "rename", "whole-float"])
        if action == "replace":
            parent[where[-1]] = junk(rng)
        elif action == "delete":
            del parent[where[-1]]
        elif action == "whole-float" and isinstance(parent[where[-1]], int) and not isinstance(
                parent[where[-1]], bool) and abs(parent[where[-1]]) < 10 ** 300:
            parent[where[-1]] = float(parent[where[-1]])
        elif isinstance(parent, dict):
            parent[rng.choice(["", "x", "id ", "at", 1, None, 2.5, "\x07"])] = parent.pop(where[-1])
    return data


TEXT_DAMAGE = [
    lambda t, r: t.replace("\n", "\n" + "  " * r.randint(1, 3), 1),
    lambda t, r: "\n".join(line for line in t.splitlines() if r.random() > 0.1),
    lambda t, r: t + "\nextra: &a [1, 2]\nmore: *a\n",
    lambda t, r: t.replace("id:", "!!python/name:os.system id:", 1),
    lambda t, r: t.replace("ruleset:", "? !!str ruleset\n:", 1),
    lambda t, r: "a: &a [*a]\n" + t,
    lambda t, r: t.replace("title:", "title: !!binary aGVsbG8=\nx-title:", 1),
    lambda t, r: "bomb: &x0 [1,1,1,1,1,1,1,1,1]\n" + "".join(
        f"x{i}: &x{i} [*x{i - 1},*x{i - 1},*x{i - 1},*x{i - 1},*x{i - 1},*x{i - 1},*x{i - 1},*x{i - 1},*x{i - 1}]\n"
        for i in range(1, 9)) + t,
    lambda t, r: "[" * 5000 + "]" * 5000,
    lambda t, r: t.replace("id: ", "id: " + "9" * 5000 + " #", 1),
    lambda t, r: t[: r.randint(0, len(t))],
    lambda t, r: t.replace(": ", ":\t", 1),
    lambda t, r: "\ufeff" + t,
    lambda t, r: t.replace("\n", "\r\n"),
]


class TookTooLong(Exception):
    """A file whose loading ran past the per-file time limit (an unbounded cost)."""


def _alarm(signum, frame):
    raise TookTooLong


def make_file(rng: random.Random) -> str:
    text = yaml.safe_dump(mutate_data(rng), sort_keys=False, allow_unicode=True)
    if rng.random() < 0.3:
        text = rng.choice(TEXT_DAMAGE)(text, rng)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resolve", action="store_true", help="also resolve, compare and draw what loads")
    parser.add_argument("--show", type=int, default=12, help="how many kinds of unexpected exception to list")
    parser.add_argument("--limit", type=float, default=2.0, help="seconds one file may take (default: 2)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    outcomes: collections.Counter[str] = collections.Counter()
    unexpected: collections.Counter[str] = collections.Counter()
    example: dict[str, str] = {}
    start = time.perf_counter()
    if args.resolve:
        from verifier.runner import RunOptions, check_case
        from verifier.snapshots import SnapshotStore
        options = RunOptions(SnapshotStore(Path("/nonexistent-snapshots"), Path("/tmp/fuzz-failures")), draw=True)
    signal.signal(signal.SIGALRM, _alarm)
    for _ in range(args.files):
        text = make_file(rng)
        signal.setitimer(signal.ITIMER_REAL, args.limit)
        try:
            case = load_case_text(text, "fuzz.yaml")
        except (CaseError, CaseErrors):
            outcomes["located error"] += 1
            continue
        except BaseException as error:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if isinstance(error, KeyboardInterrupt):
                raise
            frames = traceback.extract_tb(error.__traceback__, limit=-2)
            frame = frames[0] if isinstance(error, TookTooLong) and len(frames) > 1 else frames[-1]
            kind = f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno}"
            unexpected[kind] += 1
            example.setdefault(kind, text[:300])
            outcomes["unexpected"] += 1
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        outcomes["loaded"] += 1
        if args.resolve:
            try:
                result = check_case(case, options)
                outcomes[f"checked: {result.status}"] += 1
            except Exception as error:
                frame = traceback.extract_tb(error.__traceback__)[-1]
                kind = f"{type(error).__name__} at {Path(frame.filename).name}:{frame.lineno} (checking)"
                unexpected[kind] += 1
                outcomes["unexpected while checking"] += 1
    seconds = time.perf_counter() - start
    print(f"{args.files} files, seed {args.seed}, {seconds:.1f} s")
    for name, count in sorted(outcomes.items()):
        print(f"  {name}: {count}")
    total = sum(unexpected.values())
    print(f"unexpected exceptions: {total} ({total * 100_000 / max(args.files, 1):.0f} per 100,000 files), "
          f"{len(unexpected)} kinds")
    for kind, count in unexpected.most_common(args.show):
        print(f"  {count:6d}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
