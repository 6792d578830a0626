"""Where an implementation's answer departs from the reference: the ruleset's own
``compare`` (against the expectation the reference outcome restates) decides whether an
answer agrees with a reading, and the fingerprint says what matters about a difference.
Both leave out the parts of the outcome the implementation does not report
(``Outcome.unreported``, from its hello)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from ..adapter.declare import STATES, left_out, parts, unreported_fields, with_fields_from, without_fields
from ..adapter.protocol import answer_text, as_answered, reference_frames_at, restated_expectation
from ..explore import reading_label
from ..ruleset import Capability, Event, Mismatch, Outcome, Ruleset, Transform, compare_outcome, reference_key
from .reference import Reading, ReadingTable, outcome_data, reading_table
from .result import Divergence, Trial
from .scenes import SceneData

# --- agreeing with a reading ----------------------------------------------------------------

FIELD_TOLERANCE = 1e-3  # where the ruleset's expectation carries no tolerance of its own


def _close(a: Any, b: Any, tolerance: float) -> bool:
    """Whether two JSON values are the same, numbers within ``tolerance``; lists as multisets."""
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a == b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return bool(abs(a - b) <= tolerance + 1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], tolerance) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return False
        left = list(b)
        for item in a:
            twin = next((i for i, other in enumerate(left) if _close(item, other, tolerance)), None)
            if twin is None:
                return False
            del left[twin]
        return True
    return bool(a == b)


def _unlisted_fields(ruleset: Ruleset, before: Any, reference: Outcome, actual: Outcome, listed: set[str],
                     unreported: frozenset[str], tolerance: float) -> Iterator[Mismatch]:
    """The top-level fields of the outcome's JSON form that the expectation does not list
    (``listed``; such as firing areas) and that differ beyond ``tolerance``: a reading
    explains an answer only when it gives every part the answer reports. A field whose
    value alone leaves the outcome key unchanged (provenance) is not an outcome part.
    Lazily, so that a caller asking only whether there is one stops at the first."""
    # the fields of the parts the implementation does not report are left out, at any depth
    whole = ruleset.outcome_json(reference)
    ours, theirs = without_fields(whole, unreported), without_fields(ruleset.outcome_json(actual), unreported)
    for name in sorted(set(ours) | set(theirs)):
        if name in listed or _close(ours.get(name), theirs.get(name), tolerance):
            continue
        if name in ours and name in theirs:
            try:
                hybrid = ruleset.outcome_from_json(before, {**whole, name: theirs[name]})
                if ruleset.outcome_key(hybrid) == ruleset.outcome_key(reference):
                    continue
            except Exception:  # a mixed outcome the reader refuses: the field counts
                pass
        yield Mismatch((name,), ours.get(name), theirs.get(name), f"{name}: the answer's differs from the reference's")


def _found(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
           data: SceneData | None) -> Iterator[Mismatch]:
    """The mismatches ``mismatches`` reports, one by one, the ruleset's comparison first."""
    data = data or SceneData.of(ruleset, before, actions)
    unreported = unreported_fields(ruleset, actual.unreported)
    expect_data = ruleset.expect_data(before, reference) if reference.refusal is None else None
    listed = set(expect_data or ())  # taken before the expectation is parsed from it
    expect = restated_expectation(ruleset, "<fuzz>", before, data.before, data.actions, reference, expect_data)
    found = compare_outcome(ruleset, before, expect, actual)
    yield from (m for m in found if not left_out(m.path, unreported))
    if reference.refusal is None and actual.refusal is None:  # a refusal has no fields to list
        tolerance = float(getattr(expect, "tolerance", FIELD_TOLERANCE))
        yield from (m for m in _unlisted_fields(ruleset, before, reference, actual, listed, unreported, tolerance)
                    if not left_out(m.path, unreported))
        if ruleset.supports(Capability.STATES) and STATES not in actual.unreported:
            yield from _state_mismatches(ruleset, reference, actual)


