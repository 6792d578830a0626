"""Differential conformance: generated scenes through another implementation.

Scenes come from the ruleset's explorer strategy. Each goes to the implementation
over the adapter protocol (told the ruleset's default reading) and to the reference
resolver under every full reading. From the answers this module tells

- which option of each reading point the implementation follows, on the scenes where
  the options disagree, and which full reading explains most scenes;
- the disagreements that no reading explains, grouped by fingerprint, each shrunk
  (``Ruleset.simpler``) while the disagreement persists;
- whether its outcome depends on the order pieces are listed in (the ruleset's
  ``order`` transforms) or changes when the same scene is sent again;
- every timeout, crash, malformed answer or refusal, per scene.

Everything goes through the ``Ruleset`` interface, so it serves every ruleset with
the search, interchange and findings capabilities. The reference is resolved only
under the reading points it consults: a point outside ``Outcome.consulted`` cannot
change the outcome, so a scene costs one resolve per combination of the points
that matter to it, not one per full reading.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from .adapter import Implementation, schema_problem
from .adapter.protocol import answer_text, read_outcome, restated_expectation
from .execute import Execution, map_ordered
from .explore import reading_label, shrink_greedily
from .findings import dump_yaml, slug
from .output import json_mark, write_bytes, write_text
from .ruleset import Capability, Event, Outcome, Ruleset, Transform

MAX_START_FAILURES = 3  # in a row; then the run stops and says so
REPEAT_EVERY = 5  # every fifth scene is sent a second time, to catch answers that change
MAX_GROUPS = 12  # disagreement groups shrunk and written; the rest are counted
SHRINK_LIMIT = 300  # simpler scenes tried per group
MAX_RESOLVES = 4096  # reference resolves per scene, whatever the ruleset's reading points

Reading = Mapping[str, str]


def require(ruleset: Ruleset) -> None:
    """Raise UnsupportedError, with a sentence, unless ``ruleset`` can be fuzzed."""
    ruleset.require(Capability.SEARCH, "verifier fuzz (scenes come from the explorer's strategies)")
    ruleset.require(Capability.INTERCHANGE, "verifier fuzz (scenes go to the implementation over the adapter "
                                            "protocol)")
    ruleset.require(Capability.FINDINGS, "verifier fuzz (minimal scenes are written as case files)")


# --- the reference under every reading --------------------------------------------------

@dataclass(frozen=True)
class ReferenceTable:
    """The reference outcome key of one scene under every full reading, stored per
    combination of the reading points that matter to it (``points``); the others
    are left at their defaults."""

    order: tuple[str, ...]  # every reading point, in the ruleset's order
    default: tuple[str, ...]
    points: frozenset[str]
    keys: Mapping[tuple[str, ...], Any]
    outcomes: Mapping[Any, Outcome]  # one reference outcome per distinct key

    def project(self, reading: Reading) -> tuple[str, ...]:
        return tuple(reading[p] if p in self.points else d for p, d in zip(self.order, self.default))

    def key(self, reading: Reading) -> Any:
        """The reference key under ``reading``; None where that combination was past
        MAX_RESOLVES and never resolved, which no answer matches."""
        return self.keys.get(self.project(reading))


def matching(ruleset: Ruleset, before: Any, actions: Any, table: ReferenceTable, actual: Outcome) -> frozenset[Any]:
    """The keys of the reference outcomes that ``actual`` agrees with, by the comparison
    ``check --impl`` makes: the ruleset's ``compare`` against the expectation each
    reference outcome restates (an outcome read from JSON need not have a key)."""
    return frozenset(key for key, reference in table.outcomes.items()
                     if not difference(ruleset, before, actions, reference, actual, missing=("unreadable",)))


def reference_table(ruleset: Ruleset, before: Any, actions: Any) -> ReferenceTable:
    order = tuple(p.name for p in ruleset.reading_points)
    options = {p.name: tuple(p.options) for p in ruleset.reading_points}
    default = tuple(ruleset.default_reading[p] for p in order)
    points: set[str] = set()
    keys: dict[tuple[str, ...], Any] = {}
    outcomes: dict[Any, Outcome] = {}
    while True:
        relevant = [p for p in order if p in points]
        grown: set[str] = set()
        for combo in itertools.product(*(options[p] for p in relevant)):
            chosen = dict(zip(relevant, combo))
            full = tuple(chosen.get(p, d) for p, d in zip(order, default))
            if full in keys:
                continue
            outcome = ruleset.resolve(before, actions, MappingProxyType(dict(zip(order, full))))
            keys[full] = ruleset.outcome_key(outcome)
            outcomes.setdefault(keys[full], outcome)
            grown |= set(outcome.consulted) - points
            if len(keys) >= MAX_RESOLVES:
                grown = set()
                break
        if not grown:
            return ReferenceTable(order, default, frozenset(points), MappingProxyType(keys),
                                  MappingProxyType(outcomes))
        points |= grown


# --- talking to the implementation --------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    scene: str
    kind: str  # protocol (timeout, crash, malformed line), errored, skipped, unreadable
    message: str


class _GivenUp(Exception):
    pass


@dataclass
class Caller:
    """Sends scenes to the implementation and reads its outcomes back; restarts it
    after a crash (``Implementation.start``) and gives up after repeated start failures."""

    ruleset: Ruleset
    impl: Implementation
    problems: list[Problem] = field(default_factory=list)
    calls: int = 0
    seconds: float = 0.0
    start_failures: int = 0
    given_up: str = ""
    _cache: dict[str, Outcome | None] = field(default_factory=dict)
    _used: dict[str, int] = field(default_factory=dict)

    def request(self, scene_id: str, before: Any, actions: Any) -> dict[str, Any]:
        """The protocol message; every request gets an id of its own (the adapter layer
        takes a second answer under one id as an implementation out of step)."""
        before_data, actions_data = self.ruleset.case_data(before, actions)
        seen = self._used.get(scene_id, 0)
        self._used[scene_id] = seen + 1
        request_id = f"{scene_id}~{seen}" if seen else scene_id
        return {"type": "case", "id": request_id, "ruleset": self.ruleset.key,
                "readings": dict(self.ruleset.default_reading), "pinned": {},
                "before": before_data, "actions": actions_data}

    def outcome(self, scene_id: str, before: Any, actions: Any, *, cached: bool = False) -> Outcome | None:
        """The implementation's outcome, or None (and a Problem recorded) when there is none."""
        request = self.request(scene_id, before, actions)
        memo = json.dumps([request["before"], request["actions"]], sort_keys=True) if cached else ""
        if cached and memo in self._cache:
            return self._cache[memo]
        result = None
        answered = self._ask(scene_id, request)
        if answered is not None:
            result, why = read_answer(self.ruleset, before, answered.data)
            if result is None:
                self._problem(scene_id, "unreadable", why)
        if cached:
            self._cache[memo] = result
        return result

    def answer(self, scene_id: str, before: Any, actions: Any) -> Answered | None:
        """The outcome field of the implementation's answer, not read yet; None (and a
        Problem recorded) when there is none."""
        return self._ask(scene_id, self.request(scene_id, before, actions))

    def _problem(self, scene_id: str, kind: str, message: str) -> None:
        self.problems.append(Problem(scene_id, kind, message))

    def _ask(self, scene_id: str, request: dict[str, Any]) -> Answered | None:
        if self.given_up:
            raise _GivenUp(self.given_up)
        why = self.impl.start()
        if why:
            self.start_failures += 1
            self._problem(scene_id, "protocol", f"the implementation could not be started: {why}")
            if self.start_failures >= MAX_START_FAILURES:
                self.given_up = (f"the implementation failed to start {self.start_failures} times in a row "
                                 f"(last: {why})")
                raise _GivenUp(self.given_up)
            return None
        self.start_failures = 0
        self.calls += 1
        answer = self.impl.ask(request)
        self.seconds += answer.seconds
        if answer.kind == "skipped":
            self._problem(scene_id, "skipped", answer.message)
            return None
        if answer.kind == "errored":
            kind = "protocol" if answer.protocol else "errored"
            self._problem(scene_id, kind, answer.message)
            return None
        return Answered(answer.data)


