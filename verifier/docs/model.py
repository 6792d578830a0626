"""The model of one ruleset's page: views of its cases and findings, worked out once
(resolved, summarised, compared), the drawing tasks they need, and clause coverage.
``RulesetPage`` (``page.py``) writes it as HTML."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..case import CaseStatus
from ..findings import FindingEntry
from ..ruleset import Capability, Clause, FindingKind, Outcome, Ruleset, compare_outcome
from .common import _anchor, _attempt, _optional, _plural, _reading_key, _sentence
from .findings import Findings, examples_against_readings
from .pictures import _draw_case, _draw_finding

KIND_ORDER = ("contradiction", "gap", "divergence", "example-conflict", "breach", "order", "symmetry")
STATUS_ORDER = ("documented", "ruled", "derived", "needs-ruling")


@dataclass
class CaseView:
    case: Any
    outcome: Outcome | None
    used: frozenset[str]  # clause ids by provenance (used or weighed at a decision point)
    sentence: str  # the outcome in words a player reads
    verdict: str
    verdict_ok: bool | None  # True: as expected; False: differs; None: needs a ruling or unknown
    scene: str
    image: str | None = None  # file name of the diagram, relative to the ruleset's folder
    size: tuple[int, int] | None = None
    narrow: str | None = None  # the same diagram laid out for a narrow screen
    narrow_size: tuple[int, int] | None = None
    gif: str | None = None
    gif_size: tuple[int, int] | None = None
    steps: list[str] = field(default_factory=list)
    home: str | None = None  # the clause under which the full example stands
    anchor: str = ""
    exact: str = ""  # the outcome with its exact numbers (the ruleset's describe), shown on hover


@dataclass
class FindingView:
    entry: FindingEntry
    anchor: str
    title: str
    question: str
    readings: list[tuple[str, Mapping[str, str], Outcome, str, str]]  # label, reading, outcome, sentence, support
    image: str | None = None
    size: tuple[int, int] | None = None
    narrow: str | None = None
    narrow_size: tuple[int, int] | None = None
    alt: str = ""
    scene_yaml: str = ""
    exact: dict[str, str] = field(default_factory=dict)  # per reading label: the outcome's exact numbers, on hover


@dataclass
class QuestionGroup:
    """One open question: a reading point (or a contradiction between clauses) with
    every situation the explorer found it in, smallest first."""

    anchor: str
    title: str
    question: str
    point: str  # the reading point's name; empty for a contradiction between clauses
    clauses: tuple[str, ...]
    situations: list[FindingView]
    rank: int  # where its first clause stands in the rule


class PageModel:
    """Everything on one ruleset's page, worked out once; ``RulesetPage.render`` (``page.py``) writes the HTML."""

    def __init__(self, ruleset: Ruleset, cases: Sequence[Any], findings: Findings, files: dict[str, bytes],
                 folder: str, warn: Callable[[str], None] = lambda m: None) -> None:
        self.warn = warn
        self.tasks: list[tuple[Any, Callable[[], dict[str, Any]]]] = []  # (view, drawing to do), run by render_site
        self.ruleset = ruleset
        self.folder = folder
        self.files = files
        self.findings = findings
        taken: set[str] = {"top", "clauses", "readings", "findings", "coverage", "pictures", "resolved", "glossary",
                           "tables"}
        self.clause_anchor = {c.id: _anchor("clause-", c.id, taken) for c in ruleset.clauses}
        self.reading_anchor = {p.name: _anchor("reading-", p.name, taken) for p in ruleset.reading_points}
        self.term_anchor = {t.name: _anchor("term-", t.name, taken) for t in ruleset.glossary}
        order = {s: i for i, s in enumerate(STATUS_ORDER)}
        self.cases = [self._case_view(c, taken) for c in sorted(cases, key=lambda c: (order.get(c.status, 9), c.id))]
        self.matrix = findings.matrix if findings.matrix is not None else examples_against_readings(ruleset, cases)
        self._reading_index: dict[tuple[tuple[str, str], ...], int] | None = None
        self._homes()
        self.open = [e for e in findings.entries if e.status == "open"]
        self.resolved = [e for e in findings.entries if e.status != "open"]
        kinds = {k: i for i, k in enumerate(KIND_ORDER)}
        self.open.sort(key=lambda e: (kinds.get(e.finding.kind, 99), e.finding.fingerprint))
        self.finding_views = [self._finding_view(e, taken) for e in self.open]

    def attempt(self, what: str, default: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args)``; ``default`` where the ruleset does not provide it, or (with a
        warning) where it fails, so that one broken drawing does not lose the site."""
        warnings: list[str] = []
        result = _attempt(self.ruleset, warnings, what, default, fn, *args, **kwargs)
        for message in warnings:
            self.warn(message)
        return result

    def take(self, view: Any, drawn: dict[str, Any]) -> None:
        """Put what a drawing task made into its view and into the site's files."""
        for message in drawn.get("warnings", ()):
            self.warn(message)
        for name, data in drawn.get("files", {}).items():
            self.files[f"{self.folder}/{name}"] = data
        for key, value in drawn.get("fields", {}).items():
            setattr(view, key, value)

    # --- cases ---

    def _case_view(self, case: Any, taken: set[str]) -> CaseView:
        rs = self.ruleset
        outcome = self.attempt(f"resolving {case.id}", None, rs.resolve, case.before, case.actions, case.readings)
        used: frozenset[str] = frozenset()
        sentence = verdict = exact = ""
        ok = None
        if outcome is not None:
            used = outcome.clauses_considered()
            sentence = _outcome_sentence(self, f"summarising {case.id}", case.before, outcome)
            exact = self.attempt(f"describing the outcome of {case.id}", "", rs.describe, case.before, case.actions,
                                 outcome)
            if case.expect is None:
                verdict = "This case needs a ruling: the rule text does not say which outcome is right."
            else:
                mismatches = self.attempt(f"comparing {case.id}", None, compare_outcome, rs, case.before,
                                          case.expect, outcome)
                if mismatches is None:
                    verdict = ""
                elif mismatches:
                    ok = False
                    verdict = ("The reference resolver does not give the outcome the case expects: "
                               + "; ".join(m.message for m in mismatches) + ".")
                else:
                    ok = True
                    verdict = ("The reference resolver gives this outcome, as the rule text says."
                               if case.status == CaseStatus.DOCUMENTED else
                               "The reference resolver gives this outcome, as the case expects.")
        scene = self.attempt(f"describing {case.id}", "", _optional(rs, Capability.SCENE_TEXT, "describe_scene", ""),
                             case.before, case.actions)
        view = CaseView(case, outcome, used, sentence, verdict, ok, _sentence(scene),
                        anchor=_anchor("case-", case.id, taken), exact=exact)
        if outcome is not None:
            self.tasks.append((view, functools.partial(_draw_case, rs, case, outcome, view.anchor[len("case-"):])))
        return view

    def exercising(self, clause_id: str) -> list[CaseView]:
        return [v for v in self.cases if clause_id in v.used or clause_id in v.case.clauses]

    def _homes(self) -> None:
        """The clause under which each case's full example stands: the most specific
        clause it both declares and exercises (the one the fewest cases exercise)."""
        counts = {c.id: len(self.exercising(c.id)) for c in self.ruleset.clauses}
        order = {c.id: i for i, c in enumerate(self.ruleset.clauses)}
        for view in self.cases:
            declared = [c for c in view.case.clauses if c in counts]
            candidates = [c for c in declared if c in view.used] or declared or [c for c in view.used if c in counts]
            if candidates:
                view.home = min(candidates, key=lambda c: (counts[c], order[c]))

    # --- findings ---

    def reading_index(self, reading: Mapping[str, str]) -> int | None:
        """Where ``reading`` stands among the matrix's full readings (a page asks once per
        situation and reading, of thousands of readings: the index is made once)."""
        if self.matrix is None:
            return None
        if self._reading_index is None:
            self._reading_index = {_reading_key(r): i for i, r in enumerate(self.matrix.readings)}
        return self._reading_index.get(_reading_key(reading))

    def support(self, reading: Mapping[str, str]) -> str:
        """What the documented examples say about one full reading."""
        m = self.matrix
        if m is None or not m.cases:
            return ""
        i = self.reading_index(reading)
        if i is None:
            return ""
        against = [c for c in m.cases if not m.agrees[(c.id, i)]]
        if not against:
            return f"supported: all {_plural(len(m.cases), 'documented example')} agree"
        return "contradicted by " + _plural(len(against), "documented example") + ": " + ", ".join(
            c.id for c in against)

    def _finding_view(self, entry: FindingEntry, taken: set[str]) -> FindingView:
        from ..explore import finding_readings
        from ..findings import dump_yaml, finding_question, finding_title, slug
        rs, f = self.ruleset, entry.finding
        name = slug(f"{f.kind}-{f.point}-{'-'.join(f.clauses)}-{f.label}") or "finding"
        anchor = _anchor("finding-", name, taken)
        readings = []
        exact: dict[str, str] = {}
        for label, reading in finding_readings(rs, f):
            outcome = self.attempt(f"resolving finding {f.fingerprint}", None, rs.resolve, f.before, f.actions,
                                   reading)
            if outcome is None:
                continue
            sentence = _outcome_sentence(self, "summarising a finding", f.before, outcome)
            readings.append((label, reading, outcome, sentence, self.support(reading)))
            exact[label] = self.attempt(f"describing the outcome of finding {f.fingerprint}", "", rs.describe,
                                        f.before, f.actions, outcome)
        view = FindingView(entry, anchor, finding_title(f), finding_question(rs, f), readings, exact=exact)
        panels = [("before", None)] + [(f"after, {label}", o) for label, _, o, _, _ in readings]
        self.tasks.append((view, functools.partial(_draw_finding, rs, f, panels, view.title,
                                                   anchor[len("finding-"):],
                                                   self.findings.drawn_sizes.get(f.fingerprint))))
        scene = _sentence(self.attempt("describing a finding", "",
                                       _optional(rs, Capability.SCENE_TEXT, "describe_scene", ""), f.before,
                                       f.actions))
        view.alt = (f"The minimal scene of this question, then its outcome under each reading. {scene} "
                    + " ".join(f"Under {label}: {sentence}" for label, _, _, sentence, _ in readings)).strip()
        data = self.attempt("writing a finding as case data", None, rs.case_data, f.before, f.actions)
        if data is not None:
            view.scene_yaml = dump_yaml({"before": data[0], "actions": data[1]})
        return view

    def question_groups(self) -> list[QuestionGroup]:
        """The open questions, one per reading point (or, with no point, per set of
        clauses that contradict each other), in the order their points and clauses
        stand in the rule; each group's situations smallest picture first."""
        rs = self.ruleset
        points = {p.name: p for p in rs.reading_points}
        order = {c.id: i for i, c in enumerate(rs.clauses)}
        groups: dict[str, list[FindingView]] = {}
        for view in self.finding_views:
            f = view.entry.finding
            key = f"point:{f.point}" if f.point in points else "clauses:" + "+".join(sorted(f.clauses))
            groups.setdefault(key, []).append(view)
        taken: set[str] = set()
        out = []
        for key, views in groups.items():
            views.sort(key=lambda v: (v.size[0] * v.size[1]) if v.size else 1 << 40)
            first = views[0].entry.finding
            point = points.get(first.point) if key.startswith("point:") else None
            clauses = tuple(dict.fromkeys(c for v in views for c in v.entry.finding.clauses))
            if point is not None:
                title, question = f"Reading point \u201c{point.name}\u201d", point.question
                clauses = tuple(dict.fromkeys(point.clauses + clauses))
            else:
                contradiction = first.kind == FindingKind.CONTRADICTION and len(clauses) > 1
                title = " versus ".join(clauses) if contradiction else views[0].title
                question = views[0].question
            rank = min((order.get(c, len(order)) for c in clauses), default=len(order))
            out.append(QuestionGroup(_anchor("question-", key.split(":", 1)[1] or "other", taken), title, question,
                                     point.name if point else "", clauses, views, rank))
        out.sort(key=lambda g: (g.rank, g.title))
        return out

    def best_case(self, clause_id: str, shown: set[str]) -> CaseView | None:
        """The one case that shows ``clause_id`` best and is not shown yet: a documented
        example whose full example stands under this clause, else any documented example
        that exercises it, else any case standing under it; the smallest picture wins a tie.
        A refused action shows only the clause that refuses it, so elsewhere it comes last."""
        rank = {s: i for i, s in enumerate(STATUS_ORDER)}

        def refused_elsewhere(v: CaseView) -> bool:
            return v.outcome is not None and v.outcome.refusal is not None and v.outcome.refusal.clause != clause_id

        views = [v for v in self.exercising(clause_id) if v.image and v.case.id not in shown]
        views = [v for v in views if not refused_elsewhere(v)] or views
        homes = [v for v in views if v.home == clause_id]
        documented = [v for v in views if v.case.status == CaseStatus.DOCUMENTED]
        pool = ([v for v in homes if v.case.status == CaseStatus.DOCUMENTED] or documented or homes)
        if not pool:
            return None
        return min(pool, key=lambda v: (rank.get(v.case.status, 9),
                                        (v.size[0] * v.size[1]) if v.size else 1 << 40, v.case.id))

    # --- coverage ---

    def coverage(self) -> list[tuple[Clause, list[CaseView], list[CaseView], list[FindingView]]]:
        rows = []
        for clause in self.ruleset.clauses:
            by_provenance = [v for v in self.cases if clause.id in v.used]
            documented = [v for v in by_provenance if v.case.status == CaseStatus.DOCUMENTED]
            others = [v for v in by_provenance if v.case.status != CaseStatus.DOCUMENTED]
            questions = [v for v in self.finding_views if clause.id in v.entry.finding.clauses]
            rows.append((clause, documented, others, questions))
        return rows


def _outcome_sentence(model: PageModel, what: str, before: Any, outcome: Outcome) -> str:
    """The outcome in words a player reads: the ruleset's summary, or for a refused action
    that it was refused, by which clause and why (the same for every ruleset)."""
    if outcome.refusal is not None:
        words = outcome.refusal.what_happened()
        return _sentence(words[:1].upper() + words[1:])
    return _sentence(model.attempt(what, "", model.ruleset.summarise, before, outcome))
