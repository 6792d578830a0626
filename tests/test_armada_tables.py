"""The reference under every reading (fuzz.reference.reading_table) of an armada or
armada2k scene is the same table whatever the resolver's memos hold: the leaves in the
order a fresh resolution branches, and each outcome under the reading of its first leaf.
Their memos keep outcomes across readings (and armada's across listing orders); an
outcome taken from one must look up the reading as a fresh resolution would, or the
table's shape depends on what the process resolved before."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from conftest import CASES

from verifier import registry
from verifier.case import load_case
from verifier.fuzz.reference import reading_table
from verifier.ruleset import Resolution
from verifier.testing import PlainResolutions, assert_same_table, case_files

KEYS = ("armada", "armada2k")


def _cases(key: str) -> list[Any]:
    return [pytest.param(key, path, id=f"{key}/{path.stem}") for path in case_files([CASES], key)]


def _forget(key: str) -> None:
    importlib.import_module(f"verifier.rulesets.{key}.resolver").clear_caches()


def _all_readings(table: Any) -> list[dict[str, str]]:
    """A full reading per leaf of ``table``: its path's options, the others at their defaults."""
    return [{**table.default_reading, **{table.order[i]: option for i, option in path}} for path in table.keys]


CASE_PARAMS = [p for key in KEYS for p in _cases(key)]


@pytest.mark.parametrize(("key", "path"), CASE_PARAMS)
def test_a_resolution_from_the_memo_looks_up_the_reading_as_a_fresh_one_does(key: str, path: Path) -> None:
    """The order in which a resolution first looks up the points it consults is the order
    the table branches in (``Resolution.consulted``)."""
    case = load_case(path)
    ruleset = registry.get(key)
    _forget(key)
    for reading in (ruleset.default_reading, case.readings):
        fresh = Resolution(ruleset, case.before, case.actions, dict(reading)).consulted
        again = Resolution(ruleset, case.before, case.actions, dict(reading)).consulted
        assert again == fresh


@pytest.mark.parametrize(("key", "path"), CASE_PARAMS)
def test_a_table_does_not_depend_on_what_the_memos_hold(key: str, path: Path) -> None:
    case = load_case(path)
    ruleset = registry.get(key)
    before, actions = case.before, case.actions
    _forget(key)
    fresh = reading_table(PlainResolutions(ruleset), before, actions)  # type: ignore[arg-type]
    # the same scene again: every resolution is in the memo now
    assert_same_table(reading_table(ruleset, before, actions), fresh)
    assert_same_table(reading_table(PlainResolutions(ruleset), before, actions), fresh)  # type: ignore[arg-type]
    # the memo filled leaf by leaf the other way round, under readings the walk meets last first
    _forget(key)
    for reading in reversed(_all_readings(fresh)):
        ruleset.resolve(before, actions, reading)
    assert_same_table(reading_table(ruleset, before, actions), fresh)
    # the memo filled by the scene listed the other way round
    for transform in ruleset.transforms(before, actions):
        if transform.kind == "order":
            _forget(key)
            reading_table(ruleset, transform.before, transform.actions)
            assert_same_table(reading_table(ruleset, before, actions), fresh)
