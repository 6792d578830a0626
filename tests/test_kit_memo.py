"""kit.memo: an outcome kept under one reading serves every reading that agrees with it on
the points it consulted, and only those; a bounded memo forgets its oldest entry first."""

from __future__ import annotations

from types import MappingProxyType

from verifier.kit.memo import ReadingMemo, Recent
from verifier.ruleset import Outcome


def _resolver(calls: list[dict[str, str]]):
    """A resolver whose outcome depends on point "a" only, and says so."""
    def carry_out(reading):
        calls.append(dict(reading))
        return Outcome(after=reading["a"], events=(), provenance=MappingProxyType({}),
                       reading=MappingProxyType(dict(reading)), consulted=frozenset({"a"}))
    return carry_out


def test_an_outcome_is_worked_out_once_per_option_of_the_points_it_consulted():
    memo, calls = ReadingMemo(), []
    first = memo.resolve("scene", {"a": "x", "b": "1"}, _resolver(calls))
    again = memo.resolve("scene", {"a": "x", "b": "2"}, _resolver(calls))  # b was never consulted
    other = memo.resolve("scene", {"a": "y", "b": "1"}, _resolver(calls))  # a was
    assert [c["a"] for c in calls] == ["x", "y"]
    assert (first.after, again.after, other.after) == ("x", "x", "y")
    assert dict(again.reading) == {"a": "x", "b": "2"}  # the kept outcome carries the reading asked for


def test_scenes_are_kept_apart_and_the_oldest_is_forgotten_first():
    memo, calls = ReadingMemo(size=2), []
    for scene in ("one", "two", "three", "one"):
        memo.resolve(scene, {"a": "x"}, _resolver(calls))
    assert len(calls) == 4  # "one" was forgotten when "three" came
    memo.resolve("three", {"a": "x"}, _resolver(calls))
    assert len(calls) == 4
    memo.clear()
    memo.resolve("three", {"a": "x"}, _resolver(calls))
    assert len(calls) == 5


def test_recent_makes_a_value_once_per_key_while_it_is_kept():
    made: list[str] = []
    recent: Recent[str] = Recent(2)

    def make(key):
        return lambda: made.append(key) or key.upper()
    assert [recent.get(k, make(k)) for k in ("a", "b", "a", "c", "b")] == ["A", "B", "A", "C", "B"]
    assert made == ["a", "b", "c", "b"]  # "b" was the oldest when "c" came ("a" had been asked again)
