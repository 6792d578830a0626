"""The fuzz run: scenes drawn, each asked of the implementation in this process while
workers resolve the reference under every reading and read the answers, then the
reading inferred, and the findings grouped and shrunk."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ..adapter import Implementation, Session
from ..adapter.declare import Declaration, describe
from ..adapter.protocol import answer_text, outcome_answer, reported_outcome
from ..execute import Execution, Progress, map_ordered
from ..explore import reading_label
from ..findings import slug
from ..kit.boundary import beside
from ..kit.collector import collector_eased
from ..ruleset import Capability, Outcome, Ruleset, Transform
from .ask import GivenUp, SceneAsker
from .compare import (
    deciding_points,
    divergence_print,
    explaining,
    fingerprint,
    matching,
    order_differs,
    situation_and_shape,
)
from .reference import Path, Reading, ReadingTable, reading_table
from .result import Divergence, DivergenceGroup, FuzzResult, Group, ProblemKind, SceneProblem, Trial
from .scenes import SceneData, draw_scenes, order_transforms, require
from .shrink import (
    Example,
    Member,
    Shrunk,
    grouped,
    merge_decided,
    shrink_disagreement,
    shrink_mixed,
    shrink_order,
)

REPEAT_EVERY = 5  # every fifth scene is sent a second time, to catch answers that change
MAX_GROUPS = 12  # disagreement groups shrunk and written; the rest are counted
SHRINK_LIMIT = 300  # simpler scenes tried per group


class _ReadingSets:
    """Sets of ``readings`` as the bits of an int (bit i: ``readings[i]``). A scene's reference
    is a decision tree whose leaves each stand for a set of readings (those with every option
    its path fixes), disjoint and together every reading: so the readings that give an answer
    are those of the leaves whose key it matches, found once per leaf, not once per reading,
    and the leaf a reading falls in is the one whose set has its bit."""

    def __init__(self, readings: Sequence[Reading]) -> None:
        self.readings = readings
        self._with: dict[tuple[str, str], int] = {}  # the readings with each option
        for i, reading in enumerate(readings):
            for point, option in reading.items():
                self._with[(point, option)] = self._with.get((point, option), 0) | 1 << i
        self._everyone = (1 << len(readings)) - 1
        self._of_path: dict[tuple[tuple[str, ...], Path], int] = {}  # made once per path met

    def of_path(self, order: tuple[str, ...], path: Path) -> int:
        """The readings of a leaf: those with every option its path fixes."""
        found = self._of_path.get((order, path))
        if found is None:
            found = self._everyone
            for i, option in path:
                found &= self._with.get((order[i], option), 0)
            self._of_path[(order, path)] = found
        return found

    def index(self, reading: Reading) -> int | None:
        """The place of ``reading`` among the readings (None: not one of them)."""
        found = self._everyone
        for point, option in reading.items():
            found &= self._with.get((point, option), 0)
        return found.bit_length() - 1 if found and found & (found - 1) == 0 else None

    def explaining(self, trial: Trial) -> int:
        """The readings that explain the trial's answer (none where it matches nothing)."""
        if not trial.matches:
            return 0
        table = trial.table
        by_path, ids = table.key_ids
        matched = {ids[key] for key in trial.matches if key in ids}
        found = 0
        for path, key_id in by_path.items():
            if key_id in matched:
                found |= self.of_path(table.order, path)
        return found

    def leaves(self, table: ReadingTable) -> list[tuple[int, int]]:
        """The table's leaves as (their readings, the number of their key)."""
        return [(self.of_path(table.order, path), key_id) for path, key_id in table.key_ids[0].items()]

    def counted(self, explaining: Iterable[int]) -> list[int]:
        """Per reading, how many of the sets ``explaining`` hold it."""
        explained = [0] * len(self.readings)
        for mask, count in Counter(explaining).items():  # equal sets counted together: fewer readings walked
            while mask:
                low = mask & -mask
                explained[low.bit_length() - 1] += count
                mask ^= low
        return explained


