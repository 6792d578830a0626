"""The scatter sections of ``verifier explore scatter``'s report.

For each documented example, every statement the blog post makes about it (a test's
assertion and comment, a printed figure, a claimed chance, what its diagram
shows) is checked under every full reading. The disagreements between the
prose, the test comments, the code and the printed figures are then listed
with the numbers that show them, and the exact chance of a hit is tabled under
each reading that changes it. Figures go into the report folder.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

from .clauses import PUBLISHED_READING, SEED_READING
from .exact import PlanePoint, QSqrt3, decimal_text, fraction_text
from .model import ROLLS, AllRolls, Roll, Shot
from .resolver import direction_words, land, probability, resolve, separation
from .seedcode import SeedCall, centre_distance, hit_share, is_hit, r_print, seed_dist

Reading = Mapping[str, str]
Key = tuple[str, ...]


# --- naming sets of readings ------------------------------------------------------------------


def _key(reading: Reading, names: Sequence[str]) -> Key:
    return tuple(reading[n] for n in names)


def _box(keys: set[Key], options: Sequence[Sequence[str]]) -> list[set[str]] | None:
    """The per-point option sets if ``keys`` is exactly their product, else None."""
    projection = [{k[i] for k in keys} for i in range(len(options))]
    return projection if len(keys) == math.prod(len(p) for p in projection) else None


def _box_words(projection: list[set[str]], names: Sequence[str], options: Sequence[Sequence[str]]) -> str:
    parts = []
    for name, chosen, every in zip(names, projection, options):
        if len(chosen) < len(every):
            parts.append(f"{name}=" + "/".join(o for o in every if o in chosen))
    return " and ".join(parts)


def describe_readings(keys: set[Key], names: Sequence[str], options: Sequence[Sequence[str]]) -> str:
    """A short phrase for a set of full readings: 'every reading', 'distance=edge',
    'every reading except distance=centre and touch=hit', or a union of such."""
    everything = set(product(*options))
    if keys == everything:
        return "every reading"
    if not keys:
        return "no reading"
    box = _box(keys, options)
    if box is not None:
        return _box_words(box, names, options)
    rest = _box(everything - keys, options)
    if rest is not None:
        return "every reading except " + _box_words(rest, names, options)
    for i, every in enumerate(options):
        groups = {o: {k for k in keys if k[i] == o} for o in every}
        if len({frozenset(tuple(x for j, x in enumerate(k) if j != i) for k in g) for g in groups.values()}) > 1:
            parts = []
            for o, g in groups.items():
                if not g:
                    continue
                inner = describe_readings({tuple(x for j, x in enumerate(k) if j != i) for k in g},
                                          [n for j, n in enumerate(names) if j != i],
                                          [op for j, op in enumerate(options) if j != i])
                parts.append(f"{names[i]}={o}" + ("" if inner == "every reading" else f" with {inner}"))
            return "; or ".join(parts)
    return ", ".join("/".join(k) for k in sorted(keys))


# --- statements ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    """One thing the blog post states about one example, and under which readings it holds."""

    case: Any
    kind: str  # assertion | comment | diagram | printed | claim | start | start_clearance
    says: str
    holds: frozenset[Key]
    value: Callable[[Reading], str]  # what the resolver gives under a reading, in words


def _result_word(hit: bool) -> str:
    return "hit" if hit else "miss"


def _start_hit(shot: Shot, reading: Reading) -> bool:
    start = land(shot, Roll(1, 1), reading)
    reach_sq = start.reach ** 2
    return start.start_distance_squared < reach_sq or (start.start_distance_squared == reach_sq
                                                        and reading["touch"] == "hit")


def _chance_words(shot: Shot, reading: Reading) -> str:
    p = probability(shot, reading)
    return f"{int(p * 36)}/36" + (f" = {fraction_text(p)}" if p.denominator != 36 else "")


def statements(case, readings: Sequence[Reading], names: Sequence[str]) -> list[Statement]:
    seed = case.expect.seed if case.expect is not None else None
    if seed is None:
        return []
    shot, actions = case.before, case.actions
    found = []

    def add(kind: str, says: str, test: Callable[[Reading], bool], value: Callable[[Reading], str]) -> None:
        found.append(Statement(case, kind, says, frozenset(_key(r, names) for r in readings if test(r)), value))

    if isinstance(actions, Roll):
        def result(r: Reading) -> str:
            return _result_word(land(shot, actions, r).hit)
        for kind, verb in (("assertion", "the code asserts"), ("comment", "the comment says"),
                           ("diagram", "the diagram shows")):
            wanted = getattr(seed, kind)
            if wanted is not None:
                def holds(r: Reading, w: str = wanted) -> bool:
                    return result(r) == w
                add(kind, f"{verb} a {wanted}", holds, result)
    if seed.printed is not None:
        add("printed", f"prints {seed.printed}", lambda r: r_print(float(probability(shot, r))) == seed.printed,
            lambda r: f"{r_print(float(probability(shot, r)))} ({_chance_words(shot, r)})")
    if seed.claim is not None:
        add("claim", f"states a chance of {seed.claim_text}", lambda r: probability(shot, r) == seed.claim,
            lambda r: _chance_words(shot, r))
    if seed.start is not None:
        add("start", f"calls the aimed template a {seed.start}",
            lambda r: _result_word(_start_hit(shot, r)) == seed.start, lambda r: _result_word(_start_hit(shot, r)))
    if seed.start_clearance is not None:
        tolerance = float(seed.start_clearance_tolerance)

        def gap(r: Reading) -> float:
            return land(shot, Roll(1, 1), r).start_clearance
        add("start_clearance", f"puts it {seed.start_clearance_text} in from the base's rim",
            lambda r: abs(gap(r) - float(seed.start_clearance)) <= tolerance + 1e-12,
            lambda r: f"{gap(r):.4f} in")
    return found


def seed_function_answer(case, kind: str = "assertion") -> str:
    """What the blog post's R function (re-run in doubles) gives for the call the case
    stands for: the share of the 36 rolls for a chance, hit or miss for one roll."""
    shot, actions = case.before, case.actions
    dist = seed_dist(shot.short, shot.short_plus_base_radius, shot.base)
    if kind in ("printed", "claim") or isinstance(actions, AllRolls):
        return r_print(hit_share(shot.aoe, dist, shot.base, float(shot.max_deviation)))
    if kind in ("start", "start_clearance"):
        return "-"
    call = SeedCall(shot.aoe, dist, shot.base, float(shot.max_deviation), actions.distance, actions.direction)
    return _result_word(is_hit(call))


# --- the sections ---------------------------------------------------------------------------------


def _example(case) -> str:
    return case.source.example or case.title


def _pins(reading: Reading) -> str:
    return ", ".join(f"{k}={v}" for k, v in reading.items())


def _statement_section(cases, readings, names, options) -> tuple[str, dict]:
    lines = [
        "Every statement the blog post makes about a documented example, checked under each of the "
        f"{len(readings)} full readings. *The post's reading* is the post's own function "
        f"({_pins(SEED_READING)}); *default* is {_pins(PUBLISHED_READING)}. The last column re-runs the "
        "post's R function in IEEE doubles on the call the example stands for.", "",
        "| example | the blog post | holds under | post's reading gives | default gives | post's function (doubles) |",
        "|---|---|---|---|---|---|",
    ]
    data = []
    for case in cases:
        for st in statements(case, readings, names):
            answer = seed_function_answer(case, st.kind)
            where = describe_readings(set(st.holds), names, options)
            lines.append(f"| {_example(case)} | {st.says} | {where} | {st.value(SEED_READING)} | "
                         f"{st.value(PUBLISHED_READING)} | {answer} |")
            data.append({"case": case.id, "example": _example(case), "kind": st.kind, "says": st.says,
                         "holds_under": where, "holding_readings": [dict(zip(names, k)) for k in sorted(st.holds)],
                         "seed_reading": st.value(SEED_READING), "default_reading": st.value(PUBLISHED_READING),
                         "seed_function": answer})
    return "\n".join(lines), {"statements": data}


def _swapped_trig_distance_squared(shot: Shot, roll: Roll, reading: Reading) -> QSqrt3:
    """The squared centre distance if the prose's trigonometry sentence is followed
    literally: sideways part = distance * cos 60, forward part = distance * sin 60."""
    sep = separation(shot, reading)
    moved = min(Fraction(roll.distance), land(shot, roll, reading).cap)
    forward = {1: QSqrt3.of(1), 4: QSqrt3.of(-1)}.get(roll.direction)
    across = QSqrt3.of(0)
    if forward is None:
        forward = QSqrt3(Fraction(0), Fraction(1, 2) if roll.direction in (2, 6) else Fraction(-1, 2))
        across = QSqrt3.of(Fraction(1, 2))
    point = PlanePoint(across * moved, forward * moved - sep)
    return point.norm_squared()


def _swapped_hits(shot: Shot, reading: Reading) -> int:
    reach_sq = shot.reach ** 2
    return sum(_swapped_trig_distance_squared(shot, roll, reading) < reach_sq for roll in ROLLS)


def _disagreements(cases, readings, names, options) -> tuple[str, list[dict]]:
    items: list[tuple[str, str]] = []  # (topic, text)

    def where(test: Callable[[Reading], bool]) -> str:
        return describe_readings({_key(r, names) for r in readings if test(r)}, names, options)

    def where_result(shot: Shot, roll: Roll, word: str) -> str:
        """The readings under which ``roll`` is a hit or a miss as ``word`` says."""
        return where(lambda r: _result_word(land(shot, roll, r).hit) == word)

    # 1. Test comments against assertions.
    for case in cases:
        seed = case.expect.seed
        if (seed and seed.comment and seed.assertion and seed.comment != seed.assertion
                and isinstance(case.actions, Roll)):
            roll = case.actions
            code = land(case.before, roll, SEED_READING)
            default = land(case.before, roll, PUBLISHED_READING)
            items.append(("test comment against assertion", (
                f"**{_example(case)}**: the comment says {seed.comment}, the code asserts a {seed.assertion}. "
                f"A roll of {roll.distance}-{roll.direction} moves the template {decimal_text(code.moved)} in "
                f"{direction_words(roll.direction, 'clockwise')}: its centre ends {code.centre_distance:.2f} in from "
                f"the base's centre under the post's code and {default.centre_distance:.2f} in under the default "
                f"reading, while {float(code.reach):.2f} in (template + base radius) is the most that still "
                f"overlaps. The assertion holds under {where_result(case.before, roll, seed.assertion)}; "
                f"the comment under {where_result(case.before, roll, seed.comment)}.")))
    # 2. Statements that fail under the reading the example itself is pinned to.
    for case in cases:
        for st in statements(case, readings, names):
            if st.kind in ("comment",):
                continue
            if _key(case.readings, names) not in st.holds:
                extra = ""
                if st.kind in ("claim", "printed"):
                    odds = resolve(case.before, AllRolls(), case.readings).after
                    extra = (" (hitting rolls, distance-direction: "
                             + ", ".join(f"{landing.rolled.distance}-{landing.rolled.direction}"
                                         for landing in odds.landings if landing.hit) + ")")
                items.append(("statement against its own reading", (
                    f"**{_example(case)}**: the blog post {st.says}, but under the reading the example itself rests on "
                    f"({_pins(case.pinned) or 'the default'}) it is {st.value(case.readings)}{extra}. "
                    f"The statement holds under {describe_readings(set(st.holds), names, options)}.")))
    # 3. The tests' distance argument against the code's measure.
    plus = [c for c in cases if c.before.short_plus_base_radius and isinstance(c.actions, Roll)]
    if plus:
        changed: list[str] = []
        shown = plus[0]
        for case in plus:
            centre_reading = {**SEED_READING, "distance": "centre"}
            a, b = land(case.before, case.actions, SEED_READING), land(case.before, case.actions, centre_reading)
            if (a.hit, a.touching) != (b.hit, b.touching):
                shown = shown if changed else case
                changed.append(f"{_example(case)} ({_result_word(a.hit)} under the code, "
                               + ("exactly touching" if b.touching else _result_word(b.hit))
                               + " under the tests' measure)")
        first = shown.before
        as_code = separation(first, SEED_READING)
        as_tests = separation(first, {**SEED_READING, "distance": "centre"})
        items.append(("test arguments against the code's measure", (
            f"The short-shot tests ({', '.join(_example(c) for c in plus)}) pass their distance as a figure plus "
            f"the base radius, e.g. {decimal_text(first.short, 3)} + {decimal_text(first.base_radius, 4)} = "
            f"{decimal_text(first.short_distance, 4)} in: a centre-to-centre figure for a template "
            f"{decimal_text(first.short, 3)} in short of the base's edge, as the comments say. The code adds the base "
            f"radius again, so its template starts {decimal_text(as_code, 4)} in from the base's centre instead of "
            f"{decimal_text(as_tests, 4)}. Results that change with the measure: "
            + ("; ".join(changed) if changed else "none") + ".")))
    # 4. The worked example's call against the diagram it is said to describe.
    worked = next((c for c in cases if isinstance(c.actions, AllRolls) and c.expect.seed and c.expect.seed.printed),
                  None)
    diagram = next((c for c in cases if c.expect.seed and c.expect.seed.start_clearance is not None), None)
    if worked and diagram:
        w, d = worked.before, diagram.before
        items.append(("worked example against the diagram", (
            f"The printed {worked.expect.seed.printed} comes from a call with the function's default "
            f"{w.base} mm base and distance {decimal_text(w.short, 3)} measured to the base's edge "
            f"(template {decimal_text(separation(w, SEED_READING), 4)} in from the base's centre): "
            f"{_chance_words(w, SEED_READING)}. The prose attaches the same 4/36 to its diagram, a {d.base} mm base "
            f"{decimal_text(d.short, 3)} in centre to centre from a {d.aoe}-inch template, whose exact chance is "
            f"{_chance_words(d, diagram.readings)}; the prose's own rim gap of "
            f"{diagram.expect.seed.start_clearance_text} in "
            f"({land(d, Roll(1, 1), diagram.readings).start_clearance:.4f} in exactly) fits the diagram, "
            f"not the call (which leaves "
            f"{land(w, Roll(1, 1), SEED_READING).start_clearance:.2f} in).")))
    # 5. The prose's trigonometry sentence against the code and the diagram.
    sideways = [c for c in cases if isinstance(c.actions, Roll) and c.actions.direction not in (1, 4)]
    example = next((c for c in sideways if not c.before.on_target), sideways[0] if sideways else None)
    if example is not None:
        roll = example.actions
        code = land(example.before, roll, example.readings)
        swapped = math.sqrt(float(_swapped_trig_distance_squared(example.before, roll, example.readings)))
        changed_cases = [c for c in sideways
                         if (_swapped_trig_distance_squared(c.before, c.actions, c.readings) < c.before.reach ** 2)
                         != land(c.before, c.actions, c.readings).hit]
        odds_changes = []
        for c in cases:
            if isinstance(c.actions, AllRolls):
                exact = probability(c.before, c.readings)
                literal = Fraction(_swapped_hits(c.before, c.readings), 36)
                odds_changes.append(f"{_example(c)}: {int(exact * 36)}/36 by the code, {int(literal * 36)}/36 "
                                    f"by the sentence")
        items.append(("prose trigonometry against the code", (
            "The prose takes the sideways part of a 60-degree deviation as distance x cos 60 (0.5 per inch) and "
            "the forward part as distance x sin 60 (0.866 per inch), which is a 30-degree turn; the code and the "
            "diagram use the reverse (0.866 sideways, 0.5 forward), which matches the prose's own '60 degrees "
            f"right'. For {_example(example)} ({roll.distance}-{roll.direction}) the centre distance is "
            f"{code.centre_distance:.3f} in by the code and {swapped:.3f} in by the sentence; documented hits or "
            f"misses that change: {', '.join(_example(c) for c in changed_cases) or 'none'}"
            + (f"; chances: {'; '.join(odds_changes)}" if odds_changes else "") + ".")))
    # 6. Which side 5 and 6 are on.
    folded = [c for c in cases if isinstance(c.actions, Roll) and c.actions.direction in (5, 6)]
    if folded:
        spots = []
        for c in folded:
            by_code = land(c.before, c.actions, SEED_READING).point.floats()
            by_prose = land(c.before, c.actions, {**SEED_READING, "side": "clockwise"}).point.floats()
            spots.append(f"{_example(c)} lands at ({by_code[0]:.2f}, {by_code[1]:.2f}) by the code, "
                         f"({by_prose[0]:.2f}, {by_prose[1]:.2f}) by the prose")
        items.append(("which side 5 and 6 are on", (
            "The prose lists the directions as straight on, 60 and 120 degrees right, straight back, 120 and 60 "
            "degrees left, and its diagram numbers them so; the code folds 5 and 6 onto 3 and 2, on the right, "
            "because the target sits on the line of attack. Hit or miss never changes (the target is on the line), "
            "the landing spot does: " + "; ".join(spots) + ".")))
    # 7. The two caps.
    split = [c for c in cases if isinstance(c.actions, Roll)
             and land(c.before, c.actions, {**PUBLISHED_READING, "cap": "seed-max"}).moved
             != land(c.before, c.actions, PUBLISHED_READING).moved]
    near = Shot(3, 30, Fraction(4))
    half = land(near, Roll(6, 1), PUBLISHED_READING)
    most = land(near, Roll(6, 1), {**PUBLISHED_READING, "cap": "seed-max"})
    test11 = next((c for c in cases if c.before.max_deviation != 6), None)
    items.append(("the blog post's maximum against the published cap", (
        "The code caps deviation at its max argument, 6 unless given, which no d6 exceeds; the published rule "
        "caps it at half the distance to where deviation starts. Documented examples the two caps separate: "
        + (", ".join(_example(c) for c in split) or "none")
        + (f" ({_example(test11)} passes a maximum of {decimal_text(test11.before.max_deviation)} for an attacker "
           f"{decimal_text(test11.before.from_attacker)} in away, which is exactly half the distance)"
           if test11 else "")
        + f". With an attacker 4 in from a 30 mm target, a roll of 6-1 moves a 3-inch template "
          f"{decimal_text(half.moved)} in ({_result_word(half.hit)}) under the published cap and "
          f"{decimal_text(most.moved)} in ({_result_word(most.hit)}) under the post's.")))
    # 8. dist = 0 as a special case.
    on = Shot(3, 30, Fraction(12))
    just = Shot(3, 30, Fraction(12), Fraction(1, 100))
    items.append(("the code's special case for a distance of 0", (
        f"The code reads a distance of 0 as a target in range (template on the base's centre) but adds the base "
        f"radius to any other distance, so the template jumps from 0 to "
        f"{decimal_text(separation(just, SEED_READING), 4)} in from the centre as the distance goes from 0 to 0.01 "
        f"in (3-inch AOE, 30 mm base): the chance of a hit drops from {_chance_words(on, SEED_READING)} to "
        f"{_chance_words(just, SEED_READING)}.")))
    # 9. Doubles against exact arithmetic.
    ties, agree, total = [], 0, 0
    for c in cases:
        shot = c.before
        rolls = ROLLS if isinstance(c.actions, AllRolls) else (c.actions,)
        dist = seed_dist(shot.short, shot.short_plus_base_radius, shot.base)
        for roll in rolls:
            call = SeedCall(shot.aoe, dist, shot.base, float(shot.max_deviation), roll.distance, roll.direction)
            exact_landing = land(shot, roll, SEED_READING)
            total += 1
            agree += is_hit(call) == exact_landing.hit
            if exact_landing.touching:
                ties.append(f"{_example(c)}, roll {roll.distance}-{roll.direction}: centre distance "
                            f"{centre_distance(call)!r} against {0.5 * shot.base / 25.4 + 0.5 * shot.aoe!r} in doubles")
    items.append(("the blog post's doubles against exact arithmetic", (
        f"Re-run in IEEE doubles (where sin(pi/6) is 0.49999999999999994), the post's function agrees with the exact "
        f"resolver under the post's reading on {agree} of the {total} documented rolls. Exact ties, where the "
        f"template's edge meets the base's edge and only '<' against '<=' decides: "
        + ("; ".join(ties) if ties else "none") + ".")))
    lines = [f"{i}. *{topic}.* {text}" for i, (topic, text) in enumerate(items, 1)]
    return "\n".join(lines), [{"topic": topic, "text": text} for topic, text in items]


def _relevant_points(shots: Sequence[Shot], readings, names) -> list[str]:
    relevant = []
    for name in names:
        for r in readings:
            changed = False
            for option in {x[name] for x in readings}:
                other = {**r, name: option}
                if any(probability(s, r) != probability(s, other) for s in shots):
                    changed = True
                    break
            if changed:
                relevant.append(name)
                break
    return relevant


def _probability_section(cases, ruleset) -> tuple[str, dict]:
    readings = ruleset.all_readings()
    names = [p.name for p in ruleset.reading_points]
    shots = [c.before for c in cases]
    relevant = _relevant_points(shots, readings, names)
    quiet = [n for n in names if n not in relevant]
    options = [list(p.options) for p in ruleset.reading_points if p.name in relevant]
    columns = list(product(*options))
    base = dict(PUBLISHED_READING)
    heads = [", ".join(f"{n}={v}" for n, v in zip(relevant, col)) for col in columns]
    lines = [f"The exact chance of a hit over all 36 rolls of each documented example's geometry, under every "
             f"combination of the readings that change it ({', '.join(relevant) or 'none'}). "
             + (f"{' and '.join(quiet)} never change{'s' if len(quiet) == 1 else ''} the chance here"
                + (": the target sits on the line of attack, so mirror-image directions hit alike. " if "side" in quiet
                   else ". ") if quiet else "")
             + "Each cell is the count of hitting rolls out of 36, then the exact fraction.", "",
             "| example | geometry | " + " | ".join(heads) + " |", "|---|---|" + "---|" * len(heads)]
    data = []
    for case in cases:
        shot = case.before
        geometry = (f"{shot.aoe}-inch AOE, {shot.base} mm, "
                    + ("on target" if shot.on_target else f"{decimal_text(shot.short, 3)} in short"
                       + (" + base radius" if shot.short_plus_base_radius else "")))
        row = {}
        cells = []
        for col, head in zip(columns, heads):
            reading = {**base, **dict(zip(relevant, col))}
            p = probability(shot, reading)
            cells.append(f"{int(p * 36)}/36 ({fraction_text(p)})")
            row[head] = f"{int(p * 36)}/36"
        lines.append(f"| {_example(case)} | {geometry} | " + " | ".join(cells) + " |")
        data.append({"case": case.id, "example": _example(case), "geometry": geometry, "chances": row})
    return "\n".join(lines), {"relevant_points": relevant, "rows": data}


def _figures(ruleset, cases, out: Path | None) -> tuple[str, dict]:
    from ...snapshots import png_bytes
    from .draw import PlotMark, draw_case, draw_probability_plot
    if out is None:
        return "", {}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    worked = Shot(3, 30, Fraction(12), Fraction(5, 2))
    drawing = Shot(3, 50, Fraction(12), Fraction(5, 2))
    centre = {**PUBLISHED_READING, "distance": "centre"}
    files = {}
    figure = draw_case(worked, AllRolls(), resolve(worked, AllRolls(), SEED_READING),
                       title="The blog post's worked example: where each of the 36 rolls puts the template "
                             "(3-inch AOE, 2.5 in short, 30 mm base, the post's own function)")
    files["36_rolls"] = "scatter-36-rolls.png"
    (out / files["36_rolls"]).write_bytes(png_bytes(figure))
    figure = draw_case(drawing, AllRolls(), resolve(drawing, AllRolls(), centre),
                       title="The blog post's diagram over all 36 rolls: 2.5 in between centres, 3-inch AOE, 50 mm "
                             "base; 8 rolls hit, not the 4 the prose states")
    files["diagram_36_rolls"] = "scatter-diagram-36-rolls.png"
    (out / files["diagram_36_rolls"]).write_bytes(png_bytes(figure))
    marks = [PlotMark(50, 2.5, float(probability(drawing, centre)), "the diagram: 8/36"),
             PlotMark(50, 2.5, 4 / 36, "the prose says 4/36", filled=False),
             PlotMark(30, float(separation(worked, SEED_READING)), float(probability(worked, SEED_READING)),
                      "worked example (code): 4/36")]
    from .draw import probability_steps
    widths = [float(b) - float(a) for steps in probability_steps(PUBLISHED_READING).values()
              for a, b in zip(steps.breakpoints, steps.breakpoints[1:])]
    plot = draw_probability_plot(PUBLISHED_READING, marks=marks,
                                 title="Chance that a deviating AOE template hits, by template and base size",
                                 subtitle="exact over the 36 rolls, against how far from the target's centre the "
                                          "template starts; steps at the exact breakpoints, the thin notches real "
                                          f"(the narrowest {min(widths):.4f} in wide); touching misses; no cap binds")
    files["probability"] = "scatter-hit-probability.png"
    (out / files["probability"]).write_bytes(png_bytes(plot))
    text = "\n\n".join([
        f"![Every landing spot of the blog post's worked example, hits filled]({files['36_rolls']})",
        f"![The diagram's geometry over all 36 rolls]({files['diagram_36_rolls']})",
        f"![Chance of a hit against distance, one chart per base size, one line per template size]"
        f"({files['probability']})"])
    return text, {"files": files}


def report_sections(ruleset, cases: Sequence[Any], out: Any = None) -> list[tuple[str, str, dict]]:
    mine = [c for c in cases if c.ruleset is ruleset and c.status == "documented" and c.expect is not None]
    readings = ruleset.all_readings()
    names = [p.name for p in ruleset.reading_points]
    options = [list(p.options) for p in ruleset.reading_points]
    sections = []
    if mine:
        text, data = _statement_section(mine, readings, names, options)
        sections.append(("Scatter: the blog post's statements under every reading", text, data))
        text, items = _disagreements(mine, readings, names, options)
        sections.append(("Scatter: where the prose, the test comments, the code and the printed figures disagree",
                         text, {"disagreements": items}))
        text, data = _probability_section(mine, ruleset)
        sections.append(("Scatter: the exact chance of a hit under each reading", text, data))
    from .report_exact import exact_sections
    sections += exact_sections(ruleset, mine)
    text, data = _figures(ruleset, mine, out)
    if text:
        sections.append(("Scatter: figures", text, data))
    return sections