@dataclass(frozen=True)
class Answered:
    data: Any  # the outcome field of an answer


def read_answer(ruleset: Ruleset, before: Any, data: Any) -> tuple[Outcome | None, str]:
    """The outcome an answer's data gives, or None and why it cannot be read."""
    if ruleset.outcome_schema:
        problem = schema_problem(f"outcome_{ruleset.key}", data)
        if problem:
            return None, f"the outcome does not fit the {ruleset.key} outcome schema: {problem}"
    outcome = read_outcome(ruleset, before, data)
    return (None, outcome) if isinstance(outcome, str) else (outcome, "")


# --- fingerprints: what matters about a difference ------------------------------------------

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
    ours, theirs = ruleset.outcome_json(reference), ruleset.outcome_json(actual)
    reference_key = ruleset.outcome_key(reference)
    kept: set[tuple[str, ...]] = set()
    for path in _json_paths(ours, theirs, ()):
        top = path[0] if path else ""
        if top and top in ours and top in theirs:
            try:
                hybrid = ruleset.outcome_from_json(before, {**ours, top: theirs[top]})
                if ruleset.outcome_key(hybrid) == reference_key:
                    continue
            except Exception:  # a mixed outcome the reader refuses: keep the field
                pass
        kept.add(path)
    return kept


def _starred(paths: set[tuple[str, ...]], pieces: set[str]) -> tuple[str, ...]:
    return tuple(sorted({".".join("*" if part in pieces else part for part in p) or "outcome" for p in paths})) \
        or ("outcome",)


def shape(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome) -> tuple[str, ...]:
    """The fields of the outcome's JSON form where ``actual`` departs from ``reference``,
    with piece names as "*"."""
    return _starred(_differing_paths(ruleset, before, reference, actual),
                    _pieces(ruleset, before, actions, reference, actual))


def _event_role(event: Event, piece: str) -> str:
    """An event as the kind and the place of ``piece`` among its pieces: ``hit(*,_)``."""
    return f"{event.kind}({','.join('*' if p == piece else '_' for p in event.pieces)})"


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
    paths = _differing_paths(ruleset, before, reference, actual)
    changed, first = _first_events(reference, actual, paths, _pieces(ruleset, before, actions, reference, actual))
    return tuple(sorted({event.clause for _, event in changed + first if event.clause}))


def _situation(reference: Outcome, actual: Outcome, paths: set[tuple[str, ...]], pieces: set[str]) -> tuple[str, ...]:
    """Where the two outcomes first differ, in words that do not name pieces.

    Where the events differ, the earliest differing events: ``no hit`` (the reference
    has it, the implementation not), ``extra hit``. Otherwise each piece whose state
    differs, by the first event it takes part in under the reference (``hit(*,_)``:
    the piece is the first of two), or ``no event``."""
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
    table = reference_table(ruleset, before, actions)
    found = []
    for point in ruleset.reading_points:
        if point.name not in table.points:
            continue
        seen = set()
        for option in point.options:
            key = table.key({**best, point.name: option})
            if key is None:
                continue
            data = ruleset.outcome_json(table.outcomes[key])
            seen.add(answer_text([_value_at(data, path) for path in sorted(paths)]))
        if len(seen) > 1:
            found.append(point.name)
    return tuple(found)


def situation_and_shape(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
                        paths: set[tuple[str, ...]] | None = None) -> str:
    """The cheap part of a fingerprint, used to sort scenes before they are shrunk
    (``paths``: the differing paths, where the caller has them already)."""
    if paths is None:
        paths = _differing_paths(ruleset, before, reference, actual)
    pieces = _pieces(ruleset, before, actions, reference, actual)
    return ":".join(("+".join(_situation(reference, actual, paths, pieces)) or "-", "+".join(_starred(paths, pieces))))


def fingerprint(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
                best: Reading) -> str:
    """What matters about how ``actual`` departs from ``reference`` (resolved under ``best``):
    the reading points that decide the differing fields, where the outcomes first differ
    (``_situation``) and the fields that differ, with piece names as "*"; such as
    ``-:hit(*,_):pieces.*.heading``. The clauses the reference weighed elsewhere in the
    scene are left out, so one fault met in several scenes is one fingerprint."""
    paths = _differing_paths(ruleset, before, reference, actual)
    points = _deciding_points(ruleset, before, actions, best, paths)
    return ":".join(("+".join(points) or "-", situation_and_shape(ruleset, before, actions, reference, actual,
                                                                    paths)))


