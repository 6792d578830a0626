"""Scatter's exact fast paths: the seed's grid in integer arrays against the Fraction
resolver, the seed's own rounding, the exact step function of distance and its
breakpoints against brute force, and the bench beside R."""

from __future__ import annotations

import math
import shutil
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from conftest import CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.cli import main
from verifier.rulesets.scatter import RULESET
from verifier.rulesets.scatter import bench as scatter_bench
from verifier.rulesets.scatter.clauses import PUBLISHED_READING, SEED_READING
from verifier.rulesets.scatter.grid import (
    SEED_GRID,
    Grid,
    ScaledGrid,
    double_hits,
    exact_hits,
    exact_hits_call_by_call,
    exact_parts,
    rounding_differences,
)
from verifier.rulesets.scatter.model import AOE_SIZES, BASE_SIZES, Roll, Shot
from verifier.rulesets.scatter.resolver import hit_count, land
from verifier.rulesets.scatter.seedcode import SeedCall, is_hit
from verifier.rulesets.scatter.steps import HitSteps, Surd, hit_steps

CENTRE = {**PUBLISHED_READING, "distance": "centre"}


def _fraction_resolver(grid: Grid) -> np.ndarray:
    answers = [land(Shot(a, b, Fraction(100), d or None, False, m), Roll(k, f), SEED_READING).hit
               for a, d, b, m, k, f in grid.calls()]
    return np.array(answers, dtype=bool).reshape(grid.shape)


# --- the seed's grid, exactly ----------------------------------------------------------------


def test_seed_grid_is_the_12960_calls_of_the_issue():
    assert SEED_GRID.size == len(SEED_GRID.calls()) == 12_960
    assert Fraction(5, 2) in SEED_GRID.dists and set(SEED_GRID.maxes) == {1, 6}


def test_exact_grid_agrees_with_the_fraction_resolver_on_every_call():
    exact = exact_hits(SEED_GRID)
    assert exact.dtype == bool and exact.shape == SEED_GRID.shape
    assert np.array_equal(exact, _fraction_resolver(SEED_GRID))
    assert exact_hits_call_by_call(SEED_GRID) == exact.ravel().tolist()


def test_exact_grid_uses_int64_only_where_it_cannot_overflow():
    distance_squared, reach_squared = exact_parts(SEED_GRID)
    assert distance_squared.dtype == np.int64 and reach_squared.dtype == np.int64
    assert ScaledGrid.of(SEED_GRID).bound() < 2 ** 62
    # Denominators whose common multiple is huge: Python integers, still exact.
    odd = Grid(aoes=(3,), dists=(Fraction(0), Fraction(10 ** 9 + 7, 10 ** 9), Fraction(5, 2)), bases=(30, 50),
               maxes=(Fraction(999_999_937, 10 ** 9 + 9), Fraction(6)))
    assert ScaledGrid.of(odd).bound() >= 2 ** 62
    assert exact_parts(odd)[0].dtype == object
    assert np.array_equal(exact_hits(odd), _fraction_resolver(odd))


def test_touching_counts_only_when_asked():
    distance_squared, reach_squared = exact_parts(SEED_GRID)
    ties = distance_squared == reach_squared
    assert ties.any()
    assert np.array_equal(exact_hits(SEED_GRID, touch_hits=True), exact_hits(SEED_GRID) | ties)


def test_seed_rounding_differences_are_every_disagreement_and_each_is_a_tangency():
    exact, doubles = exact_hits(SEED_GRID), double_hits(SEED_GRID)
    found = rounding_differences(SEED_GRID)
    assert len(found) == int((exact != doubles).sum()) > 0
    for difference in found:
        shot = Shot(difference.aoe, difference.base, Fraction(100), difference.dist or None, False, difference.maximum)
        landing = land(shot, Roll(difference.distance_die, difference.direction_die), SEED_READING)
        assert landing.hit is difference.exact_hit
        assert landing.distance_squared == difference.distance_squared and landing.reach == difference.reach
        call = SeedCall(difference.aoe, float(difference.dist), difference.base, float(difference.maximum),
                        difference.distance_die, difference.direction_die)
        assert is_hit(call) is difference.double_hit is not difference.exact_hit
        # Here the seed's doubles err only on exact ties, which their rounding nudges inside.
        assert difference.touching and difference.double_distance < difference.double_reach
        assert "exact answer is right" in difference.verdict()


# --- the bench beside R ------------------------------------------------------------------------


def test_bench_says_so_when_r_is_missing(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    figures = scatter_bench.grid_figures(quick=True)
    assert figures["r"] == {"available": False, "why": "Rscript is not installed (on PATH)"}
    rows = scatter_bench.grid_rows(figures)
    assert rows[-1][1:] == ("unavailable", "Rscript is not installed (on PATH)")
    assert figures["exact_hits"] == int(exact_hits().sum()) and figures["exact_seconds"] > 0


def test_r_program_loops_over_the_grid_in_its_order():
    program = scatter_bench.r_program(SEED_GRID, repeats=2)
    assert "dists <- c(0.0, 0.5, 1.0," in program and "answers <- logical(12960)" in program
    assert "seq_len(2)" in program


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="R is not installed; the bench says so")
def test_r_agrees_with_the_python_doubles_on_every_call():
    result = scatter_bench.run_r(SEED_GRID, repeats=1)
    assert result["available"], result
    answers = np.array([c == "1" for c in result["answers"]]).reshape(SEED_GRID.shape)
    assert np.array_equal(answers, double_hits(SEED_GRID))


