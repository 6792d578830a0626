"""The ambiguity explorer: finds where a ruleset's clause table contradicts itself,
is silent, depends on order, breaks symmetry, breaks invariants under a reading,
or lets readings diverge; and checks documented examples against every reading.

Everything here goes through the ``Ruleset`` interface, so it serves every
ruleset. Findings are fingerprinted by kind, reading point, clauses, label and the
shape of the situation (``Decision.situation``, which the ruleset words without
piece names or absolute directions), so one problem is one finding however many
scenes show it, and one reading point met in situations of different shapes gives
one finding per shape.

These are the explorer's stages; ``explorer.run_explore`` runs them all as one call.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType
from typing import Any, TypeVar

from .case import CaseStatus
from .execute import IN_PROCESS, Execution, Progress
from .kept import KeptFor
from .kit.collector import collector_eased, collector_paused
from .ruleset import Capability, FindingKind, Ruleset, compare_outcome

Kept = TypeVar("Kept")

KINDS = tuple(FindingKind)


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    point: str  # the reading point concerned, or ""
    clauses: tuple[str, ...]
    label: str  # what distinguishes findings of one kind: an invariant, a transform, options
    summary: str  # one sentence for a rule writer
    before: Any = field(compare=False, repr=False)
    actions: Any = field(compare=False, repr=False)
    # Whether the readings of ``point`` give different outcomes for this scene, so that a
    # picture of it shows the problem. Searches prefer such scenes.
    visible: bool = field(default=True, compare=False)
    situation: str = ""  # the decision's situation shape, where the ruleset words one

    @property
    def fingerprint(self) -> str:
        text = ":".join((self.kind, self.point or "-", "+".join(self.clauses) or "-", self.label or "-"))
        return f"{text}@{self.situation}" if self.situation else text


FINGERPRINT_TEXT = (
    "A finding's fingerprint is kind:point:clauses:label, followed by @situation where the ruleset words "
    "the shape of the situation at the decision point: which piece does what to which, with what motion and "
    "relative size, named by role rather than by piece and by relative rather than absolute direction. "
    "Renaming, turning or mirroring a scene keeps its fingerprint; the same reading point met in situations "
    "of a different shape gives different findings.")


def reading_label(reading: Mapping[str, str], default: Mapping[str, str]) -> str:
    changed = [f"{k}={v}" for k, v in reading.items() if default.get(k) != v]
    return ", ".join(changed) or "default (" + ", ".join(f"{k}={v}" for k, v in reading.items()) + ")"


def single_point_readings(ruleset: Ruleset) -> list[tuple[str, str, Mapping[str, str]]]:
    """The default reading, then each one-point change from it: (point, option, reading)."""
    default = dict(ruleset.default_reading)
    found: list[tuple[str, str, Mapping[str, str]]] = [("", "", MappingProxyType(default))]
    for point in ruleset.reading_points:
        for option in point.options:
            if option != point.default:
                found.append((point.name, option, MappingProxyType({**default, point.name: option})))
    return found


_READINGS: KeptFor[tuple[tuple[str, str, Mapping[str, str]], ...]] = KeptFor(64)


def _readings(ruleset: Ruleset) -> tuple[tuple[str, str, Mapping[str, str]], ...]:
    """``single_point_readings``, worked out once per ruleset: analysing a scene asks every time."""
    return _READINGS.get(ruleset, lambda: tuple(single_point_readings(ruleset)))


def analyse(ruleset: Ruleset, before: Any, actions: Any) -> dict[str, Finding]:
    """Every finding this one scene shows, by fingerprint."""
    with collector_paused():
        return _analyse(ruleset, before, actions)


def _analyse(ruleset: Ruleset, before: Any, actions: Any) -> dict[str, Finding]:
    found: dict[str, Finding] = {}

    def add(finding: Finding) -> None:
        found.setdefault(finding.fingerprint, finding)

    readings = _readings(ruleset)
    default = readings[0][2]
    base = ruleset.resolve(before, actions, default)
    base_key = ruleset.outcome_key(base)
    for decision in base.decisions:
        kind = decision.kind
        if kind is FindingKind.CONTRADICTION:
            said = "; ".join(f"{c} says {p}" for c, p in zip(decision.applicable, decision.prescriptions))
            add(Finding(kind, decision.point, decision.clauses, "",
                        f"{' and '.join(decision.applicable)} both apply and disagree ({decision.detail}): {said}",
                        before, actions, situation=decision.situation))
        elif kind is FindingKind.GAP:
            add(Finding(kind, decision.point, decision.clauses, "",
                        f"no clause covers this ({decision.detail}); nearest: {', '.join(decision.near)}",
                        before, actions, situation=decision.situation))
    for point, option, reading in readings:
        if point and point not in base.consulted:
            continue  # the resolver never asked, so this reading cannot change anything
        outcome = base if not point else ruleset.resolve(before, actions, reading)
        for invariant, pieces, detail in ruleset.invariant_breaches(before, actions, outcome):
            where = f"{point}={option}" if point else "the default reading"
            add(Finding(FindingKind.BREACH, point, (), f"{invariant}" + (f" under {point}={option}" if point else ""),
                        f"{invariant} under {where} ({', '.join(pieces)}; {detail})", before, actions))
        if point and ruleset.outcome_key(outcome) != base_key:
            # Fingerprint by the one kind of decision the point was consulted at. A scene with
            # several kinds is not minimal; simpler scenes show each kind on its own.
            groups = {(d.clauses, d.situation) for d in base.decisions + outcome.decisions if d.point == point}
            if len(groups) != 1:
                continue
            clauses, situation = groups.pop()
            add(Finding(FindingKind.DIVERGENCE, point, clauses, f"{default[point]} vs {option}",
                        f"reading {point}={default[point]} and {point}={option} give different outcomes"
                        + (f" ({situation})" if situation else ""), before, actions, situation=situation))
    diverging = {f.point for f in found.values() if f.kind is FindingKind.DIVERGENCE}
    for fingerprint, finding in list(found.items()):
        if finding.kind in (FindingKind.CONTRADICTION, FindingKind.GAP) and finding.point not in diverging:
            found[fingerprint] = replace(finding, visible=False)
    for transform in ruleset.transforms(before, actions):
        moved_key = (transform.key(default) if transform.key is not None else
                     ruleset.outcome_key(ruleset.resolve(transform.before, transform.actions, default)))
        if moved_key != transform.map_key(base_key):
            add(Finding(FindingKind(transform.kind), "", (), transform.name,
                        f"the outcome changes under a {transform.name} of the scene", before, actions))
    return found


def finding_readings(ruleset: Ruleset, finding: Finding) -> list[tuple[str, Mapping[str, str]]]:
    """The readings a finding is shown under, labelled: every option of its reading point."""
    default = dict(ruleset.default_reading)
    for point in ruleset.reading_points:
        if point.name == finding.point:
            options = [point.default] + [o for o in point.options if o != point.default]
            return [(f"{point.name}={o}" + (" (default)" if o == point.default else ""),
                     MappingProxyType({**default, point.name: o})) for o in options]
    return [("default reading", MappingProxyType(default))]


def _distinct_outcomes(ruleset: Ruleset, finding: Finding, before: Any, actions: Any) -> int:
    return len({ruleset.outcome_key(ruleset.resolve(before, actions, r))
                for _, r in finding_readings(ruleset, finding)})


def shrink_greedily(ruleset: Ruleset, before: Any, actions: Any, keep: Callable[[Any, Any], Kept | None],
                    limit: int) -> tuple[Any, Any, Kept | None, int]:
    """Replace the scene by the first of ``ruleset.simpler`` for which ``keep`` gives a
    value, again and again, until no simpler scene keeps one or ``limit`` scenes were
    tried. Returns the last scene, the value kept for it (None if the first scene was
    already minimal) and the number of scenes tried."""
    kept: Kept | None = None
    tries = 0
    improved = True
    while improved and tries < limit:
        improved = False
        for smaller_before, smaller_actions in ruleset.simpler(before, actions):
            tries += 1
            value = keep(smaller_before, smaller_actions)
            if value is not None:
                before, actions, kept = smaller_before, smaller_actions, value
                improved = True
                break
            if tries >= limit:
                break
    return before, actions, kept, tries


def shrink(ruleset: Ruleset, finding: Finding, limit: int = 2000) -> Finding:
    """Greedily replace the scene by simpler ones that still show the same fingerprint,
    and still show as many different outcomes under the finding's readings (so the
    minimal picture still shows the disagreement)."""
    spread = _distinct_outcomes(ruleset, finding, finding.before, finding.actions)

    def same_finding(before: Any, actions: Any) -> Finding | None:
        hit = analyse(ruleset, before, actions).get(finding.fingerprint)
        if hit is not None and _distinct_outcomes(ruleset, finding, before, actions) < spread:
            return None
        return hit

    kept = shrink_greedily(ruleset, finding.before, finding.actions, same_finding, limit)[2]
    return kept or finding


# --- searching ---------------------------------------------------------------------

@dataclass
class SearchResult:
    findings: dict[str, Finding]
    first_seen: dict[str, float]  # fingerprint -> seconds after the start
    examples: int
    seconds: float
    stopped_by_budget: bool
    # The scenes built on the ruleset's boundaries (BoundaryTally.as_json), and for each finding
    # first seen on a boundary, which one and on which side ("ship-touches-ship (on)").
    boundaries: dict[str, Any] = field(default_factory=dict)
    from_boundaries: dict[str, str] = field(default_factory=dict)
    boundary_share: float = 0.0
    analysed: int | None = None  # of the scenes, those analysed (the others had been seen before); None: all
    first_scene: dict[str, int] = field(default_factory=dict)  # fingerprint -> number of its first scene (from 0)


def search(ruleset: Ruleset, *, budget: float = 60.0, seed: int = 0, max_examples: int = 20000,
           on_new: Callable[[Finding, float], None] | None = None,
           progress: Progress | None = None, boundary_share: float | None = None,
           execution: Execution = IN_PROCESS) -> SearchResult:
    """Try scenes for ``budget`` seconds (or ``max_examples`` of them); keep the first scene
    of every fingerprint. Same seed and same example count give the same scenes and
    findings, in any process and on any number of workers. ``boundary_share`` of the scenes
    (``generation.BOUNDARY_SHARE`` by default) are moved onto the ruleset's boundaries.

    A ruleset that builds its scenes from choices (Capability.SCENES) has them built from
    the seed (``generation.seeded_scene``), in batches spread over ``execution``'s
    workers, each scene seen before in that worker skipped rather than analysed again;
    any other ruleset's strategy is drawn by Hypothesis, in this process."""
    from .generation import BOUNDARY_SHARE, builds_scenes

    ruleset.require(Capability.SEARCH, "the explorer's search")
    share = BOUNDARY_SHARE if boundary_share is None else boundary_share
    with collector_eased():
        if builds_scenes(ruleset):
            return _seeded_search(ruleset, budget, seed, max_examples, on_new, progress, share, execution)
        return _drawn_search(ruleset, budget, seed, max_examples, on_new, progress, share)