def _point_shares(ruleset: Ruleset, trials: Sequence[Trial], best: Reading,
                  sets: _ReadingSets) -> dict[str, dict[str, Any]]:
    """Per reading point, around the best reading: the scenes where its options give
    different outcomes, and the share of those the implementation answers like each option
    (``sets``: the ruleset's readings)."""
    shares: dict[str, dict[str, Any]] = {}
    matched_ids: list[set[int]] = []  # per trial, the numbers of the keys its answer matches
    leaves: list[list[tuple[int, int]] | None] = []  # per trial, made when first needed
    for trial in trials:
        ids = trial.table.key_ids[1] if trial.matches else {}
        matched_ids.append({ids[key] for key in trial.matches if key in ids})
        leaves.append(None)
    for point in ruleset.reading_points:
        informative = 0
        matches = dict.fromkeys(point.options, 0)
        around = {o: sets.index({**best, point.name: o}) for o in point.options}
        for n, (trial, matched) in enumerate(zip(trials, matched_ids)):
            if point.name not in trial.table.fixed_points:  # no leaf fixes it: every option gives the same key
                continue
            of_trial = leaves[n]
            if of_trial is None:
                of_trial = leaves[n] = sets.leaves(trial.table)
            keys = {o: next((key_id for mask, key_id in of_trial if i is not None and mask >> i & 1), None)
                    for o, i in around.items()}  # keys compared as their numbers
            if None in keys.values():  # past MAX_RESOLVES: no key
                continue
            if len(set(keys.values())) < 2:
                continue
            informative += 1
            for option, key_id in keys.items():
                if key_id in matched:
                    matches[option] += 1
        shares[point.name] = {
            "default": point.default, "informative": informative,
            "options": {o: {"matches": n, "share": round(n / informative, 4) if informative else None}
                        for o, n in matches.items()},
        }
    return shares


def _ranked(ruleset: Ruleset, readings: Sequence[Reading], explained: Sequence[int]) -> list[int]:
    """The readings, the one that explains most scenes first (ties: fewest points changed
    from the default, then the order of the readings)."""
    default = ruleset.default_reading

    def changes(i: int) -> int:
        return sum(readings[i][p] != default[p] for p in default)

    return sorted(range(len(readings)), key=lambda i: (-explained[i], changes(i), i))


RANK_EVERY = 16  # answered scenes between two guesses at the best reading while the run goes on