def difference(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
               missing: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ruleset's own words for how ``actual`` departs from ``reference``: its comparison
    against the expectation the reference's outcome makes (``missing`` where it cannot make one)."""
    before_data, actions_data = ruleset.case_data(before, actions)
    try:
        expect = restated_expectation(ruleset, "<fuzz>", before, before_data, actions_data, reference)
        return tuple(m.message for m in ruleset.compare(before, expect, actual))
    except Exception:  # an outcome the ruleset cannot restate as an expectation: no words for it
        return missing


# --- the run ----------------------------------------------------------------------------------

@dataclass
class Trial:
    """One generated scene: the reference table and the implementation's answer."""

    scene_id: str
    before: Any
    actions: Any
    table: ReferenceTable
    actual: Outcome | None
    matches: frozenset[Any] = frozenset()  # keys of the reference outcomes the answer agrees with
    data: Any = None  # the answer as sent

    def explains(self, reading: Reading) -> bool:
        return self.table.key(reading) in self.matches


@dataclass
class Group:
    """Scenes no reading explains (``kind`` "disagreement"), or that another reading than
    the best explains ("mixed"), that share a fingerprint, with the minimal scene."""

    fingerprint: str
    count: int
    scene_ids: list[str]
    before: Any
    actions: Any
    actual: Outcome
    shrunk_from: str  # the scene the minimal one was shrunk from
    shrink_tries: int = 0
    shrink_seconds: float = 0.0
    first_seen_seconds: float = 0.0
    kind: str = "disagreement"
    reading: Reading | None = None  # for "mixed": the reading nearest the best that explains them


@dataclass
class Divergence:
    """An answer that changed when the scene was listed in another order, or sent again."""

    kind: str  # "order" or "repeat"
    scene_id: str
    label: str
    before: Any
    actions: Any
    first: Outcome
    second: Outcome
    second_before: Any
    second_actions: Any
    shrink_tries: int = 0


@dataclass
class DivergenceGroup:
    """Divergences of one kind that share a fingerprint, with the minimal example."""

    fingerprint: str
    count: int
    scene_ids: list[str]
    example: Divergence
    shrunk_from: str


@dataclass
class FuzzResult:
    ruleset: Ruleset
    implementation: str
    seed: int
    examples: int  # asked for
    budget: float
    readings: list[Reading]
    trials: list[Trial]
    explained: list[int]  # per reading: scenes whose answer it gives
    best: int
    runner_up: int | None
    points: dict[str, dict[str, Any]]
    other_reading: int  # scenes the best reading does not explain but some other does
    unexplained: int
    groups: list[Group]
    groups_not_shrunk: int
    order_checked: int
    repeat_checked: int
    divergences: list[Divergence]
    divergence_groups: list[DivergenceGroup]
    problems: list[Problem]
    stopped_by_budget: bool
    given_up: str
    seconds: float
    impl_calls: int
    impl_seconds: float
    workers: int = 1
    mixed: list[Group] = field(default_factory=list)
    mixed_not_shrunk: int = 0
    divergences_not_shrunk: int = 0

    @property
    def answered(self) -> list[Trial]:
        return [t for t in self.trials if t.actual is not None]



def _scenes(ruleset: Ruleset, seed: int, examples: int, budget: float, start: float,
            visit: Callable[[Any, Any], None]) -> bool:
    """Hand ``visit`` each scene Hypothesis draws; True when the budget stopped it."""
    from .generation import each_scene
    return each_scene(ruleset.strategy(), visit, seed=seed, examples=examples, deadline=start + budget)


def _explained(readings: Sequence[Reading], trials: Sequence[Trial]) -> list[int]:
    """Per reading, the number of ``trials`` whose answer it gives. Readings that agree on the
    points a scene consults share its reference outcome, so each scene is looked at once
    per combination of those points, not once per reading."""
    explained = [0] * len(readings)
    sharing: dict[frozenset[str], dict[tuple[str, ...], list[int]]] = {}
    for trial in trials:
        if not trial.matches:
            continue
        table = trial.table
        if table.points not in sharing:
            by_projection: dict[tuple[str, ...], list[int]] = {}
            for i, reading in enumerate(readings):
                by_projection.setdefault(table.project(reading), []).append(i)
            sharing[table.points] = by_projection
        for projection, indices in sharing[table.points].items():
            if table.keys.get(projection) in trial.matches:
                for i in indices:
                    explained[i] += 1
    return explained


def _point_shares(ruleset: Ruleset, trials: Sequence[Trial], best: Reading) -> dict[str, dict[str, Any]]:
    """Per reading point, around the best reading: the scenes where its options give
    different outcomes, and the share of those the implementation answers like each option."""
    shares: dict[str, dict[str, Any]] = {}
    for point in ruleset.reading_points:
        informative = 0
        matches = dict.fromkeys(point.options, 0)
        for trial in trials:
            keys = {o: trial.table.key({**best, point.name: o}) for o in point.options}
            if None in keys.values() or len(set(keys.values())) < 2:
                continue
            informative += 1
            for option, key in keys.items():
                if key in trial.matches:
                    matches[option] += 1
        shares[point.name] = {
            "default": point.default, "informative": informative,
            "options": {o: {"matches": n, "share": round(n / informative, 4) if informative else None}
                        for o, n in matches.items()},
        }
    return shares




def _order_differs(ruleset: Ruleset, trial: Trial, transform: Transform, moved: Outcome) -> bool:
    """Whether the answer for the scene listed in another order is not the first answer,
    carried over by the transform. Where outcome keys cannot be taken of an answer read
    from JSON, the readings that explain each answer are compared instead."""
    assert trial.actual is not None
    try:
        return bool(ruleset.outcome_key(moved) != transform.map_key(ruleset.outcome_key(trial.actual)))
    except Exception:  # the ruleset keys only its own outcomes
        table = reference_table(ruleset, transform.before, transform.actions)
        moved_matches = matching(ruleset, transform.before, transform.actions, table, moved)
        return any((table.key(r) in moved_matches) != trial.explains(r) for r in ruleset.all_readings())


def _order_transforms(ruleset: Ruleset, before: Any, actions: Any) -> list[Transform]:
    return [t for t in ruleset.transforms(before, actions) if t.kind == "order"]


# Scenes are drawn first. Then this process asks the implementation, one request after
# another, while workers resolve the reference under every reading and read the answers
# of the scenes already sent. (Drawing on a thread of its own, beside the asking, races
# with modules the reference imports lazily: Hypothesis looks into sys.modules.)

BATCH = 16  # scenes per piece of reference work handed to a worker


@dataclass(frozen=True)
class _Sent:
    """What was sent to the implementation about one scene, and what came back (kept in this process)."""

    index: int
    scene_id: str
    before: Any
    actions: Any
    transforms: tuple[Transform, ...]  # the reorderings sent
    answers: tuple[tuple[str, str, Any], ...]  # per answered request: (what: "", "again" or a reordering, id, data)
    again_differs: bool  # the answer to the scene sent again is not the first one, as sent
    problems: tuple[Problem, ...]  # timeouts, crashes, refusals: the requests with no answer
    seconds: float  # since the start of the run


@dataclass(frozen=True)
class _ReferenceWork:
    """A scene and the answers to it, for the reference work (picklable)."""

    ruleset: Ruleset | str  # the ruleset in this process, its registry key in a worker
    before: Any
    actions: Any
    answers: tuple[tuple[str, str, Any], ...]


@dataclass(frozen=True)
class _ReferenceDone:
    points: frozenset[str]
    keys: dict[tuple[str, ...], Any]
    matches: frozenset[Any]
    readable: frozenset[str]  # the answers that could be read ("" the first, "again", or a reordering's name)
    order_differs: frozenset[str]  # names of the reorderings whose answer differs
    unreadable: tuple[Problem, ...]


def _reference_work(batch: Sequence[_ReferenceWork]) -> list[_ReferenceDone]:
    """For each scene of ``batch``: the reference under every reading, the answers read, and
    how they compare."""
    from . import registry

    done = []
    for work in batch:
        ruleset = work.ruleset if isinstance(work.ruleset, Ruleset) else registry.get(work.ruleset)
        table = reference_table(ruleset, work.before, work.actions)
        transforms = {t.name: t for t in _order_transforms(ruleset, work.before, work.actions)} \
            if len(work.answers) > 1 else {}
        outcomes: dict[str, Outcome] = {}
        unreadable = []
        for what, request_id, data in work.answers:
            before = transforms[what].before if what in transforms else work.before
            outcome, why = read_answer(ruleset, before, data)
            if outcome is None:
                unreadable.append(Problem(request_id, "unreadable", why))
            else:
                outcomes[what] = outcome
        matches: frozenset[Any] = frozenset()
        differs: set[str] = set()
        actual = outcomes.get("")
        if actual is not None:
            matches = matching(ruleset, work.before, work.actions, table, actual)
            trial = Trial("", work.before, work.actions, table, actual, matches)
            differs = {name for name, transform in transforms.items()
                       if name in outcomes and _order_differs(ruleset, trial, transform, outcomes[name])}
        done.append(_ReferenceDone(table.points, dict(table.keys), matches, frozenset(outcomes), frozenset(differs),
                                   tuple(unreadable)))
    return done


def _send(ruleset: Ruleset, caller: Caller, index: int, scene_id: str, before: Any, actions: Any,
          counts: dict[str, int], start: float) -> _Sent:
    """The scene to the implementation, then, if it answered, each reordering of it and,
    every ``REPEAT_EVERY`` scenes, the scene again. The problems of these requests are
    taken out of ``caller.problems`` and kept with the scene, so that they are reported in
    scene order however the work is spread."""
    mark = len(caller.problems)
    answers = []
    transforms: list[Transform] = []
    again_differs = False
    first = caller.answer(scene_id, before, actions)
    at = time.perf_counter() - start
    if first is not None:
        answers.append(("", scene_id, first.data))
        for transform in _order_transforms(ruleset, before, actions):
            counts["order"] += 1
            transforms.append(transform)
            request_id = f"{scene_id}-{slug(transform.name)}"
            moved = caller.answer(request_id, transform.before, transform.actions)
            if moved is not None:
                answers.append((transform.name, request_id, moved.data))
        if index % REPEAT_EVERY == 0:
            counts["repeat"] += 1
            again = caller.answer(f"{scene_id}-again", before, actions)
            if again is not None:
                answers.append(("again", f"{scene_id}-again", again.data))
                again_differs = answer_text(again.data) != answer_text(first.data)
    problems = tuple(caller.problems[mark:])
    del caller.problems[mark:]
    return _Sent(index, scene_id, before, actions, tuple(transforms), tuple(answers), again_differs, problems, at)


# --- grouping and shrinking ----------------------------------------------------------------

Member = TypeVar("Member")
Example = TypeVar("Example")


@dataclass
class _Grouped(Generic[Member, Example]):
    fingerprint: str
    members: list[Member]
    example: Example
    first: Member
    seconds: float


def _grouped(members: Sequence[Member], bucket: Callable[[Member], str],
             shrink: Callable[[Member], tuple[str, Example]], max_groups: int,
             deadline: float) -> tuple[list[_Grouped[Member, Example]], int]:
    """``members`` sorted by a cheap key (``bucket``), the largest buckets first; the first
    member of each is shrunk (``shrink`` gives the fingerprint of its minimal example and
    the example), and buckets whose minimal examples share a fingerprint merge. Returns
    the groups, the largest first, and the number of members left in buckets not shrunk
    (beyond ``max_groups`` or the time ``deadline``)."""
    by_bucket: dict[str, list[Member]] = {}
    for member in members:
        by_bucket.setdefault(bucket(member), []).append(member)
    ordered = sorted(by_bucket.items(), key=lambda item: (-len(item[1]), item[0]))
    merged: dict[str, _Grouped[Member, Example]] = {}
    shrunk = 0
    for _, bucket_members in ordered:
        if len(merged) >= max_groups or time.perf_counter() > deadline:
            break
        t0 = time.perf_counter()
        key, example = shrink(bucket_members[0])
        shrunk += 1
        if key in merged:
            merged[key].members += bucket_members
        else:
            merged[key] = _Grouped(key, list(bucket_members), example, bucket_members[0], time.perf_counter() - t0)
    groups = sorted(merged.values(), key=lambda g: (-len(g.members), g.fingerprint))
    return groups, sum(len(m) for _, m in ordered[shrunk:])


def _explaining(ruleset: Ruleset, before: Any, actions: Any, answer: Outcome, readings: Sequence[Reading],
                best: Reading) -> Reading | None:
    """The reading nearest ``best`` (fewest points changed) that explains ``answer``; None if none does."""
    table = reference_table(ruleset, before, actions)
    matches = matching(ruleset, before, actions, table, answer)
    found = [r for r in readings if table.key(r) in matches]
    return min(found, key=lambda r: sum(r[p] != best[p] for p in best)) if found else None


def _departure(ruleset: Ruleset, before: Any, actions: Any, answer: Outcome, readings: Sequence[Reading],
               best: Reading) -> str | None:
    """How one answer departs from the best reading, in a few words: None where the best
    reading gives it, ``reading P=O`` where another one does, else its situation and shape."""
    nearest = _explaining(ruleset, before, actions, answer, readings, best)
    if nearest is not None:
        changed = reading_label(nearest, best)
        return None if changed.startswith("default (") else f"reading {changed}"
    reference = ruleset.resolve(before, actions, best)
    return situation_and_shape(ruleset, before, actions, reference, answer)


def _divergence_print(ruleset: Ruleset, d: Divergence, readings: Sequence[Reading], best: Reading) -> str:
    """An order divergence by the reordering and how each of the two answers departs from the
    best reading; a changing answer by where its two answers differ."""
    if d.kind == "repeat":
        return situation_and_shape(ruleset, d.before, d.actions, d.first, d.second)
    departures = {_departure(ruleset, d.before, d.actions, d.first, readings, best),
                  _departure(ruleset, d.second_before, d.second_actions, d.second, readings, best)}
    return f"{d.label}: " + (" | ".join(sorted(x for x in departures if x)) or "same reading, other details")


def _shrink(ruleset: Ruleset, caller: Caller, trial: Trial, limit: int) -> tuple[Any, Any, Outcome, int]:
    """Replace the scene by simpler ones while the implementation's answer stays one that
    no reading gives."""
    assert trial.actual is not None

    def unexplained(before: Any, actions: Any) -> Outcome | None:
        answer = caller.outcome(f"{trial.scene_id}-shrink", before, actions, cached=True)
        if answer is None or matching(ruleset, before, actions, reference_table(ruleset, before, actions), answer):
            return None
        return answer

    before, actions, answer, tries = shrink_greedily(ruleset, trial.before, trial.actions, unexplained, limit)
    return before, actions, answer or trial.actual, tries


def _shrink_mixed(ruleset: Ruleset, caller: Caller, trial: Trial, readings: Sequence[Reading], best: Reading,
                  limit: int) -> tuple[Any, Any, Outcome, int]:
    """Simpler scenes while the same other reading (and not the best) explains the answer."""
    assert trial.actual is not None
    wanted = _explaining(ruleset, trial.before, trial.actions, trial.actual, readings, best)

    def still(before: Any, actions: Any) -> Outcome | None:
        answer = caller.outcome(f"{trial.scene_id}-shrink", before, actions, cached=True)
        if answer is None:
            return None
        return answer if _explaining(ruleset, before, actions, answer, readings, best) == wanted else None

    before, actions, answer, tries = shrink_greedily(ruleset, trial.before, trial.actions, still, limit)
    return before, actions, answer or trial.actual, tries


def _order_divergence(ruleset: Ruleset, caller: Caller, scene_id: str, before: Any,
                      actions: Any) -> Divergence | None:
    """The first order transform of the scene under which the implementation's answer changes."""
    actual = caller.outcome(scene_id, before, actions, cached=True)
    if actual is None:
        return None
    table = reference_table(ruleset, before, actions)
    trial = Trial(scene_id, before, actions, table, actual, matching(ruleset, before, actions, table, actual))
    for transform in _order_transforms(ruleset, before, actions):
        moved = caller.outcome(f"{scene_id}-{slug(transform.name)}", transform.before, transform.actions, cached=True)
        if moved is not None and _order_differs(ruleset, trial, transform, moved):
            return Divergence("order", scene_id, transform.name, before, actions, actual, moved, transform.before,
                              transform.actions)
    return None


def _shrink_order(ruleset: Ruleset, caller: Caller, found: Divergence, limit: int) -> Divergence:
    """Simpler scenes while listing the pieces in another order still changes the answer."""
    _, _, smaller, tries = shrink_greedily(
        ruleset, found.before, found.actions,
        lambda before, actions: _order_divergence(ruleset, caller, f"{found.scene_id}-shrink", before, actions), limit)
    found = smaller or found
    return replace(found, scene_id=found.scene_id.removesuffix("-shrink"), shrink_tries=tries)


def run(ruleset: Ruleset, impl: Implementation, *, examples: int = 200, budget: float = 60.0, seed: int = 0,
        max_groups: int = MAX_GROUPS, shrink_limit: int = SHRINK_LIMIT, workers: int = 1,
        scheduler: str | None = None, log: Callable[[str], None] | None = None) -> FuzzResult:
    """Fuzz ``impl`` against the reference. The implementation is asked in this process; the
    reference under every reading runs on ``workers`` processes (or on the Dask cluster at
    ``scheduler``). The report is the same whatever ``workers`` is."""
    require(ruleset)
    start = time.perf_counter()
    caller = Caller(ruleset, impl)
    execution = Execution(workers, scheduler)
    handed: Ruleset | str = ruleset if execution.in_process else ruleset.key
    counts = {"order": 0, "repeat": 0}
    sent: dict[int, _Sent] = {}
    given_up = ""
    scenes: list[tuple[Any, Any]] = []
    stopped = _scenes(ruleset, seed, examples, budget, start, lambda before, actions: scenes.append((before, actions)))

    def batches() -> Iterator[list[_ReferenceWork]]:
        nonlocal stopped, given_up
        batch: list[_ReferenceWork] = []
        for index, (before, actions) in enumerate(scenes, 1):
            if time.perf_counter() - start > budget:
                stopped = True
                break
            try:
                record = _send(ruleset, caller, index, f"fuzz-{seed}-{index}", before, actions, counts, start)
            except _GivenUp as exc:
                given_up = str(exc)
                break
            sent[index] = record
            batch.append(_ReferenceWork(handed, before, actions, record.answers))
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    order = tuple(p.name for p in ruleset.reading_points)
    default_options = tuple(ruleset.default_reading[p] for p in order)
    trials: list[Trial] = []
    divergences: list[Divergence] = []
    problems: list[Problem] = []
    for done_batch in map_ordered(_reference_work, batches(), execution):
        for done in done_batch:
            record = sent[len(trials) + 1]
            problems += record.problems + done.unreadable
            table = ReferenceTable(order, default_options, done.points, MappingProxyType(done.keys),
                                   MappingProxyType({}))
            data = {what: d for what, _, d in record.answers if what in done.readable}
            actual = ruleset.outcome_from_json(record.before, data[""]) if "" in data else None
            trials.append(Trial(record.scene_id, record.before, record.actions, table, actual, done.matches,
                                answer_text(data[""]) if "" in data else None))
            if actual is None:
                continue
            for transform in record.transforms:
                if transform.name in done.order_differs:
                    moved = ruleset.outcome_from_json(transform.before, data[transform.name])
                    divergences.append(Divergence("order", record.scene_id, transform.name, record.before,
                                                  record.actions, actual, moved, transform.before,
                                                  transform.actions))
            if record.again_differs and "again" in data:
                again = ruleset.outcome_from_json(record.before, data["again"])
                divergences.append(Divergence("repeat", record.scene_id, "sent again", record.before,
                                              record.actions, actual, again, record.before, record.actions))
    caller.problems[:0] = problems  # those of the scenes, in scene order, before any of shrinking
    if log:
        log(f"  {len(trials)} scenes in {time.perf_counter() - start:.1f} s")

    readings = ruleset.all_readings()
    answered = [t for t in trials if t.actual is not None]
    explained = _explained(readings, answered)
    default = ruleset.default_reading

    def changes(i: int) -> int:
        return sum(readings[i][p] != default[p] for p in default)

    ranked = sorted(range(len(readings)), key=lambda i: (-explained[i], changes(i), i))
    best = ranked[0]
    runner_up = ranked[1] if len(ranked) > 1 else None
    best_reading = readings[best]

    unexplained_trials = [t for t in answered if not t.matches]
    mixed_trials = [t for t in answered if t.matches and not t.explains(best_reading)]
    deadline = time.perf_counter() + budget
    seen_at = {record.scene_id: record.seconds for record in sent.values()}

    def actual_of(trial: Trial) -> Outcome:
        assert trial.actual is not None
        return trial.actual

    def guarded(shrink: Callable[[Member], tuple[str, Example]],
                fallback: Callable[[Member], tuple[str, Example]]) -> Callable[[Member], tuple[str, Example]]:
        """Shrinking stops at the first sign that the implementation cannot be started."""
        def call(member: Member) -> tuple[str, Example]:
            nonlocal given_up
            if not given_up:
                try:
                    return shrink(member)
                except _GivenUp as exc:
                    given_up = str(exc)
            return fallback(member)
        return call

    def disagreement(trial: Trial, tries_made: bool = True) -> tuple[str, Group]:
        t0 = time.perf_counter()
        if tries_made:
            before, actions, actual, tries = _shrink(ruleset, caller, trial, shrink_limit)
        else:
            before, actions, actual, tries = trial.before, trial.actions, actual_of(trial), 0
        reference = ruleset.resolve(before, actions, best_reading)
        key = fingerprint(ruleset, before, actions, reference, actual, best_reading)
        if log and tries_made:
            log(f"  shrank {trial.scene_id} in {tries} tries: {key}")
        return key, Group(key, 0, [], before, actions, actual, trial.scene_id, tries, time.perf_counter() - t0,
                          seen_at[trial.scene_id])

    def bucket(trial: Trial) -> str:
        return situation_and_shape(ruleset, trial.before, trial.actions,
                                   ruleset.resolve(trial.before, trial.actions, best_reading), actual_of(trial))

    found, not_shrunk = _grouped(unexplained_trials, bucket,
                                 guarded(disagreement, lambda t: disagreement(t, tries_made=False)),
                                 max_groups, deadline)
    groups = [replace(g.example, count=len(g.members), scene_ids=[t.scene_id for t in g.members]) for g in found]

    def other_reading_of(trial: Trial) -> str:
        nearest = _explaining(ruleset, trial.before, trial.actions, actual_of(trial), readings, best_reading)
        assert nearest is not None
        return reading_label(nearest, best_reading)

    def mixed_example(trial: Trial, tries_made: bool = True) -> tuple[str, Group]:
        t0 = time.perf_counter()
        if tries_made:
            before, actions, actual, tries = _shrink_mixed(ruleset, caller, trial, readings, best_reading,
                                                           shrink_limit)
        else:
            before, actions, actual, tries = trial.before, trial.actions, actual_of(trial), 0
        nearest = _explaining(ruleset, before, actions, actual, readings, best_reading)
        assert nearest is not None
        key = reading_label(nearest, best_reading)
        return key, Group(key, 0, [], before, actions, actual, trial.scene_id, tries, time.perf_counter() - t0,
                          seen_at[trial.scene_id], kind="mixed", reading=nearest)

    found_mixed, mixed_not_shrunk = _grouped(mixed_trials, other_reading_of,
                                             guarded(mixed_example, lambda t: mixed_example(t, tries_made=False)),
                                             max_groups, deadline)
    mixed = [replace(g.example, count=len(g.members), scene_ids=[t.scene_id for t in g.members])
             for g in found_mixed]

    def divergence_example(d: Divergence, tries_made: bool = True) -> tuple[str, Divergence]:
        if d.kind == "order" and tries_made:
            d = _shrink_order(ruleset, caller, d, shrink_limit)
        return _divergence_print(ruleset, d, readings, best_reading), d

    divergence_groups: list[DivergenceGroup] = []
    divergences_not_shrunk = 0
    for kind in ("order", "repeat"):
        of_kind = [d for d in divergences if d.kind == kind]
        found_divergences, left = _grouped(
            of_kind, lambda d: _divergence_print(ruleset, d, readings, best_reading),
            guarded(divergence_example, lambda d: divergence_example(d, tries_made=False)), max_groups, deadline)
        divergences_not_shrunk += left
        divergence_groups += [DivergenceGroup(g.fingerprint, len(g.members), [d.scene_id for d in g.members],
                                              g.example, g.first.scene_id) for g in found_divergences]

    return FuzzResult(
        ruleset=ruleset, implementation=impl.describe(), seed=seed, examples=examples, budget=budget,
        readings=readings, trials=trials, explained=explained, best=best, runner_up=runner_up,
        points=_point_shares(ruleset, answered, best_reading), other_reading=len(mixed_trials),
        unexplained=len(unexplained_trials), groups=groups, groups_not_shrunk=not_shrunk,
        order_checked=counts["order"], repeat_checked=counts["repeat"], divergences=divergences,
        divergence_groups=divergence_groups, problems=caller.problems, stopped_by_budget=stopped,
        given_up=caller.given_up or given_up, seconds=time.perf_counter() - start, impl_calls=caller.calls,
        impl_seconds=caller.seconds, workers=workers, mixed=mixed, mixed_not_shrunk=mixed_not_shrunk,
        divergences_not_shrunk=divergences_not_shrunk)


# --- writing the report ------------------------------------------------------------------------

@dataclass(frozen=True)
class WrittenGroup:
    group: Group
    case_file: Path
    diagram: Path
    reference: Outcome


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f} %" if whole else "-"