def _drawn_search(ruleset: Ruleset, budget: float, seed: int, max_examples: int,
                  on_new: Callable[[Finding, float], None] | None, progress: Progress | None,
                  share: float) -> SearchResult:
    from .generation import each_scene, scene_strategy
    from .kit.boundary import BoundaryTally, Visit

    findings: dict[str, Finding] = {}
    first_seen: dict[str, float] = {}
    first_scene: dict[str, int] = {}
    from_boundaries: dict[str, str] = {}
    tally = BoundaryTally()
    start = time.perf_counter()
    count = 0

    def probe(before: Any, actions: Any, visit: Visit | None) -> None:
        nonlocal count
        count += 1
        tally.count(visit)
        for fingerprint, finding in analyse(ruleset, before, actions).items():
            if fingerprint not in findings:
                findings[fingerprint] = finding
                first_scene[fingerprint] = count - 1
                first_seen[fingerprint] = time.perf_counter() - start
                if visit is not None:
                    from_boundaries[fingerprint] = str(visit)
                if on_new:
                    on_new(finding, first_seen[fingerprint])
            elif finding.visible and not findings[fingerprint].visible:
                findings[fingerprint] = finding
        if progress is not None:
            progress.advance(1, noted=len(findings))

    stopped = each_scene(scene_strategy(ruleset, share), probe, seed=seed, examples=max_examples,
                         deadline=start + budget)
    names = [b.name for b in ruleset.boundaries()] if ruleset.supports(Capability.BOUNDARIES) else []
    return SearchResult(findings, first_seen, count, time.perf_counter() - start, stopped,
                        tally.as_json(names) if names else {}, from_boundaries, share if names else 0.0,
                        first_scene=first_scene)


