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
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .adapter import Implementation, schema_problem
from .errors import ImplementationError
from .explore import reading_label, shrink_greedily
from .findings import dump_yaml, slug
from .output import json_mark, write_bytes, write_text
from .ruleset import Capability, Outcome, Ruleset, Transform
from .source import Located

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
        return self.keys[self.project(reading)]


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
    last_data: Any = None  # the outcome field of the last answer read
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
        result = self._ask(scene_id, before, request)
        if cached:
            self._cache[memo] = result
        return result

    def _problem(self, scene_id: str, kind: str, message: str) -> None:
        self.problems.append(Problem(scene_id, kind, message))

    def _ask(self, scene_id: str, before: Any, request: dict[str, Any]) -> Outcome | None:
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
        ruleset = self.ruleset
        self.last_data = answer.data
        if ruleset.outcome_schema:
            problem = schema_problem(f"outcome_{ruleset.key}", answer.data)
            if problem:
                self._problem(scene_id, "unreadable", f"the outcome does not fit the {ruleset.key} outcome "
                                                      f"schema: {problem}")
                return None
        try:
            return ruleset.outcome_from_json(before, answer.data)
        except ImplementationError as exc:
            self._problem(scene_id, "unreadable", f"the outcome cannot be read: {exc}")
        except Exception as exc:  # a gap in a ruleset's reader must not end the run
            self._problem(scene_id, "unreadable", f"the outcome cannot be read ({type(exc).__name__}: {exc})")
        return None


# --- fingerprints of a disagreement --------------------------------------------------------

def _json_paths(a: Any, b: Any, path: tuple[str, ...], pieces: set[str]) -> set[tuple[str, ...]]:
    """Where two JSON values differ, with piece names as "*"; lists compare as multisets."""
    if isinstance(a, dict) and isinstance(b, dict):
        found: set[tuple[str, ...]] = set()
        for key in set(a) | set(b):
            name = "*" if key in pieces else str(key)
            if key not in a or key not in b:
                found.add(path + (name,))
            else:
                found |= _json_paths(a[key], b[key], path + (name,), pieces)
        return found
    if isinstance(a, list) and isinstance(b, list):
        same = sorted(json.dumps(x, sort_keys=True) for x in a) == sorted(json.dumps(x, sort_keys=True) for x in b)
        return set() if same else {path}
    return set() if a == b else {path}


def _piece_names(data: Any, depth: int = 0) -> set[str]:
    """Names of pieces in a scene's case data: the keys of a mapping of records below the
    top level (``ships: {A: {...}}``), and ``name`` or ``id`` fields of records."""
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


def shape(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome) -> tuple[str, ...]:
    """The fields of the outcome's JSON form where ``actual`` departs from ``reference``,
    with piece names as "*". A top-level field is left out when taking the
    implementation's value of it alone leaves the outcome key unchanged (such as
    provenance, which no outcome key compares)."""
    ours, theirs = ruleset.outcome_json(reference), ruleset.outcome_json(actual)
    pieces = set(reference.provenance) | set(actual.provenance) | _piece_names(ruleset.case_data(before, actions)[0])
    pieces |= {p for e in reference.events + actual.events for p in e.pieces}
    reference_key = ruleset.outcome_key(reference)
    kept: set[tuple[str, ...]] = set()
    for path in _json_paths(ours, theirs, (), pieces):
        top = path[0] if path else ""
        if top and top in ours and top in theirs:
            try:
                hybrid = ruleset.outcome_from_json(before, {**ours, top: theirs[top]})
                if ruleset.outcome_key(hybrid) == reference_key:
                    continue
            except Exception:  # a mixed outcome the reader refuses: keep the field
                pass
        kept.add(path)
    return tuple(sorted(".".join(p) or "outcome" for p in kept)) or ("outcome",)