def _case_text(result: FuzzResult, name: str, title: str, note: str, comment: str, before: Any, actions: Any,
               reference: Outcome, theirs: Sequence[tuple[str, Any, Outcome]]) -> str:
    """A case file (status derived) whose expectation is the reference's under the best
    reading; the implementation's answers (label, scene, outcome) follow as comments."""
    ruleset = result.ruleset
    best = result.readings[result.best]
    before_data, actions_data = ruleset.case_data(before, actions)
    clauses = sorted(reference.clauses_used()) or [c.id for c in ruleset.clauses][:1]
    first = ruleset.clause(clauses[0]).source
    pins = {p: o for p, o in best.items() if o != ruleset.default_reading[p]}
    data: dict[str, Any] = {
        "id": name, "title": title, "ruleset": ruleset.key, "status": "derived",
        "source": {"seed": first.seed, "section": first.section, "example": "found by verifier fuzz"},
        "clauses": clauses,
    }
    if pins:
        data["readings"] = pins
    data["note"] = (f"{note} The expectation is the reference's under the reading that explains most scenes "
                    f"({reading_label(best, ruleset.default_reading)}); the implementation ({result.implementation}) "
                    f"answered as in the comments at the end.")
    data["before"] = before_data
    data["actions"] = actions_data
    data["expect"] = ruleset.expect_data(before, reference)
    text = f"# generator: verifier fuzz; {comment}\n" + dump_yaml(data)
    for label, scene, outcome in theirs:
        try:
            answer = dump_yaml({"expect": ruleset.expect_data(scene, outcome)})
        except Exception:  # an outcome the ruleset cannot restate as an expectation
            answer = json.dumps(ruleset.outcome_json(outcome), indent=1) + "\n"
        text += f"# {label}:\n" + "".join(f"# {line}\n" for line in answer.splitlines())
    return text