def _state_mismatches(ruleset: Ruleset, reference: Outcome, actual: Outcome) -> Iterator[Mismatch]:
    """The first intermediate state an answer reports (``actual.frames``, read from its
    ``states``; phase "" for the end of a round) that differs from the reference's at the
    same moment, paired as ``check --impl`` pairs them (``reference_frames_at``)."""
    moments = [(f.round, f.phase or None, f.step) for f in actual.frames]
    for i, ours in reference_frames_at(reference, moments):
        theirs = actual.frames[i]
        expected, got = ruleset.state_json(ours.state), ruleset.state_json(theirs.state)
        if expected != got:  # to the letter, as check --impl compares them
            yield Mismatch((STATES, i), expected, got, f"states[{i}]: the state at {theirs} is not the reference's")
            return


def mismatches(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
               data: SceneData | None = None) -> tuple[Mismatch, ...] | None:
    """The ruleset's comparison of ``actual`` with the expectation ``reference`` restates
    (with the expectation's tolerance), and the fields the expectation does not list that
    differ, leaving out the fields of the parts ``actual`` does not report; None where the
    reference cannot be restated as an expectation. ``data``: the scene's case data, where
    the caller has it."""
    try:
        return tuple(_found(ruleset, before, actions, reference, actual, data))
    except Exception:  # an outcome the ruleset cannot restate as an expectation: no words for it
        return None


def agrees(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
           data: SceneData | None = None) -> bool:
    """Whether ``mismatches`` finds none: the same verdict, stopping at the first mismatch
    (most reference outcomes of a scene differ from an answer in the ruleset's own
    comparison, and the fields it does not list need not be looked at)."""
    try:
        return next(_found(ruleset, before, actions, reference, actual, data), None) is None
    except Exception:  # as ``mismatches``: no words for it, so no agreement
        return False


def difference(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
               missing: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ruleset's own words for how ``actual`` departs from ``reference`` (``missing``
    where it cannot say)."""
    found = mismatches(ruleset, before, actions, reference, actual)
    return missing if found is None else tuple(m.message for m in found)


def matching(ruleset: Ruleset, before: Any, actions: Any, table: ReadingTable, actual: Outcome,
             data: SceneData | None = None) -> frozenset[Any]:
    """The keys of the reference outcomes that ``actual`` agrees with, by the comparison
    ``check --impl`` makes (an outcome read from JSON need not have a key).

    An answer that reports every part and has the key of one of the reference outcomes,
    and agrees with it, matches that one: looked up, not compared with every reference
    outcome of the scene (which restates each as an expectation). Only an answer that
    matches no key is compared with them all. ``data``: the scene's case data, where the
    caller has it."""
    data = data or SceneData.of(ruleset, before, actions)
    if not actual.unreported:
        try:
            key = reference_key(ruleset, actual)
            found = key in table.outcomes
        except Exception:  # the ruleset keys only its own outcomes, or the key is no value to look up
            found = False
        if found and agrees(ruleset, before, actions, table.outcomes[key], actual, data):
            return frozenset((key,))
    return frozenset(key for key, reference in table.outcomes.items()
                     if agrees(ruleset, before, actions, reference, actual, data))


def explaining(ruleset: Ruleset, before: Any, actions: Any, answer: Outcome, readings: Sequence[Reading],
               best: Reading) -> Reading | None:
    """The reading nearest ``best`` (fewest points changed) that explains ``answer``; None if none does."""
    table = reading_table(ruleset, before, actions)
    matches = matching(ruleset, before, actions, table, answer)
    found = [r for r in readings if table.key(r) in matches]
    return min(found, key=lambda r: sum(r[p] != best[p] for p in best)) if found else None


def order_differs(ruleset: Ruleset, trial: Trial, transform: Transform, moved: Outcome) -> bool:
    """Whether the answer for the scene listed in another order is not the first answer,
    carried over by the transform. Where outcome keys cannot be taken of an answer read
    from JSON, the readings that explain each answer are compared instead."""
    assert trial.actual is not None
    try:
        if moved.refusal is not None or trial.actual.refusal is not None:
            return (moved.refusal is None) != (trial.actual.refusal is None)
        return bool(ruleset.outcome_key(moved) != transform.map_key(ruleset.outcome_key(trial.actual)))
    except Exception:  # the ruleset keys only its own outcomes
        table = reading_table(ruleset, transform.before, transform.actions)
        moved_matches = matching(ruleset, transform.before, transform.actions, table, moved)
        return any((table.key(r) in moved_matches) != trial.explains(r) for r in ruleset.all_readings())


# --- fingerprints: what matters about a difference ------------------------------------------

def as_compared(ruleset: Ruleset, before: Any, reference: Outcome, actual: Outcome) -> Outcome:
    """``actual`` with the parts it does not report taken from ``reference``, so that a
    fingerprint sees only the differences in the parts that are compared."""
    unreported = unreported_fields(ruleset, actual.unreported)
    if not unreported or reference.refusal is not None or actual.refusal is not None:
        return actual
    data = with_fields_from(ruleset.outcome_json(actual), ruleset.outcome_json(reference), unreported)
    try:
        return replace(ruleset.outcome_from_json(before, data), unreported=frozenset())
    except Exception:  # a mixed outcome the reader refuses: the answer as it is
        return actual


def _json_paths(a: Any, b: Any, path: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Where two JSON values differ; lists compare as multisets."""
    if isinstance(a, dict) and isinstance(b, dict):
        found: set[tuple[str, ...]] = set()
        for key in set(a) | set(b):
            if key not in a or key not in b:
                found.add(path + (str(key),))
            else:
                found |= _json_paths(a[key], b[key], path + (str(key),))
        return found
    if isinstance(a, list) and isinstance(b, list):
        same = sorted(json.dumps(x, sort_keys=True) for x in a) == sorted(json.dumps(x, sort_keys=True) for x in b)
        return set() if same else {path}
    return set() if a == b else {path}


