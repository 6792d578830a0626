"""Scatter: Warmachine AOE deviation (seed 002) on a continuous plane, with the
exact chance of a hit over the 36 rolls of the deviation dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from ...kit.compare import beyond
from ...kit.modular import ModularRuleset
from ...ruleset import Capability, Mismatch, Outcome, ReportSection
from .clauses import CLAUSES, GLOSSARY, INTRODUCTION, PUBLISHED_READING, READING_POINTS, SOURCE_TITLES
from .exact import decimal_text, fraction_text
from .interchange import OUTCOME_PARTS, OUTCOME_SCHEMA, ReportedOdds
from .model import ALL_ROLLS, Actions, Landing, Odds, Shot
from .parse import ACTIONS_SCHEMA, BEFORE_SCHEMA, EXPECT_SCHEMA, Expectation, parse_actions, parse_before, parse_expect
from .resolver import Resolution, direction_words, resolve
from .steps import hit_steps, steps_text


def _within(actual: float, expected: Fraction, tolerance: Fraction) -> bool:
    return not beyond(abs(actual - float(expected)), float(tolerance) + 1e-12)


def _inches(value: float | Fraction) -> str:
    return f"{decimal_text(value, 3)} in"


def _gap_words(clearance: float) -> str:
    if clearance == 0:
        return "touching the base exactly"
    if clearance > 0:
        return f"clearing the base by {_inches(clearance)}"
    return f"overlapping the base by {_inches(-clearance)}"


def _roll_summary(landing: Landing, side: str) -> str:
    roll = landing.roll
    if roll is None:  # an answer read from JSON that did not echo the roll
        return (f"the template moves {_inches(landing.moved)}, {_gap_words(landing.clearance)}: "
                f"{'hit' if landing.hit else 'miss'}")
    moved = _inches(landing.moved) + (f" (capped from {roll.distance})" if landing.capped else "")
    return (f"roll {roll.distance}, {roll.direction}: the template moves {moved} "
            f"{direction_words(roll.direction, side)}, {_gap_words(landing.clearance)}: "
            f"{'hit' if landing.hit else 'miss'}")


def _rolls_text(rolls) -> str:
    return ", ".join(f"{r.distance}-{r.direction}" for r in rolls) or "none"


PAGE_NOTES = (
    "Each example is drawn on a one-inch grid seen from above: the target's base (blue), the AOE template "
    "(orange) where it was aimed and, dashed, the line from the attacker. After the roll the template is shown "
    "where it landed, with the deviation arrow, the die faces of the direction rose and whether the template "
    "touches or covers the base. Examples over all 36 rolls mark every landing spot, hits and misses, with how "
    "many rolls land there. Examples with several steps also play step by step.")


class ScatterRuleset(ModularRuleset):
    key = "scatter"
    package = "verifier.rulesets.scatter"  # its modules as docs/ruleset-guide.md lays them out
    draw_options = MappingProxyType({
        "draw": frozenset({"title", "supersample", "font_size"}),
        "draw_readings": frozenset({"title", "subtitle", "supersample", "font_size", "max_width"}),
        "draw_frames": frozenset({"title", "supersample", "font_size", "legend"}),
        "draw_narrow": frozenset({"title", "subtitle", "supersample", "font_size"})})
    capabilities = frozenset({Capability.INTERCHANGE, Capability.SEARCH, Capability.FINDINGS,
                              Capability.EXHAUSTIVE, Capability.FRAMES, Capability.NARROW,
                              Capability.SCENE_TEXT, Capability.PAGE_NOTES, Capability.REPORT_SECTIONS,
                              Capability.BENCHMARKS})
    capabilities |= {Capability.BOUNDARIES}  # the module boundaries.py
    capabilities |= {Capability.SCENES}  # explore.scene: the seeded search's scenes (kit.choices)
    title = "Warmachine AOE scatter: deviation and the chance of a hit"
    clauses = CLAUSES
    reading_points = READING_POINTS
    glossary, introduction, source_titles = GLOSSARY, INTRODUCTION, SOURCE_TITLES
    before_schema = BEFORE_SCHEMA
    actions_schema = ACTIONS_SCHEMA
    expect_schema = EXPECT_SCHEMA
    outcome_schema = OUTCOME_SCHEMA
    outcome_parts = OUTCOME_PARTS

    def parse(self, doc, before_path, actions_path, expect_path, *, breaches_allowed=False):
        shot = parse_before(doc, before_path)
        actions = parse_actions(doc, actions_path)
        expect = parse_expect(doc, expect_path, shot, actions) if expect_path is not None else None
        return shot, actions, expect

    def resolve(self, before: Shot, actions: Actions, reading: Mapping[str, str]) -> Outcome:
        return resolve(before, actions, reading)

    def resolution(self, before: Shot, actions: Actions, reading: dict[str, str]) -> Resolution:
        return Resolution(self, before, actions, reading)

    def compare(self, before: Shot, expect: Expectation, outcome: Outcome) -> list[Mismatch]:
        problems: list[Mismatch] = []
        after = outcome.after
        tol = expect.tolerance
        odds = isinstance(after, (Odds, ReportedOdds))
        one_roll = [k for k in ("result", "landing", "moved", "clearance") if getattr(expect, k) is not None]
        every = [k for k in ("probability", "hit_rolls") if getattr(expect, k) is not None]
        if odds and one_roll:
            problems.append(Mismatch((one_roll[0],), "one roll", "all 36 rolls",
                                     f"the case rolls once and expects {', '.join(one_roll)}, but the answer gives "
                                     f"the chance over all 36 rolls"))
        if not odds and every:
            problems.append(Mismatch((every[0],), "all 36 rolls", "one roll",
                                     f"the case asks for every roll and expects {', '.join(every)}, but the answer "
                                     f"gives one roll"))
        if isinstance(after, Landing):
            got = "hit" if after.hit else "miss"
            if expect.result is not None and expect.result != got:
                problems.append(Mismatch(("result",), expect.result, got,
                                         f"the template should {expect.result} the target, but it is a {got}: "
                                         f"centre distance {_inches(after.centre_distance)} against "
                                         f"{_inches(after.reach)} of template and base radius"))
            if expect.landing is not None:
                x, y = after.point.floats()
                if not (_within(x, expect.landing[0], tol) and _within(y, expect.landing[1], tol)):
                    want = [decimal_text(v, 3) for v in expect.landing]
                    problems.append(Mismatch(("landing",), want, [round(x, 3), round(y, 3)],
                                             f"the template should land at [{want[0]}, {want[1]}] but lands at "
                                             f"[{decimal_text(x, 3)}, {decimal_text(y, 3)}]"))
            if expect.moved is not None and not _within(float(after.moved), expect.moved, tol):
                problems.append(Mismatch(("moved",), float(expect.moved), float(after.moved),
                                         f"the template should move {_inches(expect.moved)} but moves "
                                         f"{_inches(after.moved)}"))
            if expect.clearance is not None and not _within(after.clearance, expect.clearance, tol):
                problems.append(Mismatch(("clearance",), float(expect.clearance), round(after.clearance, 4),
                                         "after deviating the template should be "
                                         f"{_gap_words(float(expect.clearance))}, "
                                         f"but it is {_gap_words(after.clearance)}"))
        if expect.start_clearance is not None and not _within(after.start_clearance, expect.start_clearance, tol):
            problems.append(Mismatch(("start_clearance",), float(expect.start_clearance),
                                     round(after.start_clearance, 4),
                                     "before deviating the template should be "
                                     f"{_gap_words(float(expect.start_clearance))}, "
                                     f"but it is {_gap_words(after.start_clearance)}"))
        if odds:
            if expect.probability is not None and expect.probability != after.probability:
                problems.append(Mismatch(("probability",), expect.probability_text, f"{after.hits}/36",
                                         f"the chance of a hit should be {expect.probability_text} "
                                         f"(= {fraction_text(expect.probability)}) but it is {after.hits}/36 "
                                         f"(= {fraction_text(after.probability)}); hitting rolls: "
                                         f"{_rolls_text(after.hit_rolls)}"))
            if expect.hit_rolls is not None:
                got_rolls = after.hit_rolls
                if got_rolls != expect.hit_rolls:
                    extra = sorted(set(got_rolls) - set(expect.hit_rolls))
                    missing = sorted(set(expect.hit_rolls) - set(got_rolls))
                    problems.append(Mismatch(("hit_rolls",), [[r.distance, r.direction] for r in expect.hit_rolls],
                                             [[r.distance, r.direction] for r in got_rolls],
                                             f"the hitting rolls differ: expected but missing {_rolls_text(missing)}; "
                                             f"hitting but not expected {_rolls_text(extra)}"))
        return problems

    def summarise(self, before: Shot, outcome: Outcome) -> str:
        after = outcome.after
        side = outcome.reading.get("side", "clockwise") if outcome.reading else "clockwise"
        if isinstance(after, (Odds, ReportedOdds)):
            return (f"{after.hits} of 36 rolls hit, a chance of {fraction_text(after.probability)}"
                    f" (hitting rolls, distance-direction: {_rolls_text(after.hit_rolls)}).")
        return _roll_summary(after, side) + "."

    def describe(self, before: Shot, actions: Actions, outcome: Outcome) -> str:
        after = outcome.after
        side = outcome.reading.get("side", "clockwise") if outcome.reading else "clockwise"
        aim = ("at a target in range" if before.on_target
               else f"{decimal_text(before.short_distance or 0, 4)} in short"
               + (" (figure plus base radius)" if before.short_plus_base_radius else ""))
        first = after.landings[0] if isinstance(after, Odds) else after
        lines = [f"shot: {before.aoe}-inch template, {before.base} mm base, {aim}, "
                 f"{decimal_text(before.from_attacker, 3)} in from the attacker",
                 f"start: template centre {_inches(-first.start.y.as_fraction())} from the base's centre, "
                 f"{_gap_words(first.start_clearance)}; reach (template + base radius) {_inches(first.reach)}"]
        if isinstance(after, Odds):
            lines.append(self.summarise(before, outcome))
            for landing in after.landings:
                x, y = landing.point.floats()
                lines.append(f"  {landing.rolled.distance}-{landing.rolled.direction}: lands at "
                             f"[{decimal_text(x, 3)}, {decimal_text(y, 3)}], {'hit' if landing.hit else 'miss'}"
                             + (" (touching)" if landing.touching else ""))
            reading = outcome.reading or PUBLISHED_READING
            lines.append(steps_text(hit_steps(before, reading), mark=-first.start.y.as_fraction(),
                                    edge_offset=before.base_radius if reading["distance"] == "edge" else None))
        else:
            x, y = after.point.floats()
            lines.append(_roll_summary(after, side))
            lines.append(f"lands at [{decimal_text(x, 4)}, {decimal_text(y, 4)}] (x = {after.point.x}, "
                         f"y = {after.point.y}); squared centre distance {fraction_text(after.distance_squared)} "
                         f"against {fraction_text(after.reach ** 2)}")
        for piece, entries in outcome.provenance.items():
            lines.append(f"{piece}:")
            lines.extend(f"    {entry}" for entry in entries)
        lines.append("events:")
        lines.extend(f"  {e.kind}  [{e.clause}]  {e.detail}" for e in outcome.events)
        return "\n".join(lines)

    def page_notes(self) -> str:
        return PAGE_NOTES

    def report_sections(self, cases: Sequence[Any], out: Any = None) -> list[ReportSection]:
        from .report import report_sections
        return [ReportSection(title, markdown, data) for title, markdown, data in report_sections(self, cases, out)]


RULESET = ScatterRuleset()

__all__ = ["RULESET", "ScatterRuleset", "ALL_ROLLS"]
