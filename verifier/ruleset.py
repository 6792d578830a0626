"""What every ruleset plugin provides, and the value types they share.

A ruleset is a small object with a clause table, named readings, a JSON Schema
for its part of a case, a parser, a pure resolver, a comparer and a drawing
function. The core calls nothing else, so a grid, a plane or a map of areas all
fit behind the same interface.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

from .errors import Location, UnknownReadingError, UnsupportedError, did_you_mean
from .kept import Kept


class Capability(StrEnum):
    """An optional part of the contract. A ruleset lists the ones it implements in
    ``Ruleset.capabilities``; the core asks ``supports`` and never probes."""

    INTERCHANGE = "interchange"  # outcome_schema, outcome_json, outcome_from_json: the adapter protocol
    SEARCH = "search"  # strategy, outcome_key (transforms, invariant_breaches, simpler optional)
    FINDINGS = "findings"  # case_data, expect_data, draw_readings: findings written as case files
    EXHAUSTIVE = "exhaustive"  # exhaustive_spaces, exhaustive_space
    FRAMES = "frames"  # draw_frames: step-by-step animations
    NARROW = "narrow"  # draw_narrow: the stacked layout for phones
    SCENE_TEXT = "scene-text"  # describe_scene: alt text
    PAGE_NOTES = "page-notes"  # page_notes: how to read this ruleset's pictures
    REPORT_SECTIONS = "report-sections"  # report_sections: the explorer report's own sections
    BENCHMARKS = "benchmarks"  # benchmarks: suites for ``verifier bench``
    STATES = "states"  # state_json, state_from_json: intermediate states (frames) over the adapter protocol
    BOUNDARIES = "boundaries"  # boundaries: the contacts, ties and limits the clauses decide by (kit.boundary)
    SCENES = "scenes"  # scene: scenes built from choices (kit.choices), so the search draws them from a seed, fast


class FindingKind(StrEnum):
    """What the explorer can find; a decision point is itself a contradiction or a gap."""

    CONTRADICTION = "contradiction"
    GAP = "gap"
    ORDER = "order"
    SYMMETRY = "symmetry"
    BREACH = "breach"
    DIVERGENCE = "divergence"
    EXAMPLE_CONFLICT = "example-conflict"


# Which methods each capability brings: a ruleset that declares one overrides them,
# and one that does not leaves them alone (checked by the contract tests).
CAPABILITY_METHODS: Mapping[Capability, tuple[str, ...]] = MappingProxyType({
    Capability.INTERCHANGE: ("outcome_json", "outcome_from_json"),
    Capability.SEARCH: ("strategy", "outcome_key"),
    Capability.SCENES: ("scene",),
    Capability.FINDINGS: ("case_data", "expect_data", "draw_readings"),
    Capability.EXHAUSTIVE: ("exhaustive_spaces", "exhaustive_space"),
    Capability.FRAMES: ("draw_frames",),
    Capability.NARROW: ("draw_narrow",),
    Capability.SCENE_TEXT: ("describe_scene",),
    Capability.PAGE_NOTES: ("page_notes",),
    Capability.REPORT_SECTIONS: ("report_sections",),
    Capability.BENCHMARKS: ("benchmarks",),
    Capability.STATES: ("state_json", "state_from_json"),
    Capability.BOUNDARIES: ("boundaries",),
})


@dataclass(frozen=True)
class OutcomePart:
    """A part of a ruleset's outcome that another implementation may or may not report
    (the adapter protocol's hello declares which). ``fields`` are the fields of the case's
    ``expect`` and of the answer's outcome that belong to the part, as dotted paths in which
    ``*`` stands for any key or index ("ships.*.damage"); ``compare`` puts each mismatch on
    the path of the field it is about, so that a part left out is left out alone. A part
    that is ``required`` is in every answer. An ``optional`` part, added to the protocol
    after implementations were written against it, is compared only in answers that carry
    one of its fields, unless the hello's ``reports`` names it (then every answer must).
    ``needs`` names the parts it is read through (ypp's damage sits on the events): where
    one of those is not reported, neither is this part."""

    name: str
    summary: str
    fields: tuple[str, ...]
    required: bool = False
    optional: bool = False
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Feature:
    """An optional rule, a variant or a feature a case may have (an option of the rules, a
    case's own measuring tool) that another implementation may lack. Its hello lists the
    features it supports; a case that needs one it lacks is skipped, saying so."""

    name: str
    summary: str


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


class TermStatus(StrEnum):
    """What the source says about a term of the glossary."""

    DEFINED = "defined"  # the source gives one meaning
    UNDEFINED = "undefined"  # the source uses the word without saying what it means
    DOUBLY_DEFINED = "doubly defined"  # the source gives two meanings that can disagree


@dataclass(frozen=True)
class Term:
    """One word the clauses rely on to decide an outcome: what it means in our words,
    where the source defines it (``source`` None when it does not), and the moment it
    is judged at. A term that is not plainly defined either names the reading point
    it became (``reading``) or says why only one meaning is possible
    (``single_meaning``, citing the sentence that forces it in ``source``)."""

    name: str
    definition: str
    status: TermStatus
    judged_at: str  # the moment its value is taken, e.g. "start of the step"
    clauses: tuple[str, ...]  # clause ids that use it
    source: Citation | None = None
    reading: str = ""  # the reading point it became, if any
    single_meaning: str = ""  # why only one meaning is possible, if it is not defined plainly
    kind: str = ""  # the sort of word: state, motion, direction, quantity, ...


@dataclass(frozen=True)
class ReferenceTable:
    """A table the rule text refers to (figures by piece type, say), shown on the rule page."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    source: Citation
    note: str = ""


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
    damage: tuple[tuple[str, float], ...] = ()  # (piece, damage it takes), where the ruleset counts damage


@dataclass(frozen=True, slots=True)
class Cause:
    """One entry of a piece's provenance: a clause that decided something about it
    (``clause``), or a reading point whose option the resolver followed for it
    (``point`` and ``option``). ``round`` is 0 where the ruleset has no rounds."""

    clause: str = ""
    point: str = ""
    option: str = ""
    round: int = 0

    @classmethod
    def applied(cls, clause: str, round: int = 0) -> Cause:
        return cls(clause=clause, round=round)

    @classmethod
    def followed(cls, point: str, option: str, round: int = 0) -> Cause:
        return cls(point=point, option=option, round=round)

    def __str__(self) -> str:
        """The notation of the adapter protocol and of reports: "r1 move.1b",
        "r1 reading bump=class-first", or without the round prefix where there are none."""
        what = f"reading {self.point}={self.option}" if self.point else self.clause
        return f"r{self.round} {what}" if self.round else what

    @classmethod
    def from_text(cls, text: str) -> Cause:
        """The inverse of ``str``, for provenance that arrives over the adapter protocol."""
        words = text.split()
        round_no = 0
        if len(words) > 1 and words[0][:1] == "r" and words[0][1:].isdigit():
            round_no, words = int(words[0][1:]), words[1:]
        if len(words) == 2 and words[0] == "reading" and "=" in words[1]:
            point, _, option = words[1].partition("=")
            return cls.followed(point, option, round_no)
        return cls.applied(" ".join(words), round_no)


def provenance_json(provenance: Mapping[str, Sequence[Cause]]) -> dict[str, list[str]]:
    """Provenance in the adapter protocol's notation: piece -> causes as ``str(Cause)`` writes them."""
    return {piece: [str(cause) for cause in causes] for piece, causes in provenance.items()}


# text -> Cause: answers repeat a few clauses thousands of times (bounded: the texts are the
# implementation's own)
_CAUSES: Kept[str, Cause] = Kept(4096)


def _cause(text: str) -> Cause:
    return _CAUSES.get(text, lambda: Cause.from_text(text))


def provenance_from_json(data: Mapping[str, Any]) -> dict[str, tuple[Cause, ...]]:
    """The ``provenance`` field of an answer (absent means none) read back into causes
    (each distinct text read once: a Cause is an immutable value, so one is shared)."""
    return {piece: tuple([_cause(text) for text in texts])
            for piece, texts in (data.get("provenance") or {}).items()}


@dataclass(frozen=True, slots=True)
class Frame:
    """The state of the scene at one moment of the resolution, for drawings and
    animations. ``round`` 0 with phase "start" is the scene before anything moved;
    ``step`` 0 is the end of the phase, a positive step a moment inside it."""

    round: int
    phase: str
    step: int
    state: Any

    @property
    def is_start(self) -> bool:
        return self.round == 0

    def __str__(self) -> str:
        """Short words for reports: "start", "r2 move", "r2 move step 1"."""
        if self.is_start:
            return self.phase
        return f"r{self.round} {self.phase}" + (f" step {self.step}" if self.step else "")


@dataclass(frozen=True, slots=True)
class AnimationFrame:
    """One picture of a step-by-step animation, with the words that say what it shows."""

    words: str
    image: Any


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
    # The shape of the situation, in words that name no piece and no absolute direction
    # (which piece does what to which, by role), so that renaming, turning or mirroring the
    # scene gives the same words. The explorer tells findings apart by it.
    situation: str = ""

    @property
    def kind(self) -> FindingKind | None:
        if not self.applicable:
            return FindingKind.GAP
        if len(set(self.prescriptions)) > 1:
            return FindingKind.CONTRADICTION
        return None

    @property
    def clauses(self) -> tuple[str, ...]:
        return tuple(sorted(self.applicable or self.near))


@dataclass(frozen=True, slots=True)
class Refusal:
    """An action the rules forbid, and so not carried out: the clause that forbids it, the
    pieces whose action it is, and why in words. A case expects one as ``expect: {refused:
    {clause: ..., piece: ...}}`` (its ``reason`` then empty: words are not compared)."""

    clause: str
    pieces: tuple[str, ...] = ()
    reason: str = ""

    def __str__(self) -> str:
        """"refused by move.3 (Falcon): ..." as mismatches and reports say it."""
        who = f" ({', '.join(self.pieces)})" if self.pieces else ""
        by = f" by {self.clause}" if self.clause else ""
        return f"refused{by}{who}" + (f": {self.reason}" if self.reason else "")

    def what_happened(self) -> str:
        """What happened, as a picture's legend and a page say it: refused, by which clause, why."""
        return f"{self}; nothing is carried out"


@dataclass(frozen=True)
class Outcome:
    """The result of resolving a scene: the state after, what happened, and for each
    piece the clause ids that decided its fate (provenance). A scene whose action the
    rules forbid has a ``refusal``; nothing happened, so ``after`` is the scene as it was."""

    after: Any
    events: tuple[Event, ...]
    provenance: Mapping[str, tuple[Cause, ...]]
    frames: tuple[Frame, ...] = ()  # intermediate states, for drawings and animations
    reading: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    decisions: tuple[Decision, ...] = ()
    # Reading points whose option changed the course of resolution. A point not in
    # here could be set to anything without changing the outcome.
    consulted: frozenset[str] = frozenset()
    # Parts of the outcome (OutcomePart names) that an implementation did not report:
    # drawings say so instead of drawing nothing.
    unreported: frozenset[str] = frozenset()
    refusal: Refusal | None = None

    def damage_totals(self) -> Mapping[str, float]:
        """Damage per piece, summed over the events (pieces that took none are left out)."""
        totals: dict[str, float] = {}
        for event in self.events:
            for piece, amount in event.damage:
                totals[piece] = totals.get(piece, 0.0) + amount
        return MappingProxyType({piece: round(total, 6) for piece, total in sorted(totals.items())})

    def clauses_used(self) -> frozenset[str]:
        """Clause ids that decided some piece's fate (or refused its action)."""
        refused = {self.refusal.clause} if self.refusal and self.refusal.clause else set()
        return frozenset(c.clause for causes in self.provenance.values() for c in causes if c.clause) | refused

    def clauses_considered(self) -> frozenset[str]:
        """Clauses used, plus those weighed at a decision point (contradicting or nearest)."""
        return self.clauses_used() | {c for d in self.decisions for c in d.applicable + d.near}


@dataclass(frozen=True)
class Transform:
    """A change of the scene that must not change the outcome beyond itself: a renaming
    (kind "order") or a rotation or mirror (kind "symmetry"). ``map_key`` carries an
    outcome key of the original scene into the transformed one. ``key``, where the ruleset
    has one, gives the transformed scene's outcome key under a reading more cheaply than
    resolving it in full (without the frames the key leaves out); None: it is resolved."""

    kind: Literal["order", "symmetry"]
    name: str
    before: Any
    actions: Any
    map_key: Callable[[Any], Any]
    key: Callable[[Mapping[str, str]], Any] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Mismatch:
    """One difference between what a case expects and what came out."""

    path: tuple[Any, ...]  # field path inside the case's ``expect`` section
    expected: Any
    actual: Any
    message: str


def refused_outcome(refusal: Refusal, after: Any = None) -> Outcome:
    """The outcome of an action the rules forbid: nothing happened (``after`` is the scene as it
    was, where the caller has it), and the refused pieces owe it to the refusing clause."""
    causes = (Cause.applied(refusal.clause),) if refusal.clause else ()
    return Outcome(after, (), MappingProxyType({piece: causes for piece in refusal.pieces}), refusal=refusal)


def refusal_mismatches(expect: Any, outcome: Outcome) -> list[Mismatch] | None:
    """Where a refusal is expected or came out, the differences (the ruleset's ``compare`` is not
    asked); None where neither did, so that the ruleset compares. The expected refusal's pieces,
    where it names any, must be among those refused; its clause must be the refusing clause."""
    refused = outcome.refusal
    if not isinstance(expect, Refusal):
        if refused is None:
            return None
        return [Mismatch((), None, str(refused), f"{refused}; the case expects the action to be carried out")]
    wanted = str(replace(expect, reason=""))
    if refused is None:
        return [Mismatch(("refused",), wanted, None,
                         f"the case expects the action to be {wanted}, but it was carried out")]
    found = []
    if refused.clause and expect.clause != refused.clause:  # an implementation need not name the clause
        found.append(Mismatch(("refused", "clause"), expect.clause, refused.clause or None,
                              f"the case expects a refusal by {expect.clause}, but it was {refused}"))
    missing = [piece for piece in expect.pieces if refused.pieces and piece not in refused.pieces]
    if missing:
        found.append(Mismatch(("refused", "pieces"), list(expect.pieces), list(refused.pieces),
                              f"the case expects the action of {', '.join(missing)} to be refused, but it was "
                              f"{refused}"))
    return found


def compare_outcome(ruleset: Ruleset, before: Any, expect: Any, outcome: Outcome) -> list[Mismatch]:
    """How ``outcome`` departs from ``expect``: a refusal expected or given is compared here, the
    same way for every ruleset; anything else by the ruleset's own ``compare``."""
    refused = refusal_mismatches(expect, outcome)
    return ruleset.compare(before, expect, outcome) if refused is None else refused


def reference_key(ruleset: Ruleset, outcome: Outcome) -> Any:
    """The key the reference under every reading gives ``outcome``: the ruleset's, or for a
    refusal the clause that refused."""
    return ("refused", outcome.refusal.clause) if outcome.refusal is not None else ruleset.outcome_key(outcome)


class NotedReading(Mapping[str, str]):
    """A reading that remembers the points looked up in it, in the order they were first
    looked up, each lookup passed on to ``options``."""

    def __init__(self, options: Mapping[str, str]) -> None:
        self._options = options
        self.asked: dict[str, None] = {}

    def __getitem__(self, point: str) -> str:
        self.asked.setdefault(point, None)
        return self._options[point]

    def __iter__(self) -> Iterator[str]:
        return iter(self._options)

    def __len__(self) -> int:
        return len(self._options)


class Resolution:
    """One scene resolved under one full reading, as the reference under every reading (fuzz's
    reading table) walks its decision tree: the points the outcome consulted, in the order
    the resolver first looked them up, the outcome and its key, and the scene resolved again
    under a reading that takes another option at one of them (``Ruleset.resolution``). This
    one resolves afresh each time; a ruleset that can take a resolution up part way
    (where the changed point was first looked up) gives its own."""

    def __init__(self, ruleset: Ruleset, before: Any, actions: Any, reading: dict[str, str]) -> None:
        self.ruleset, self.before, self.actions = ruleset, before, actions
        noted = NotedReading(reading)
        self._outcome = outcome = ruleset.resolve(before, actions, noted)
        consulted = outcome.consulted
        # A point consulted but never looked up (a ruleset that reads its reading otherwise)
        # comes after those looked up, in the ruleset's order.
        self.consulted: tuple[str, ...] = tuple([p for p in noted.asked if p in consulted] +
                                                [p for p in reading if p in consulted and p not in noted.asked])

    def outcome(self) -> Outcome:
        return self._outcome

    def key(self) -> Any:
        """The outcome's key (``reference_key``)."""
        return reference_key(self.ruleset, self._outcome)

    def under(self, point: str, reading: dict[str, str]) -> Resolution:
        """The scene resolved under ``reading``, which takes another option than this one's
        at ``point``, one of ``consulted``, and agrees with it elsewhere."""
        return Resolution(self.ruleset, self.before, self.actions, reading)


@dataclass(frozen=True)
class ReportSection:
    """A section of the explorer's report that only one ruleset can write."""

    title: str
    markdown: str
    data: Mapping[str, Any]


class UnsupportedOptionError(UnsupportedError):
    """A drawing was asked for an option that it does not honour, or that DrawOptions does not have."""


@dataclass(frozen=True)
class DrawOptions:
    """How to draw, the same words for every ruleset's ``draw``, ``draw_readings``,
    ``draw_frames`` and ``draw_narrow``. An option left at its default is not asked
    for, and the drawing uses its own default. A ruleset lists in ``Ruleset.draw_options``
    which options each of its drawings honours; asking a drawing for any other raises
    UnsupportedOptionError, so that no option is ever dropped without a word."""

    title: str | None = None  # the heading over the picture
    subtitle: str | None = None  # a line under the heading, instead of the drawing's own
    legend: bool = True  # False leaves the legend out
    font_size: int | None = None  # text size in pixels
    supersample: int | None = None  # drawn this many times larger, then shrunk (1: no smoothing)
    max_width: int | None = None  # the widest the picture may grow, in pixels
    highlight: tuple[Any, ...] = ()  # places to outline, in the ruleset's own coordinates (ypp: tiles)
    arrows: tuple[tuple[Any, Any], ...] = ()  # (from, to) places to join with an arrow

    def asked(self) -> dict[str, Any]:
        """The options that differ from their defaults, by name."""
        default = DrawOptions()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}


DRAW_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(DrawOptions))
DRAWING_METHODS = ("draw", "draw_readings", "draw_frames", "draw_narrow")  # the methods that take DrawOptions


@dataclass(frozen=True)
class BenchSettings:
    """What ``verifier bench`` was asked for, handed to every suite."""

    cases: str = "cases"
    quick: bool = False
    repeats: int | None = None


@dataclass(frozen=True)
class BenchSuite:
    """One named benchmark suite a ruleset brings to ``verifier bench --suite``.
    ``run`` measures and returns JSON-ready figures; ``table`` prints them."""

    name: str
    summary: str
    run: Callable[[BenchSettings], Mapping[str, Any]]
    table: Callable[[Mapping[str, Any]], str]


class Ruleset:
    """Base class of ruleset plugins. Subclasses set the class attributes and
    override the methods: the required ones always, and the ones of each
    capability they list in ``capabilities``. See ``docs/ruleset-guide.md``."""

    key: str = ""
    title: str = ""
    clauses: tuple[Clause, ...] = ()
    reading_points: tuple[ReadingPoint, ...] = ()
    # The words the clauses decide by, each defined, or turned into a reading point, or
    # shown to admit one meaning only. Empty where a ruleset has not written one yet.
    glossary: tuple[Term, ...] = ()
    # For the rule page: a few sentences on what the rule decides, its pieces and its board,
    # and each source file's title (by the file name citations give), so a page names a
    # source by its title and keeps the file name as detail.
    introduction: str = ""
    source_titles: Mapping[str, str] = MappingProxyType({})
    tables: tuple[ReferenceTable, ...] = ()  # tables the rule refers to, for the rule page
    capabilities: frozenset[Capability] = frozenset()
    # JSON Schemas of the ruleset's parts of a case file.
    before_schema: Mapping[str, Any] = MappingProxyType({})
    actions_schema: Mapping[str, Any] = MappingProxyType({})
    expect_schema: Mapping[str, Any] = MappingProxyType({})
    # With Capability.INTERCHANGE: the JSON Schema of what ``outcome_json`` writes,
    # the answer another implementation gives over the adapter protocol.
    outcome_schema: Mapping[str, Any] | None = None
    # With Capability.INTERCHANGE: the parts of the outcome an implementation may report
    # separately (none: an answer is compared whole).
    outcome_parts: tuple[OutcomePart, ...] = ()
    # Optional rules, variants and case features an implementation may lack (see Feature);
    # ``features_needed`` says which a scene needs.
    features: tuple[Feature, ...] = ()
    # The DrawOptions each drawing method honours, by method name; a method not listed honours
    # none. Every drawing must honour at least the title, which every command passes.
    draw_options: Mapping[str, frozenset[str]] = MappingProxyType(
        {method: frozenset({"title"}) for method in DRAWING_METHODS})

    def supports(self, capability: Capability) -> bool:
        return capability in self.capabilities

    def require(self, capability: Capability, wanted_by: str) -> None:
        """Raise UnsupportedError, with a sentence, unless the ruleset declares ``capability``."""
        if capability not in self.capabilities:
            declared = ", ".join(sorted(self.capabilities)) or "none"
            raise UnsupportedError(
                f"{wanted_by} needs the {capability.value!r} capability, which ruleset {self.key!r} does not "
                f"declare (it declares: {declared}); see docs/ruleset-guide.md to add it")

    def draw_arguments(self, method: str, options: DrawOptions | None = None,
                       named: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The options asked of drawing ``method`` (``options``, with the options ``named`` by
        keyword laid over it), by name, ready to pass on to the drawing function. Raise
        UnsupportedOptionError, with a sentence, for a name DrawOptions lacks or an option
        that ``method`` of this ruleset does not honour."""
        chosen = options or DrawOptions()
        if named:
            for name in named:
                if name not in DRAW_OPTION_NAMES:
                    raise UnsupportedOptionError(
                        f"{method} of ruleset {self.key!r} was given {name!r}, which is not a drawing option; "
                        f"{did_you_mean(name, list(DRAW_OPTION_NAMES))}")
            chosen = replace(chosen, **named)
        asked = chosen.asked()
        honoured = self.draw_options.get(method, frozenset())
        for name in asked:
            if name not in honoured:
                listed = ", ".join(n for n in DRAW_OPTION_NAMES if n in honoured) or "none"
                raise UnsupportedOptionError(
                    f"ruleset {self.key!r} cannot honour the drawing option {name!r} in {method} "
                    f"(it honours: {listed}); leave the option out")
        return asked

    # --- clauses and readings -------------------------------------------------

    def clause(self, clause_id: str) -> Clause:
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        raise KeyError(clause_id)

    @property
    def clause_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clauses)

    def terms_of(self, clause_id: str) -> tuple[Term, ...]:
        """The glossary's terms that ``clause_id`` uses, in glossary order."""
        return tuple(t for t in self.glossary if clause_id in t.clauses)

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

    # --- required ----------------------------------------------------------------

    def parse(self, doc: Any, before_path: tuple[Any, ...], actions_path: tuple[Any, ...],
              expect_path: tuple[Any, ...] | None, *, breaches_allowed: bool = False) -> tuple[Any, Any, Any]:
        """Turn the validated ``before``, ``actions`` and ``expect`` sections into the
        ruleset's value types, raising SceneError for impossible scenes. With
        ``breaches_allowed`` the expectation records what some reading does even where
        that breaks the ruleset's invariants (a finding's outcome under a reading).
        Returns (before, actions, expect); expect is None without ``expect_path``."""
        raise NotImplementedError

    def resolve(self, before: Any, actions: Any, reading: Mapping[str, str]) -> Outcome:
        """The pure resolver: the same scene and reading always give an equal Outcome,
        whatever order the pieces are listed in."""
        raise NotImplementedError

    def resolution(self, before: Any, actions: Any, reading: dict[str, str]) -> Resolution:
        """``resolve`` under ``reading`` (every reading point, in the ruleset's order), as the
        reference under every reading walks it (see Resolution); a ruleset whose resolver can
        take up a resolution where another reading first differs overrides it."""
        return Resolution(self, before, actions, reading)

    def compare(self, before: Any, expect: Any, outcome: Outcome) -> list[Mismatch]:
        """How ``outcome`` departs from the ruleset's own expectation (a refusal, expected or
        given, is compared by the core's ``compare_outcome`` before this is asked)."""
        raise NotImplementedError

    def unchanged(self, before: Any, actions: Any) -> Any:
        """The ``Outcome.after`` of a scene whose action is refused: the scene as it was. Rulesets
        that refuse actions override it; it draws an implementation's refusal, which sends no state."""
        raise NotImplementedError

    def request_before(self, before_data: Any, before: Any) -> Any:
        """A case's ``before`` section as a request to another implementation carries it, with
        every named resource the case refers to (a map file, say) written out inline, so that
        the request is all an implementation needs. As it is by default."""
        return before_data

    def features_needed(self, before: Any, actions: Any) -> frozenset[str]:
        """The names of the ``features`` the scene needs (none by default)."""
        return frozenset()

    def draw(self, before: Any, actions: Any, outcome: Outcome, options: DrawOptions | None = None,
             **named: Any) -> Any:
        """The case's before/after picture, a Pillow image. ``options`` (or its fields ``named``
        by keyword: ``title=...``) as ``draw_arguments("draw", options, named)`` accepts them."""
        raise NotImplementedError

    def describe(self, before: Any, actions: Any, outcome: Outcome) -> str:
        """The outcome in words, for ``verifier show``."""
        raise NotImplementedError

    def summarise(self, before: Any, outcome: Outcome) -> str:
        """One sentence saying what happened."""
        raise NotImplementedError

    # --- Capability.INTERCHANGE --------------------------------------------------

    def outcome_json(self, outcome: Outcome) -> dict[str, Any]:
        raise NotImplementedError

    def outcome_from_json(self, before: Any, data: dict[str, Any]) -> Outcome:
        """Read an outcome in the form ``outcome_json`` writes (as another implementation
        sends it over the adapter protocol, already checked against ``outcome_schema``)
        back into an Outcome that ``compare`` accepts. Raise ImplementationError, with a
        sentence, for an answer that names pieces the scene lacks or leaves some out."""
        raise NotImplementedError

    # --- Capability.STATES ---------------------------------------------------------

    def state_json(self, state: Any) -> dict[str, Any]:
        """One intermediate state (``Frame.state``) in the form an answer's ``states`` entries
        carry it: top-level fields (such as the outcome's own) of piece -> field -> value."""
        raise NotImplementedError

    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        """The inverse of ``state_json``: an answer's ``states`` entry (checked against the
        outcome schema) as a ``Frame.state``, to draw the implementation's track."""
        raise NotImplementedError

    # --- Capability.SEARCH (the explorer) ----------------------------------------

    def outcome_key(self, outcome: Outcome) -> Any:
        """A hashable value; two outcomes are the same iff their keys are equal."""
        raise NotImplementedError

    def strategy(self, features: frozenset[str] | None = None) -> Any:
        """A Hypothesis strategy of (before, actions) pairs that favour interaction. With
        ``features`` (names of ``Ruleset.features``), only scenes that need none but those."""
        raise NotImplementedError

    def scene(self, choices: Any, features: frozenset[str] | None = None) -> tuple[Any, Any]:
        """(Capability.SCENES) The (before, actions) built from ``choices``
        (``kit.choices.Choices``), as ``strategy`` draws them: ``strategy`` is then
        ``kit.choices.strategy`` of this, and the explorer's search and fuzz build their
        scenes from a seeded ``random.Random`` instead of Hypothesis, which is many times
        faster and gives the same scenes for the same seed in any process."""
        raise NotImplementedError

    def transforms(self, before: Any, actions: Any) -> list[Transform]:
        """Renamings, rotations and mirrors that must not change the outcome. None by default."""
        return []

    def invariant_breaches(self, before: Any, actions: Any, outcome: Outcome) -> list[tuple[str, tuple[str, ...], str]]:
        """(invariant, pieces, words) for each rule of the game the outcome breaks. None by default."""
        return []

    def simpler(self, before: Any, actions: Any) -> Iterator[tuple[Any, Any]]:
        """Strictly simpler variants of a scene, for shrinking findings. None by default."""
        return iter(())

    # --- Capability.FINDINGS -----------------------------------------------------

    def case_data(self, before: Any, actions: Any) -> tuple[Any, Any]:
        """The ``before`` and ``actions`` sections of a case file for this scene."""
        raise NotImplementedError

    def expect_data(self, before: Any, outcome: Outcome) -> dict[str, Any]:
        """The ``expect`` section of a case file that this outcome satisfies."""
        raise NotImplementedError

    def draw_readings(self, before: Any, actions: Any, outcomes: Sequence[tuple[str, Outcome | None]],
                      options: DrawOptions | None = None, **named: Any) -> Any:
        """One picture: the before state, then the outcome under each named reading (a
        panel with no outcome is the scene before). Options as for ``draw``."""
        raise NotImplementedError

    # --- Capability.EXHAUSTIVE ---------------------------------------------------

    def exhaustive_spaces(self) -> Mapping[str, str]:
        """The names of the ruleset's small bounded spaces, with what each holds; the
        first is the default of ``verifier explore --exhaustive``."""
        raise NotImplementedError

    def exhaustive_space(self, name: str) -> tuple[int, Iterator[tuple[Any, Any]]]:
        """(size, scenes) of the space called ``name``."""
        raise NotImplementedError

    def exhaustive_shard(self, name: str, index: int, count: int) -> Iterator[tuple[Any, Any, int]]:
        """Shard ``index`` of ``count`` of the space ``name``: its scenes, each with its weight,
        how many scenes of the unreduced space it stands for (more than 1 where the space holds
        one scene per class of scenes that symmetry makes equivalent). The shards of one count
        hold every scene of the space once, always in the same order. Optional: by default every
        ``count``-th scene of ``exhaustive_space`` with weight 1; a ruleset overrides it to
        enumerate only its shard where the shard runs."""
        _, scenes = self.exhaustive_space(name)
        for n, (before, actions) in enumerate(scenes):
            if n % count == index:
                yield before, actions, 1

    # --- Capability.FRAMES, NARROW, SCENE_TEXT, PAGE_NOTES (the rule pages) -------

    def draw_frames(self, before: Any, actions: Any, outcome: Outcome, options: DrawOptions | None = None,
                    **named: Any) -> list[AnimationFrame]:
        """The resolution step by step: the start first, all pictures the same size.
        Fewer than three frames means nothing worth animating. Options as for ``draw``."""
        raise NotImplementedError

    def draw_narrow(self, before: Any, actions: Any, panels: Sequence[tuple[str, Outcome | None]],
                    options: DrawOptions | None = None, **named: Any) -> Any:
        """The panels of ``draw_readings`` (a panel with no outcome is the scene before)
        one under the other, for a narrow screen. Options as for ``draw``."""
        raise NotImplementedError

    def describe_scene(self, before: Any, actions: Any) -> str:
        """One sentence saying what the scene is and what each piece plans, for alt text."""
        raise NotImplementedError

    def page_notes(self) -> str:
        """Plain text for the rule page's "How to read the pictures" section: what the
        marks, lines and colours of this ruleset's pictures mean."""
        raise NotImplementedError

    # --- Capability.REPORT_SECTIONS, BENCHMARKS ----------------------------------

    def report_sections(self, cases: Sequence[Any], out: Any = None) -> list[ReportSection]:
        """Sections of ``verifier explore``'s report that only this ruleset can write.
        ``cases`` are every loaded case (of any ruleset); ``out`` is the report folder,
        where figures the Markdown links to may be written."""
        raise NotImplementedError

    def benchmarks(self) -> tuple[BenchSuite, ...]:
        """Suites for ``verifier bench --suite``."""
        raise NotImplementedError

    # --- Capability.BOUNDARIES ------------------------------------------------------

    def boundaries(self) -> tuple[Any, ...]:
        """The ruleset's boundaries (``verifier.kit.boundary.Boundary``): each quantity whose
        sign decides some clauses, with a way to move a generated scene onto it. The explorer
        and fuzz spend a share of their scenes on them."""
        raise NotImplementedError
