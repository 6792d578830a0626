"""Conformance in every ruleset, shown with the toy implementations of
tests/impls/conformance_toys.py: each ruleset's outcome parts are compared only where
reported, a case that needs an optional rule the implementation lacks is skipped with
that reason, and a reading the implementation follows that changes only parts it does
not report leaves the case's own expectation standing. The counts are exact: every
bundled case of the ruleset, through ``check --impl``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import CASES, ROOT

from verifier import registry
from verifier.adapter import InProcessImplementation, check_implementation
from verifier.adapter.declare import Declaration, read_capabilities
from verifier.case import load_case
from verifier.fuzz import run as fuzz_run
from verifier.known_failures import clipped_reason
from verifier.report import comparison_notes
from verifier.runner import Status, nothing_checked

IMPLS = Path(__file__).parent / "impls"


@pytest.fixture(autouse=True)
def toys(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(IMPLS))
    monkeypatch.delenv("VERIFIER_TOY_PLAIN", raising=False)


def through(toy: str, key: str):
    impl = InProcessImplementation(f"python:conformance_toys:{toy}", 20.0)
    return check_implementation([CASES / key], impl, draw=False)


def counts(results) -> dict[str, int]:
    found = Counter(str(r.status) for r in results)
    return {s: found[s] for s in ("passed", "failed", "errored", "skipped")}


# (ruleset, cases, parts not compared) for the toy that reports only the part every answer has
SUBSET = [("armada", 38, ("speed", "side", "tool", "damage", "events")),
          ("armada2k", 57, ("damage", "events", "fans", "winner")),
          ("civ", 40, ("land", "removals", "events")),
          ("scatter", 25, ("landing", "rolls")),
          ("ypp", 56, ("events", "damage", "states"))]


@pytest.mark.parametrize("key, total, unreported", SUBSET)
def test_a_subset_of_the_parts_is_compared_and_the_summary_names_the_rest(key, total, unreported):
    results = through(f"{key}_subset", key)
    assert counts(results) == {"passed": total, "failed": 0, "errored": 0, "skipped": 0}
    assert {r.not_compared for r in results} == {unreported}
    notes = comparison_notes(results)
    assert all(f"{part}, in {total} of {total} compared cases" in " ".join(notes) for part in unreported)


def test_a_subset_still_fails_on_the_part_it_reports(monkeypatch):
    # The armada toy that reports poses only, with every ship's pose moved: each case that
    # has a ship fails, on the ships' poses alone.
    import conformance_toys
    real = conformance_toys.reference

    def shifted(message):
        answer = real(message)
        if answer.get("type") == "outcome":
            ships = {n: {**s, "at": [s["at"][0] + 10, s["at"][1]]} for n, s in answer["outcome"]["ships"].items()}
            answer = {**answer, "outcome": {**answer["outcome"], "ships": ships}}
        return answer
    monkeypatch.setattr(conformance_toys, "reference", shifted)
    results = through("armada_subset", "armada")
    assert counts(results) == {"passed": 0, "failed": 38, "errored": 0, "skipped": 0}
    for result in results:
        fields = {p.location.field for p in result.problems if p.kind == "mismatch"}
        assert fields and all(f.startswith("expect.ships") or f == "expect" for f in fields), fields


# (ruleset, the feature it lacks, passed, skipped)
LACKING = [("armada", "squadrons", 34, 4), ("armada2k", "rear-cannon", 56, 1), ("civ", "option-A", 17, 23)]


@pytest.mark.parametrize("key, feature, passed, skipped", LACKING)
def test_cases_that_need_an_optional_rule_it_lacks_are_skipped_with_that_reason(key, feature, passed, skipped):
    results = through(f"{key}_lacking", key)
    assert counts(results) == {"passed": passed, "failed": 0, "errored": 0, "skipped": skipped}
    ruleset = registry.get(key)
    for result in results:
        needs = feature in ruleset.features_needed(result.case.before, result.case.actions)
        assert (result.status == Status.SKIPPED) == needs
        if needs:
            assert result.reason.startswith(f"the case needs {feature} (")
            assert result.reason.endswith("which the implementation's hello does not list in 'supports'")


# (ruleset, cases whose outcome hangs on the point the toy reads otherwise, the parts not compared)
READING = [("armada", 38, 1, ("damage", "events")), ("armada2k", 57, 9, ("damage", "events")),
           ("civ", 40, 1, ("removals",)), ("scatter", 25, 13, ("landing",)), ("ypp", 56, 42, ("damage", "states"))]


@pytest.mark.parametrize("key, total, depending, unreported", READING)
def test_another_reading_of_an_unreported_part_keeps_the_cases_expectation(key, total, depending, unreported):
    import conformance_toys
    follows, _ = conformance_toys.READING[key]
    ruleset = registry.get(key)
    results = through(f"{key}_reading", key)
    assert counts(results) == {"passed": total, "failed": 0, "errored": 0, "skipped": 0}
    hanging = [r for r in results if any(
        p in ruleset.resolve(r.case.before, r.case.actions, r.case.readings).consulted and r.case.readings[p] != o
        for p, o in follows.items())]
    assert len(hanging) == depending
    # compared with the case's own expectation, not with the reference under the toy's reading
    assert not any(r.compared_under for r in results)
    assert {r.not_compared for r in results} == {unreported}


def test_a_run_that_skips_everything_fails_with_a_sentence():
    results = through("civ_lacking", "civ")
    options_a = [r for r in results if r.status == Status.SKIPPED]
    why = nothing_checked(options_a, open_checked=False)
    assert why and why.startswith("nothing was checked: of 23 cases, 23 skipped (the case needs option-A")


def test_the_hello_says_which_features_it_supports_and_unknown_ones_are_named():
    declared, problem = read_capabilities({"capabilities": {"civ": {"supports": ["option-B"]}}})
    assert problem is None and declared["civ"].supports == frozenset({"option-B"})
    _, problem = read_capabilities({"capabilities": {"civ": {"supports": ["option-C"]}}})
    assert problem == ("capabilities.civ.supports: civ has no optional rule, variant or case feature 'option-C'; "
                       "did you mean 'option-B'?")
    _, problem = read_capabilities({"capabilities": {"ypp": {"supports": ["wind"]}}})
    assert problem and "it has none, so leave 'supports' out" in problem


def test_fuzz_draws_only_scenes_the_implementation_supports():
    civ = registry.get("civ")
    impl = InProcessImplementation("python:conformance_toys:civ_lacking", 20.0, ["civ"])
    try:
        result = fuzz_run(civ, impl, examples=6, seed=1, budget=120)
    finally:
        impl.close()
    assert len(result.trials) == 6
    assert all("option-A" not in civ.features_needed(t.before, t.actions) for t in result.trials)
    assert len(result.answered) == 6  # none refused: the toy refuses only scenes with option A
    assert "civ: lacks option-A" in result.declared


def test_requests_carry_the_map_inside_them():
    case = load_case(next(p for p in sorted((CASES / "civ").glob("*.yaml"))
                          if isinstance(load_case(p).doc.data["before"]["map"], str)))
    from verifier.adapter import case_request
    request = case_request(case)
    assert isinstance(request["before"]["map"], dict) and request["before"]["map"]["areas"]
    assert Declaration().supported(case.ruleset) == frozenset({"option-A", "option-B"})


def test_known_failure_reasons_keep_the_value_that_came_out():
    reason = "Haughty Sawfish should end at [2, 3] " + "and so on " * 20 + "but lands at [4.125, 7.5]"
    clipped = clipped_reason(reason)
    assert len(clipped) <= 200 and clipped.endswith("... but lands at [4.125, 7.5]")
    assert clipped.startswith("Haughty Sawfish should end at [2, 3]")
    assert clipped_reason("short") == "short"


def test_the_protocol_document_is_written_from_the_rulesets():
    from verifier.adapter.protocol_doc import DOC, generated, updated
    text = DOC.read_text(encoding="utf-8")
    assert updated(text) == text, "docs/protocol.md is stale: run python -m verifier.adapter.protocol_doc"
    section = generated()
    for key in ("armada", "armada2k", "civ", "scatter", "ypp"):
        ruleset = registry.get(key)
        assert f"### {key}\n" in section
        assert all(f"- `{p.name}` (" in section for p in ruleset.outcome_parts)
        assert all(f"- `{f.name}`: " in section for f in ruleset.features)
