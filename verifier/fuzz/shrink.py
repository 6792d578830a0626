"""Grouping findings and shrinking each group's first member to a minimal scene
(``Ruleset.simpler``) while what was found persists."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..explore import shrink_greedily
from ..findings import slug
from ..kit.boundary import Boundary, beside, settle
from ..ruleset import Outcome, Ruleset
from .ask import SceneAsker
from .compare import explaining, matching, order_differs
from .reference import Reading, reading_table
from .result import Divergence, Group, Trial
from .scenes import order_transforms

Member = TypeVar("Member")
Example = TypeVar("Example")


@dataclass
class Grouped(Generic[Member, Example]):
    fingerprint: str
    members: list[Member]
    example: Example
    first: Member
    seconds: float


def grouped(members: Sequence[Member], bucket: Callable[[Member], str],
             shrink: Callable[[Member], tuple[str, Example]], max_groups: int,
             deadline: float) -> tuple[list[Grouped[Member, Example]], int]:
    """``members`` sorted by a cheap key (``bucket``), the largest buckets first; the first
    member of each is shrunk (``shrink`` gives the fingerprint of its minimal example and
    the example), and buckets whose minimal examples share a fingerprint merge. Returns
    the groups, the largest first, and the number of members left in buckets not shrunk
    (beyond ``max_groups`` or the time ``deadline``)."""
    by_bucket: dict[str, list[Member]] = {}
    for member in members:
        by_bucket.setdefault(bucket(member), []).append(member)
    ordered = sorted(by_bucket.items(), key=lambda item: (-len(item[1]), item[0]))
    merged: dict[str, Grouped[Member, Example]] = {}
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
            merged[key] = Grouped(key, list(bucket_members), example, bucket_members[0], time.perf_counter() - t0)
    groups = sorted(merged.values(), key=lambda g: (-len(g.members), g.fingerprint))
    return groups, sum(len(m) for _, m in ordered[shrunk:])



@dataclass(frozen=True)
class Shrunk:
    """A group's minimal scene, the answer to it, the simpler scenes tried, and the boundary
    (and side) that decides it ("" where none does)."""

    before: Any
    actions: Any
    actual: Outcome
    tries: int
    decided_at: str = ""


def _onto_boundary(ruleset: Ruleset, asker: SceneAsker, trial: Trial, best: Reading, boundaries: Sequence[Boundary],
                   first: Sequence[str], shrunk: Shrunk, keep: Callable[[Any, Any], Outcome | None],
                   limit: int) -> Shrunk:
    """The minimal scene moved onto the boundary that decides it (``kit.boundary.settle``):
    where it shows the same on one side of a boundary and the best reading's outcome on
    another, the scene nearest the boundary that shows it, shrunk again while it stays on
    or just beside the boundary. Findings at one boundary so meet at its simplest scene,
    whichever scene they were found in."""
    def agrees(before: Any, actions: Any) -> bool:
        answer = asker.outcome(f"{trial.scene_id}-shrink", before, actions)
        table = reading_table(ruleset, before, actions)
        return answer is not None and table.key(best) in matching(ruleset, before, actions, table, answer)

    found = settle(boundaries, shrunk.before, shrunk.actions,
                   lambda b, a: True if keep(b, a) is not None else (False if agrees(b, a) else None), first)
    if found is None:
        return shrunk
    boundary = next(b for b in boundaries if b.name == found.boundary)
    before, actions, answer, tries = shrink_greedily(
        ruleset, found.before, found.actions, lambda b, a: keep(b, a) if beside(boundary, b, a) else None, limit)
    actual = answer or keep(before, actions) or shrunk.actual
    value = boundary.quantity(before, actions)
    side = found.side if value is None else boundary.side_of(value)
    return Shrunk(before, actions, actual, shrunk.tries + tries, f"{boundary.name} ({side})")


def shrink_disagreement(ruleset: Ruleset, asker: SceneAsker, trial: Trial, limit: int, best: Reading | None = None,
                        boundaries: Sequence[Boundary] = (), first: Sequence[str] = ()) -> Shrunk:
    """Replace the scene by simpler ones while the implementation's answer stays one that
    no reading gives; then, given the best reading and the ruleset's ``boundaries``, onto
    the boundary that decides it (those named in ``first`` tried first)."""
    assert trial.actual is not None

    def unexplained(before: Any, actions: Any) -> Outcome | None:
        answer = asker.outcome(f"{trial.scene_id}-shrink", before, actions)
        if answer is None or matching(ruleset, before, actions, reading_table(ruleset, before, actions), answer):
            return None
        return answer

    before, actions, answer, tries = shrink_greedily(ruleset, trial.before, trial.actions, unexplained, limit)
    shrunk = Shrunk(before, actions, answer or trial.actual, tries)
    if best is None or not boundaries:
        return shrunk
    return _onto_boundary(ruleset, asker, trial, best, boundaries, first, shrunk, unexplained, limit)


def shrink_mixed(ruleset: Ruleset, asker: SceneAsker, trial: Trial, readings: Sequence[Reading], best: Reading,
                 limit: int, boundaries: Sequence[Boundary] = (), first: Sequence[str] = ()) -> Shrunk:
    """Simpler scenes while the same other reading (and not the best) explains the answer;
    then onto the boundary that decides it, as ``shrink_disagreement``."""
    assert trial.actual is not None
    wanted = explaining(ruleset, trial.before, trial.actions, trial.actual, readings, best)

    def still(before: Any, actions: Any) -> Outcome | None:
        answer = asker.outcome(f"{trial.scene_id}-shrink", before, actions)
        if answer is None:
            return None
        return answer if explaining(ruleset, before, actions, answer, readings, best) == wanted else None

    before, actions, answer, tries = shrink_greedily(ruleset, trial.before, trial.actions, still, limit)
    shrunk = Shrunk(before, actions, answer or trial.actual, tries)
    if not boundaries:
        return shrunk
    return _onto_boundary(ruleset, asker, trial, best, boundaries, first, shrunk, still, limit)


def merge_decided(groups: Sequence[Group], mixed: Sequence[Group]) -> tuple[list[Group], list[Group]]:
    """Groups (of either kind) decided by the same boundary merged into one: the first
    disagreement among them (else the first mixed group) takes the others' scenes, and
    their fingerprints as ``merged``. A boundary across which the answer changes is one
    departure, however many situations it was found in. Each kind stays largest first."""
    at: dict[object, list[Group]] = {}
    for group in (*groups, *mixed):
        at.setdefault(group.decided_at.partition(" (")[0] or id(group), []).append(group)
    merged = []
    for head, *rest in at.values():
        visits: dict[str, int] = {}
        for group in (head, *rest):
            for visit, n in group.boundary_visits.items():
                visits[visit] = visits.get(visit, 0) + n
        merged.append(replace(head, count=sum(g.count for g in (head, *rest)),
                              scene_ids=[s for g in (head, *rest) for s in g.scene_ids],
                              boundary_visits=dict(sorted(visits.items())),
                              merged=[*head.merged, *(f for g in rest for f in (g.fingerprint, *g.merged))]))
    ranked = sorted(merged, key=lambda g: -g.count)  # stable: ties keep their order
    return [g for g in ranked if g.kind != "mixed"], [g for g in ranked if g.kind == "mixed"]


def order_divergence(ruleset: Ruleset, asker: SceneAsker, scene_id: str, before: Any,
                      actions: Any) -> Divergence | None:
    """The first order transform of the scene under which the implementation's answer changes."""
    actual = asker.outcome(scene_id, before, actions)
    if actual is None:
        return None
    table = reading_table(ruleset, before, actions)
    trial = Trial(scene_id, before, actions, table, actual, matching(ruleset, before, actions, table, actual))
    for transform in order_transforms(ruleset, before, actions):
        moved = asker.outcome(f"{scene_id}-{slug(transform.name)}", transform.before, transform.actions)
        if moved is not None and order_differs(ruleset, trial, transform, moved):
            return Divergence("order", scene_id, transform.name, before, actions, actual, moved, transform.before,
                              transform.actions)
    return None


def shrink_order(ruleset: Ruleset, asker: SceneAsker, found: Divergence, limit: int) -> Divergence:
    """Simpler scenes while listing the pieces in another order still changes the answer."""
    _, _, smaller, tries = shrink_greedily(
        ruleset, found.before, found.actions,
        lambda before, actions: order_divergence(ruleset, asker, f"{found.scene_id}-shrink", before, actions), limit)
    found = smaller or found
    return replace(found, scene_id=found.scene_id.removesuffix("-shrink"), shrink_tries=tries)

