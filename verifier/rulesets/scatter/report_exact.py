"""The scatter report's exact sections: the chance of a hit as a step function of
distance (breakpoints per template, base and reading), and the seed's own rounding:
every call of the seed's grid where its function in doubles and the exact answer
differ, and the arithmetic of each documented test that sits exactly on a tangency.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .clauses import SEED_READING
from .exact import decimal_text, fraction_text
from .grid import SEED_GRID, exact_hits, rounding_differences, tangencies
from .model import AOE_SIZES, BASE_SIZES, ROLLS, AllRolls, Roll, Shot
from .resolver import direction_vector, direction_words, land, separation
from .seedcode import SeedCall, centre_distance, seed_dist
from .steps import HitSteps, Surd, hit_steps

Reading = Mapping[str, str]


def _example(case) -> str:
    return case.source.example or case.title


# --- breakpoints -------------------------------------------------------------------------------


def _narrowest(steps: HitSteps) -> float | None:
    points = [0.0] + [float(p) for p in steps.breakpoints]
    widths = [b - a for a, b in zip(points[1:], points[2:])]
    return min(widths) if widths else None


def breakpoint_table(ruleset) -> tuple[str, dict]:
    """Breakpoints per (template, base, reading), for a shot whose cap does not bind."""
    readings = ruleset.all_readings()
    rows: dict[tuple[int, int], dict[str, int]] = {}
    varies: set[str] = set()
    by_key: dict[tuple[int, int, tuple[str, ...]], HitSteps] = {}
    names = [p.name for p in ruleset.reading_points]
    for aoe in AOE_SIZES:
        for base in BASE_SIZES:
            shot = Shot(aoe, base, Fraction(100))
            for reading in readings:
                by_key[(aoe, base, tuple(reading[n] for n in names))] = hit_steps(shot, reading)
    for name in names:
        for (aoe, base, key), steps in by_key.items():
            index = names.index(name)
            for option in {k[index] for (_, _, k) in by_key}:
                other = key[:index] + (option,) + key[index + 1:]
                twin = by_key[(aoe, base, other)]
                if (twin.breakpoints, twin.between, twin.at, twin.at_zero) != (
                        steps.breakpoints, steps.between, steps.at, steps.at_zero):
                    varies.add(name)
    touch_options = list(next(p for p in ruleset.reading_points if p.name == "touch").options)
    lines = [
        "For a template, a base and a reading, the number of the 36 rolls that hit is a step function of s, the "
        "distance from the target's centre at which the template starts deviating: it changes only where some roll "
        "starts or stops touching the base. Those breakpoints are s = p·m ∓ √(R² − (1 − p²)·m²) for a roll moving "
        "m inches with forward part p (±1 or ±1/2), R being the template radius plus the base radius: fractions "
        "for straight on and straight back, a fraction plus a square root otherwise, computed and ordered exactly. "
        "`verifier show` lists them for every case over all 36 rolls. Counted here for an attacker far enough "
        "away that no cap binds. Readings that change the function: "
        + (", ".join(sorted(varies)) or "none")
        + (" (only the count at each breakpoint itself, where a roll just touches)" if varies == {"touch"} else "")
        + "; the others ("
        + ", ".join(n for n in names if n not in varies)
        + ") never do here (the variable is the centre distance itself, so the distance reading only shifts it; "
          "mirror-image faces hit alike; no cap binds).", "",
        "| template | base | " + " | ".join(f"breakpoints, touch={o}" for o in touch_options)
        + " | narrowest step (in) | chance at s = 0 |", "|---|---|" + "---|" * (len(touch_options) + 2)]
    data = []
    for aoe in AOE_SIZES:
        for base in BASE_SIZES:
            counts = {}
            steps_by_touch = {}
            for option in touch_options:
                reading = {**dict(readings[0]), "touch": option}
                steps = hit_steps(Shot(aoe, base, Fraction(100)), reading)
                counts[option] = len(steps.breakpoints)
                steps_by_touch[option] = steps
            first = steps_by_touch[touch_options[0]]
            narrow = _narrowest(first)
            narrow_text = f"{narrow:.4f}" if narrow is not None else "-"
            lines.append(f"| {aoe}-inch | {base} mm | " + " | ".join(str(counts[o]) for o in touch_options)
                         + f" | {narrow_text} | {first.at_zero}/36 |")
            rows[(aoe, base)] = counts
            data.append({"aoe": aoe, "base": base, "breakpoints": counts, "narrowest_step": narrow,
                         "exact": [str(p) for p in first.breakpoints]})
    return "\n".join(lines), {"readings_that_change_it": sorted(varies), "rows": data}


# --- the seed's rounding -----------------------------------------------------------------------


def _exact_length(squared: Fraction) -> str:
    return str(Surd.make(0, 1, squared))


def rounding_section() -> tuple[str, dict]:
    found = rounding_differences(SEED_GRID)
    ties = tangencies(SEED_GRID)
    hits = int(exact_hits(SEED_GRID).sum())
    lines = [
        f"The blog post's function run over its grid of {SEED_GRID.size:,} calls (templates "
        f"{', '.join(map(str, SEED_GRID.aoes))} in; dist 0 to {decimal_text(SEED_GRID.dists[-1])} in by half inches; "
        f"bases {', '.join(map(str, SEED_GRID.bases))} mm; "
        f"max {' and '.join(decimal_text(m) for m in SEED_GRID.maxes)}; all 36 rolls), once in IEEE doubles as R "
        f"evaluates it and once exactly (lengths as fractions of "
        f"1/{_scale()} in, compared as integers). Exactly, {hits:,} calls hit and {ties} put the template's edge "
        f"exactly on the base's edge. The two disagree on {len(found)} call{'s' if len(found) != 1 else ''}"
        + (":" if found else "."), ""]
    if found:
        lines += ["| call | centre distance, exact | reach (template + base radius), exact | in doubles: centre "
                  "distance, reach | doubles say | exact says | which is right |",
                  "|---|---|---|---|---|---|---|"]
    data = []
    for item in found:
        distance = _exact_length(item.distance_squared)
        lines.append(f"| {item.call_text()} | {distance} = √({fraction_text(item.distance_squared)}) | "
                     f"{fraction_text(item.reach)} | {item.double_distance!r}, {item.double_reach!r} | "
                     f"{'hit' if item.double_hit else 'miss'} | {'hit' if item.exact_hit else 'miss'}"
                     f"{' (touching)' if item.touching else ''} | {item.verdict()} |")
        data.append({"call": item.call_text(), "distance_squared": fraction_text(item.distance_squared),
                     "reach": fraction_text(item.reach), "double_distance": item.double_distance,
                     "double_reach": item.double_reach, "double_hit": item.double_hit, "exact_hit": item.exact_hit,
                     "touching": item.touching})
    if found and all(item.direction_die in (1, 4) for item in found):
        lines += ["", "All of them are straight-on or straight-back rolls, so R's sin(pi/6) = 0.49999999999999994 "
                      "plays no part: the code adds the base radius to dist, a sum rounded to the spacing of doubles "
                      "near dist + radBase, and compares what is left after the roll with radBase + rad, rounded to "
                      "the finer spacing near that smaller number. The two roundings fall on different sides, so a "
                      "centre distance exactly equal to the reach comes out a few units in the last place below it, "
                      "and the post's '<' counts that touch as a hit."]
    return "\n".join(lines), {"calls": SEED_GRID.size, "exact_hits": hits, "tangencies": ties, "differences": data}


def _scale() -> int:
    from .grid import ScaledGrid
    return ScaledGrid.of(SEED_GRID).scale


def _start_words(shot: Shot, reading: Reading) -> str:
    if shot.short is None:
        return "the template starts on the base's centre, s = 0"
    parts = [fraction_text(shot.short)]
    if shot.short_plus_base_radius:
        parts.append(f"{fraction_text(shot.base_radius)} (the test's added base radius, 0.5 · {shot.base}/25.4)")
    if reading["distance"] == "edge":
        parts.append(f"{fraction_text(shot.base_radius)} (the code's own base radius)")
    return f"s = {' + '.join(parts)} = {fraction_text(separation(shot, reading))}"


def tangency_arithmetic(shot: Shot, roll: Roll, reading: Reading, *, seed_call: bool) -> str:
    """The exact arithmetic of one roll that ends exactly touching, and, for the seed's
    own reading, what the doubles make of it."""
    landing = land(shot, roll, reading)
    forward = direction_vector(roll.direction, reading["side"]).y.as_fraction()
    m = landing.moved
    text = (f"{_start_words(shot, reading)}; the roll moves the template {fraction_text(m)} in "
            f"{direction_words(roll.direction, reading['side'])} (forward part {fraction_text(forward)}), so the "
            f"squared centre distance is s² − 2·({fraction_text(forward)})·s·{fraction_text(m)} + "
            f"{fraction_text(m)}² = {fraction_text(landing.distance_squared)}, and the reach is "
            f"{fraction_text(shot.template_radius)} + {fraction_text(shot.base_radius)} = "
            f"{fraction_text(landing.reach)}, squared {fraction_text(landing.reach ** 2)}: equal, the edges touch, "
            f"a {'hit' if landing.hit else 'miss'} under touch={reading['touch']}")
    if seed_call:
        dist = seed_dist(shot.short, shot.short_plus_base_radius, shot.base)
        call = SeedCall(shot.aoe, dist, shot.base, float(shot.max_deviation), roll.distance, roll.direction)
        got, reach = centre_distance(call), 0.5 * shot.base / 25.4 + 0.5 * shot.aoe
        verdict = "<" if got < reach else ("=" if got == reach else ">")
        text += (f". In doubles the code gets {got!r} {verdict} {reach!r}, so R says "
                 f"{'hit' if got < reach else 'miss'}"
                 + (", as exact arithmetic does" if (got < reach) == landing.hit else ", which exact arithmetic "
                    "contradicts"))
    return text


def tangency_section(cases: Sequence[Any]) -> tuple[str, dict]:
    """Every documented roll of the seed's tests and worked example that sits exactly on
    a tangency, under the seed's code or under the tests' own measure (centre to centre)."""
    centre = {**SEED_READING, "distance": "centre"}
    lines: list[str] = []
    data = []
    for case in cases:
        rolls = ROLLS if isinstance(case.actions, AllRolls) else (case.actions,)
        for roll in rolls:
            for name, reading, seed_call in (("the post's code", SEED_READING, True),
                                             ("the tests' measure (centre to centre)", centre, False)):
                if reading is centre and not case.before.short_plus_base_radius:
                    continue  # only the tests that add the base radius read differently
                if not land(case.before, roll, reading).touching:
                    continue
                text = tangency_arithmetic(case.before, roll, reading, seed_call=seed_call)
                lines.append(f"- **{_example(case)}**, roll {roll.distance}-{roll.direction}, under {name}: {text}.")
                data.append({"case": case.id, "example": _example(case), "roll": [roll.distance, roll.direction],
                             "under": name, "arithmetic": text})
    head = ("The documented rolls that end exactly on a tangency (the template's edge on the base's edge), with "
            "their arithmetic: exact fractions first, then, under the post's code, the doubles R computes.")
    return "\n\n".join([head, "\n".join(lines) or "None."]), {"tangencies": data}


def exact_sections(ruleset, cases: Sequence[Any]) -> list[tuple[str, str, dict]]:
    sections = []
    text, data = breakpoint_table(ruleset)
    sections.append(("Scatter: the chance of a hit as an exact step function of distance", text, data))
    text, data = rounding_section()
    sections.append(("Scatter: the blog post's own rounding, over its grid of 12,960 calls", text, data))
    text, data = tangency_section(cases)
    sections.append(("Scatter: documented rolls exactly on a tangency", text, data))
    return sections


__all__ = ["exact_sections", "breakpoint_table", "rounding_section", "tangency_section", "tangency_arithmetic"]
