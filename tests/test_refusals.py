"""Refusals are cases: a possible scene with an action the rules forbid loads, the reference
refuses it citing the clause, a case may expect that refusal, the adapter protocol has a
refused answer, and toy implementations (tests/impls) that carry out forbidden actions or
refuse legal ones fail exactly the cases they should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CASES, ROOT

from verifier import registry
from verifier.adapter import InProcessImplementation, check_implementation, open_implementation
from verifier.adapter.declare import Declaration
from verifier.adapter.protocol import adapter_schema, answer_problem, read_answer, reported_outcome
from verifier.case import case_schema, collect, load_case
from verifier.errors import CaseError, SceneError
from verifier.fuzz import run, write_report
from verifier.ruleset import Refusal, compare_outcome
from verifier.runner import RunOptions, Status, check_case

IMPLS = Path(__file__).parent / "impls"
REFUSED = sorted(CASES.glob("*/refused/*.yaml"))
MEDIUM = """\
id: armada2k-test
title: test
ruleset: armada2k
source: {seed: 004_8d2b28d8637aa8b2.txt, section: Ship Movement}
clauses: [move.1b]
before:
  ships:
    frigate: {player: blue, size: medium, at: [0, 0], heading: 0}
actions:
- move: frigate
  steps: [0, 0, 0]
expect:
  refused: {clause: move.1b, piece: frigate}
