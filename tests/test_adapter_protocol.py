"""The adapter protocol: its published schema, every message of the reference adapter
against it, outcomes round-tripping through JSON, and the reference adapter giving the
same statuses in a subprocess as in process."""

from __future__ import annotations

import json
from dataclasses import replace

import jsonschema
import pytest
from conftest import BUMP, CASES, REFERENCE, ROOT, case_files, run

from verifier import adapter, registry
from verifier.adapter import (
    PROTOCOL,
    InProcessImplementation,
    adapter_schema,
    check_implementation,
    schema_problem,
    supports_protocol,
)
from verifier.case import load_case
from verifier.ruleset import Capability, Refusal
from verifier.runner import RunOptions, check_paths

pytestmark = pytest.mark.usefixtures("in_repo")


# --- the schema ------------------------------------------------------------------

def test_published_adapter_schema_is_current():
    published = json.loads((ROOT / "docs" / "schema" / "adapter.schema.json").read_text())
    published.pop("$comment", None)  # the mark of the command that wrote it
    assert published == adapter_schema(), \
        "docs/schema/adapter.schema.json is stale: run 'verifier schema --adapter -o docs/schema/adapter.schema.json'"
    jsonschema.Draft202012Validator.check_schema(published)


def test_every_message_of_the_reference_adapter_fits_the_schema():
    from verifier.adapters.reference import handle
    hello = adapter.hello_message()
    assert schema_problem("hello", hello) is None
    assert schema_problem("hello_reply", handle(hello)) is None
    for path in case_files():
        case = load_case(path)
        if not supports_protocol(case.ruleset) or case.status == "needs-ruling":
            continue
        request = adapter.case_request(case)
        assert schema_problem("case", request) is None
        answer = handle(request)
        assert schema_problem("response", answer) is None, answer
        if answer["type"] == "refused":  # an action the rules forbid: no outcome to fit
            assert isinstance(case.expect, Refusal) and answer["clause"] == case.expect.clause, path
            continue
        assert schema_problem(f"outcome_{case.ruleset.key}", answer["outcome"]) is None


def test_outcome_json_round_trips_for_every_case():
    """outcome_from_json(outcome_json(o)) compares exactly as o does."""
    for path in case_files():
        case = load_case(path)
        if not supports_protocol(case.ruleset) or case.expect is None:
            continue
        outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
        if outcome.refusal is not None:  # crosses as the refused answer (tests/test_refusals.py)
            continue
        data = json.loads(json.dumps(case.ruleset.outcome_json(outcome)))
        back = case.ruleset.outcome_from_json(case.before, data)
        assert case.ruleset.compare(case.before, case.expect, back) == \
            case.ruleset.compare(case.before, case.expect, outcome) == [], path


def test_schema_problems_name_the_field():
    assert "heading" in schema_problem("outcome_ypp", {"ships": {"A": {"at": [1, 1], "heading": "X"}}, "events": []})
    assert "'reason' is a required property" in adapter.answer_problem({"type": "skipped"})
    assert "expected 'outcome', 'refused', 'skipped' or 'errored'" in adapter.answer_problem({"type": "result"})


# --- the reference adapter: the protocol round-trips ---------------------------------

def _statuses(results):
    return {r.id: r.status for r in results}


def _expected_statuses():
    """In-process statuses, with cases the protocol cannot check shown as skipped."""
    expected = {}
    for r in check_paths([CASES], RunOptions(draw=False)):
        skipped = r.case is not None and not supports_protocol(r.case.ruleset) and r.status != "open"
        expected[r.id] = "skipped" if skipped else r.status
    return expected


def test_reference_adapter_through_a_subprocess_passes_every_case_as_in_process(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--impl", REFERENCE, "--json", tmp_path / "r.json")
    report = json.loads((tmp_path / "r.json").read_text())
    assert {c["id"]: c["status"] for c in report["cases"]} == _expected_statuses()
    assert code == 0, out
    assert report["implementation"]["hello"]["protocol"] == PROTOCOL
    assert out.splitlines()[0].startswith("implementation: verifier reference resolver")
    assert out.strip().splitlines()[-1].startswith(f"{report['summary']['passed']} passed, 0 failed")


def test_reference_adapter_in_process_gives_the_same_statuses():
    impl = InProcessImplementation("python:verifier.adapters.reference:handle", timeout=10)
    assert _statuses(check_implementation([CASES], impl, draw=False)) == _expected_statuses()


def test_rulesets_without_json_outcomes_are_skipped_with_a_reason():
    class Mute(type(registry.get("ypp"))):
        capabilities = registry.get("ypp").capabilities - {Capability.INTERCHANGE}  # not declared

    muted = replace(load_case(BUMP), ruleset=Mute())
    run_ = adapter.ImplRun(InProcessImplementation("python:verifier.adapters.reference:handle"))
    result = adapter.check_case_with(muted, run_)
    assert result.status == "skipped"
    assert "does not define its outcome as JSON" in result.reason