def _differs(group: Group) -> str:
    return group.fingerprint.rsplit(":", 1)[-1].replace("+", ", ")


def _clear_old(folder: Path) -> None:
    """Remove the case files and diagrams an earlier run wrote here (and only those)."""
    from .output import refusal
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.suffix in (".yaml", ".png") and path.is_file() and refusal(path, "fuzz finding") is None:
            path.unlink()


def _with_places(actual: Outcome, reference: Outcome) -> Outcome:
    """The implementation's outcome with the places of its events filled in from the
    reference's matching events: the adapter protocol does not carry where an event
    happened, and a drawing needs it."""
    places = {(e.kind, e.pieces, e.round, e.phase): e.at for e in reference.events if e.at is not None}
    events = tuple(e if e.at is not None else replace(e, at=places.get((e.kind, e.pieces, e.round, e.phase)))
                   for e in actual.events)
    return replace(actual, events=events)


def _draw(ruleset: Ruleset, group: Group, panels: list[tuple[str, Outcome | None]], reference: Outcome,
          title: str) -> Any:
    actual = _with_places(group.actual, reference)
    attempts = [(panels[-1][0], actual), (f"{panels[-1][0]} (events not drawn: no place known)",
                                          replace(actual, events=tuple(e for e in actual.events if e.at is not None)))]
    for i, (label, outcome) in enumerate(attempts):
        try:
            return ruleset.draw_readings(group.before, group.actions, panels[:-1] + [(label, outcome)], title=title)
        except Exception:  # an answer the ruleset's drawing cannot place; try with less of it
            if i == len(attempts) - 1:
                raise
    raise AssertionError("unreachable")


