"""What every ruleset plugin provides, and the value types they share.

A ruleset is a small object with a clause table, named readings, a JSON Schema
for its part of a case, a parser, a pure resolver, a comparer and a drawing
function. The core calls nothing else, so a grid, a plane or a map of areas all
fit behind the same interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping, Sequence

from .errors import UnknownReadingError, did_you_mean, Location


@dataclass(frozen=True)
class Citation:
    seed: str
    section: str
    example: str | None = None

    def __str__(self) -> str:
        text = f"{self.seed}, {self.section}"
        return text + (f", \"{self.example}\"" if self.example else "")


@dataclass(frozen=True)
class Clause:
    """One rule clause: a stable id in the source's own numbering, our paraphrase,
    and where the original stands."""

    id: str
    summary: str
    source: Citation
    readings: tuple[str, ...] = ()  # reading points that decide how this clause is applied


@dataclass(frozen=True)
class ReadingPoint:
    """A place where the rule text is silent or contradicts itself, with the named
    ways of reading it. ``default`` is what the reference resolver does unless a
    case pins another option."""

    name: str
    question: str
    options: Mapping[str, str]  # option name -> what it means
    default: str
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened while resolving: a collision, a bump, a hit, ..."""

    kind: str
    pieces: tuple[str, ...]
    round: int = 1
    phase: str = ""
    clause: str = ""
    detail: str = ""
    at: Any = None  # where it happened: the contested, blocked or destination place
    step: int = 0  # the step within the phase, where the ruleset has steps

    def key(self, ordered: bool) -> tuple:
        pieces = self.pieces if ordered else tuple(sorted(self.pieces))
        return (self.round, self.kind, pieces)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision point where the clause table did not give exactly one answer.

    ``applicable`` lists every clause whose condition held, with what each
    prescribes (same order). Two clauses with different prescriptions are a
    contradiction; no clause at all is a gap, and ``near`` then names the
    clauses that come closest. ``point`` is the reading point the resolver
    consulted to decide."""

    point: str
    applicable: tuple[str, ...]
    prescriptions: tuple[str, ...]
    pieces: tuple[str, ...]
    round: int = 1
    near: tuple[str, ...] = ()
    detail: str = ""

    @property
    def kind(self) -> str | None:
        if not self.applicable:
            return "gap"
        if len(set(self.prescriptions)) > 1:
            return "contradiction"
        return None

    @property
    def clauses(self) -> tuple[str, ...]:
        return tuple(sorted(self.applicable or self.near))


@dataclass(frozen=True)
class Outcome:
    """The result of resolving a scene: the state after, what happened, and for each
    piece the clause ids that decided its fate (provenance)."""

    after: Any
    events: tuple[Event, ...]
    provenance: Mapping[str, tuple[str, ...]]
    frames: tuple[Any, ...] = ()  # intermediate states, for drawings and animations
    reading: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    decisions: tuple[Decision, ...] = ()
    # Reading points whose option changed the course of resolution. A point not in
    # here could be set to anything without changing the outcome.
    consulted: frozenset[str] = frozenset()

    def clauses_used(self) -> frozenset[str]:
        """Clause ids that decided some piece's fate (provenance entries carry a round prefix)."""
        return frozenset(c.split(" ", 1)[-1] for ids in self.provenance.values() for c in ids
                         if " reading " not in c)

    def clauses_considered(self) -> frozenset[str]:
        """Clauses used, plus those weighed at a decision point (contradicting or nearest)."""
        return self.clauses_used() | {c for d in self.decisions for c in d.applicable + d.near}


@dataclass(frozen=True)
class Transform:
    """A change of the scene that must not change the outcome beyond itself: a renaming
    (kind "order") or a rotation or mirror (kind "symmetry"). ``map_key`` carries an
    outcome key of the original scene into the transformed one."""

    kind: str
    name: str
    before: Any
    actions: Any
    map_key: Callable[[Any], Any]