def difference(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome,
               missing: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ruleset's own words for how ``actual`` departs from ``reference``: its comparison
    against the expectation the reference's outcome makes (``missing`` where it cannot make one)."""
    before_data, actions_data = ruleset.case_data(before, actions)
    data = {"before": before_data, "actions": actions_data, "expect": ruleset.expect_data(before, reference)}
    try:
        _, _, expect = ruleset.parse(Located("<fuzz>", data, {}, {}), ("before",), ("actions",), ("expect",),
                                     breaches_allowed=True)
        return tuple(m.message for m in ruleset.compare(before, expect, actual))
    except Exception:  # an outcome the ruleset cannot restate as an expectation: no words for it
        return missing


def fingerprint(ruleset: Ruleset, before: Any, actions: Any, reference: Outcome, actual: Outcome) -> str:
    """The reading points the reference consulted, the clauses it weighed, and the shape
    of the difference."""
    points = sorted(set(reference.consulted) | {d.point for d in reference.decisions if d.point})
    clauses = sorted(reference.clauses_considered())
    return ":".join(("+".join(points) or "-", "+".join(clauses) or "-",
                     "+".join(shape(ruleset, before, actions, reference, actual))))


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
    """Disagreements no reading explains that share a fingerprint."""

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
    shown: list[Divergence]  # the first of each kind, an order one shrunk: written as a case file
    problems: list[Problem]
    stopped_by_budget: bool
    given_up: str
    seconds: float
    impl_calls: int
    impl_seconds: float
    workers: int = 1

    @property
    def answered(self) -> list[Trial]:
        return [t for t in self.trials if t.actual is not None]


class _OutOfTime(Exception):
    pass


def _scenes(ruleset: Ruleset, seed: int, examples: int, budget: float, start: float,
            visit: Callable[[Any, Any], None]) -> bool:
    """Hand ``visit`` each scene Hypothesis draws; True when the budget stopped it."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hyp_seed

    @hyp_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet, report_multiple_bugs=False)
    @given(ruleset.strategy())
    def probe(example: tuple[Any, Any]) -> None:
        if time.perf_counter() - start > budget:
            raise _OutOfTime
        visit(*example)

    try:
        probe()
    except _OutOfTime:
        return True
    return False


def _point_shares(ruleset: Ruleset, trials: Sequence[Trial], best: Reading) -> dict[str, dict[str, Any]]:
    """Per reading point, around the best reading: the scenes where its options give
    different outcomes, and the share of those the implementation answers like each option."""
    shares: dict[str, dict[str, Any]] = {}
    for point in ruleset.reading_points:
        informative = 0
        matches = dict.fromkeys(point.options, 0)
        for trial in trials:
            keys = {o: trial.table.key({**best, point.name: o}) for o in point.options}
            if len(set(keys.values())) < 2:
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


def _canonical(data: Any) -> str:
    """An answer as text that does not depend on the order of its lists (events may come in any order)."""
    def norm(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: norm(v) for k, v in value.items()}
        if isinstance(value, list):
            return sorted((norm(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value
    return json.dumps(norm(data), sort_keys=True)


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


def _order_divergence(ruleset: Ruleset, caller: Caller, scene_id: str, before: Any,
                      actions: Any) -> Divergence | None:
    """The first order transform of the scene under which the implementation's answer changes."""
    actual = caller.outcome(scene_id, before, actions, cached=True)
    if actual is None:
        return None
    table = reference_table(ruleset, before, actions)
    trial = Trial(scene_id, before, actions, table, actual, matching(ruleset, before, actions, table, actual))
    for transform in ruleset.transforms(before, actions):
        if transform.kind != "order":
            continue
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
        log: Callable[[str], None] | None = None) -> FuzzResult:
    """Fuzz ``impl`` against the reference. ``workers`` is recorded; the run is in one process."""
    require(ruleset)
    start = time.perf_counter()
    caller = Caller(ruleset, impl)
    trials: list[Trial] = []
    divergences: list[Divergence] = []
    seen_at: dict[str, float] = {}
    counts = {"order": 0, "repeat": 0}
    given_up = ""

    def visit(before: Any, actions: Any) -> None:
        n = len(trials) + 1
        scene_id = f"fuzz-{seed}-{n}"
        table = reference_table(ruleset, before, actions)
        actual = caller.outcome(scene_id, before, actions)
        trial = Trial(scene_id, before, actions, table, actual)
        trials.append(trial)
        seen_at[scene_id] = time.perf_counter() - start
        if actual is None:
            return
        trial.data = _canonical(caller.last_data)
        trial.matches = matching(ruleset, before, actions, table, actual)
        # The keys are all a finished trial needs; its reference outcomes (with their frames) would
        # hold memory in proportion to the number of scenes.
        trial.table = replace(table, outcomes=MappingProxyType({}))
        for transform in ruleset.transforms(before, actions):
            if transform.kind != "order":
                continue
            counts["order"] += 1
            moved = caller.outcome(f"{scene_id}-{slug(transform.name)}", transform.before, transform.actions)
            if moved is not None and _order_differs(ruleset, trial, transform, moved):
                divergences.append(Divergence("order", scene_id, transform.name, before, actions, actual, moved,
                                              transform.before, transform.actions))
        if n % REPEAT_EVERY == 0:
            counts["repeat"] += 1
            again = caller.outcome(f"{scene_id}-again", before, actions)
            if again is not None and _canonical(caller.last_data) != trial.data:
                divergences.append(Divergence("repeat", scene_id, "sent again", before, actions, actual, again,
                                              before, actions))

    try:
        stopped = _scenes(ruleset, seed, examples, budget, start, visit)
    except _GivenUp as exc:
        stopped, given_up = False, str(exc)
    if log:
        log(f"  {len(trials)} scenes in {time.perf_counter() - start:.1f} s")

    readings = ruleset.all_readings()
    answered = [t for t in trials if t.actual is not None]
    explained = [0] * len(readings)
    for trial in answered:
        if not trial.matches:
            continue
        for i, reading in enumerate(readings):
            explained[i] += trial.explains(reading)
    default = ruleset.default_reading

    def changes(i: int) -> int:
        return sum(readings[i][p] != default[p] for p in default)

    ranked = sorted(range(len(readings)), key=lambda i: (-explained[i], changes(i), i))
    best = ranked[0]
    runner_up = ranked[1] if len(ranked) > 1 else None
    best_reading = readings[best]

    unexplained_trials: list[Trial] = []
    other_reading = 0
    for trial in answered:
        if trial.explains(best_reading):
            continue
        if trial.matches:
            other_reading += 1
        else:
            unexplained_trials.append(trial)

    by_print: dict[str, list[Trial]] = {}
    for trial in unexplained_trials:
        assert trial.actual is not None
        reference = ruleset.resolve(trial.before, trial.actions, best_reading)
        by_print.setdefault(fingerprint(ruleset, trial.before, trial.actions, reference, trial.actual),
                            []).append(trial)
    ordered = sorted(by_print.items(), key=lambda item: (-len(item[1]), item[0]))
    merged: dict[str, Group] = {}
    shrunk = 0
    shrink_start = time.perf_counter()
    for _, members in ordered:
        if len(merged) >= max_groups or time.perf_counter() - shrink_start > budget:
            break
        first = members[0]
        t0 = time.perf_counter()
        try:
            before, actions, actual, tries = _shrink(ruleset, caller, first, shrink_limit)
        except _GivenUp as exc:
            given_up = given_up or str(exc)
            break
        shrunk += 1
        reference = ruleset.resolve(before, actions, best_reading)
        key = fingerprint(ruleset, before, actions, reference, actual)
        if key in merged:
            merged[key].count += len(members)
            merged[key].scene_ids += [t.scene_id for t in members]
            continue
        merged[key] = Group(key, len(members), [t.scene_id for t in members], before, actions, actual,
                            first.scene_id, tries, time.perf_counter() - t0, seen_at[first.scene_id])
        if log:
            log(f"  shrank {first.scene_id} in {tries} tries: {key}")
    groups = sorted(merged.values(), key=lambda g: (-g.count, g.fingerprint))
    shown: list[Divergence] = []
    for kind in ("order", "repeat"):
        first_of_kind = next((d for d in divergences if d.kind == kind), None)
        if first_of_kind is None:
            continue
        if kind == "order" and not given_up:
            try:
                first_of_kind = _shrink_order(ruleset, caller, first_of_kind, shrink_limit)
            except _GivenUp as exc:
                given_up = str(exc)
        shown.append(first_of_kind)
    not_shrunk = sum(len(m) for _, m in ordered[shrunk:])

    return FuzzResult(
        ruleset=ruleset, implementation=impl.describe(), seed=seed, examples=examples, budget=budget,
        readings=readings, trials=trials, explained=explained, best=best, runner_up=runner_up,
        points=_point_shares(ruleset, answered, best_reading), other_reading=other_reading,
        unexplained=len(unexplained_trials), groups=groups, groups_not_shrunk=not_shrunk,
        order_checked=counts["order"], repeat_checked=counts["repeat"], divergences=divergences, shown=shown,
        problems=caller.problems, stopped_by_budget=stopped, given_up=caller.given_up or given_up,
        seconds=time.perf_counter() - start, impl_calls=caller.calls, impl_seconds=caller.seconds,
        workers=workers)


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


