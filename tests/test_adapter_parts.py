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


def case_count(key: str) -> int:
    return len(list((CASES / key).rglob("*.yaml")))


def refusal_count(key: str) -> int:
    """The bundled cases that expect an action to be refused (cases/<key>/refused/)."""
    return sum("refused" in (load_case(path).doc.data.get("expect") or {}) for path in (CASES / key).rglob("*.yaml"))


def needing(key: str, feature: str) -> int:
    """The bundled cases whose scene plays ``feature``, read from the case files as the toy reads a request."""
    import conformance_toys
    return sum(conformance_toys._needs(key, load_case(path).doc.data["before"], feature)
               for path in (CASES / key).rglob("*.yaml"))


def counts(results) -> dict[str, int]:
    found = Counter(str(r.status) for r in results)
    return {s: found[s] for s in ("passed", "failed", "errored", "skipped")}


# (ruleset, parts not compared) for the toy that reports only the part every answer has; every
# bundled case is compared (the counts follow cases/<key>/, which other work adds to).
SUBSET = [("armada", ("speed", "side", "tool", "damage", "events")),
          ("armada2k", ("damage", "events", "fans", "winner")),
          ("civ", ("land", "removals", "events")),
          ("scatter", ("landing", "rolls")),
          ("ypp", ("events", "damage", "states"))]


@pytest.mark.parametrize("key, unreported", SUBSET)
def test_a_subset_of_the_parts_is_compared_and_the_summary_names_the_rest(key, unreported):
    total = case_count(key)
    results = through(f"{key}_subset", key)
    assert counts(results) == {"passed": total, "failed": 0, "errored": 0, "skipped": 0}
    assert {r.not_compared for r in results} == {unreported}
    notes = comparison_notes(results)
    assert all(f"{part}, in {total} of {total} compared cases" in " ".join(notes) for part in unreported)


def test_a_subset_still_fails_on_the_part_it_reports(monkeypatch):
    # The armada toy that reports poses only, with every ship's pose moved: each case that
    # has a ship fails, on the ships' poses alone; a refusal carries no poses, so it still passes.
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
    refusals = refusal_count("armada")
    assert refusals
    assert counts(results) == {"passed": refusals, "failed": case_count("armada") - refusals, "errored": 0,
                               "skipped": 0}
    for result in (r for r in results if r.status == Status.FAILED):
        fields = {p.location.field for p in result.problems if p.kind == "mismatch"}
        assert fields and all(f.startswith("expect.ships") or f == "expect" for f in fields), fields


# (ruleset, the feature it lacks)
LACKING = [("armada", "squadrons"), ("armada2k", "rear-cannon"), ("civ", "option-A")]


@pytest.mark.parametrize("key, feature", LACKING)
def test_cases_that_need_an_optional_rule_it_lacks_are_skipped_with_that_reason(key, feature):
    skipped = needing(key, feature)
    passed = case_count(key) - skipped
    assert skipped and passed
    results = through(f"{key}_lacking", key)
    assert counts(results) == {"passed": passed, "failed": 0, "errored": 0, "skipped": skipped}
    ruleset = registry.get(key)
    for result in results:
        needs = feature in ruleset.features_needed(result.case.before, result.case.actions)
        assert (result.status == Status.SKIPPED) == needs
        if needs:
            assert result.reason.startswith(f"the case needs {feature} (")
            assert result.reason.endswith("which the implementation's hello does not list in 'supports'")


# (ruleset, the parts not compared) for the toy that follows another option of a reading point
READING = [("armada", ("damage", "events")), ("armada2k", ("damage", "events")), ("civ", ("removals",)),
           ("scatter", ("landing",)), ("ypp", ("damage", "states"))]


@pytest.mark.parametrize("key, unreported", READING)
def test_another_reading_of_an_unreported_part_keeps_the_cases_expectation(key, unreported):
    total = case_count(key)
    import conformance_toys
    follows, _ = conformance_toys.READING[key]
    ruleset = registry.get(key)
    results = through(f"{key}_reading", key)
    assert counts(results) == {"passed": total, "failed": 0, "errored": 0, "skipped": 0}
    hanging = [r for r in results if any(
        p in ruleset.resolve(r.case.before, r.case.actions, r.case.readings).consulted and r.case.readings[p] != o
        for p, o in follows.items())]
    assert hanging  # some cases' outcomes hang on the point, and they pass on the case's own expectation
    # compared with the case's own expectation, not with the reference under the toy's reading
    assert not any(r.compared_under for r in results)
    assert {r.not_compared for r in results} == {unreported}


def test_a_run_that_skips_everything_fails_with_a_sentence():
    results = through("civ_lacking", "civ")
    options_a = [r for r in results if r.status == Status.SKIPPED]
    why = nothing_checked(options_a, open_checked=False)
    count = needing("civ", "option-A")
    assert why and why.startswith(f"nothing was checked: of {count} cases, {count} skipped (the case needs option-A")


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
    from verifier.docs.protocol_doc import DOC, generated, updated
    text = DOC.read_text(encoding="utf-8")
    assert updated(text) == text, "docs/protocol.md is stale: run python -m verifier.docs.protocol_doc"
    section = generated()
    for key in ("armada", "armada2k", "civ", "scatter", "ypp"):
        ruleset = registry.get(key)
        assert f"### {key}\n" in section
        assert all(f"- `{p.name}` (" in section for p in ruleset.outcome_parts)
        assert all(f"- `{f.name}`: " in section for f in ruleset.features)


def _with_states(tmp_path, shift: int = 0):
    """turn-four-rounds with its own state after round 2 (the reference's, or moved ``shift`` tiles east)."""
    import yaml

    from verifier.runner import reference_states
    case = load_case(CASES / "ypp" / "turn-four-rounds.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    after_two = next(s for s in reference_states(case.ruleset, outcome) if s["round"] == 2 and "phase" not in s)
    ships = {n: {**spec, "at": [spec["at"][0] + shift, spec["at"][1]]} for n, spec in after_two["ships"].items()}
    data = dict(case.doc.data)
    data["expect"] = {**data["expect"], "states": [{"round": 2, "ships": ships}]}
    path = tmp_path / "ypp" / "turn-four-rounds-states.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_a_cases_own_states_are_checked_against_the_reference(tmp_path):
    from verifier.runner import RunOptions, check_case
    good = check_case(load_case(_with_states(tmp_path)), RunOptions(draw=False))
    assert good.status == Status.PASSED
    bad = check_case(load_case(_with_states(tmp_path, shift=1)), RunOptions(draw=False))
    assert bad.status == Status.FAILED
    problem = next(p for p in bad.problems if p.kind == "mismatch")
    assert problem.message.startswith("the states first differ after round 2 (the reference resolver's): ")
    assert problem.location.field == "expect.states[0]"


def test_an_implementations_states_are_compared_with_the_cases_own(tmp_path):
    # round_states drifts the first ship east from round 2 on: the case's own state after
    # round 2 is what it is compared with, and the failure points there.
    impl = InProcessImplementation("python:round_states:handle", 20.0)
    [result] = check_implementation([_with_states(tmp_path)], impl, draw=False)
    assert result.status == Status.FAILED
    states = [p for p in result.problems if p.kind == "mismatch" and p.location.field.startswith("expect.states")]
    assert len(states) == 1 and states[0].message.startswith(
        "the states first differ after round 2 (the implementation's): ")
