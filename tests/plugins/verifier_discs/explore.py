"""What the explorer needs (Capability.SEARCH, FINDINGS, EXHAUSTIVE), and the benchmark
suite (Capability.BENCHMARKS). ``DiscsRuleset`` forwards to these functions by name."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from verifier.kit.geometry import TOLERANCE, Contact
from verifier.ruleset import BenchSettings, BenchSuite, Outcome, Transform

from .model import Disc, Scene, Slide, Slides, contact
from .resolver import resolve

TABLE = (10.0, 6.0)
HEADINGS = (0, 45, 90, 135, 180, 225, 270, 315)


# --- Capability.SEARCH ---------------------------------------------------------------------


def outcome_key(outcome: Outcome) -> tuple:
    """Where every disc ends (to a millionth) and what happened."""
    return (tuple((d.name, round(d.at[0], 6), round(d.at[1], 6)) for d in outcome.after.discs),
            tuple(sorted((e.kind, e.pieces) for e in outcome.events)))


@st.composite
def _scenes(draw: Any) -> tuple[Scene, Slides]:
    """Up to four discs on half-unit points, so that paths often just touch a disc."""
    width, height = TABLE
    discs: list[Disc] = []
    for name in "abcd"[: draw(st.integers(1, 4))]:
        r = draw(st.sampled_from((1.0, 0.5)))
        disc = Disc(name, (draw(st.integers(int(2 * r), int(2 * (width - r)))) / 2,
                           draw(st.integers(int(2 * r), int(2 * (height - r)))) / 2), r)
        if all(contact(disc, d) is not Contact.OVERLAPPING for d in discs):
            discs.append(disc)
    slides = tuple((d.name, Slide(draw(st.sampled_from(HEADINGS)), draw(st.integers(1, 12)) / 2))
                   for d in discs if draw(st.booleans()))
    return Scene(width, height, tuple(discs)), slides


def strategy() -> Any:
    return _scenes()


def transforms(scene: Scene, slides: Slides) -> list[Transform]:
    """Listing the discs the other way round changes nothing; mirroring the table east-west
    mirrors where the discs end."""
    w = scene.width
    mirrored = Scene(w, scene.height, tuple(Disc(d.name, (w - d.at[0], d.at[1]), d.radius) for d in scene.discs))
    return [
        Transform("order", "reversed listing", Scene(w, scene.height, scene.discs[::-1]), slides[::-1],
                  lambda key: key),
        Transform("symmetry", "mirror east-west", mirrored,
                  tuple((n, Slide((360 - s.heading) % 360, s.distance)) for n, s in slides),
                  lambda key: (tuple((n, round(w - x, 6), y) for n, x, y in key[0]), key[1])),
    ]


def invariant_breaches(scene: Scene, slides: Slides, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
    """What no reading may do: leave a disc off the table, or two discs overlapping."""
    found = []
    for i, a in enumerate(outcome.after.discs):
        (x, y), r = a.at, a.radius
        if min(x - r, y - r, scene.width - x - r, scene.height - y - r) < -TOLERANCE:
            found.append(("a disc ends off the table", (a.name,), f"at [{x:g}, {y:g}]"))
        found += [("two discs end overlapping", (a.name, b.name), "") for b in outcome.after.discs[i + 1:]
                  if contact(a, b) is Contact.OVERLAPPING]
    return found


def simpler(scene: Scene, slides: Slides) -> Iterator[tuple[Scene, Slides]]:
    """One disc fewer, then one slide fewer."""
    for disc in scene.discs if len(scene.discs) > 1 else ():
        yield (Scene(scene.width, scene.height, tuple(d for d in scene.discs if d is not disc)),
               tuple(p for p in slides if p[0] != disc.name))
    for name, _ in slides:
        yield scene, tuple(p for p in slides if p[0] != name)


# --- Capability.FINDINGS: scenes and outcomes back into case data ---------------------------


def _n(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def case_data(scene: Scene, slides: Slides) -> tuple[dict, dict]:
    before = {"table": [_n(scene.width), _n(scene.height)],
              "discs": {d.name: {"at": [_n(v) for v in d.at], "radius": _n(d.radius)} for d in scene.discs}}
    return before, {n: {"heading": _n(s.heading), "distance": _n(s.distance)} for n, s in slides}


def expect_data(scene: Scene, outcome: Outcome) -> dict:
    moved = {d.name: {"at": [_n(round(v, 4)) for v in d.at]} for d in outcome.after.discs
             if d.at != scene.disc(d.name).at}
    return {**({"discs": moved} if moved else {}),
            "events": [{"kind": e.kind, "discs": list(e.pieces)} for e in outcome.events]}


# --- Capability.EXHAUSTIVE -----------------------------------------------------------------

EXHAUSTIVE_SPACES = {
    "pairs": "on an 8 x 4 table, disc a (radius 1) at [2, 2] slides 4 along each of 8 headings, and disc b "
             "(radius 1) stands at every free half-unit point, still or sliding 2 north, east, south or west",
}


def exhaustive_space(name: str) -> tuple[int, Iterator[tuple[Scene, Slides]]]:
    if name not in EXHAUSTIVE_SPACES:
        raise KeyError(name)
    a = Disc("a", (2.0, 2.0), 1.0)
    places = [Disc("b", (x / 2, y / 2), 1.0) for x in range(2, 15) for y in range(2, 7)]
    scenes = [(Scene(8.0, 4.0, (a, b)), (("a", Slide(h, 4.0)),) + ((("b", Slide(m, 2.0)),) if m is not None else ()))
              for h in HEADINGS for b in places if contact(a, b) is not Contact.OVERLAPPING
              for m in (None, 0, 90, 180, 270)]
    return len(scenes), iter(scenes)


# --- Capability.BENCHMARKS: ``verifier bench --suite discs.turn`` -----------------------------


def _crowd(count: int) -> tuple[Scene, Slides]:
    """``count`` discs on a square grid two units apart, each sliding a seeded random way."""
    rng = random.Random(count)
    side = int(count ** 0.5) + 1
    discs = tuple(Disc(f"d{i}", (2.0 * (i % side) + 1, 2.0 * (i // side) + 1), 0.5 + rng.random() * 0.5)
                  for i in range(count))
    return (Scene(2.0 * side, 2.0 * side, discs),
            tuple((d.name, Slide(rng.choice(HEADINGS), rng.random() * 4)) for d in discs))


def _run(settings: BenchSettings) -> dict[str, Any]:
    from . import RULESET
    sizes = (100, 1_000) if settings.quick else (100, 1_000, 10_000)
    rows = []
    for count in sizes:
        scene, slides = _crowd(count)
        best = float("inf")
        for _ in range(settings.repeats or 3):
            start = time.perf_counter()
            resolve(scene, slides, RULESET.default_reading)
            best = min(best, time.perf_counter() - start)
        rows.append({"discs": count, "seconds": best, "discs_per_second": count / best})
    return {"turns": rows}


def _table(figures: Any) -> str:
    return "\n".join(f"one turn of {r['discs']:>6,} discs  {r['seconds'] * 1e3:9.1f} ms  "
                     f"({r['discs_per_second']:,.0f} discs/s)" for r in figures["turns"])


SUITES = (BenchSuite("turn", "one turn of 100, 1,000 and 10,000 sliding discs (the index keeps it near linear)",
                     _run, _table),)