def _draw(ruleset: Ruleset, group: Group, panels: list[tuple[str, Outcome | None]], reference: Outcome) -> Any:
    title = f"The implementation departs from every reading; its outcome differs in {_differs(group)}"
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
    """One case file and one diagram per group, under ``out/findings``."""
    from .snapshots import png_bytes

    ruleset = result.ruleset
    best = result.readings[result.best]
    _clear_old(out / "findings")
    written = []
    for i, group in enumerate(result.groups, 1):
        name = slug(f"{ruleset.key}-fuzz-{i}-{_differs(group).replace('*', 'each')}")
        case_file, diagram = out / "findings" / f"{name}.yaml", out / "findings" / f"{name}.png"
        reference = ruleset.resolve(group.before, group.actions, best)
        text = _case_text(result, name, f"An implementation departs from every reading in {_differs(group)}",
                          "Minimal scene where the implementation gives an outcome that no reading of the rule "
                          "gives.", f"fingerprint {group.fingerprint}", group.before, group.actions, reference,
                          [("The implementation's outcome", group.before, group.actual)])
        write_text(case_file, text, "fuzz case file", force)
        panels: list[tuple[str, Outcome | None]] = [("before", None), ("reference, best reading", reference),
                                                    ("implementation", group.actual)]
        image = _draw(ruleset, group, panels, reference)
        write_bytes(diagram, png_bytes(image, software=json_mark("fuzz")), "fuzz diagram", force)
        written.append(WrittenGroup(group, case_file, diagram, reference))
    return written


