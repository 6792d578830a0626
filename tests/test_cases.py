"""Every bundled case: the reference resolver gives the expected outcome, and
together the cases exercise every clause of every ruleset."""

from __future__ import annotations

import pytest
from conftest import case_files, case_param

from verifier import registry
from verifier.case import load_case
from verifier.runner import RunOptions, check_case


@pytest.mark.parametrize("path", [case_param(p) for p in case_files()])
def test_case_resolves_as_documented(path):
    case = load_case(path)
    result = check_case(case, RunOptions(draw=False))
    assert result.status == "passed", "\n".join(str(p) for p in result.problems)


@pytest.mark.parametrize("key", registry.names())
def test_every_clause_is_exercised_by_some_case(key):
    ruleset = registry.get(key)
    used = set()
    for path in case_files():
        case = load_case(path)
        if case.ruleset is ruleset:
            used |= ruleset.resolve(case.before, case.actions, case.readings).clauses_used()
    missing = [c for c in ruleset.clause_ids if c not in used]
    assert not missing, f"no case applies these {key} clauses: {missing}"


@pytest.mark.parametrize("key", registry.names())
def test_every_reading_option_is_pinned_by_some_case(key):
    ruleset = registry.get(key)
    pinned = set()
    for path in case_files():
        case = load_case(path)
        if case.ruleset is ruleset:
            pinned |= {(k, v) for k, v in case.readings.items()}
    missing = [(p.name, o) for p in ruleset.reading_points for o in p.options if (p.name, o) not in pinned]
    assert not missing, f"no case runs under these readings: {missing}"


def test_case_ids_are_unique_and_prefixed():
    ids = {}
    for path in case_files():
        case = load_case(path)
        assert case.id.startswith(case.ruleset.key + "-"), path
        assert case.id not in ids, f"{path} reuses the id of {ids.get(case.id)}"
        ids[case.id] = path
