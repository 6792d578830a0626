"""The bounded memos of verifier.kept: each value made once while kept, everything dropped when full."""

from collections.abc import Callable

import pytest

from verifier.kept import Kept, KeptByData, KeptFor


def test_a_value_is_made_once_per_key_and_everything_dropped_when_full():
    made = []
    kept: Kept[str, str | None] = Kept(2)

    def make(text):
        made.append(text)
        return None if text == "none" else text.upper()

    assert kept.get("a", lambda: make("a")) == "A"
    assert kept.get("a", lambda: make("a")) == "A"
    assert kept.get("none", lambda: make("none")) is None
    assert kept.get("none", lambda: make("none")) is None  # a None value is kept too
    assert made == ["a", "none"]
    kept.get("b", lambda: make("b"))  # full: a and none are dropped
    kept.get("a", lambda: make("a"))
    assert made == ["a", "none", "b", "a"]


def test_kept_for_an_object_by_identity_and_what_else_it_was_made_from():
    made = []
    kept: KeptFor[int] = KeptFor(8)
    first, twin = {"k": 1}, {"k": 1}  # equal, not the same object, and unhashable

    def make(owner, given):
        made.append((id(owner), given))
        return len(made)

    assert kept.get(first, lambda: make(first, 1), 1) == 1
    assert kept.get(first, lambda: make(first, 1), 1) == 1
    assert kept.get(twin, lambda: make(twin, 1), 1) == 2
    assert kept.get(first, lambda: make(first, 2), 2) == 3  # made from something else: made again
    assert len(made) == 3
    kept.clear()
    assert kept.get(twin, lambda: make(twin, 1), 1) == 4


def test_data_kept_by_data_tells_apart_what_equality_would_not() -> None:
    kept: KeptByData[str] = KeptByData(8)
    reads: list[object] = []

    def reader(data: object) -> Callable[[], str]:
        return lambda: reads.append(data) or f"read {data!r}"

    assert kept.get({"a": 1}, reader({"a": 1})) == "read {'a': 1}"
    assert kept.get({"a": 1}, reader({"a": 1})) == "read {'a': 1}"  # equal data: read once
    assert kept.get({"a": 1.0}, reader({"a": 1.0})) == "read {'a': 1.0}"  # equal, but 1.0 is not 1
    assert kept.get([1, 2], reader([1, 2])) != kept.get((1, 2), reader((1, 2)))
    assert reads == [{"a": 1}, {"a": 1.0}, [1, 2], (1, 2)]


def test_a_read_that_raises_keeps_nothing() -> None:
    kept: KeptByData[int] = KeptByData(8)
    calls = []

    def broken() -> int:
        calls.append(1)
        raise ValueError("refused")

    for _ in range(2):
        with pytest.raises(ValueError):
            kept.get({"bad": True}, broken)
    assert len(calls) == 2