@dataclass(frozen=True)
class Mismatch:
    """One difference between what a case expects and what came out."""

    path: tuple  # field path inside the case's ``expect`` section
    expected: Any
    actual: Any
    message: str


class Ruleset:
    """Base class of ruleset plugins. Subclasses set the class attributes and
    override the methods; see ``verifier/rulesets/ypp`` for a full example."""

    key: str = ""
    title: str = ""
    clauses: tuple[Clause, ...] = ()
    reading_points: tuple[ReadingPoint, ...] = ()
    # JSON Schemas of the ruleset's parts of a case file.
    before_schema: dict = {}
    actions_schema: dict = {}
    expect_schema: dict = {}
    # JSON Schema of what ``outcome_json`` writes: the answer another implementation
    # gives over the adapter protocol (docs/protocol.md). None: not defined yet.
    outcome_schema: dict | None = None

    # --- clauses and readings -------------------------------------------------

    def clause(self, clause_id: str) -> Clause:
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        raise KeyError(clause_id)

    @property
    def clause_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clauses)

    @property
    def default_reading(self) -> Mapping[str, str]:
        return MappingProxyType({p.name: p.default for p in self.reading_points})

    def reading(self, pins: Mapping[str, str] | None = None,
                where: Mapping[str, Location] | None = None) -> Mapping[str, str]:
        """The full reading: the defaults with ``pins`` laid over them.
        ``where`` optionally maps a pinned point to its place in a file."""
        points = {p.name: p for p in self.reading_points}
        chosen = dict(self.default_reading)
        for name, option in (pins or {}).items():
            location = (where or {}).get(name)
            if name not in points:
                raise UnknownReadingError(
                    f"ruleset {self.key!r} has no reading point {name!r}; {did_you_mean(name, list(points))}",
                    location)
            if option not in points[name].options:
                raise UnknownReadingError(
                    f"reading point {name!r} has no option {option!r}; "
                    f"{did_you_mean(option, list(points[name].options))}", location)
            chosen[name] = option
        return MappingProxyType(chosen)

    def all_readings(self) -> list[Mapping[str, str]]:
        """Every combination of reading options (small for every ruleset here)."""
        combos: list[dict[str, str]] = [{}]
        for point in self.reading_points:
            combos = [dict(c, **{point.name: o}) for c in combos for o in point.options]
        return [MappingProxyType(c) for c in combos]

    # --- the plugin contract ---------------------------------------------------

    def parse(self, doc, before_path: tuple, actions_path: tuple, expect_path: tuple | None,
              off_board_ok: bool = False):
        """Turn the validated ``before``, ``actions`` and ``expect`` sections into the
        ruleset's value types, raising SceneError for impossible scenes. With
        ``off_board_ok`` the expectation describes what a rule-breaking reading does.
        Returns (before, actions, expect)."""
        raise NotImplementedError

    def resolve(self, before: Any, actions: Any, reading: Mapping[str, str]) -> Outcome:
        raise NotImplementedError

    def compare(self, before: Any, expect: Any, outcome: Outcome) -> list[Mismatch]:
        raise NotImplementedError

    def draw(self, before: Any, actions: Any, outcome: Outcome, **options):
        raise NotImplementedError

    def describe(self, before: Any, actions: Any, outcome: Outcome) -> str:
        raise NotImplementedError

    def outcome_json(self, outcome: Outcome) -> dict:
        raise NotImplementedError

    def outcome_from_json(self, before: Any, data: dict) -> Outcome:
        """Read an outcome in the form ``outcome_json`` writes (as another implementation
        sends it over the adapter protocol, already checked against ``outcome_schema``)
        back into an Outcome that ``compare`` accepts. Raise ImplementationError, with a
        sentence, for an answer that names pieces the scene lacks or leaves some out.
        A ruleset that does not override this cannot be checked through the protocol:
        its cases are reported as skipped for other implementations."""
        raise NotImplementedError

    # --- what the explorer needs ---------------------------------------------
    # A ruleset names a module as ``explorer`` that defines these functions:
    #   outcome_key(outcome), strategy(), transforms(before, actions),
    #   invariant_breaches(before, actions, outcome), simpler(before, actions),
    #   exhaustive_space(terrain), case_data(before, actions), expect_data(before, outcome).
    # The first two are required for a search; the others have harmless defaults.

    explorer: Any = None

    def _hook(self, name: str, default: Any = None) -> Any:
        hook = getattr(self.explorer, name, None)
        if hook is None and default is None:
            raise NotImplementedError(f"ruleset {self.key!r} has no explorer function {name!r}")
        return hook or default

    def outcome_key(self, outcome: Outcome) -> Any:
        """A hashable value; two outcomes are the same iff their keys are equal."""
        return self._hook("outcome_key")(outcome)

    def strategy(self):
        """A Hypothesis strategy of (before, actions) pairs that favour interaction."""
        return self._hook("strategy")()

    def transforms(self, before: Any, actions: Any) -> list[Transform]:
        return self._hook("transforms", lambda b, a: [])(before, actions)

    def invariant_breaches(self, before: Any, actions: Any, outcome: Outcome) -> list[tuple[str, tuple, str]]:
        return self._hook("invariant_breaches", lambda b, a, o: [])(before, actions, outcome)

    def simpler(self, before: Any, actions: Any) -> Iterator[tuple[Any, Any]]:
        """Strictly simpler variants of a scene, for shrinking findings."""
        return self._hook("simpler", lambda b, a: iter(()))(before, actions)

    def exhaustive_space(self, terrain: bool = False) -> tuple[int, Iterator[tuple[Any, Any]]]:
        """(size, scenes) of the ruleset's small bounded space; ``terrain`` asks for the larger one."""
        return self._hook("exhaustive_space")(terrain=terrain)

    def case_data(self, before: Any, actions: Any) -> tuple[Any, Any]:
        """The ``before`` and ``actions`` sections of a case file for this scene."""
        return self._hook("case_data")(before, actions)

    def expect_data(self, before: Any, outcome: Outcome) -> dict:
        """The ``expect`` section of a case file that this outcome satisfies."""
        return self._hook("expect_data")(before, outcome)

    def summarise(self, before: Any, outcome: Outcome) -> str:
        """One sentence saying what happened."""
        raise NotImplementedError

    def draw_readings(self, before: Any, actions: Any, outcomes: Sequence[tuple[str, Outcome]], **options):
        """One picture: the before state, then the outcome under each named reading."""
        raise NotImplementedError

    # --- optional, for the rule pages (verifier docs) ------------------------------

    def draw_frames(self, before: Any, actions: Any, outcome: Outcome, **options) -> list[tuple[str, Any]]:
        """The resolution step by step, for an animation: (words, picture) pairs, the
        start first, all pictures the same size. Empty if the ruleset has no steps
        worth showing one by one."""
        return []

    def draw_narrow(self, before: Any, actions: Any, panels: Sequence[tuple[str, Outcome | None]], **options):
        """The panels of ``draw_readings`` (a panel with no outcome is the scene before)
        one under the other, for a narrow screen; None if the ruleset has no such layout."""
        return None

    def describe_scene(self, before: Any, actions: Any) -> str:
        """One sentence saying what the scene is and what each piece plans, for alt
        text. Empty if the ruleset has none; the pages then say less."""
        return ""

    # --- optional, for the explorer's report --------------------------------------

    def report_sections(self, cases: Sequence[Any], out: Any = None) -> list[tuple[str, str, dict]]:
        """Sections of ``verifier explore``'s report that only this ruleset can write:
        (title, Markdown body, JSON-ready data) each. ``cases`` are every loaded case
        (of any ruleset); ``out`` is the report folder, where figures the Markdown
        links to may be written. Empty by default."""
        return []
