"""The kit's comparison of expected and actual events, shared by the plane rulesets."""

from verifier.kit.compare import event_mismatches
from verifier.ruleset import Event


def _text(kind, pieces, detail):
    return f"{kind} {'+'.join(pieces)}" + (f" ({detail})" if detail else "")


def test_missing_and_unexpected_events_are_located_and_counted_as_a_multiset():
    expected = [("hit", ("a", "b")), ("hit", ("a", "b")), ("sunk", ("b",))]
    events = [Event("hit", ("a", "b"), clause="fire.1"), Event("move", ("c",), clause="move.1a", detail="one step")]
    problems = event_mismatches(expected, events, key=lambda kind, pieces: (kind, pieces), text=_text)
    assert [(p.path, p.message) for p in problems] == [
        (("events", 1), "expected event did not happen: hit a+b"),
        (("events", 2), "expected event did not happen: sunk b"),
        (("events",), "unexpected event: move c (one step) [move.1a]"),
    ]


def test_a_key_may_ignore_the_order_of_pieces():
    events = [Event("clash", ("b", "a"))]
    assert event_mismatches([("clash", ("a", "b"))], events, key=lambda k, p: (k, tuple(sorted(p))), text=_text) == []
    assert len(event_mismatches([("clash", ("a", "b"))], events, key=lambda k, p: (k, p), text=_text)) == 2