# --- exact surds -----------------------------------------------------------------------------


def _decimal(value: Surd) -> Decimal:
    getcontext().prec = 80
    c = Decimal(value.radicand.numerator) / Decimal(value.radicand.denominator)
    return (Decimal(value.rational.numerator) / Decimal(value.rational.denominator)
            + Decimal(value.coefficient.numerator) / Decimal(value.coefficient.denominator) * c.sqrt())


fractions = st.fractions(min_value=-20, max_value=20, max_denominator=300)
surds = st.builds(Surd.make, fractions, fractions, st.fractions(min_value=0, max_value=50, max_denominator=300))


@settings(max_examples=400, deadline=None, database=None)
@given(surds, surds)
def test_surd_order_is_exact(a, b):
    gap = _decimal(a) - _decimal(b)
    if abs(gap) > Decimal("1e-60"):
        assert a.compare(b) == (1 if gap > 0 else -1)
    assert a.compare(a) == 0 and a.compare(b) == -b.compare(a)


def test_surd_equality_across_forms():
    # 1/2 + sqrt(3)/2 written two ways; sqrt(8) = 2 sqrt(2)
    assert Surd.make(Fraction(1, 2), Fraction(1, 2), 3).equals(Surd.make(Fraction(1, 2), 1, Fraction(3, 4)))
    assert Surd.make(0, 1, 8).equals(Surd.make(0, 2, 2))
    assert Surd.make(1, 1, Fraction(9, 4)).is_rational and Surd.make(1, 1, Fraction(9, 4)).equals(Fraction(5, 2))
    assert str(Surd.make(Fraction(1, 2), 1, Fraction(116787, 32258))) == "1/2 + √233574/254"


# --- the step function against brute force ------------------------------------------------------


def _brute(steps_shot: Shot, s: Fraction, reading) -> int:
    shot = Shot(steps_shot.aoe, steps_shot.base, steps_shot.from_attacker, s or None, False,
                steps_shot.max_deviation)
    return hit_count(shot, {**reading, "distance": "centre"})


def _check_either_side(shot: Shot, reading) -> HitSteps:
    steps = hit_steps(shot, reading)
    points = steps.breakpoints
    assert all(a < b for a, b in zip(points, points[1:])) and all(p.sign() > 0 for p in points)
    assert steps.at_zero == _brute(shot, Fraction(0), reading)
    epsilon = Fraction(1, 10 ** 12)
    for i, point in enumerate(points):
        near = point.approximation(30)
        below, above = near - epsilon, near + epsilon
        lower = points[i - 1] if i else Surd(Fraction(0))
        upper = points[i + 1] if i + 1 < len(points) else None
        # The probes sit strictly between the neighbouring breakpoints, on the right sides.
        assert lower < below < point < above and (upper is None or above < upper)
        assert _brute(shot, below, reading) == steps.between[i] == steps.hits(below)
        assert _brute(shot, above, reading) == steps.between[i + 1] == steps.hits(above)
        if point.is_rational:
            assert _brute(shot, point.rational, reading) == steps.at[i]
        # Something changes at every breakpoint.
        assert not (steps.between[i] == steps.at[i] == steps.between[i + 1])
    assert steps.between[-1] == 0
    return steps


@pytest.mark.parametrize("touch", ["miss", "hit"])
@pytest.mark.parametrize("cap", ["seed-max", "half-distance"])
@pytest.mark.parametrize("aoe", AOE_SIZES)
@pytest.mark.parametrize("base", BASE_SIZES)
def test_breakpoints_match_brute_force_either_side(base, aoe, cap, touch):
    reading = {**PUBLISHED_READING, "cap": cap, "touch": touch}
    # From 7 in away the half-distance cap (3.5 in) binds on the dice's 4 to 6.
    for shot in (Shot(aoe, base, Fraction(100)), Shot(aoe, base, Fraction(7))):
        _check_either_side(shot, reading)


@settings(max_examples=40, deadline=None, database=None)
@given(st.sampled_from(AOE_SIZES), st.sampled_from(BASE_SIZES),
       st.fractions(min_value=Fraction(1, 2), max_value=8, max_denominator=20),
       st.fractions(min_value=Fraction(1, 2), max_value=6, max_denominator=7), st.sampled_from(RULESET.all_readings()))
def test_breakpoints_match_brute_force_for_any_cap(aoe, base, from_attacker, maximum, reading):
    _check_either_side(Shot(aoe, base, from_attacker, None, False, maximum), reading)