def write_groups(result: FuzzResult, out: Path, force: bool = False) -> list[WrittenGroup]:
    """One case file and one diagram per group of disagreements and of scenes another
    reading explains, under ``out/findings``."""
    from .snapshots import png_bytes

    ruleset = result.ruleset
    best = result.readings[result.best]
    best_label = reading_label(best, ruleset.default_reading)
    _clear_old(out / "findings")
    written = []
    numbered = list(enumerate(result.groups, 1)) + list(enumerate(result.mixed, 1))
    for i, group in numbered:
        reference = ruleset.resolve(group.before, group.actions, best)
        if group.kind == "mixed":
            name = slug(f"{ruleset.key}-fuzz-mixed-{i}-{group.fingerprint}")
            title = f"An implementation follows {group.fingerprint} here, and {best_label} in most scenes"
            note = (f"Minimal scene the implementation answers as the reading {group.fingerprint} does, while it "
                    f"answers most scenes as {best_label} does: it follows different readings in different "
                    "situations.")
            panels: list[tuple[str, Outcome | None]] = [
                ("before", None), ("reference, best reading", reference),
                (f"implementation (as {group.fingerprint})", group.actual)]
        else:
            situation = re.sub(r"\([^)]*\)", "", group.fingerprint.split(":")[1])  # "hit(*,_)" -> "hit"
            name = slug(f"{ruleset.key}-fuzz-{i}-{situation}-{_differs(group).replace('*', 'each')}")
            title = f"The implementation departs from every reading; its outcome differs in {_differs(group)}"
            note = "Minimal scene where the implementation gives an outcome that no reading of the rule gives."
            panels = [("before", None), ("reference, best reading", reference), ("implementation", group.actual)]
        case_file, diagram = out / "findings" / f"{name}.yaml", out / "findings" / f"{name}.png"
        text = _case_text(result, name, title, note, f"{group.kind}, fingerprint {group.fingerprint}", group.before,
                          group.actions, reference, [("The implementation's outcome", group.before, group.actual)])
        write_text(case_file, text, "fuzz case file", force)
        image = _draw(ruleset, group, panels, reference, title)
        write_bytes(diagram, png_bytes(image, software=json_mark("fuzz")), "fuzz diagram", force)
        written.append(WrittenGroup(group, case_file, diagram, reference))
    return written


@dataclass(frozen=True)
class WrittenDivergence:
    group: DivergenceGroup
    case_file: Path
    diagram: Path

    @property
    def divergence(self) -> Divergence:
        return self.group.example


def _stack(images: Sequence[Any]) -> Any:
    from PIL import Image
    gap = 16
    width = max(i.width for i in images)
    height = sum(i.height for i in images) + gap * (len(images) - 1)
    sheet = Image.new("RGB", (width, height), "white")
    y = 0
    for image in images:
        sheet.paste(image, (0, y))
        y += image.height + gap
    return sheet


def write_divergences(result: FuzzResult, out: Path, force: bool = False) -> list[WrittenDivergence]:
    """Per group of order-dependent answers (shrunk) and of changing answers, a case file
    and a diagram of the implementation's two answers."""
    from .snapshots import png_bytes

    ruleset = result.ruleset
    best = result.readings[result.best]
    written = []
    numbers = {"order": 0, "repeat": 0}
    for group in result.divergence_groups:
        d = group.example
        numbers[d.kind] += 1
        name = slug(f"{ruleset.key}-fuzz-{d.kind}-{numbers[d.kind]}")
        case_file, diagram = out / "findings" / f"{name}.yaml", out / "findings" / f"{name}.png"
        reference = ruleset.resolve(d.before, d.actions, best)
        if d.kind == "order":
            title = f"An implementation's answer depends on the order the pieces are listed in ({d.label})"
            note = f"Listing this scene's pieces in another order ({d.label}) changes the implementation's answer."
            theirs = [("The implementation's outcome, as listed here", d.before, d.first),
                      (f"Its outcome for the same scene after the {d.label} (names as sent)", d.second_before,
                       d.second)]
            top = ruleset.draw_readings(d.before, d.actions, [("before", None), ("reference, best reading", reference),
                                                              ("implementation, as listed", _with_places(d.first,
                                                                                                         reference))],
                                        title=title)
            moved_reference = ruleset.resolve(d.second_before, d.second_actions, best)
            bottom = ruleset.draw_readings(d.second_before, d.second_actions,
                                           [("before, listed in another order", None),
                                            ("implementation, listed in another order",
                                             _with_places(d.second, moved_reference))],
                                           title=f"The same scene after the {d.label}")
            image = _stack([top, bottom])
        else:
            title = "An implementation answers the same scene differently when it is sent again"
            note = "The implementation was sent this scene twice and answered differently."
            theirs = [("The implementation's first outcome", d.before, d.first),
                      ("Its outcome when the scene was sent again", d.before, d.second)]
            image = ruleset.draw_readings(d.before, d.actions,
                                          [("before", None), ("reference, best reading", reference),
                                           ("implementation, first", _with_places(d.first, reference)),
                                           ("implementation, again", _with_places(d.second, reference))],
                                          title=title)
        text = _case_text(result, name, title, note, f"{d.kind} divergence, fingerprint {group.fingerprint}",
                          d.before, d.actions, reference, theirs)
        write_text(case_file, text, "fuzz case file", force)
        write_bytes(diagram, png_bytes(image, software=json_mark("fuzz")), "fuzz diagram", force)
        written.append(WrittenDivergence(group, case_file, diagram))
    return written