@dataclass(frozen=True)
class WrittenDivergence:
    divergence: Divergence
    case_file: Path
    diagram: Path


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
    """The first order-dependent answer (shrunk) and the first changing one, each as a case
    file and a diagram of the implementation's two answers."""
    from .snapshots import png_bytes

    ruleset = result.ruleset
    best = result.readings[result.best]
    written = []
    for d in result.shown:
        name = slug(f"{ruleset.key}-fuzz-{d.kind}")
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
        text = _case_text(result, name, title, note, f"{d.kind} divergence", d.before, d.actions, reference, theirs)
        write_text(case_file, text, "fuzz case file", force)
        write_bytes(diagram, png_bytes(image, software=json_mark("fuzz")), "fuzz diagram", force)
        written.append(WrittenDivergence(d, case_file, diagram))
    return written


def report_json(result: FuzzResult, written: Sequence[WrittenGroup], out: Path,
                divergences: Sequence[WrittenDivergence] = ()) -> dict[str, Any]:
    ruleset = result.ruleset
    default = ruleset.default_reading
    answered = len(result.answered)

    def reading_entry(i: int) -> dict[str, Any]:
        return {"reading": dict(result.readings[i]), "label": reading_label(result.readings[i], default),
                "explained": result.explained[i], "share": _share(result.explained[i], answered)}

    problem_counts: dict[str, int] = {}
    for p in result.problems:
        problem_counts[p.kind] = problem_counts.get(p.kind, 0) + 1
    return {
        "generator": json_mark("fuzz"), "ruleset": ruleset.key, "implementation": result.implementation,
        "seed": result.seed, "examples": result.examples, "budget_seconds": result.budget,
        "workers": result.workers,
        "scenes": len(result.trials), "answered": answered, "stopped_by_budget": result.stopped_by_budget,
        "given_up": result.given_up or None,
        "readings": {"count": len(result.readings), "best": reading_entry(result.best),
                     "runner_up": reading_entry(result.runner_up) if result.runner_up is not None else None},
        "points": result.points,
        "disagreements": {
            "not_explained_by_best": result.other_reading + result.unexplained,
            "explained_by_another_reading": result.other_reading,
            "explained_by_no_reading": result.unexplained,
            "not_shrunk": result.groups_not_shrunk,
            "groups": [{
                "fingerprint": w.group.fingerprint, "count": w.group.count, "scenes": w.group.scene_ids,
                "shrunk_from": w.group.shrunk_from, "shrink_tries": w.group.shrink_tries,
                "case": str(w.case_file.relative_to(out)), "diagram": str(w.diagram.relative_to(out)),
                "reference": ruleset.outcome_json(w.reference),
                "implementation": ruleset.outcome_json(w.group.actual),
                "differences": list(difference(ruleset, w.group.before, w.group.actions, w.reference,
                                               w.group.actual)),
            } for w in written],
        },
        **{kind: {"checked": checked, "differing": sum(d.kind == kind for d in result.divergences),
                  "example": next(({"scene": w.divergence.scene_id, "transform": w.divergence.label,
                                    "shrink_tries": w.divergence.shrink_tries,
                                    "case": str(w.case_file.relative_to(out)),
                                    "diagram": str(w.diagram.relative_to(out))}
                                   for w in divergences if w.divergence.kind == kind), None)}
           for kind, checked in (("order", result.order_checked), ("repeat", result.repeat_checked))},
        "divergences": [{"kind": d.kind, "scene": d.scene_id, "transform": d.label,
                         "first": ruleset.outcome_json(d.first), "second": ruleset.outcome_json(d.second)}
                        for d in result.divergences],
        "problems": {"counts": dict(sorted(problem_counts.items())),
                     "scenes": [{"scene": p.scene, "kind": p.kind, "message": p.message} for p in result.problems]},
    }