class _RunningGroups:
    """An estimate, while scenes stream in, of the groups of departures found so far: the
    scenes no reading explains bucketed as they will be grouped, against the reading that
    explains most scenes so far, and the kinds of changing answers; and when the first
    departure was seen. The report's groups come after shrinking, which may merge buckets."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.readings = ruleset.all_readings()
        self.sets = _ReadingSets(self.readings)
        self.answered: list[Trial] = []
        self.explaining: list[int] = []  # per answered scene, the readings that explain it
        self.ranked_at = -RANK_EVERY
        self.best: Reading = ruleset.default_reading
        self.buckets: set[str] = set()
        self.first_seconds: float | None = None

    @property
    def count(self) -> int:
        return len(self.buckets)

    def _seen(self, seconds: float) -> None:
        if self.first_seconds is None:
            self.first_seconds = seconds

    def divergence(self, kind: str, seconds: float) -> None:
        self.buckets.add(kind)
        self._seen(seconds)

    def take(self, trial: Trial, seconds: float) -> None:
        self.answered.append(trial)
        self.explaining.append(self.sets.explaining(trial))
        if trial.matches or trial.actual is None:
            return
        if len(self.answered) - self.ranked_at >= RANK_EVERY:
            self.ranked_at = len(self.answered)
            ranked = _ranked(self.ruleset, self.readings, self.sets.counted(self.explaining))
            self.best = self.readings[ranked[0]]
        reference = self.ruleset.resolve(trial.before, trial.actions, self.best)
        self.buckets.add(situation_and_shape(self.ruleset, trial.before, trial.actions, reference, trial.actual))
        self._seen(seconds)


# Each scene is sent as soon as Hypothesis draws it, from the drawing's own callback, so
# the first answer comes at once and the time budget holds however slow the implementation
# is. In this process each scene is then compared at once, so findings show while the run
# goes on; with workers, the reference work (resolving under every reading, reading the
# answers) is handed to them in batches once the scenes are sent. (Drawing on a thread of
# its own, beside the asking, would race with modules the reference imports lazily:
# Hypothesis looks into sys.modules.)

BATCH = 16  # scenes per piece of reference work handed to a worker


@dataclass(frozen=True)
class _Sent:
    """What was sent to the implementation about one scene, and what came back (kept in this process)."""

    index: int
    scene_id: str
    before: Any
    actions: Any
    transforms: tuple[Transform, ...]  # the reorderings sent
    # per answered request: (what: "", "again" or a reordering, id, data); the scene sent again
    # and answered with the same text holds the first answer's data itself
    answers: tuple[tuple[str, str, Any], ...]
    again_differs: bool  # the answer to the scene sent again is not the first one, as sent
    problems: tuple[SceneProblem, ...]  # timeouts, crashes, refusals: the requests with no answer
    seconds: float  # since the start of the run


@dataclass(frozen=True)
class _ReferenceWork:
    """A scene and the answers to it, for the reference work (picklable)."""

    ruleset: Ruleset | str  # the ruleset in this process, its registry key in a worker
    reports: frozenset[str] | None  # the parts the hello says the implementation reports (None: all)
    before: Any
    actions: Any
    data: SceneData
    answers: tuple[tuple[str, str, Any], ...]
    transforms: tuple[Transform, ...] | None = None  # the reorderings sent, in this process (None: made again)


@dataclass(frozen=True)
class _ReferenceDone:
    """The reference work of one scene. Keys are given as their numbers
    (``ReadingTable.key_ids``): a run keeps every scene's table to its end, and a reference
    key may be a large value (nested tuples) that the cyclic collector would scan again and
    again; numbers say as much for which readings give which answer."""

    points: frozenset[str]
    keys: dict[Path, int]  # the decision tree's leaves: fixed options -> the number of the reference key
    matches: frozenset[int]  # the numbers of the keys the answer agrees with
    outcomes: dict[str, Outcome]  # the answers read ("" the first, "again", or a reordering's name)
    order_differs: frozenset[str]  # names of the reorderings whose answer differs
    unreadable: tuple[SceneProblem, ...]


def _reference_work(batch: Sequence[_ReferenceWork]) -> list[_ReferenceDone]:
    """For each scene of ``batch``: the reference under every reading, the answers read
    (once, under the hello's declaration), and how they compare."""
    from .. import registry

    done = []
    for work in batch:
        ruleset = work.ruleset if isinstance(work.ruleset, Ruleset) else registry.get(work.ruleset)
        declaration = Declaration(work.reports)
        table = reading_table(ruleset, work.before, work.actions)
        transforms: dict[str, Transform] = {}
        if len(work.answers) > 1:
            made = work.transforms if work.transforms is not None else \
                order_transforms(ruleset, work.before, work.actions)
            transforms = {t.name: t for t in made}
        outcomes: dict[str, Outcome] = {}
        unreadable = []
        read: list[tuple[Any, Outcome | str]] = []  # the answers read about the scene itself, by their data
        own_key = None  # the key of the reference outcome the first answer is, value for value
        for what, request_id, data in work.answers:
            before = transforms[what].before if what in transforms else work.before
            outcome = next((found for seen, found in read if seen is data), None) if before is work.before else None
            if outcome is None:
                states = None
                if what == "" and not declaration.unreported(ruleset):
                    own_key = _reference_form(ruleset, table, data)
                    if own_key is not None:  # its states are the reference's: no need to read them
                        states = tuple(f for f in table.outcomes[own_key].frames if not f.is_start)
                outcome = reported_outcome(ruleset, declaration, before, data, states)
                if before is work.before:
                    read.append((data, outcome))
            if isinstance(outcome, str):
                unreadable.append(SceneProblem(request_id, ProblemKind.UNREADABLE, outcome))
            else:
                outcomes[what] = outcome
        matches: frozenset[Any] = frozenset()
        differs: set[str] = set()
        actual = outcomes.get("")
        if actual is not None:
            if own_key is not None and not actual.unreported:
                matches = frozenset((own_key,))
            else:
                matches = matching(ruleset, work.before, work.actions, table, actual, work.data)
            trial = Trial("", work.before, work.actions, table, actual, matches)
            differs = {name for name, transform in transforms.items()
                       if name in outcomes and order_differs(ruleset, trial, transform, outcomes[name])}
        by_path, ids = table.key_ids
        done.append(_ReferenceDone(table.points, by_path, frozenset(ids[key] for key in matches), outcomes,
                                   frozenset(differs), tuple(unreadable)))
    return done


def _reference_form(ruleset: Ruleset, table: ReadingTable, data: Any) -> Any:
    """The key of the reference outcome under the reading every request names (the
    default) when ``data`` is that outcome as the reference adapter answers it
    (``outcome_answer``), value for value; else None. Such an answer, read as any answer
    is (its schema check tells a ``true`` written for a 1, which Python calls equal),
    agrees with that outcome and no other, as ``matching`` would find (a contract test,
    for every ruleset), so it is not compared again: most answers of an implementation
    that conforms are such. A refusal is always compared in full (its pieces are not in
    its JSON form)."""
    key = table.key(ruleset.default_reading)
    if key is None:
        return None
    reference = table.outcomes[key]
    if reference.refusal is not None or data != outcome_answer(ruleset, reference):
        return None
    return key


def _differs(again: Any, first: Any) -> tuple[bool, bool]:
    """Whether two answers (plain JSON data, as read) mean different things, and whether they
    have the same text: answers with the same text (most repeats) are the same data, read
    alike; others are compared by ``answer_text``, which does not depend on the order of
    mappings and lists."""
    try:
        if json.dumps(again) == json.dumps(first):
            return False, True
    except (TypeError, ValueError):  # no text of its own: the general way says
        pass
    return answer_text(again) != answer_text(first), False


def _send(ruleset: Ruleset, asker: SceneAsker, index: int, scene_id: str, before: Any, actions: Any,
          data: SceneData, counts: dict[str, int], start: float) -> _Sent:
    """The scene (``data``: its case data) to the implementation, then, if it answered, each
    reordering of it and, every ``REPEAT_EVERY`` scenes, the scene again. The problems of
    these requests are taken out of ``asker.problems`` and kept with the scene, so that they
    are reported in scene order however the work is spread."""
    mark = len(asker.problems)
    answers = []
    transforms: list[Transform] = []
    again_differs = False
    first = asker.answer(scene_id, data)
    at = time.perf_counter() - start
    if first is not None:
        answers.append(("", scene_id, first))
        for transform in order_transforms(ruleset, before, actions):
            counts["order"] += 1
            transforms.append(transform)
            request_id = f"{scene_id}-{slug(transform.name)}"
            moved = asker.answer(request_id, SceneData.of(ruleset, transform.before, transform.actions))
            if moved is not None:
                answers.append((transform.name, request_id, moved))
        if index % REPEAT_EVERY == 0:
            counts["repeat"] += 1
            again = asker.answer(f"{scene_id}-again", data)
            if again is not None:
                again_differs, same_text = _differs(again, first)
                answers.append(("again", f"{scene_id}-again", first if same_text else again))
    problems = tuple(asker.problems[mark:])
    del asker.problems[mark:]
    return _Sent(index, scene_id, before, actions, tuple(transforms), tuple(answers), again_differs, problems, at)




def run(ruleset: Ruleset, impl: Implementation | Session, *, examples: int = 200, budget: float = 60.0,
        seed: int = 0, max_groups: int = MAX_GROUPS, shrink_limit: int = SHRINK_LIMIT, workers: int = 1,
        scheduler: str | None = None, log: Callable[[str], None] | None = None,
        progress: Progress | None = None, boundary_share: float | None = None) -> FuzzResult:
    with collector_eased():
        return _run(ruleset, impl, examples=examples, budget=budget, seed=seed, max_groups=max_groups,
                    shrink_limit=shrink_limit, workers=workers, scheduler=scheduler, log=log, progress=progress,
                    boundary_share=boundary_share)


def _run(ruleset: Ruleset, impl: Implementation | Session, *, examples: int, budget: float, seed: int,
         max_groups: int, shrink_limit: int, workers: int, scheduler: str | None,
         log: Callable[[str], None] | None, progress: Progress | None, boundary_share: float | None) -> FuzzResult:
    """Fuzz ``impl`` against the reference. The implementation is asked in this process; the
    reference under every reading runs on ``workers`` processes (or on the Dask cluster at
    ``scheduler``). The report is the same whatever ``workers`` is. The implementation is
    asked through its session (``impl`` is wrapped in one), whose hello says which parts of
    the outcome are compared; the caller closes it. ``progress`` is told of each scene sent,
    the groups found so far (an estimate before shrinking) and the scenes answered.
    ``boundary_share`` of the scenes (``generation.BOUNDARY_SHARE`` by default) are built on
    the ruleset's boundaries."""
    from ..generation import BOUNDARY_SHARE
    from ..kit.boundary import BoundaryTally, Visit

    require(ruleset)
    share = BOUNDARY_SHARE if boundary_share is None else boundary_share
    boundaries = tuple(ruleset.boundaries()) if ruleset.supports(Capability.BOUNDARIES) else ()
    start = time.perf_counter()
    session = impl if isinstance(impl, Session) else Session(impl)
    asker = SceneAsker(ruleset, session)
    execution = Execution(workers, scheduler)
    handed: Ruleset | str = ruleset if execution.in_process else ruleset.key
    counts = {"order": 0, "repeat": 0}
    sent: dict[int, _Sent] = {}
    given_up = ""
    visits: dict[str, Visit] = {}  # scene id -> the boundary it was built on
    tally = BoundaryTally()
    order = tuple(p.name for p in ruleset.reading_points)
    default_options = tuple(ruleset.default_reading[p] for p in order)
    trials: list[Trial] = []
    divergences: list[Divergence] = []
    problems: list[SceneProblem] = []
    running = _RunningGroups(ruleset)
    held: list[_ReferenceWork] = []  # with workers, the reference work waits until the scenes are sent

    def take(done: _ReferenceDone) -> None:
        """A scene's answers read and compared: kept, in scene order."""
        record = sent[len(trials) + 1]
        # read: the answers' data and the reordered scenes need not stay to the end
        sent[len(trials) + 1] = replace(record, answers=(), transforms=())
        problems.extend(record.problems + done.unreadable)
        table = ReadingTable(order, default_options, done.points, MappingProxyType(done.keys), MappingProxyType({}))
        actual = done.outcomes.get("")
        trial = Trial(record.scene_id, record.before, record.actions, table, actual, done.matches)
        trials.append(trial)
        if actual is None:
            return
        for transform in record.transforms:
            if transform.name in done.order_differs:
                moved = done.outcomes[transform.name]
                divergences.append(Divergence("order", record.scene_id, transform.name, record.before,
                                              record.actions, actual, moved, transform.before, transform.actions))
                running.divergence("order", record.seconds)
        again = done.outcomes.get("again")
        if record.again_differs and again is not None:
            divergences.append(Divergence("repeat", record.scene_id, "sent again", record.before, record.actions,
                                          actual, again, record.before, record.actions))
            running.divergence("repeat", record.seconds)
        running.take(trial, record.seconds)

    def visit(before: Any, actions: Any, landed: Visit | None) -> None:
        """A scene as soon as it is drawn: sent, and (in this process) compared at once."""
        nonlocal given_up
        index = len(sent) + 1
        tally.count(landed)
        if landed is not None:
            visits[f"fuzz-{seed}-{index}"] = landed
        data = SceneData.of(ruleset, before, actions)
        try:
            record = _send(ruleset, asker, index, f"fuzz-{seed}-{index}", before, actions, data, counts, start)
        except GivenUp as exc:
            given_up = str(exc)
            return
        sent[index] = record
        work = _ReferenceWork(handed, session.declaration(ruleset).reports, before, actions, data, record.answers,
                              record.transforms if execution.in_process else None)
        if execution.in_process:
            take(_reference_work([work])[0])
        else:
            held.append(work)
        if progress is not None:
            progress.advance(1, noted=running.count,
                             detail=f"{len(running.answered)} answered" if execution.in_process else "")

    # Its hello says which optional rules it supports, so that only scenes it can answer are
    # drawn; a start that fails here is tried again, and reported, with the first scene.
    if not session.given_up:
        session.impl.start()
    declared = session.declaration(ruleset)
    features = None if declared.supports is None else declared.supported(ruleset)
    stopped = draw_scenes(ruleset, seed, examples, start + budget, visit, share if boundaries else 0.0,
                          stop=lambda: bool(given_up), features=features) and not given_up
    for done_batch in map_ordered(_reference_work, (held[i:i + BATCH] for i in range(0, len(held), BATCH)),
                                  execution):
        for done in done_batch:
            take(done)
    asker.problems[:0] = problems  # those of the scenes, in scene order, before any of shrinking
    if log:
        log(f"  {len(trials)} scenes in {time.perf_counter() - start:.1f} s")

    readings = running.readings
    answered = running.answered  # every scene answered, in scene order
    explained = running.sets.counted(running.explaining)
    ranked = _ranked(ruleset, readings, explained)
    best = ranked[0]
    runner_up = ranked[1] if len(ranked) > 1 else None
    best_reading = readings[best]

    deadline = time.perf_counter() + budget
    asker.deadline = deadline  # shrinking asks nothing more past it
    seen_at = {record.scene_id: record.seconds for record in sent.values()}

    def actual_of(trial: Trial) -> Outcome:
        assert trial.actual is not None
        return trial.actual

    # A scene another reading explains is looked at again to name that reading; one that no
    # reading explains on the second look (its answer matched a reference outcome on the
    # first) is counted with those no reading explains, rather than stopping the run.
    nearest_of = {t.scene_id: explaining(ruleset, t.before, t.actions, actual_of(t), readings, best_reading)
                  for t, by in zip(answered, running.explaining) if t.matches and not by >> best & 1}
    unexplained_trials = [t for t in answered if not t.matches or nearest_of.get(t.scene_id, best_reading) is None]
    mixed_trials = [t for t in answered if nearest_of.get(t.scene_id) is not None]

    def guarded(shrink: Callable[[Member], tuple[str, Example]],
                fallback: Callable[[Member], tuple[str, Example]]) -> Callable[[Member], tuple[str, Example]]:
        """Shrinking stops at the first sign that the implementation cannot be started."""
        def call(member: Member) -> tuple[str, Example]:
            nonlocal given_up
            if not given_up:
                try:
                    return shrink(member)
                except GivenUp as exc:
                    given_up = str(exc)
            return fallback(member)
        return call

    def built_on(trial: Trial) -> tuple[str, ...]:
        return (visits[trial.scene_id].boundary,) if trial.scene_id in visits else ()

    def disagreement(trial: Trial, tries_made: bool = True) -> tuple[str, Group]:
        t0 = time.perf_counter()
        shrunk = shrink_disagreement(ruleset, asker, trial, shrink_limit, best_reading, boundaries, built_on(trial)) \
            if tries_made else Shrunk(trial.before, trial.actions, actual_of(trial), 0)
        before, actions, actual = shrunk.before, shrunk.actions, shrunk.actual
        reference = ruleset.resolve(before, actions, best_reading)
        key = fingerprint(ruleset, before, actions, reference, actual)
        if log and tries_made:
            log(f"  shrank {trial.scene_id} in {shrunk.tries} tries: {key}")
        return key, Group(key, 0, [], before, actions, actual, trial.scene_id, shrunk.tries,
                          time.perf_counter() - t0, seen_at[trial.scene_id],
                          points=deciding_points(ruleset, before, actions, reference, actual, best_reading),
                          decided_at=shrunk.decided_at)

    def bucket(trial: Trial) -> str:
        return situation_and_shape(ruleset, trial.before, trial.actions,
                                   ruleset.resolve(trial.before, trial.actions, best_reading), actual_of(trial))

    found, not_shrunk = grouped(unexplained_trials, bucket,
                                 guarded(disagreement, lambda t: disagreement(t, tries_made=False)),
                                 max_groups, deadline)

    def visited(scene_ids: Sequence[str]) -> dict[str, int]:
        """How many of ``scene_ids`` were built on each boundary, by "boundary (side)"."""
        counted: dict[str, int] = {}
        for scene_id in scene_ids:
            if scene_id in visits:
                counted[str(visits[scene_id])] = counted.get(str(visits[scene_id]), 0) + 1
        return dict(sorted(counted.items()))

    def on_boundary(before: Any, actions: Any) -> str:
        return next((b.name for b in boundaries if beside(b, before, actions)), "")

    groups = [replace(g.example, count=len(g.members), scene_ids=[t.scene_id for t in g.members],
                      boundary_visits=visited([t.scene_id for t in g.members]),
                      on_boundary=on_boundary(g.example.before, g.example.actions)) for g in found]

    def other_reading_of(trial: Trial) -> str:
        nearest = nearest_of[trial.scene_id]
        assert nearest is not None
        return reading_label(nearest, best_reading)

    def mixed_example(trial: Trial, tries_made: bool = True) -> tuple[str, Group]:
        t0 = time.perf_counter()
        shrunk = shrink_mixed(ruleset, asker, trial, readings, best_reading, shrink_limit, boundaries,
                              built_on(trial)) if tries_made else Shrunk(trial.before, trial.actions,
                                                                         actual_of(trial), 0)
        before, actions, actual = shrunk.before, shrunk.actions, shrunk.actual
        nearest = explaining(ruleset, before, actions, actual, readings, best_reading)
        assert nearest is not None
        key = reading_label(nearest, best_reading)
        return key, Group(key, 0, [], before, actions, actual, trial.scene_id, shrunk.tries,
                          time.perf_counter() - t0, seen_at[trial.scene_id], kind="mixed", reading=nearest,
                          decided_at=shrunk.decided_at)

    found_mixed, mixed_not_shrunk = grouped(mixed_trials, other_reading_of,
                                             guarded(mixed_example, lambda t: mixed_example(t, tries_made=False)),
                                             max_groups, deadline)
    mixed = [replace(g.example, count=len(g.members), scene_ids=[t.scene_id for t in g.members],
                     boundary_visits=visited([t.scene_id for t in g.members]),
                     on_boundary=on_boundary(g.example.before, g.example.actions)) for g in found_mixed]
    groups, mixed = merge_decided(groups, mixed)

    def divergence_example(d: Divergence, tries_made: bool = True) -> tuple[str, Divergence]:
        if d.kind == "order" and tries_made:
            d = shrink_order(ruleset, asker, d, shrink_limit)
        return divergence_print(ruleset, d, readings, best_reading), d

    divergence_groups: list[DivergenceGroup] = []
    divergences_not_shrunk = 0
    for kind in ("order", "repeat"):
        of_kind = [d for d in divergences if d.kind == kind]
        found_divergences, left = grouped(
            of_kind, lambda d: divergence_print(ruleset, d, readings, best_reading),
            guarded(divergence_example, lambda d: divergence_example(d, tries_made=False)), max_groups, deadline)
        divergences_not_shrunk += left
        divergence_groups += [DivergenceGroup(g.fingerprint, len(g.members), [d.scene_id for d in g.members],
                                              g.example, g.first.scene_id, visited([d.scene_id for d in g.members]))
                              for g in found_divergences]

    return FuzzResult(
        ruleset=ruleset, implementation=session.describe(), seed=seed, examples=examples, budget=budget,
        readings=readings, trials=trials, explained=explained, best=best, runner_up=runner_up,
        points=_point_shares(ruleset, answered, best_reading, running.sets), other_reading=len(mixed_trials),
        unexplained=len(unexplained_trials), groups=groups, groups_not_shrunk=not_shrunk,
        order_checked=counts["order"], repeat_checked=counts["repeat"], divergences=divergences,
        divergence_groups=divergence_groups, problems=asker.problems, stopped_by_budget=stopped,
        given_up=session.given_up or given_up, seconds=time.perf_counter() - start, impl_calls=session.calls,
        impl_seconds=session.seconds, workers=workers, mixed=mixed, mixed_not_shrunk=mixed_not_shrunk,
        divergences_not_shrunk=divergences_not_shrunk,
        declared=describe(ruleset, session.declaration(ruleset)) if session.impl.info else "",
        first_finding_seconds=running.first_seconds, boundary_share=share if boundaries else 0.0,
        boundaries=tally.as_json([b.name for b in boundaries]) if boundaries else {})