def _piece_names(data: Any, depth: int = 0) -> set[str]:
    """Names of pieces in a scene's case data: the keys of a mapping of records below the
    top level (``pieces: {A: {...}}``), and ``name`` or ``id`` fields of records."""
    found: set[str] = set()
    if isinstance(data, dict):
        if depth >= 1 and data and all(isinstance(v, dict) for v in data.values()):
            found |= {str(k) for k in data}
        found |= {v for k, v in data.items() if k in ("name", "id") and isinstance(v, str)}
        for value in data.values():
            found |= _piece_names(value, depth + 1)
    elif isinstance(data, list):
        for value in data:
            found |= _piece_names(value, depth + 1)
    return found


def _pieces(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome) -> set[str]:
    pieces = set(reference.provenance) | set(actual.provenance) | _piece_names(ruleset.case_data(before, actions)[0])
    return pieces | {p for e in reference.events + actual.events for p in e.pieces}


def _differing_paths(ruleset: Ruleset, before: Any, reference: Outcome, actual: Outcome) -> set[tuple[str, ...]]:
    """The fields of the outcome's JSON form where ``actual`` departs from ``reference``.
    A top-level field is left out when taking the implementation's value of it alone
    leaves the outcome key unchanged (such as provenance, which no outcome key compares)."""
    ours, theirs = outcome_data(ruleset, reference), outcome_data(ruleset, actual)
    try:
        key_of_reference = reference_key(ruleset, reference)
    except Exception:  # an outcome read back from JSON that the ruleset cannot key (scatter's odds): keep every field
        key_of_reference = None
    kept: set[tuple[str, ...]] = set()
    for path in _json_paths(ours, theirs, ()):
        top = path[0] if path else ""
        if key_of_reference is not None and top and top in ours and top in theirs:
            try:
                hybrid = ruleset.outcome_from_json(before, {**ours, top: theirs[top]})
                if reference_key(ruleset, hybrid) == key_of_reference:
                    continue
            except Exception:  # a mixed outcome the reader refuses: keep the field
                pass
        kept.add(path)
    if ruleset.supports(Capability.STATES) and STATES not in actual.unreported and \
            next(_state_mismatches(ruleset, reference, actual), None) is not None:
        kept.add((STATES,))
    return kept


