"""Scatter through the adapter protocol: the outcome form's schema and reader, every
scatter case through the reference adapter in a subprocess, and wrong answers
reported on the field that is wrong."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import CASES, ROOT

from verifier import adapter, registry
from verifier.adapter import InProcessImplementation, SubprocessImplementation, check_implementation, schema_problem
from verifier.case import load_case
from verifier.errors import ImplementationError
from verifier.rulesets.scatter.exact import QSqrt3
from verifier.rulesets.scatter.interchange import parse_exact
from verifier.runner import RunOptions, check_paths

IMPLS = Path(__file__).parent / "impls"
SCATTER = CASES / "scatter"
RULESET = registry.get("scatter")
ONE_ROLL = SCATTER / "seed-test-07-one-inch-direction-2.yaml"  # a hit, sideways: x = sqrt(3)/2
MISS = SCATTER / "seed-test-06-six-inches-back-after-two-and-a-half-short.yaml"
ODDS = SCATTER / "seed-worked-example-36-rolls.yaml"  # 4/36, with hit_rolls
ODDS_NINTHS = SCATTER / "derived-diagram-36-rolls.yaml"  # 8/36, with hit_rolls
LANDING = SCATTER / "derived-side-clockwise.yaml"  # expects landing [1.7321, 1]


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture
def tamper(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))
    import scatter_tamper

    def run(mode, paths):
        monkeypatch.setattr(scatter_tamper, "MODE", mode)
        impl = InProcessImplementation("python:scatter_tamper:handle", timeout=10)
        return {r.id: r for r in check_implementation(paths, impl, draw=False)}
    return run


def test_scatter_supports_the_protocol_and_publishes_its_schema():
    assert adapter.supports_protocol(RULESET)
    assert "outcome_scatter" in adapter.adapter_schema()["$defs"]


def test_every_scatter_case_through_a_subprocess_passes_as_in_process():
    in_process = {r.id: r.status for r in check_paths([SCATTER], RunOptions(draw=False))}
    impl = SubprocessImplementation(f"{sys.executable} -m verifier.adapters.reference", timeout=10)
    results = check_implementation([SCATTER], impl, draw=False)
    assert {r.id: r.status for r in results} == in_process
    assert set(in_process.values()) == {"passed"} and len(in_process) >= 25
    assert impl.starts == 1  # never restarted: every answer fitted the protocol


def test_exact_numbers_read_back():
    for text, value in [("-5/2", QSqrt3(Fraction(-5, 2))), ("√3", QSqrt3(Fraction(0), Fraction(1))),
                        ("-1/2 + 3/2·√3", QSqrt3(Fraction(-1, 2), Fraction(3, 2))),
                        ("1/2 - √3", QSqrt3(Fraction(1, 2), Fraction(-1))),
                        ("sqrt(3)/2", QSqrt3(Fraction(0), Fraction(1, 2))),
                        ("2.5*sqrt3", QSqrt3(Fraction(0), Fraction(5, 2)))]:
        assert parse_exact(text) == value
        assert parse_exact(str(value)) == value
    for bad in ["", "x", "1 2", "√3 √3", "1/2 +"]:
        with pytest.raises(ValueError):
            parse_exact(bad)


def test_the_schema_names_a_missing_field_of_each_form():
    assert "'clearance' is a required property" in schema_problem(
        "outcome_scatter", {"result": "hit", "landing": [0, 1], "moved": 1, "start_clearance": 0})
    assert "'hit_rolls' is a required property" in schema_problem(
        "outcome_scatter", {"probability": "4/36", "start_clearance": 0})
    assert "probability" in schema_problem("outcome_scatter", {"probability": "0.11", "hit_rolls": [],
                                                               "start_clearance": 0})


def test_a_float_only_answer_without_the_optional_fields_passes(tamper):
    results = tamper("floats-only", sorted(SCATTER.glob("*.yaml")))
    assert {r.status for r in results.values()} == {"passed"}, \
        {i: [p.message for p in r.problems] for i, r in results.items() if r.status != "passed"}


def test_probability_may_be_written_over_36_or_reduced(tamper):
    results = tamper("reduced", [ODDS, ODDS_NINTHS])
    assert {r.status for r in results.values()} == {"passed"}


def test_hit_instead_of_miss_fails_on_result(tamper):
    for path in (ONE_ROLL, MISS):
        case = load_case(path)
        result = tamper("flip", [path])[case.id]
        assert result.status == "failed"
        fields = [p.location.field for p in result.problems]
        assert "expect.result" in fields, fields
        assert any("should" in p.message and ("hit" in p.message) for p in result.problems)


def test_a_wrong_probability_fails_on_probability_and_hit_rolls(tamper):
    case = load_case(ODDS_NINTHS)
    result = tamper("one-hit-fewer", [ODDS_NINTHS])[case.id]
    assert result.status == "failed"
    by_field = {p.location.field: p.message for p in result.problems}
    assert by_field["expect.probability"].startswith("the chance of a hit should be 8/36")
    assert "7/36" in by_field["expect.probability"]
    assert "expected but missing" in by_field["expect.hit_rolls"]


def test_a_probability_that_contradicts_the_hitting_rolls_is_errored(tamper):
    case = load_case(ODDS)
    result = tamper("inconsistent", [ODDS])[case.id]
    assert result.status == "errored"
    assert "probability 5/36 is 5/36, but hit_rolls lists 4 rolls" in result.problems[0].message


def test_landing_tolerance_is_the_cases(tamper):
    case = load_case(LANDING)
    assert tamper("nudge-small", [LANDING])[case.id].status == "passed"  # 0.004 in off: within 0.005
    result = tamper("nudge-large", [LANDING])[case.id]  # 0.006 in off
    assert result.status == "failed"
    assert [p.location.field for p in result.problems if p.kind != "detail"] == ["expect.landing"]
    assert [p.message for p in result.problems if p.kind == "detail"] == [
        "provenance of template: reference aoe.size, aim.target, dev.dist, dev.dir, reading side=clockwise; "
        "implementation the same"]


def test_unreadable_answers_are_errored_naming_the_field(tamper):
    case = load_case(ONE_ROLL)
    result = tamper("exact-disagrees", [ONE_ROLL])[case.id]
    assert result.status == "errored" and "landing_exact" in result.problems[0].message
    result = tamper("no-clearance", [ONE_ROLL])[case.id]
    assert result.status == "errored" and "'clearance' is a required property" in result.problems[0].message


def test_the_odds_form_for_one_roll_fails(tamper):
    case = load_case(ONE_ROLL)
    result = tamper("odds-form", [ONE_ROLL])[case.id]
    assert result.status == "failed"
    assert "but the answer gives the chance over all 36 rolls" in result.problems[0].message


def test_a_wrong_answer_through_a_subprocess_is_drawn(tmp_path, monkeypatch):
    monkeypatch.setenv("SCATTER_TAMPER", "one-hit-fewer")
    impl = SubprocessImplementation(f"{sys.executable} {IMPLS / 'scatter_tamper.py'}", timeout=10)
    results = check_implementation([ODDS, MISS], impl, draw=True, failures=tmp_path)
    status = {r.id: r for r in results}
    odds = status[load_case(ODDS).id]
    assert odds.status == "failed"
    drawn = [p.message for p in odds.problems if p.kind == "artifacts"]
    assert drawn and drawn[0].startswith("expected, actual and diff drawings:"), [p.message for p in odds.problems]
    assert status[load_case(MISS).id].status == "passed"  # one roll: untouched in this mode


def test_reader_rejects_impossible_gaps():
    shot = load_case(ONE_ROLL).before
    with pytest.raises(ImplementationError, match="clearance"):
        RULESET.outcome_from_json(shot, {"result": "hit", "landing": [0, 0], "moved": 1, "clearance": -5,
                                         "start_clearance": 0})
    with pytest.raises(ImplementationError, match="touching"):
        RULESET.outcome_from_json(shot, {"result": "hit", "landing": [0, 0], "moved": 1, "clearance": 0.5,
                                         "touching": True, "start_clearance": 0})