SEARCH_BATCH = 200  # scenes a worker takes at a time: a fraction of a second of work


@dataclass(frozen=True)
class _Batch:
    """What one batch of seeded scenes showed: per fingerprint its first scene (and its
    first visible one, where that came later), each with the scene's index, the
    ``time.perf_counter()`` it was found at and its boundary visit ("" for none)."""

    scenes: int  # tried, up to the deadline
    analysed: int  # of them, the ones not seen before in this worker
    found: tuple[tuple[int, float, str, Finding], ...]
    visits: tuple[tuple[str, str], ...]  # (boundary, side) of each scene built on a boundary
    stopped: bool


# Per worker process: the scenes the current search has analysed there. A scene seen again
# shows the same findings, and a worker takes its batches in increasing order, so the first
# scene of each fingerprint is still reported by the batch that holds it.
_SEEN: dict[str, set[Any]] = {}
_RUNS = itertools.count()


def _search_batch(ruleset: Ruleset, seed: int, share: float, size: int, limit: int, deadline: float,
                  boundaries: tuple[Any, ...], run: str, batch: int) -> _Batch:
    from .generation import seeded_scene

    if run not in _SEEN:
        _SEEN.clear()  # an earlier search's scenes
    seen = _SEEN.setdefault(run, set())
    found: dict[str, tuple[int, float, str, Finding]] = {}
    visible: dict[str, tuple[int, float, str, Finding]] = {}
    visits: list[tuple[str, str]] = []
    scenes = analysed = 0
    with collector_paused():
        for index in range(batch * size, min((batch + 1) * size, limit)):
            if time.perf_counter() > deadline:
                return _Batch(scenes, analysed, tuple(found.values()) + tuple(visible.values()), tuple(visits), True)
            before, actions, visit = seeded_scene(ruleset, seed, index, share, boundaries=boundaries)
            scenes += 1
            if visit is not None:
                visits.append((visit.boundary, str(visit.side)))
            known = len(seen)
            try:
                seen.add((before, actions))  # hashed once: a scene's hash is worked out afresh each time
            except TypeError:  # a scene with a list or dict in it: analysed every time
                pass
            else:
                if len(seen) == known:
                    continue
            analysed += 1
            now = time.perf_counter()
            for fingerprint, finding in _analyse(ruleset, before, actions).items():
                where = (index, now, str(visit) if visit is not None else "", finding)
                if fingerprint not in found:
                    found[fingerprint] = where
                elif finding.visible and not found[fingerprint][3].visible and fingerprint not in visible:
                    visible[fingerprint] = where
    return _Batch(scenes, analysed, tuple(found.values()) + tuple(visible.values()), tuple(visits), False)