def _starred(paths: set[tuple[str, ...]], pieces: set[str]) -> tuple[str, ...]:
    return tuple(sorted({".".join("*" if part in pieces else part for part in p) or "outcome" for p in paths})) \
        or ("outcome",)


def _event_role(event: Event, piece: str) -> str:
    """An event as the kind and the place of ``piece`` among its pieces: ``hit(*)`` for the
    first, ``hit(_,*)`` for the second (how many others follow it is left out: a ship blocked
    by an edge and one blocked by another ship meet the same rule)."""
    place = event.pieces.index(piece) if piece in event.pieces else 0
    return f"{event.kind}({'_,' * place}*)"


def _first_events(reference: Outcome, actual: Outcome, paths: set[tuple[str, ...]],
                  pieces: set[str]) -> tuple[list[tuple[str, Event]], list[tuple[str, Event]]]:
    """The events where the two outcomes first differ: the earliest events one has and the
    other lacks, as ("no" or "extra", event); else, for each piece whose state differs,
    (its name, the first event it takes part in under the reference)."""
    ours = Counter((e.kind, e.pieces) for e in reference.events)
    theirs = Counter((e.kind, e.pieces) for e in actual.events)
    changed: list[tuple[str, Event]] = []
    for word, events, left in (("no", reference.events, ours - theirs), ("extra", actual.events, theirs - ours)):
        for event in events:
            if left[(event.kind, event.pieces)] > 0:
                left[(event.kind, event.pieces)] -= 1
                changed.append((word, event))
    if changed:
        first = min(event.round for _, event in changed)
        return [(word, event) for word, event in changed if event.round == first], []
    diverging = sorted({part for path in paths for part in path if part in pieces})
    firsts = ((piece, next((e for e in reference.events if piece in e.pieces), None)) for piece in diverging)
    return [], [(piece, event) for piece, event in firsts if event is not None]


def departure_clauses(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome,
                      actual: Outcome) -> tuple[str, ...]:
    """The clauses of the events where the two outcomes first differ (see ``_situation``),
    as far as the outcomes name them: where a report says which rule text to look at."""
    actual = as_compared(ruleset, before, reference, actual)
    paths = _differing_paths(ruleset, before, reference, actual)
    changed, first = _first_events(reference, actual, paths, _pieces(ruleset, before, actions, reference, actual))
    return tuple(sorted({event.clause for _, event in changed + first if event.clause}))


def _situation(reference: Outcome, actual: Outcome, paths: set[tuple[str, ...]], pieces: set[str]) -> tuple[str, ...]:
    """Where the two outcomes first differ, in words that do not name pieces.

    Where the events differ, the earliest differing events: ``no hit`` (the reference
    has it, the implementation not), ``extra hit``. Otherwise each piece whose state
    differs, by the first event it takes part in under the reference (``hit(*)``:
    the piece is the first of its pieces), or ``no event``."""
    changed, first = _first_events(reference, actual, paths, pieces)
    if changed:
        return tuple(sorted({f"{word} {event.kind}" for word, event in changed}))
    diverging = {part for path in paths for part in path if part in pieces}
    found = {_event_role(event, piece) for piece, event in first}
    return tuple(sorted(found | ({"no event"} if len(first) < len(diverging) else set())))