"""


@pytest.fixture(autouse=True)
def toys(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(IMPLS))
    monkeypatch.delenv("VERIFIER_TOY_REFUSAL", raising=False)


def through(spec, paths):
    impl = InProcessImplementation(f"python:{spec}:handle", 10.0)
    return {r.id: r for r in check_implementation([str(p) for p in paths], impl, draw=False)}


def failing(results):
    return {key for key, result in results.items() if result.failing}


# --- cases that expect a refusal ---------------------------------------------------------------


def test_every_ruleset_with_prohibitions_has_refusal_cases_and_each_names_its_clause():
    counts = {key: len(list((CASES / key / "refused").glob("*.yaml"))) for key in registry.names()}
    assert counts == {"armada": 7, "armada2k": 6, "civ": 13, "scatter": 0, "ypp": 1}
    for path in REFUSED:
        case = load_case(path)
        assert isinstance(case.expect, Refusal) and case.expect.clause in case.clauses, path.name
        assert case.expect.pieces, f"{path.name} names the piece whose action is refused"


def test_a_forbidden_action_parses_and_the_reference_refuses_it_with_provenance(write_case):
    case = load_case(write_case(MEDIUM))
    assert case.expect == Refusal("move.1b", ("frigate",))
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    assert outcome.refusal == Refusal("move.1b", ("frigate",), "a medium ship moves at most 2 steps in one move, "
                                                               "not 3")
    assert [str(c) for c in outcome.provenance["frigate"]] == ["move.1b"]
    assert outcome.after.scene == case.before and not outcome.events
    result = check_case(case, RunOptions(draw=False))
    assert result.status is Status.PASSED, [p.message for p in result.problems]


def test_a_refused_action_that_the_case_expects_carried_out_fails_naming_the_refusal(write_case):
    text = MEDIUM.replace("  refused: {clause: move.1b, piece: frigate}",
                          "  ships:\n    frigate: {at: [0, 6.2]}\n  events: []")
    result = check_case(load_case(write_case(text)), RunOptions(draw=False))
    assert result.status is Status.FAILED
    [problem] = result.problems
    assert problem.message == ("refused by move.1b (frigate): a medium ship moves at most 2 steps in one move, "
                               "not 3; the case expects the action to be carried out")
    assert problem.location.line == 13  # the case's expect


@pytest.mark.parametrize("expect, words", [
    ("{clause: move.1b, piece: frigate}",
     "the case expects the action to be refused by move.1b (frigate), but it was carried out"),
    ("{clause: move.1a}", "the case expects the action to be refused by move.1a, but it was carried out"),
])
def test_a_legal_action_that_the_case_expects_refused_fails(write_case, expect, words):
    text = MEDIUM.replace("steps: [0, 0, 0]", "steps: [0, 0]").replace("{clause: move.1b, piece: frigate}", expect)
    result = check_case(load_case(write_case(text)), RunOptions(draw=False))
    assert result.status is Status.FAILED
    assert [p.message for p in result.problems if p.kind == "mismatch"] == [words]


def test_a_refusal_by_another_clause_or_of_another_piece_fails(write_case):
    case = load_case(write_case(MEDIUM))
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    assert [m.path for m in compare_outcome(case.ruleset, case.before, Refusal("move.1a"), outcome)] == [
        ("refused", "clause")]
    assert [m.message for m in compare_outcome(case.ruleset, case.before, Refusal("move.1b", ("scout",)), outcome)
            ] == ["the case expects the action of scout to be refused, but it was refused by move.1b (frigate): a "
                  "medium ship moves at most 2 steps in one move, not 3"]


@pytest.mark.parametrize("refused, where, words", [
    ("{clause: move.9, piece: frigate}", "expect.refused.clause", "has no clause 'move.9'; did you mean"),
    ("{clause: move.1b, piece: frigate, pieces: [frigate]}", "expect.refused", "should not be valid"),
    ("{clause: move.1b, ship: frigate}", "expect.refused", "ship"),
    ("{piece: frigate}", "expect.refused", "missing required field 'clause'"),
])
def test_a_malformed_refusal_is_a_located_load_error(write_case, refused, where, words):
    path = write_case(MEDIUM.replace("{clause: move.1b, piece: frigate}", refused))
    with pytest.raises(CaseError) as info:
        load_case(path)
    assert f": {where}" in str(info.value) and words in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("old, new, words", [
    ("frigate: {player: blue, size: medium, at: [0, 0], heading: 0}",
     "frigate: {player: blue, size: medium, at: [0, 0], heading: 0}\n"
     "    sloop: {player: red, size: small, at: [0, 0.2], heading: 0}", "overlap"),
    ("at: [0, 0]", "at: [0, 30]", "does not lie wholly on the playing area"),
])
def test_an_impossible_scene_still_fails_loading_whatever_it_expects(write_case, old, new, words):
    with pytest.raises(SceneError) as info:
        load_case(write_case(MEDIUM.replace(old, new)))
    assert words in str(info.value)


def test_the_case_schema_takes_a_refusal_in_every_ruleset():
    for key in registry.names():
        expect = case_schema(registry.get(key))["properties"]["expect"]
        assert expect["then"]["properties"]["refused"]["required"] == ["clause"]
    published = json.loads((ROOT / "docs" / "schema" / "case.schema.json").read_text())
    assert all(b["then"]["properties"]["expect"]["then"]["required"] == ["refused"]
               for b in published["allOf"][1:])


def test_every_refusal_case_is_drawn_with_the_band_that_names_it():
    from verifier.refusal import draw_outcome
    case = load_case(CASES / "ypp" / "refused" / "fifth-round.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    plain = case.ruleset.draw(case.before, case.actions, outcome, title=case.title)
    marked = draw_outcome(case.ruleset, case.before, case.actions, outcome, case.title)
    assert marked.width == plain.width and marked.height > plain.height
    assert marked.crop((0, 0, plain.width, plain.height)).tobytes() == plain.convert("RGB").tobytes()
    band = marked.crop((0, plain.height, 8, marked.height))
    assert (213, 94, 0) in {band.getpixel((x, y)) for x in range(band.width) for y in range(band.height)}


# One refusal case of each ruleset that has them: its picture's "what happened" says so.
ONE_EACH = sorted({path.parent.parent.name: path for path in REFUSED}.values())


@pytest.mark.parametrize("path", ONE_EACH, ids=lambda p: p.parent.parent.name)
def test_the_picture_of_a_refusal_says_what_was_refused_and_why_not_that_nothing_happened(path, monkeypatch):
    from verifier.kit import draw as vd
    case = load_case(path)
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    assert outcome.refusal is not None and outcome.refusal.reason
    said: list[str] = []
    real = vd.LegendEntry
    monkeypatch.setattr(vd, "LegendEntry", lambda *a, **k: said.append(" ".join(map(str, a[1:]))) or real(*a, **k))
    case.ruleset.draw(case.before, case.actions, outcome, title=case.title)
    assert any(outcome.refusal.reason in words and f"refused by {outcome.refusal.clause}" in words
               for words in said), said
    nothing = ("nothing happened", "nothing contested", "nothing: no collisions", "no overlap, no damage")
    assert not any(n in words for words in said for n in nothing), said


# --- the refused answer ----------------------------------------------------------------------------


def test_the_adapter_schema_and_the_reader_take_a_refused_answer():
    schema = adapter_schema()
    assert "refused" in schema["$defs"]["response"]["properties"]["type"]["enum"]
    assert answer_problem({"type": "refused", "id": "x"}) is None
    assert answer_problem({"type": "refused", "clause": 3}) is not None
    answer = read_answer({"id": "x"}, {"type": "refused", "id": "x", "clause": "move.1b", "reason": "too far"})
    assert answer.kind == "refused" and answer.message == "too far"
    outcome = reported_outcome(registry.get("armada2k"), Declaration(), None, answer.data)
    assert outcome.refusal == Refusal("move.1b", (), "too far")


def test_the_reference_adapter_passes_every_case_refusals_included():
    results = through("verifier.adapters.reference", REFUSED)
    assert len(results) == len(REFUSED) and not failing(results)


def test_an_implementation_that_carries_out_forbidden_actions_fails_exactly_the_refusal_cases():
    results = through("never_refuses", [CASES])
    expected = {load_case(path).id for path in REFUSED}
    assert failing(results) == expected
    assert {results[key].status for key in expected} == {Status.FAILED}
    medium = results["armada2k-refused-medium-three-steps"]
    assert any(p.message == "the case expects the action to be refused by move.1b (frigate), but it was carried out"
               for p in medium.problems)


def test_an_implementation_that_refuses_a_legal_action_fails_exactly_that_case(monkeypatch):
    paths = [CASES / "armada2k", *REFUSED]
    assert failing(through("refuses_legal", paths)) == {"armada2k-whole-steps-small-three"}
    monkeypatch.setenv("VERIFIER_TOY_REFUSAL", "unnamed")  # a refusal need not name its clause
    assert failing(through("refuses_legal", paths)) == {"armada2k-whole-steps-small-three"}
    monkeypatch.setenv("VERIFIER_TOY_REFUSAL", "wrong")  # but one that names another clause fails
    assert failing(through("refuses_legal", paths)) == {"armada2k-whole-steps-small-three"} | {
        load_case(path).id for path in REFUSED}


def test_a_refused_answer_is_an_outcome_fuzz_compares(tmp_path):
    impl = open_implementation("python:fuzz_refuses:handle", 10, rulesets=["ypp"])
    try:
        result = run(registry.get("ypp"), impl, examples=30, seed=0, budget=120)
    finally:
        impl.close()
    refused = [t for t in result.answered if t.actual.refusal is not None]
    assert refused and len(result.answered) == 30 and not result.problems
    assert all(not t.matches for t in refused) and all(t.matches for t in result.answered if t not in refused)
    write_report(result, tmp_path / "fuzz")
    assert "refused" in (tmp_path / "fuzz" / "report.json").read_text()


def test_collecting_the_bundled_cases_loads_every_refusal_case():
    entries = collect([CASES]).entries
    assert not [e for e in entries if not hasattr(e, "expect")]
    assert sum(isinstance(e.expect, Refusal) for e in entries) == len(REFUSED) == 27