def _seeded_search(ruleset: Ruleset, budget: float, seed: int, max_examples: int,
                   on_new: Callable[[Finding, float], None] | None, progress: Progress | None,
                   share: float, execution: Execution) -> SearchResult:
    from itertools import takewhile

    from .execute import map_ordered
    from .kit.boundary import BoundaryTally, Side

    boundaries = tuple(ruleset.boundaries()) if ruleset.supports(Capability.BOUNDARIES) else ()
    findings: dict[str, Finding] = {}
    first_seen: dict[str, float] = {}
    first_scene: dict[str, int] = {}
    from_boundaries: dict[str, str] = {}
    tally = BoundaryTally()
    start = time.perf_counter()
    deadline = start + budget
    batches = takewhile(lambda _: time.perf_counter() < deadline, range(-(-max_examples // SEARCH_BATCH)))
    run = f"{os.getpid()}:{next(_RUNS)}"  # this search, so that a worker drops what an earlier one saw
    work = partial(_search_batch, ruleset, seed, share, SEARCH_BATCH, max_examples, deadline, boundaries, run)
    count = analysed = 0
    stopped = False
    for batch in map_ordered(work, batches, execution):
        count += batch.scenes
        analysed += batch.analysed
        stopped |= batch.stopped
        tally.scenes += batch.scenes
        for boundary, side in batch.visits:
            tally.visits.setdefault(boundary, dict.fromkeys(Side, 0))[Side(side)] += 1
        for index, seconds, visit, finding in batch.found:
            fingerprint = finding.fingerprint
            if fingerprint not in findings:
                findings[fingerprint] = finding
                first_scene[fingerprint] = index
                first_seen[fingerprint] = max(seconds - start, 0.0)
                if visit:
                    from_boundaries[fingerprint] = visit
                if on_new:
                    on_new(finding, first_seen[fingerprint])
            else:
                first_seen[fingerprint] = min(first_seen[fingerprint], max(seconds - start, 0.0))
                if finding.visible and not findings[fingerprint].visible:
                    findings[fingerprint] = finding
        if progress is not None:
            progress.advance(batch.scenes, noted=len(findings))
    stopped = stopped or count < max_examples
    names = [b.name for b in boundaries]
    return SearchResult(findings, first_seen, count, time.perf_counter() - start, stopped,
                        tally.as_json(names) if names else {}, from_boundaries, share if names else 0.0,
                        analysed=analysed, first_scene=first_scene)


# --- documented examples against readings ------------------------------------------------

@dataclass
class ExampleMatrix:
    readings: list[Mapping[str, str]]
    cases: list[Any]  # Case
    agrees: dict[tuple[str, int], bool]  # (case id, reading index) -> agrees

    def readings_agreeing_with_all(self) -> list[Mapping[str, str]]:
        return [r for i, r in enumerate(self.readings) if all(self.agrees[(c.id, i)] for c in self.cases)]


def documented_examples(ruleset: Ruleset, cases: Iterable[Any]) -> list[Any]:
    """The cases of ``ruleset`` that are documented examples with an expectation: the matrix's rows."""
    return [c for c in cases if c.ruleset is ruleset and c.status == CaseStatus.DOCUMENTED and c.expect is not None]


def example_matrix(ruleset: Ruleset, cases: Iterable[Any]) -> ExampleMatrix:
    cases = documented_examples(ruleset, cases)
    readings = ruleset.all_readings()
    agrees = {}
    for case in cases:
        for i, reading in enumerate(readings):
            outcome = ruleset.resolve(case.before, case.actions, reading)
            agrees[(case.id, i)] = not compare_outcome(ruleset, case.before, case.expect, outcome)
    return ExampleMatrix(readings, cases, agrees)


def example_conflicts(ruleset: Ruleset, matrix: ExampleMatrix) -> list[Finding]:
    """One finding per single-point reading that some documented example contradicts."""
    found = []
    index = {tuple(sorted(r.items())): i for i, r in enumerate(matrix.readings)}
    for point, option, reading in single_point_readings(ruleset)[1:]:
        i = index[tuple(sorted(reading.items()))]
        against = [c for c in matrix.cases if not matrix.agrees[(c.id, i)]]
        if against:
            case = against[0]
            found.append(Finding(
                FindingKind.EXAMPLE_CONFLICT, point, (), option,
                f"{point}={option} contradicts {len(against)} documented example(s): "
                + ", ".join(f"{c.id} ({c.source.example or c.title})" for c in against),
                case.before, case.actions))
    return found