def _value_at(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _deciding_points(ruleset: Ruleset, before: Any, actions: Any, best: Reading,
                     paths: set[tuple[str, ...]]) -> tuple[str, ...]:
    """The reading points whose options, around ``best``, change the reference's outcome
    in the fields that differ: the decision points on the path of the difference."""
    table = reading_table(ruleset, before, actions)
    found = []
    for point in ruleset.reading_points:
        if point.name not in table.points:
            continue
        seen = set()
        for option in point.options:
            key = table.key({**best, point.name: option})
            if key is None:
                continue
            data = outcome_data(ruleset, table.outcomes[key])
            seen.add(answer_text([_value_at(data, path) for path in sorted(paths)]))
        if len(seen) > 1:
            found.append(point.name)
    return tuple(found)


def _part_names(ruleset: Ruleset, paths: set[tuple[str, ...]]) -> tuple[str, ...]:
    """The outcome parts the differing ``paths`` fall in (a top-level field no part names
    stands for itself)."""
    owner = {f: part.name for part in parts(ruleset) for f in part.fields}
    return tuple(sorted({owner.get(path[0], path[0]) for path in paths if path})) or ("outcome",)


def _compared_paths(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome,
                    actual: Outcome) -> set[tuple[str, ...]]:
    """Where ``actual`` departs from ``reference`` as the comparison sees it (with the
    ruleset's tolerance, so a rounding is no difference); the JSON fields that differ where
    the reference cannot be restated as an expectation."""
    found = mismatches(ruleset, before, actions, reference, actual)
    if found is None:
        return _differing_paths(ruleset, before, reference, as_compared(ruleset, before, reference, actual))
    return {tuple(str(part) for part in m.path) for m in found}


def situation_and_shape(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
                        paths: set[tuple[str, ...]] | None = None) -> str:
    """Where the two outcomes first differ (``_situation``) and the outcome parts that
    differ: ``hit(*):ships`` (``paths``: the differing paths, where the caller has them)."""
    if paths is None:
        paths = _compared_paths(ruleset, before, actions, reference, actual)
    reference = as_answered(ruleset, before, reference)
    actual = as_compared(ruleset, before, reference, actual)
    pieces = _pieces(ruleset, before, actions, reference, actual)
    # A comparison may name a whole collection ("ships", for a piece the expectation leaves
    # unlisted): the pieces that differ are then found in the JSON forms, in those fields alone.
    tops = {path[0] for path in paths if path}
    located = paths | {p for p in _differing_paths(ruleset, before, reference, actual) if p and p[0] in tops}
    return ":".join(("+".join(_situation(reference, actual, located, pieces)) or "-",
                     "+".join(_part_names(ruleset, paths))))


def fingerprint(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome) -> str:
    """What matters about how ``actual`` departs from ``reference``: where the outcomes first
    differ (``_situation``) and the outcome parts that differ, such as ``hit(*):ships``.
    Nothing else goes in: not provenance, not the fields within a part (one fault moves a
    ship in one scene and turns it in another), not a value (a rounding is no difference),
    and not the clauses the reference weighed elsewhere in the scene, so one fault met in
    several scenes is one fingerprint."""
    return situation_and_shape(ruleset, before, actions, reference, actual)


def deciding_points(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
                    best: Reading) -> tuple[str, ...]:
    """The reading points whose options, around ``best``, change the reference's outcome
    where ``actual`` departs from it: told with a group, not part of its fingerprint."""
    return _deciding_points(ruleset, before, actions, best, _compared_paths(ruleset, before, actions, reference,
                                                                             actual))


def departure(ruleset: Ruleset, before: Any, actions: Any, answer: Outcome, readings: Sequence[Reading],
              best: Reading) -> str | None:
    """How one answer departs from the best reading, in a few words: None where the best
    reading gives it, ``reading P=O`` where another one does, else its situation and shape."""
    nearest = explaining(ruleset, before, actions, answer, readings, best)
    if nearest is not None:
        changed = reading_label(nearest, best)
        return None if changed.startswith("default (") else f"reading {changed}"
    reference = ruleset.resolve(before, actions, best)
    return situation_and_shape(ruleset, before, actions, reference, answer)


def divergence_print(ruleset: Ruleset, d: Divergence, readings: Sequence[Reading], best: Reading) -> str:
    """An order divergence by the reordering and how each of the two answers departs from the
    best reading; a changing answer by where its two answers differ."""
    if d.kind == "repeat":
        return situation_and_shape(ruleset, d.before, d.actions, d.first, d.second)
    departures = {departure(ruleset, d.before, d.actions, d.first, readings, best),
                  departure(ruleset, d.second_before, d.second_actions, d.second, readings, best)}
    return f"{d.label}: " + (" | ".join(sorted(x for x in departures if x)) or "same reading, other details")