def timing(result: FuzzResult) -> dict[str, Any]:
    """Figures that change from run to run; kept apart so that the rest of the report is
    the same for the same seed."""
    groups = [{"fingerprint": g.fingerprint, "first_seen_seconds": round(g.first_seen_seconds, 3),
               "shrink_seconds": round(g.shrink_seconds, 3)} for g in result.groups]
    return {"seconds": round(result.seconds, 3), "implementation_calls": result.impl_calls,
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


def report_markdown(result: FuzzResult, data: Mapping[str, Any], written: Sequence[WrittenGroup],
                    divergences: Sequence[WrittenDivergence] = ()) -> str:
    ruleset = result.ruleset
    default = ruleset.default_reading
    answered = data["answered"]
    lines = [f"# Differential conformance: {ruleset.key} ({ruleset.title})", "",
             f"Implementation: {result.implementation}. Seed {result.seed}; {data['scenes']} generated scenes, "
             f"{answered} answered" + (" (stopped by the time budget)" if result.stopped_by_budget else "") + ".",
             "", f"**{verdict(result)}**", ""]
    if result.given_up:
        lines += [f"The run stopped early: {result.given_up}.", ""]
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
    d = data["disagreements"]
    lines += ["", "## Disagreements no reading explains", "",
              f"{d['not_explained_by_best']} scenes are not explained by the best reading: "
              f"{d['explained_by_another_reading']} are explained by another reading (the implementation mixes "
              f"readings), and {d['explained_by_no_reading']} by none. These fall into {len(written)} groups"
              + (f"; {d['not_shrunk']} scenes in further groups were counted but not shrunk" if d["not_shrunk"]
                 else "") + ".", ""]
    for i, (w, entry) in enumerate(zip(written, d["groups"]), 1):
        g = w.group
        lines += [f"### {i}. `{g.fingerprint}` ({g.count} scene{'s' if g.count != 1 else ''})", "",
                  f"Shrunk from {g.shrunk_from} in {g.shrink_tries} tries.", "",
                  f"- reference ({reading_label(result.readings[result.best], default)}): "
                  + ruleset.summarise(g.before, w.reference),
                  "- implementation: " + ruleset.summarise(g.before, g.actual)]
        lines += [f"- {message}" for message in entry["differences"][:6]]
        lines += ["", f"![the scene before, the reference's outcome and the implementation's]"
                      f"({w.diagram.parent.name}/{w.diagram.name})", "",
                  f"Minimal case: [{w.case_file.name}]({w.case_file.parent.name}/{w.case_file.name})", ""]
        before, actions = ruleset.case_data(g.before, g.actions)
        lines += ["```yaml", dump_yaml({"before": before, "actions": actions}).rstrip(), "```", ""]
    order_line = (f"- {data['order']['checked']} scenes were sent again with their pieces listed in another "
                  f"order: {data['order']['differing']} answers changed beyond the renaming."
                  if data["order"]["checked"] else
                  f"- Order dependence was not checked: ruleset {ruleset.key!r} defines no reordering of its scenes "
                  "(Ruleset.transforms of kind order).")
    lines += ["## Order dependence and non-determinism", "", order_line,
              f"- {data['repeat']['checked']} scenes were sent twice unchanged: {data['repeat']['differing']} "
              "answers changed.", ""]
    for div in result.divergences[:10]:
        what = "listed in another order" if div.kind == "order" else "sent again"
        lines += [f"- {div.scene_id} ({div.label}): first " + ruleset.summarise(div.before, div.first)
                  + f" {what}: " + ruleset.summarise(div.second_before, div.second)]
    if result.divergences:
        lines.append("")
    for wd in divergences:
        d = wd.divergence
        what = (f"The first scene whose answer changed with the {d.label}, shrunk in {d.shrink_tries} tries"
                if d.kind == "order" else "The first scene answered differently when sent again")
        lines += [f"{what}: [{wd.case_file.name}]({wd.case_file.parent.name}/{wd.case_file.name}).", "",
                  f"![the implementation's two answers]({wd.diagram.parent.name}/{wd.diagram.name})", ""]
        before, actions = ruleset.case_data(d.before, d.actions)
        lines += ["```yaml", dump_yaml({"before": before, "actions": actions}).rstrip(), "```", ""]
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
              f"{result.workers} worker(s) asked, run in one process.", ""]
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