def report_json(result: FuzzResult, written: Sequence[WrittenGroup], out: Path,
                divergences: Sequence[WrittenDivergence] = ()) -> dict[str, Any]:
    ruleset = result.ruleset
    default = ruleset.default_reading
    answered = len(result.answered)

    def reading_entry(i: int) -> dict[str, Any]:
        return {"reading": dict(result.readings[i]), "label": reading_label(result.readings[i], default),
                "explained": result.explained[i], "share": _share(result.explained[i], answered)}

    def group_entry(w: WrittenGroup) -> dict[str, Any]:
        g = w.group
        entry: dict[str, Any] = {"fingerprint": g.fingerprint, "clauses": list(departure_clauses(
            ruleset, g.before, g.actions, w.reference, g.actual))} if g.kind != "mixed" else {
            "reading": dict(g.reading or {}), "label": g.fingerprint}
        return {**entry, "count": g.count, "scenes": g.scene_ids, "shrunk_from": g.shrunk_from,
                "shrink_tries": g.shrink_tries, "case": str(w.case_file.relative_to(out)),
                "diagram": str(w.diagram.relative_to(out)), "reference": ruleset.outcome_json(w.reference),
                "implementation": ruleset.outcome_json(g.actual),
                "differences": list(difference(ruleset, g.before, g.actions, w.reference, g.actual))}

    def divergence_entry(w: WrittenDivergence) -> dict[str, Any]:
        g, d = w.group, w.divergence
        return {"fingerprint": g.fingerprint, "count": g.count, "scenes": g.scene_ids, "transform": d.label,
                "shrunk_from": g.shrunk_from, "shrink_tries": d.shrink_tries,
                "case": str(w.case_file.relative_to(out)), "diagram": str(w.diagram.relative_to(out)),
                "first": ruleset.outcome_json(d.first), "second": ruleset.outcome_json(d.second)}

    problem_counts: dict[str, int] = {}
    for p in result.problems:
        problem_counts[p.kind] = problem_counts.get(p.kind, 0) + 1
    return {
        "generator": json_mark("fuzz"), "ruleset": ruleset.key, "implementation": result.implementation,
        "seed": result.seed, "examples": result.examples, "budget_seconds": result.budget,
        "scenes": len(result.trials), "answered": answered, "stopped_by_budget": result.stopped_by_budget,
        "given_up": result.given_up or None,
        "readings": {"count": len(result.readings), "best": reading_entry(result.best),
                     "runner_up": reading_entry(result.runner_up) if result.runner_up is not None else None},
        "points": result.points,
        "mixed_readings": {
            "scenes": result.other_reading, "not_shrunk": result.mixed_not_shrunk,
            "groups": [group_entry(w) for w in written if w.group.kind == "mixed"],
        },
        "disagreements": {
            "not_explained_by_best": result.other_reading + result.unexplained,
            "explained_by_another_reading": result.other_reading,
            "explained_by_no_reading": result.unexplained,
            "not_shrunk": result.groups_not_shrunk,
            "groups": [group_entry(w) for w in written if w.group.kind != "mixed"],
        },
        **{kind: {"checked": checked, "differing": sum(d.kind == kind for d in result.divergences),
                  "groups": [divergence_entry(w) for w in divergences if w.divergence.kind == kind]}
           for kind, checked in (("order", result.order_checked), ("repeat", result.repeat_checked))},
        "divergences_not_grouped": result.divergences_not_shrunk,
        "problems": {"counts": dict(sorted(problem_counts.items())),
                     "scenes": [{"scene": p.scene, "kind": p.kind, "message": p.message} for p in result.problems]},
    }


def timing(result: FuzzResult) -> dict[str, Any]:
    """Figures that change from run to run, and the number of workers, which must not change
    the rest: kept apart so that the rest of the report is the same for the same seed."""
    groups = [{"fingerprint": g.fingerprint, "first_seen_seconds": round(g.first_seen_seconds, 3),
               "shrink_seconds": round(g.shrink_seconds, 3)} for g in result.groups]
    return {"workers": result.workers, "seconds": round(result.seconds, 3), "implementation_calls": result.impl_calls,
            "implementation_seconds": round(result.impl_seconds, 3),
            "scenes_per_second": round(len(result.trials) / max(result.seconds, 1e-9), 1), "groups": groups}


def verdict(result: FuzzResult) -> str:
    answered = len(result.answered)
    if not answered:
        return "The implementation answered no scene, so nothing can be said about the reading it follows."
    best = result.explained[result.best]
    label = reading_label(result.readings[result.best], result.ruleset.default_reading)
    if best * 2 < answered:
        return (f"No reading explains this implementation: the best full reading ({label}) gives its answer in "
                f"only {best} of {answered} scenes ({_percent(best, answered)}).")
    return f"The implementation follows {label}: it explains {best} of {answered} scenes ({_percent(best, answered)})."


def _scene_yaml(ruleset: Ruleset, before: Any, actions: Any) -> list[str]:
    before_data, actions_data = ruleset.case_data(before, actions)
    return ["```yaml", dump_yaml({"before": before_data, "actions": actions_data}).rstrip(), "```", ""]


