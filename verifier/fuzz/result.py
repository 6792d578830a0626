"""What a fuzz run found, as values: the scenes and their answers, the groups of
disagreements, the divergences, and the answers that could not be had."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..ruleset import Outcome, Ruleset
from .reference import Reading, ReadingTable


class ProblemKind(StrEnum):
    """Why a request got no answer that could be compared."""

    PROTOCOL = "protocol"  # a timeout, a crash, a malformed line, a failed start
    ERRORED = "errored"  # the implementation says it failed
    SKIPPED = "skipped"  # the implementation, or its hello, declines the scene
    UNREADABLE = "unreadable"  # the answer does not fit the outcome schema or cannot be read


@dataclass(frozen=True)
class SceneProblem:
    """A request about one scene that got no answer that could be compared."""

    scene: str
    kind: ProblemKind
    message: str


@dataclass
class Trial:
    """One generated scene: the reference table and the implementation's answer."""

    scene_id: str
    before: Any
    actions: Any
    table: ReadingTable
    actual: Outcome | None
    matches: frozenset[Any] = frozenset()  # keys of the reference outcomes the answer agrees with

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
    # How many of its scenes were built on each boundary, by "boundary (side)"; and the
    # boundary its minimal scene lies on or just beside ("" for none).
    boundary_visits: dict[str, int] = field(default_factory=dict)
    on_boundary: str = ""
    points: tuple[str, ...] = ()  # reading points whose options change the differing parts (told, not grouped by)
    # The boundary (and side) that decides the minimal scene: on one side of it the answer
    # departs, on another it agrees ("" for none); and the fingerprints of the groups
    # decided by the same boundary that were merged into this one.
    decided_at: str = ""
    merged: list[str] = field(default_factory=list)


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
    boundary_visits: dict[str, int] = field(default_factory=dict)  # as Group's


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
    problems: list[SceneProblem]
    stopped_by_budget: bool
    given_up: str
    seconds: float
    impl_calls: int
    impl_seconds: float
    workers: int = 1
    mixed: list[Group] = field(default_factory=list)
    mixed_not_shrunk: int = 0
    divergences_not_shrunk: int = 0
    declared: str = ""  # what the hello declares for the ruleset, in words ("" for nothing)
    boundary_share: float = 0.0  # the share of scenes asked to be built on boundaries
    boundaries: dict[str, Any] = field(default_factory=dict)  # kit.boundary.BoundaryTally.as_json
    first_finding_seconds: float | None = None  # when the first departure's answer came, since the start

    @property
    def answered(self) -> list[Trial]:
        return [t for t in self.trials if t.actual is not None]

    @property
    def compared_nothing(self) -> str:
        """Why nothing could be compared, as a sentence; empty when some answer was."""
        if self.answered:
            return ""
        kinds = sorted({p.kind.value for p in self.problems})
        return (f"Nothing could be compared: the implementation answered none of the {len(self.trials)} scenes"
                + (f" ({', '.join(kinds)}; see the problems in the report)" if kinds else "") + ".")

    @property
    def departures(self) -> int:
        """Scenes no reading explains, answers that changed with the listing order, and
        answers that changed when sent again."""
        return self.unexplained + len(self.divergences)

    @property
    def exit_code(self) -> int:
        """2 when nothing could be compared; 1 when a departure was found or the run
        stopped early (the implementation would not start); else 0."""
        if self.compared_nothing:
            return 2
        return 1 if self.departures or self.given_up else 0