def test_steps_agree_with_the_resolver_on_a_dense_sweep():
    shot = Shot(3, 50, Fraction(100))
    steps = hit_steps(shot, PUBLISHED_READING)
    for k in range(0, 901):
        s = Fraction(k, 100)
        assert steps.hits(s) == _brute(shot, s, PUBLISHED_READING)


def test_show_prints_the_breakpoints_of_an_all_rolls_case(capsys):
    code = main(["show", str(CASES / "scatter" / "seed-worked-example-36-rolls.yaml")])
    out = capsys.readouterr().out
    assert code == 0, out
    steps = hit_steps(Shot(3, 30, Fraction(12), Fraction(5, 2)), SEED_READING)
    assert f"touch=miss): {len(steps.breakpoints)} breakpoints" in out
    for point in steps.breakpoints:
        assert f"  {point}" in out
    assert "  785/254 " in out and "this case: s = 785/254 ≈ 3.090551: 4/36" in out
    assert math.isclose(float(steps.breakpoints[-1]), 2055 / 254)


# --- the report and the pictures ---------------------------------------------------------------


def _documented():
    from verifier.case import load_case
    return [c for c in (load_case(p) for p in sorted((CASES / "scatter").glob("*.yaml"))) if c.status == "documented"]


def test_report_lists_breakpoints_rounding_and_tangencies():
    from verifier.rulesets.scatter.report_exact import exact_sections
    sections = {title: (text, data) for title, text, data in exact_sections(RULESET, _documented())}
    text, data = sections["Scatter: the chance of a hit as an exact step function of distance"]
    for row in data["rows"]:
        steps = hit_steps(Shot(row["aoe"], row["base"], Fraction(100)), PUBLISHED_READING)
        assert row["breakpoints"]["miss"] == len(steps.breakpoints)
        assert f"| {row['aoe']}-inch | {row['base']} mm | {len(steps.breakpoints)} |" in text
    text, data = sections["Scatter: the blog post's own rounding, over its grid of 12,960 calls"]
    found = rounding_differences(SEED_GRID)
    assert len(data["differences"]) == len(found)
    for item in found:
        assert f"| {item.call_text()} | " in text and repr(item.double_distance) in text
    text, data = sections["Scatter: documented rolls exactly on a tangency"]
    worked = [t for t in data["tangencies"] if t["roll"] == [1, 1] and t["under"] == "the post's code"]
    assert len(worked) == 1 and "785/254" in worked[0]["arithmetic"] and "281961/64516" in worked[0]["arithmetic"]
    assert "R says miss, as exact arithmetic does" in worked[0]["arithmetic"]
    assert any(t["example"] == "TEST 3" and "centre" in t["under"] for t in data["tangencies"])


def test_plot_steps_turn_exactly_at_the_breakpoints_and_every_mark_is_labelled():
    from verifier.kit import draw as vd
    from verifier.rulesets.scatter.draw import PlotMark, draw_probability_plot, probability_steps, step_path
    for steps in probability_steps(PUBLISHED_READING).values():
        path = step_path(steps, 9)
        risers = [a[0] for a, b in zip(path, path[1:]) if a[0] == b[0]]
        assert risers == [float(p) for p in steps.breakpoints if float(p) < 9]
        levels = [a[1] for a, b in zip(path, path[1:]) if a[0] != b[0]]
        assert levels == [v / 36 for v in steps.between[:len(levels)]]
    marks = [PlotMark(50, 2.5, 8 / 36, "the diagram: 8/36"), PlotMark(50, 2.5, 4 / 36, "the prose: 4/36", False),
             PlotMark(30, 3.09, 4 / 36, "worked example: 4/36")]
    placers: list[vd.LabelPlacer] = []
    draw_probability_plot(PUBLISHED_READING, marks=marks, placers=placers)
    assert len(placers) == 4
    assert sorted(p.content for placer in placers for p in placer.placed) == sorted(m.label for m in marks)


def _clear(placer) -> None:
    from verifier.kit.draw.labels import box_circle_distance, boxes_overlap
    for i, a in enumerate(placer.placed):
        for b in placer.placed[i + 1:]:
            assert not boxes_overlap(a.box, b.box), (a, b)
        if a.content:  # words: off every marker, box and disc
            assert not any(boxes_overlap(a.box, other) for other in placer.boxes), a
            assert all(box_circle_distance(a.box, c) >= r for c, r in placer.circles), a


def test_every_snapshot_and_animation_frame_places_its_labels_clear():
    from verifier.case import load_case
    from verifier.rulesets.scatter.animate import draw_frames
    from verifier.rulesets.scatter.draw import draw_case
    cases = [load_case(p) for p in sorted((CASES / "scatter").glob("*.yaml"))]
    for case in cases:
        outcome = RULESET.resolve(case.before, case.actions, case.readings)
        placers: list = []
        draw_case(case.before, case.actions, outcome, placers=placers)
        draw_frames(case.before, case.actions, outcome, placers=placers)
        assert placers, case.id
        words = [p for placer in placers for p in placer.placed if p.content]
        assert words, case.id
        for placer in placers:
            _clear(placer)