def _link(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _scene_list(ids: Sequence[str]) -> str:
    return ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")


def report_markdown(result: FuzzResult, data: Mapping[str, Any], written: Sequence[WrittenGroup],
                    divergences: Sequence[WrittenDivergence] = ()) -> str:
    ruleset = result.ruleset
    default = ruleset.default_reading
    best_label = reading_label(result.readings[result.best], default)
    answered = data["answered"]
    lines = [f"# Differential conformance: {ruleset.key} ({ruleset.title})", "",
             f"Implementation: {result.implementation}. Seed {result.seed}; {data['scenes']} generated scenes, "
             f"{answered} answered" + (" (stopped by the time budget)" if result.stopped_by_budget else "") + ".",
             "", f"**{verdict(result)}**", ""]
    if result.given_up:
        lines += [f"The run stopped early: {result.given_up}.", ""]
    d = data["disagreements"]
    order, repeat = data["order"], data["repeat"]
    lines += ["In short:", "",
              f"- {d['explained_by_no_reading']} scenes no reading explains, in {_count(len(d['groups']), 'group')};",
              f"- {d['explained_by_another_reading']} scenes explained by another reading than the best, in "
              f"{_count(len(data['mixed_readings']['groups']), 'group')};",
              f"- {order['differing']} answers that changed with the listing order, in "
              f"{_count(len(order['groups']), 'group')}, and {repeat['differing']} that changed when sent again, in "
              f"{_count(len(repeat['groups']), 'group')};",
              f"- {len(result.problems)} timeouts, crashes, malformed answers or refusals.", ""]
    lines += ["## Reading inference", "",
              f"Each scene was resolved by the reference under all {len(result.readings)} full readings; the "
              "implementation was told the default reading.", ""]
    best = data["readings"]["best"]
    lines.append(f"- Best full reading: {best['label']}, explaining {best['explained']} of {answered} scenes "
                 f"({_percent(best['explained'], answered)}).")
    runner = data["readings"]["runner_up"]
    if runner:
        lines.append(f"- Runner-up: {runner['label']}, explaining {runner['explained']} of {answered} scenes "
                     f"({_percent(runner['explained'], answered)}).")
    lines += ["", "Per reading point, around the best reading: the scenes where the point's options give "
              "different outcomes (informative), and the share of them the implementation answers like each "
              "option.", "", "| point | informative | option | matches | share |", "|---|---|---|---|---|"]
    for name, entry in data["points"].items():
        for option, figures in entry["options"].items():
            mark = " (default)" if option == entry["default"] else ""
            share = f"{100 * figures['share']:.1f} %" if figures["share"] is not None else "-"
            lines.append(f"| {name} | {entry['informative']} | {option}{mark} | {figures['matches']} | {share} |")

    mixed = [w for w in written if w.group.kind == "mixed"]
    m = data["mixed_readings"]
    lines += ["", "## Scenes another reading explains", ""]
    if not m["scenes"]:
        lines += [f"None: every scene a reading explains is explained by the best one ({best_label}).", ""]
    else:
        lines += [f"{m['scenes']} scenes are answered as another reading gives them, not as the best one does: "
                  "the implementation follows different readings in different situations. They are grouped by "
                  "the reading nearest the best that explains them (only the points where it departs from the "
                  "best are named)" + (f"; {m['not_shrunk']} scenes in further groups were counted but not shrunk"
                                       if m["not_shrunk"] else "") + ".", ""]
    for i, w in enumerate(mixed, 1):
        g = w.group
        lines += [f"### M{i}. {g.fingerprint} ({g.count} scene{'s' if g.count != 1 else ''})", "",
                  f"Scenes: {_scene_list(g.scene_ids)}. Shrunk from {g.shrunk_from} in {g.shrink_tries} tries "
                  f"while the same reading explains the answer.", "",
                  f"- reference ({best_label}): " + ruleset.summarise(g.before, w.reference),
                  f"- implementation (as {g.fingerprint}): " + ruleset.summarise(g.before, g.actual), "",
                  f"![the scene before, the reference's outcome and the implementation's]({_link(w.diagram)})", "",
                  f"Minimal case: [{w.case_file.name}]({_link(w.case_file)})", ""]
        lines += _scene_yaml(ruleset, g.before, g.actions)

    disagreeing = [w for w in written if w.group.kind != "mixed"]
    lines += ["## Disagreements no reading explains", "",
              f"{d['explained_by_no_reading']} scenes get an answer no reading gives. They fall into "
              f"{_count(len(disagreeing), 'group')}"
              + (f"; {d['not_shrunk']} scenes in further groups were counted but not shrunk" if d["not_shrunk"]
                 else "") + ". A group's fingerprint reads `points:situation:fields`: the reading points whose "
              "options change the differing fields, where the two outcomes first differ (the first event the "
              "differing piece `*` takes part in, such as `hit(*,_)` for the first of two pieces, or the "
              "earliest event one outcome has and the other lacks), and the fields that differ. Scenes are "
              "grouped by the fingerprint of their minimal scene.", ""]
    for i, (w, entry) in enumerate(zip(disagreeing, d["groups"]), 1):
        g = w.group
        lines += [f"### {i}. `{g.fingerprint}` ({g.count} scene{'s' if g.count != 1 else ''})", "",
                  f"Scenes: {_scene_list(g.scene_ids)}. Shrunk from {g.shrunk_from} in {g.shrink_tries} tries."
                  + (f" Where the outcomes first differ, the reference applies {', '.join(entry['clauses'])}."
                     if entry["clauses"] else ""), "",
                  f"- reference ({best_label}): " + ruleset.summarise(g.before, w.reference),
                  "- implementation: " + ruleset.summarise(g.before, g.actual)]
        lines += [f"- {message}" for message in entry["differences"][:6]]
        lines += ["", f"![the scene before, the reference's outcome and the implementation's]({_link(w.diagram)})",
                  "", f"Minimal case: [{w.case_file.name}]({_link(w.case_file)})", ""]
        lines += _scene_yaml(ruleset, g.before, g.actions)

    order_line = (f"- {order['checked']} scenes were sent again with their pieces listed in another order: "
                  f"{order['differing']} answers changed beyond the renaming, in "
                  f"{_count(len(order['groups']), 'group')}."
                  if order["checked"] else
                  f"- Order dependence was not checked: ruleset {ruleset.key!r} defines no reordering of its scenes "
                  "(Ruleset.transforms of kind order).")
    lines += ["## Order dependence and non-determinism", "", order_line,
              f"- {repeat['checked']} scenes were sent twice unchanged: {repeat['differing']} answers changed, in "
              f"{_count(len(repeat['groups']), 'group')}.", ""]
    if divergences:
        lines += ["An order group's fingerprint is the reordering and how each of the two answers departs from "
                  "the best reading (`reading P=O` where another reading gives it); a changing answer's is where "
                  "its two answers differ. An order group's example is shrunk while the reordering still changes "
                  "the answer; a changing answer is shown as first seen." +
                  (f" {data['divergences_not_grouped']} further answers were counted but not grouped."
                   if data["divergences_not_grouped"] else ""), ""]
    for i, wd in enumerate(divergences, 1):
        dg, dv = wd.group, wd.divergence
        what = "listing order" if dv.kind == "order" else "sent again"
        how = (f"shrunk from {dg.shrunk_from} in {dv.shrink_tries} tries" if dv.kind == "order"
               else f"from {dg.shrunk_from}")
        lines += [f"### D{i}. {what}: `{dg.fingerprint}` ({dg.count} scene{'s' if dg.count != 1 else ''})", "",
                  f"Scenes: {_scene_list(dg.scene_ids)}. Example {how}: "
                  f"[{wd.case_file.name}]({_link(wd.case_file)}).", "",
                  "- first answer: " + ruleset.summarise(dv.before, dv.first),
                  ("- listed in another order: " if dv.kind == "order" else "- sent again: ")
                  + ruleset.summarise(dv.second_before, dv.second), "",
                  f"![the implementation's two answers]({_link(wd.diagram)})", ""]
        lines += _scene_yaml(ruleset, dv.before, dv.actions)
    problems = data["problems"]
    lines += ["## Timeouts, crashes and malformed answers", ""]
    if not result.problems:
        lines += ["None.", ""]
    else:
        lines += [", ".join(f"{n} {k}" for k, n in problems["counts"].items()) + ".", "",
                  "| scene | kind | message |", "|---|---|---|"]
        for p in result.problems[:50]:
            lines.append(f"| {p.scene} | {p.kind} | {p.message.replace('|', '/')[:200]} |")
        if len(result.problems) > 50:
            lines.append(f"| ... | | {len(result.problems) - 50} more in report.json |")
        lines.append("")
    t = timing(result)
    lines += ["## Timing", "", f"{len(result.trials)} scenes in {t['seconds']} s ({t['scenes_per_second']} scenes/s), "
              f"{t['implementation_calls']} calls to the implementation ({t['implementation_seconds']} s in it); "
              f"the reference ran on {result.workers} worker{'s' if result.workers != 1 else ''}.", ""]
    return "\n".join(lines)


def write_report(result: FuzzResult, out: Path, force: bool = False) -> tuple[Path, Path, dict[str, Any]]:
    written = write_groups(result, out, force)
    divergences = write_divergences(result, out, force)
    data = report_json(result, written, out, divergences)
    markdown = report_markdown(result, data, written, divergences)
    json_path, md_path = out / "report.json", out / "report.md"
    write_text(json_path, json.dumps({**data, "timing": timing(result)}, indent=2) + "\n", "fuzz report", force)
    write_text(md_path, f"<!-- generator: verifier fuzz -->\n{markdown}", "fuzz report", force)
    return json_path, md_path, data
