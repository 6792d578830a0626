"""The rule pages: a static site built from the clause tables, the cases and the
explorer's findings, so that the published pages and the tests share one source
(as the CommonMark spec does).

``render_site`` is a pure function from rulesets, cases and findings to a
mapping of file names to bytes; ``write_site`` puts those files into a folder,
refusing folders where a site does not belong and never writing outside the
folder. ``build_site`` does both, and ``verifier docs`` calls it.

The pages load nothing from the network (no fonts, no scripts: there is no
JavaScript at all), escape every piece of case and clause text, give every
image alt text, and read on a phone as on a desktop.
"""

from __future__ import annotations

import functools
import html
import io
import json
import os
import pickle
import re
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from . import registry
from .errors import VerifierError
from .ruleset import Capability, Clause, Outcome, Ruleset

MARKER = ".verifier-docs.json"
ASSETS = Path(__file__).parent / "site_assets"
# What the quick explorer pass does when there is no explorer report to read.
QUICK_EXAMPLES = 150
# Animation timing, in milliseconds: the first and last frames stay up longer.
FRAME_MS, FIRST_MS, LAST_MS = 1400, 2000, 3200
KIND_ORDER = ("contradiction", "gap", "divergence", "example-conflict", "breach", "order", "symmetry")
STATUS_ORDER = ("documented", "ruled", "derived", "needs-ruling")


class SiteError(VerifierError):
    """The site cannot be written where it was asked to go."""


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


# --- findings: read from an explorer report, or found by a quick pass -------------------------


@dataclass
class FindingEntry:
    finding: Any  # verifier.explore.Finding
    status: str  # open | resolved
    resolved_by: str | None = None


@dataclass
class Findings:
    entries: list[FindingEntry]
    origin: str  # a sentence: where these findings come from
    matrix: Any = None  # verifier.explore.ExampleMatrix, or None


def read_findings(ruleset: Ruleset, folder: Path, cases_dir: Path | None,
                  warn: Callable[[str], None] = lambda m: None) -> list[FindingEntry] | None:
    """The findings of an explorer report folder (``explore/<ruleset>``), or None if
    there is no report. A finding is rebuilt from its needs-ruling case file."""
    from .case import load_case
    from .explore import Finding
    from .findings import rulings

    report = folder / "report.json"
    if not report.is_file():
        return None
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        warn(f"{report}: cannot read the explorer report ({error}); running a quick pass instead")
        return None
    if data.get("ruleset") != ruleset.key:
        warn(f"{report}: a report of ruleset {data.get('ruleset')!r}, not {ruleset.key!r}; ignored")
        return None
    ruled = rulings(ruleset, [p for p in (cases_dir, folder / "findings") if p is not None])
    entries = []
    for item in data.get("findings", []):
        path = folder / str(item.get("case", ""))
        try:
            case = load_case(path)
        except (VerifierError, OSError) as error:
            warn(f"{path}: skipped this finding, its case does not load ({error})")
            continue
        finding = Finding(str(item["kind"]), str(item.get("point") or ""), tuple(item.get("clauses") or ()),
                          str(item.get("label") or ""), str(item.get("summary") or ""), case.before, case.actions)
        resolved_by = ruled.get(finding.fingerprint) or item.get("resolved_by")
        entries.append(FindingEntry(finding, "resolved" if resolved_by else "open", resolved_by))
    return entries


def quick_findings(ruleset: Ruleset, cases: Sequence[Any], cases_dir: Path | None, *,
                   examples: int = QUICK_EXAMPLES, seed: int = 0, matrix: Any = None) -> list[FindingEntry]:
    """A short, deterministic explorer pass: a fixed number of Hypothesis scenes
    (no time budget, so the same seed gives the same findings), the documented
    examples against every reading, and shrinking."""
    from .explore import example_conflicts, example_matrix, search, shrink
    from .findings import rulings

    found = {}
    if not ruleset.supports(Capability.FINDINGS):
        return []  # findings could not be drawn or written as cases
    if examples > 0 and ruleset.supports(Capability.SEARCH):
        found.update(search(ruleset, budget=3600.0, seed=seed, max_examples=examples).findings)
    for finding in example_conflicts(ruleset, matrix if matrix is not None else example_matrix(ruleset, cases)):
        found.setdefault(finding.fingerprint, finding)
    ruled = rulings(ruleset, [cases_dir]) if cases_dir is not None else {}
    entries = []
    for key in sorted(found):
        finding = found[key]
        if finding.kind != "example-conflict" and ruleset.supports(Capability.SEARCH):
            finding = shrink(ruleset, finding)
        entries.append(FindingEntry(finding, "resolved" if key in ruled else "open", ruled.get(key)))
    return entries


# --- the model of one ruleset's page --------------------------------------------------------


@dataclass
class CaseView:
    case: Any
    outcome: Outcome | None
    used: frozenset[str]  # clause ids by provenance (used or weighed at a decision point)
    sentence: str
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


def _optional(ruleset: Ruleset, capability: Capability, name: str, default: Any) -> Callable:
    """The ruleset's method ``name`` where it declares ``capability``, or one that gives ``default``."""
    return getattr(ruleset, name) if ruleset.supports(capability) else (lambda *a, **k: default)


def _png(image) -> bytes:
    """PNG without metadata (deterministic); zlib level 6 is four times faster than 9, for 4% more bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _gif(frames: Sequence[Any]) -> bytes:
    """An animated GIF that loops, with fixed durations and no metadata (deterministic).
    One palette for all frames (median cut over all of them), so colours do not
    flicker between frames and the file stays small."""
    from PIL import Image
    images = [im.convert("RGB") for im in frames]
    w, h = max(im.width for im in images), max(im.height for im in images)
    for k, im in enumerate(images):
        if im.size != (w, h):  # every frame of an animation has the size of the first
            canvas = Image.new("RGB", (w, h), (255, 255, 255))
            canvas.paste(im, (0, 0))
            images[k] = canvas
    montage = Image.new("RGB", (w, h * len(images)))
    for k, im in enumerate(images):
        montage.paste(im, (0, h * k))
    palette = montage.reduce(2).quantize(255, method=Image.Quantize.MEDIANCUT)
    quantized = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    durations = [FRAME_MS] * len(images)
    durations[0], durations[-1] = FIRST_MS, LAST_MS
    buffer = io.BytesIO()
    quantized[0].save(buffer, format="GIF", save_all=True, append_images=quantized[1:], duration=durations,
                      loop=0, optimize=False, disposal=1)
    return buffer.getvalue()


def _anchor(prefix: str, raw: str, taken: set[str]) -> str:
    base = prefix + (re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip("-") or "x")
    anchor, n = base, 1
    while anchor in taken:
        n += 1
        anchor = f"{base}-{n}"
    taken.add(anchor)
    return anchor


def _reading_key(reading: Mapping[str, str]) -> tuple:
    return tuple(sorted(reading.items()))


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _attempt(ruleset: Ruleset, warnings: list[str], what: str, default: Any, fn: Callable, *args, **kwargs) -> Any:
    try:
        return fn(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - reported, and the page says less
        warnings.append(f"{ruleset.key}: {what} failed ({type(error).__name__}: {error}); left out")
        return default


def _draw_case(rs: Ruleset, case: Any, outcome: Outcome, name: str) -> dict:
    """A case's pictures: its diagram, the same for narrow screens, and an animation
    if it has several steps. Returns files, view fields and warnings."""
    warnings: list[str] = []
    files: dict[str, bytes] = {}
    fields: dict[str, Any] = {}
    image = _attempt(rs, warnings, f"drawing {case.id}", None, rs.draw, case.before, case.actions, outcome,
                     title=case.title)
    if image is not None:
        fields["image"], fields["size"] = f"cases/{name}.png", image.size
        files[fields["image"]] = _png(image)
        narrow = _attempt(rs, warnings, f"drawing {case.id} for narrow screens", None,
                          _optional(rs, Capability.NARROW, "draw_narrow", None), case.before, case.actions,
                          [("Before", None), ("After: what happened", outcome)], title=case.title)
        if narrow is not None:
            fields["narrow"], fields["narrow_size"] = f"cases/{name}-narrow.png", narrow.size
            files[fields["narrow"]] = _png(narrow)
    frames = _attempt(rs, warnings, f"animating {case.id}", [], _optional(rs, Capability.FRAMES, "draw_frames", []), case.before,
                      case.actions, outcome)
    if len(frames) >= 3:
        fields["gif"], fields["gif_size"] = f"cases/{name}.gif", frames[0].image.size
        fields["steps"] = [frame.words for frame in frames]
        files[fields["gif"]] = _gif([frame.image for frame in frames])
    return {"files": files, "fields": fields, "warnings": warnings}


def _draw_finding(rs: Ruleset, finding: Any, panels: list, title: str, name: str) -> dict:
    """A finding's picture under every reading, and the same for narrow screens."""
    warnings: list[str] = []
    files: dict[str, bytes] = {}
    fields: dict[str, Any] = {}
    image = _attempt(rs, warnings, f"drawing finding {finding.fingerprint}", None, rs.draw_readings,
                     finding.before, finding.actions, panels, title=title)
    if image is not None:
        fields["image"], fields["size"] = f"findings/{name}.png", image.size
        files[fields["image"]] = _png(image)
        narrow = _attempt(rs, warnings, f"drawing finding {finding.fingerprint} for narrow screens", None,
                          _optional(rs, Capability.NARROW, "draw_narrow", None), finding.before, finding.actions, panels, title=title)
        if narrow is not None:
            fields["narrow"], fields["narrow_size"] = f"findings/{name}-narrow.png", narrow.size
            files[fields["narrow"]] = _png(narrow)
    return {"files": files, "fields": fields, "warnings": warnings}


# The drawing tasks of one build, for worker processes forked from the builder: they
# inherit this list, so only an index goes to them and only bytes come back.
_TASKS: list[Callable[[], dict]] = []


def _run_task(index: int) -> dict:
    return _TASKS[index]()


def run_tasks(tasks: Sequence[Callable[[], dict]], jobs: int = 1) -> list[dict]:
    """Run the drawing tasks, in ``jobs`` forked processes on Linux when there is
    enough to do; in this process otherwise. The results come back in
    order, so the site is the same either way."""
    import multiprocessing
    global _TASKS
    if jobs > 1 and len(tasks) >= 2 * jobs and sys.platform.startswith("linux"):
        _TASKS = list(tasks)
        try:
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                return pool.map(_run_task, range(len(tasks)), chunksize=1)
        except (OSError, pickle.PicklingError):
            pass  # no processes to be had here: draw in this one
        finally:
            _TASKS = []
    return [task() for task in tasks]


class _RulesetPage:
    """Everything on one ruleset's page, worked out once; ``render`` writes the HTML."""

    def __init__(self, ruleset: Ruleset, cases: Sequence[Any], findings: Findings, files: dict[str, bytes],
                 folder: str, warn: Callable[[str], None] = lambda m: None):
        from .explore import example_matrix
        self.warn = warn
        self.tasks: list[tuple[Any, Callable[[], dict]]] = []  # (view, drawing to do), run by render_site
        self.ruleset = ruleset
        self.folder = folder
        self.files = files
        self.findings = findings
        taken: set[str] = {"top", "clauses", "readings", "findings", "coverage", "pictures", "resolved"}
        self.clause_anchor = {c.id: _anchor("clause-", c.id, taken) for c in ruleset.clauses}
        self.reading_anchor = {p.name: _anchor("reading-", p.name, taken) for p in ruleset.reading_points}
        order = {s: i for i, s in enumerate(STATUS_ORDER)}
        self.cases = [self._case_view(c, taken) for c in sorted(cases, key=lambda c: (order.get(c.status, 9), c.id))]
        self.matrix = findings.matrix
        if self.matrix is None:
            self.matrix = example_matrix(ruleset, cases)
        self._homes()
        self.open = [e for e in findings.entries if e.status == "open"]
        self.resolved = [e for e in findings.entries if e.status != "open"]
        kinds = {k: i for i, k in enumerate(KIND_ORDER)}
        self.open.sort(key=lambda e: (kinds.get(e.finding.kind, 99), e.finding.fingerprint))
        self.finding_views = [self._finding_view(e, taken) for e in self.open]
        self.finding_anchor = {v.entry.finding.fingerprint: v.anchor for v in self.finding_views}

    def attempt(self, what: str, default: Any, fn: Callable, *args, **kwargs) -> Any:
        """``fn(*args)``; ``default`` where the ruleset does not provide it, or (with a
        warning) where it fails, so that one broken drawing does not lose the site."""
        warnings: list[str] = []
        result = _attempt(self.ruleset, warnings, what, default, fn, *args, **kwargs)
        for message in warnings:
            self.warn(message)
        return result

    def take(self, view: Any, drawn: dict) -> None:
        """Put what a drawing task made into its view and into the site's files."""
        for message in drawn.get("warnings", ()):
            self.warn(message)
        for name, data in drawn.get("files", {}).items():
            self.files[f"{self.folder}/{name}"] = data
        for key, value in drawn.get("fields", {}).items():
            setattr(view, key, value)

    # --- cases ---

    def _case_view(self, case, taken: set[str]) -> CaseView:
        rs = self.ruleset
        outcome = self.attempt(f"resolving {case.id}", None, rs.resolve, case.before, case.actions, case.readings)
        used = frozenset()
        sentence = verdict = ""
        ok = None
        if outcome is not None:
            used = outcome.clauses_considered()
            sentence = _sentence(self.attempt(f"summarising {case.id}", "", rs.summarise, case.before, outcome))
            if case.expect is None:
                verdict = "This case needs a ruling: the rule text does not say which outcome is right."
            else:
                mismatches = self.attempt(f"comparing {case.id}", None, rs.compare, case.before, case.expect,
                                          outcome)
                if mismatches is None:
                    verdict = ""
                elif mismatches:
                    ok = False
                    verdict = ("The reference resolver does not give the outcome the case expects: "
                               + "; ".join(m.message for m in mismatches) + ".")
                else:
                    ok = True
                    verdict = ("The reference resolver gives this outcome, as the rule text says."
                               if case.status == "documented" else
                               "The reference resolver gives this outcome, as the case expects.")
        scene = self.attempt(f"describing {case.id}", "", _optional(rs, Capability.SCENE_TEXT, "describe_scene", ""), case.before,
                             case.actions)
        view = CaseView(case, outcome, used, sentence, verdict, ok, _sentence(scene),
                        anchor=_anchor("case-", case.id, taken))
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

    def support(self, reading: Mapping[str, str]) -> str:
        """What the documented examples say about one full reading."""
        m = self.matrix
        if m is None or not m.cases:
            return ""
        index = {_reading_key(r): i for i, r in enumerate(m.readings)}
        i = index.get(_reading_key(reading))
        if i is None:
            return ""
        against = [c for c in m.cases if not m.agrees[(c.id, i)]]
        if not against:
            return f"supported: all {_plural(len(m.cases), 'documented example')} agree"
        return "contradicted by " + _plural(len(against), "documented example") + ": " + ", ".join(
            c.id for c in against)

    def _finding_view(self, entry: FindingEntry, taken: set[str]) -> FindingView:
        from .explore import finding_readings
        from .findings import finding_question, finding_title, dump_yaml, slug
        rs, f = self.ruleset, entry.finding
        name = slug(f"{f.kind}-{f.point}-{'-'.join(f.clauses)}-{f.label}") or "finding"
        anchor = _anchor("finding-", name, taken)
        readings = []
        for label, reading in finding_readings(rs, f):
            outcome = self.attempt(f"resolving finding {f.fingerprint}", None, rs.resolve, f.before, f.actions,
                                   reading)
            if outcome is None:
                continue
            sentence = _sentence(self.attempt("summarising a finding", "", rs.summarise, f.before, outcome))
            readings.append((label, reading, outcome, sentence, self.support(reading)))
        view = FindingView(entry, anchor, finding_title(f), finding_question(rs, f), readings)
        panels = [("before", None)] + [(f"after, {label}", o) for label, _, o, _, _ in readings]
        self.tasks.append((view, functools.partial(_draw_finding, rs, f, panels, view.title,
                                                   anchor[len("finding-"):])))
        scene = _sentence(self.attempt("describing a finding", "", _optional(rs, Capability.SCENE_TEXT, "describe_scene", ""), f.before,
                                       f.actions))
        view.alt = (f"The minimal scene of this question, then its outcome under each reading. {scene} "
                    + " ".join(f"Under {label}: {sentence}" for label, _, _, sentence, _ in readings)).strip()
        data = self.attempt("writing a finding as case data", None, rs.case_data, f.before, f.actions)
        if data is not None:
            view.scene_yaml = dump_yaml({"before": data[0], "actions": data[1]})
        return view

    # --- coverage ---

    def coverage(self) -> list[tuple[Clause, list[CaseView], list[CaseView], list[FindingView]]]:
        rows = []
        for clause in self.ruleset.clauses:
            by_provenance = [v for v in self.cases if clause.id in v.used]
            documented = [v for v in by_provenance if v.case.status == "documented"]
            others = [v for v in by_provenance if v.case.status != "documented"]
            questions = [v for v in self.finding_views if clause.id in v.entry.finding.clauses]
            rows.append((clause, documented, others, questions))
        return rows

    # --- HTML ---

    def clause_link(self, clause_id: str) -> str:
        anchor = self.clause_anchor.get(clause_id)
        code = f"<code>{esc(clause_id)}</code>"
        return f'<a href="#{anchor}">{code}</a>' if anchor else code

    def reading_link(self, name: str) -> str:
        anchor = self.reading_anchor.get(name)
        return f'<a href="#{anchor}">{esc(name)}</a>' if anchor else esc(name)

    def case_alt(self, view: CaseView) -> str:
        parts = [f"Before and after diagram of the case \u201c{view.case.title}\u201d."]
        if view.scene:
            parts.append(f"Before: {view.scene}")
        if view.sentence:
            parts.append(f"After: {view.sentence}")
        return " ".join(parts)

    def full_case(self, view: CaseView) -> str:
        c = view.case
        out = [f'<article class="case" id="{view.anchor}">',
               f'<h4><a class="self" href="#{view.anchor}">{esc(c.title)}</a></h4>',
               '<p class="meta">' + _status_badge(c.status) + f' <code>{esc(c.id)}</code> \u00b7 source: '
               + _citation(c.source) + "</p>"]
        if view.image:
            out.append('<figure class="diagram">' + _picture(view.image, view.size, self.case_alt(view), view.narrow,
                                                             view.narrow_size)
                       + f"<figcaption><strong>Outcome:</strong> {esc(view.sentence)}"
                       + (f' <span class="verdict {_verdict_class(view)}">{esc(view.verdict)}</span>'
                          if view.verdict else "") + "</figcaption></figure>")
        elif view.sentence:
            out.append(f"<p><strong>Outcome:</strong> {esc(view.sentence)} {esc(view.verdict)}</p>")
        out.append('<div class="case-more">')
        if view.gif:
            w, h = view.gif_size
            steps = "; ".join(f"{i}. {s}" for i, s in enumerate(view.steps, 1))
            alt = f"Animation of \u201c{c.title}\u201d in {len(view.steps)} steps: {steps}"
            seconds = (FIRST_MS + LAST_MS + FRAME_MS * (len(view.steps) - 2)) / 1000
            out.append(f'<figure class="animation"><img src="{esc(view.gif)}" width="{w}" height="{h}" '
                       f'alt="{esc(alt)}"><figcaption>Step by step: {len(view.steps)} pictures, '
                       f"{seconds:g} seconds, then again.</figcaption></figure>")
        out.append('<div class="case-text">')
        used = [cid for cid in self.ruleset.clause_ids if cid in view.used]
        extra = [cid for cid in c.clauses if cid not in view.used]
        if used:
            out.append('<p class="clauses">Clauses that decided it (provenance): '
                       + ", ".join(self.clause_link(cid) for cid in used) + "</p>")
        if extra:
            out.append('<p class="clauses">Also named by the case, though its resolution did not use them: '
                       + ", ".join(self.clause_link(cid) for cid in extra) + "</p>")
        if c.pinned:
            out.append("<p>Reading pinned by the case: " + ", ".join(
                f"{self.reading_link(k)}={esc(v)}" for k, v in sorted(c.pinned.items())) + "</p>")
        if c.layout:
            out.append(f'<p class="layout"><strong>Layout:</strong> {esc(c.layout)}</p>')
        if c.note:
            out.append(f'<p class="note"><strong>Note:</strong> {esc(c.note)}</p>')
        text = _read_text(c.path)
        if text:
            out.append(f"<details><summary>The case file: {esc(Path(c.path).name)}</summary>"
                       f"<pre><code>{esc(text)}</code></pre></details>")
        out.append("</div></div></article>")
        return "\n".join(out)

    def case_card(self, view: CaseView) -> str:
        c = view.case
        thumb = ""
        if view.image:
            w, h = view.size
            alt = f"Small diagram of the case \u201c{c.title}\u201d; the link goes to the full example."
            thumb = (f'<a class="thumb" href="#{view.anchor}"><img src="{esc(view.image)}" width="{w}" height="{h}" '
                     f'alt="{esc(alt)}"></a>')
        return (f'<li class="card">{thumb}<div><a href="#{view.anchor}">{esc(c.title)}</a> '
                f"{_status_badge(c.status)}<br><span class=\"sentence\">{esc(view.sentence)}</span></div></li>")

    def render(self, index_href: str, css_href: str) -> str:
        rs = self.ruleset
        documented = [v for v in self.cases if v.case.status == "documented"]
        body = [f'<nav class="crumbs" aria-label="Breadcrumb"><a href="{index_href}">All rule pages</a> '
                f"\u203a {esc(rs.title)}</nav>",
                f'<h1 id="top">{esc(rs.title)}</h1>',
                f'<p class="lede">{_plural(len(rs.clauses), "clause")}, {_plural(len(self.cases), "case")} '
                f"({len(documented)} documented), {_plural(len(self.open), 'open question')} from the explorer. "
                "Each clause is paraphrased in our own words, with its source. Under it stand the cases whose "
                "resolution used it (found by provenance), each run by the reference resolver and drawn "
                "before and after.</p>"]
        body.append('<nav class="toc" aria-label="On this page"><h2 class="toc-title">On this page</h2><ol>'
                    '<li><a href="#pictures">How to read the pictures</a></li>'
                    '<li><a href="#clauses">Clauses</a><ul class="clause-index">'
                    + "".join(f'<li><a href="#{self.clause_anchor[c.id]}">{esc(c.id)}</a></li>' for c in rs.clauses)
                    + "</ul></li>"
                    + ('<li><a href="#readings">Readings</a></li>' if rs.reading_points else "")
                    + '<li><a href="#findings">Open questions</a></li>'
                    '<li><a href="#coverage">Clause coverage</a></li></ol></nav>')
        notes = (rs.page_notes() if rs.supports(Capability.PAGE_NOTES) else
                 "Each example is drawn before (the pieces and what they plan) and after (what happened), "
                 "with a legend of its own.")
        body.append('<section id="pictures"><h2>How to read the pictures</h2><p>' + esc(notes)
                    + " Select a picture to open it at full size.</p></section>")
        # Clauses.
        body.append('<section id="clauses"><h2>Clauses</h2>')
        questions_by_clause: dict[str, list[FindingView]] = {}
        for fv in self.finding_views:
            for cid in fv.entry.finding.clauses:
                questions_by_clause.setdefault(cid, []).append(fv)
        points_by_clause: dict[str, list[str]] = {}
        for point in rs.reading_points:
            for cid in point.clauses:
                points_by_clause.setdefault(cid, []).append(point.name)
        for clause in rs.clauses:
            anchor = self.clause_anchor[clause.id]
            body.append(f'<article class="clause" id="{anchor}">')
            body.append(f'<h3><a class="self" href="#{anchor}"><code>{esc(clause.id)}</code></a></h3>')
            body.append(f'<p class="summary">{esc(clause.summary)}</p>')
            body.append(f'<p class="source">Source: {_citation(clause.source)}</p>')
            points = list(dict.fromkeys(list(clause.readings) + points_by_clause.get(clause.id, [])))
            if points:
                body.append('<p class="readings-note">Where the text leaves it open, a named reading decides: '
                            + ", ".join(self.reading_link(p) for p in points) + ".</p>")
            qs = questions_by_clause.get(clause.id, [])
            if qs:
                body.append('<p class="questions">Open questions about this clause: '
                            + ", ".join(f'<a href="#{q.anchor}">{esc(q.title)}</a>' for q in qs) + ".</p>")
            views = self.exercising(clause.id)
            homes = [v for v in views if v.home == clause.id]
            elsewhere = [v for v in views if v.home != clause.id]
            if not views:
                body.append('<p class="empty">No case exercises this clause yet.</p>')
            else:
                doc = sum(v.case.status == "documented" for v in views)
                body.append(f'<p class="count">{_plural(len(views), "case")} exercise it '
                            f"({doc} documented).</p>")
            for view in homes:
                body.append(self.full_case(view))
            if elsewhere:
                body.append(f'<details class="more"{" open" if len(elsewhere) <= 6 else ""}><summary>'
                            f"{'Other cases' if homes else 'Cases'} that exercise <code>{esc(clause.id)}</code> "
                            f"({len(elsewhere)}), shown in full under their own clause</summary>"
                            '<ul class="cards">' + "".join(self.case_card(v) for v in elsewhere) + "</ul></details>")
            body.append("</article>")
        # Cases that no clause took in (they name no known clause and used none).
        homeless = [v for v in self.cases if v.home is None]
        if homeless:
            body.append('<article class="clause" id="other-cases"><h3>Cases under no clause</h3>')
            for view in homeless:
                body.append(self.full_case(view))
            body.append("</article>")
        body.append("</section>")
        body.append(self.render_readings())
        body.append(self.render_findings())
        body.append(self.render_coverage())
        body.append(f'<footer><p>Made by <code>verifier docs</code> from the case files and the clause table. '
                    f"{esc(self.findings.origin)}</p>"
                    f'<p><a href="#top">Back to the top</a> \u00b7 <a href="{index_href}">All rule pages</a></p>'
                    "</footer>")
        return _page(f"{rs.title} \u2013 rule pages", "\n".join(body), css_href,
                     f"The clauses of {rs.title}, each with the cases that exercise it.")

    def render_readings(self) -> str:
        rs = self.ruleset
        if not rs.reading_points:
            return ""
        from .explore import single_point_readings
        out = ['<section id="readings"><h2>Readings</h2><p>Where the rule text is silent or contradicts itself, '
               "the reference resolver follows a named default reading and accepts the others by name. A case "
               "can pin one. The last column says which readings the documented examples support (each option "
               "changed alone, the other points at their defaults).</p>"]
        one = {(p, o): r for p, o, r in single_point_readings(rs) if p}
        default = rs.default_reading
        for point in rs.reading_points:
            anchor = self.reading_anchor[point.name]
            out.append(f'<article class="reading" id="{anchor}"><h3><a class="self" href="#{anchor}">'
                       f"{esc(point.name)}</a></h3><p>{esc(point.question)}</p>")
            if point.clauses:
                out.append("<p>Clauses concerned: " + ", ".join(self.clause_link(c) for c in point.clauses) + "</p>")
            out.append('<div class="table-wrap"><table><thead><tr><th scope="col">option</th>'
                       '<th scope="col">meaning</th><th scope="col">documented examples</th></tr></thead><tbody>')
            for option in sorted(point.options, key=lambda o: o != point.default):
                reading = default if option == point.default else one.get((point.name, option), default)
                mark = " <em>(default)</em>" if option == point.default else ""
                out.append(f"<tr><th scope=\"row\"><code>{esc(option)}</code>{mark}</th>"
                           f"<td>{esc(point.options[option])}</td>"
                           f"<td>{self.support_html(reading)}</td></tr>")
            out.append("</tbody></table></div></article>")
        m = self.matrix
        if m is not None and m.cases:
            from .explore import reading_label
            agreeing = m.readings_agreeing_with_all()
            out.append(f"<p>Of the {len(m.readings)} full readings, {len(agreeing)} agree with every documented "
                       "example" + (": " + "; ".join(f"<code>{esc(reading_label(r, default))}</code>"
                                                    for r in agreeing) if agreeing else "") + ".</p>")
        out.append("</section>")
        return "\n".join(out)

    def support_html(self, reading: Mapping[str, str]) -> str:
        text = self.support(reading)
        if not text:
            return "no documented examples"
        if text.startswith("contradicted"):
            m = self.matrix
            index = {_reading_key(r): i for i, r in enumerate(m.readings)}[_reading_key(reading)]
            against = [c for c in m.cases if not m.agrees[(c.id, index)]]
            anchors = {v.case.id: v.anchor for v in self.cases}
            links = ", ".join(f'<a href="#{anchors[c.id]}">{esc(c.title)}</a>' if c.id in anchors else esc(c.id)
                              for c in against)
            return f'<span class="no">\u2717 contradicted by {_plural(len(against), "example")}:</span> {links}'
        return f'<span class="yes">\u2713 {esc(text)}</span>'

    def render_findings(self) -> str:
        out = ['<section id="findings"><h2>Open questions</h2>']
        out.append(f"<p>{esc(self.findings.origin)} Each question comes with its smallest example, drawn under "
                   "each reading, and with what the documented examples say about each reading. A rule writer "
                   "answers it by ruling: see <em>Explorer</em> in the README.</p>")
        if not self.finding_views:
            out.append('<p class="empty">No open questions.</p>')
        for fv in self.finding_views:
            f = fv.entry.finding
            out.append(f'<article class="finding" id="{fv.anchor}">')
            out.append(f'<h3><a class="self" href="#{fv.anchor}">{esc(fv.title)}</a></h3>')
            out.append(f'<p class="meta">kind: <span class="kind">{esc(f.kind)}</span> \u00b7 fingerprint: '
                       f"<code>{esc(f.fingerprint)}</code></p>")
            out.append(f"<p>{esc(_sentence(f.summary))}</p>")
            out.append(f'<p class="question"><strong>Question for the rule writer:</strong> {esc(fv.question)}</p>')
            if f.clauses:
                out.append("<p>Clauses: " + ", ".join(self.clause_link(c) for c in f.clauses) + "</p>")
            if f.point:
                out.append(f"<p>Reading point: {self.reading_link(f.point)}</p>")
            if fv.image:
                out.append('<figure class="diagram">' + _picture(fv.image, fv.size, fv.alt, fv.narrow, fv.narrow_size)
                           + "<figcaption>The smallest example found: before, then after under each reading."
                           "</figcaption></figure>")
            out.append('<ul class="under">')
            for label, reading, _, sentence, _ in fv.readings:
                out.append(f"<li><strong>Under {esc(label)}:</strong> {esc(sentence)}<br>"
                           f'<span class="support">Documented examples: {self.support_html(reading)}</span></li>')
            out.append("</ul>")
            if fv.scene_yaml:
                out.append(f"<details><summary>The scene as case data</summary><pre><code>{esc(fv.scene_yaml)}"
                           "</code></pre></details>")
            out.append("</article>")
        if self.resolved:
            out.append('<h3 id="resolved">Resolved</h3><ul>')
            from .findings import finding_title
            for e in self.resolved:
                out.append(f"<li>{esc(finding_title(e.finding))}: ruled in <code>{esc(e.resolved_by or '?')}</code></li>")
            out.append("</ul>")
        out.append("</section>")
        return "\n".join(out)

    def render_coverage(self) -> str:
        rows = self.coverage()
        out = ['<section id="coverage"><h2>Clause coverage</h2>']
        missing = [clause for clause, documented, _, _ in rows if not documented]
        if missing:
            out.append(f'<p id="uncovered"><strong>{_plural(len(missing), "clause")} that no documented example '
                       "exercises:</strong> " + ", ".join(self.clause_link(c.id) for c in missing) + ".</p>")
        else:
            out.append('<p id="uncovered">Every clause is exercised by some documented example.</p>')
        out += ["<p>For each clause: the cases whose resolution used it (by provenance), and the open questions "
                "that concern it.</p>",
                '<div class="table-wrap"><table class="coverage"><thead><tr><th scope="col">clause</th>'
                '<th scope="col">documented examples</th><th scope="col">other cases</th>'
                '<th scope="col">open questions</th></tr></thead><tbody>']
        for clause, documented, others, questions in rows:
            gap = ' class="gap"' if not documented else ""
            doc_cell = str(len(documented)) if documented else '<span class="no">none</span>'
            out.append(f"<tr{gap}><th scope=\"row\">{self.clause_link(clause.id)}</th><td>{doc_cell}</td>"
                       f"<td>{len(others)}</td><td>{len(questions)}</td></tr>")
        out.append("</tbody></table></div></section>")
        return "\n".join(out)


def _picture(src: str, size: tuple[int, int], alt: str, narrow: str | None = None,
             narrow_size: tuple[int, int] | None = None) -> str:
    """An image that opens at full size when selected; on a narrow screen, its narrow layout."""
    w, h = size
    img = f'<img src="{esc(src)}" width="{w}" height="{h}" alt="{esc(alt)}">'
    if narrow and narrow_size:
        nw, nh = narrow_size
        img = (f'<picture><source media="(max-width: 40rem)" srcset="{esc(narrow)}" width="{nw}" height="{nh}">'
               f"{img}</picture>")
    return f'<a class="zoom" href="{esc(src)}">{img}</a>'


def _status_badge(status: str) -> str:
    return f'<span class="status status-{esc(status)}">{esc(status)}</span>'


def _verdict_class(view: CaseView) -> str:
    return {True: "ok", False: "bad"}.get(view.verdict_ok, "open")


def _citation(source) -> str:
    text = f"<cite>{esc(source.seed)}</cite>, {esc(source.section)}"
    return text + (f", \u201c{esc(source.example)}\u201d" if getattr(source, "example", None) else "")


def _read_text(path: str | None) -> str:
    try:
        return Path(path).read_text(encoding="utf-8") if path else ""
    except OSError:
        return ""


def _page(title: str, body: str, css_href: str, description: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' data:; style-src 'self'; base-uri 'none'; form-action 'none'">
<meta name="description" content="{esc(description)}">
<title>{esc(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{css_href}">
</head>
<body>
<main>
{body}
</main>
</body>
</html>
"""


# --- the whole site --------------------------------------------------------------------------


@dataclass
class RulesetSummary:
    key: str
    title: str
    page: str
    clauses: int
    cases: int
    documented: int
    open: int
    resolved: int
    uncovered: int
    origin: str


def render_site(rulesets: Sequence[Ruleset], cases: Sequence[Any], findings: Mapping[str, Findings],
                warn: Callable[[str], None] = lambda m: None, jobs: int = 1
                ) -> tuple[dict[str, bytes], list[RulesetSummary]]:
    """Every file of the site, by its path inside the site's folder. Pure: the same
    rulesets, cases and findings give the same bytes, with any number of ``jobs``."""
    files: dict[str, bytes] = {"style.css": (ASSETS / "style.css").read_bytes()}
    summaries = []
    taken: set[str] = {"style.css", "index.html"}
    pages = []
    for ruleset in rulesets:
        folder = _anchor("", ruleset.key, taken)
        mine = [c for c in cases if c.ruleset is ruleset or getattr(c.ruleset, "key", None) == ruleset.key]
        pages.append((folder, _RulesetPage(ruleset, mine, findings.get(ruleset.key)
                                           or Findings([], "No findings were looked for."), files, folder, warn)))
    work = [(page, view, task) for _, page in pages for view, task in page.tasks]
    for (page, view, _), drawn in zip(work, run_tasks([task for _, _, task in work], jobs)):
        page.take(view, drawn)
    for folder, page in pages:
        ruleset = page.ruleset
        files[f"{folder}/index.html"] = page.render("../index.html", "../style.css").encode("utf-8")
        summaries.append(RulesetSummary(
            ruleset.key, ruleset.title, f"{folder}/index.html", len(ruleset.clauses), len(page.cases),
            sum(v.case.status == "documented" for v in page.cases), len(page.open), len(page.resolved),
            sum(1 for _, documented, _, _ in page.coverage() if not documented), page.findings.origin))
    files["index.html"] = _index(summaries).encode("utf-8")
    return files, summaries


def _index(summaries: Sequence[RulesetSummary]) -> str:
    rows = []
    for s in summaries:
        rows.append(f'<tr><th scope="row"><a href="{esc(s.page)}">{esc(s.title)}</a><br><code>{esc(s.key)}</code>'
                    f'</th><td data-label="clauses">{s.clauses}</td><td data-label="cases">{s.cases}'
                    f'<span class="sub"> ({s.documented} documented)</span></td>'
                    f'<td data-label="open findings">{s.open}'
                    + (f'<span class="sub"> ({s.resolved} resolved)</span>' if s.resolved else "")
                    + f'</td><td data-label="clauses no documented example exercises">{s.uncovered}</td></tr>')
    total_cases = sum(s.cases for s in summaries)
    body = f"""<h1 id="top">Rule pages</h1>
<p class="lede">The rules of each game, clause by clause, with every example drawn before and after. The pages are
made from the same files as the tests: every example here is a case that the reference resolver runs, so the
pictures cannot drift from the rules.</p>
<div class="table-wrap"><table class="index">
<caption>{_plural(len(summaries), 'ruleset')}, {_plural(total_cases, 'case')} in all</caption>
<thead><tr><th scope="col">ruleset</th><th scope="col">clauses</th><th scope="col">cases</th>
<th scope="col">open findings</th><th scope="col">clauses no documented example exercises</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table></div>
<h2>How to use these pages</h2>
<ul>
<li>Each clause has a stable anchor: link to it as <code>RULESET/index.html#clause-ID</code>.</li>
<li><em>Open findings</em> are questions the explorer (<code>verifier explore</code>) raised about the rule text:
contradictions, gaps, readings that disagree. Each has its smallest example.</li>
<li>Rebuild with <code>verifier docs --out DIR</code>.</li>
</ul>
<footer><p>Made by <code>verifier docs</code>.</p></footer>"""
    return _page("Rule pages", body, "style.css", "Illustrated rule pages, made from the verifier's cases.")


# --- writing safely ------------------------------------------------------------------------------


def _project_root() -> Path:
    return Path(__file__).resolve().parent.parent


def check_out_dir(out: Path, *, protect: Iterable[Path] = ()) -> Path:
    """The resolved folder to write the site into, or SiteError if it is not a safe place:
    the root, the home folder, a folder holding the project's sources or data, a folder
    inside the project's sources, a file, a symbolic link, or a non-empty folder that
    ``verifier docs`` did not make."""
    out = Path(out)
    if out.is_symlink():
        raise SiteError(f"{out}: --out is a symbolic link; give the real folder")
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out}: --out is a file, not a folder")
    resolved = out.resolve()
    if resolved == Path(resolved.anchor):
        raise SiteError(f"{out}: refusing to write a site into the root folder")
    home = Path.home().resolve()
    if resolved == home:
        raise SiteError(f"{out}: refusing to write a site into your home folder; give a folder of its own, "
                        "such as site/")
    root = _project_root()
    guarded = [root, Path.cwd().resolve(), *(Path(p).resolve() for p in protect)]
    for place in guarded:
        if place == resolved or resolved in place.parents:
            raise SiteError(f"{out}: refusing to write a site into a folder that holds the project ({place}); "
                            "give a folder of its own, such as site/")
    sources = [root / "verifier", root / "cases", root / "snapshots", root / "tests", root / ".git",
               *(Path(p).resolve() for p in protect)]
    for place in sources:
        if place.exists() and (resolved == place or place in resolved.parents):
            raise SiteError(f"{out}: refusing to write a site inside the project's sources ({place})")
    for marker in ("pyproject.toml", "setup.py", ".git", "verifier", "cases", "snapshots"):
        if (resolved / marker).exists():
            raise SiteError(f"{out}: refusing to write a site into a folder that holds {marker}; it looks like "
                            "a project, not a site")
    if resolved.is_dir() and any(resolved.iterdir()) and not (resolved / MARKER).is_file():
        raise SiteError(f"{out}: the folder is not empty and was not made by 'verifier docs' (it has no {MARKER}); "
                        "give a new or empty folder")
    if (resolved / MARKER).is_symlink():
        raise SiteError(f"{out}: {MARKER} is a symbolic link; refusing to use this folder")
    return resolved


def _safe_parts(name: str) -> list[str]:
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in name:
        raise SiteError(f"refusing to write {name!r}: not a plain path inside the site")
    return parts


def _ensure_dir(root: Path, parts: Sequence[str]) -> Path:
    """Create the folders ``parts`` under ``root``, refusing to pass through a link."""
    here = root
    for part in parts:
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            os.mkdir(here)
            continue
        if not stat.S_ISDIR(mode):
            raise SiteError(f"{here}: expected a folder, found a file or a link; refusing to write through it")
    return here


def _write_file(root: Path, name: str, data: bytes) -> None:
    parts = _safe_parts(name)
    folder = _ensure_dir(root, parts[:-1])
    path = folder / parts[-1]
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            os.unlink(path)  # the link itself, inside the site; never its target
        elif not stat.S_ISREG(mode):
            raise SiteError(f"{path}: not a regular file; refusing to overwrite it")
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _previous_files(root: Path) -> list[str]:
    marker = root / MARKER
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [f for f in data.get("files", []) if isinstance(f, str)]


def write_site(out: Path, files: Mapping[str, bytes], *, protect: Iterable[Path] = ()) -> Path:
    """Write ``files`` into ``out`` (made if missing), after ``check_out_dir``. Files
    an earlier build wrote and this one does not are removed; nothing else is."""
    root = check_out_dir(out, protect=protect)
    root.mkdir(parents=True, exist_ok=True)
    for name in _previous_files(root):
        if name in files:
            continue
        try:
            parts = _safe_parts(name)
        except SiteError:
            continue
        path = root.joinpath(*parts)
        try:
            if any(os.path.islink(root.joinpath(*parts[:i])) for i in range(1, len(parts))):
                continue
            if stat.S_ISREG(os.lstat(path).st_mode) or stat.S_ISLNK(os.lstat(path).st_mode):
                os.unlink(path)
        except FileNotFoundError:
            continue
        for i in range(len(parts) - 1, 0, -1):  # folders left empty
            try:
                os.rmdir(root.joinpath(*parts[:i]))
            except OSError:
                break
    for name in sorted(files):
        _write_file(root, name, files[name])
    manifest = {"made_by": "verifier docs", "files": sorted(files)}
    _write_file(root, MARKER, (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))
    return root


# --- the command ---------------------------------------------------------------------------------


@dataclass
class BuildResult:
    out: Path
    files: int
    bytes: int
    pages: int
    seconds: float
    summaries: list[RulesetSummary]
    warnings: list[str]


def load_cases(cases_dir: Path | None, warn: Callable[[str], None]) -> list[Any]:
    from .case import find_case_files, load_case
    cases = []
    if cases_dir is None or not cases_dir.exists():
        return cases
    for path in find_case_files([cases_dir]):
        try:
            cases.append(load_case(path))
        except VerifierError as error:
            warn(f"skipped a case that does not load (see 'verifier check'): {str(error).splitlines()[0]}")
    return cases


def gather_findings(ruleset: Ruleset, cases: Sequence[Any], *, findings_dir: Path | None, cases_dir: Path | None,
                    examples: int, seed: int, warn: Callable[[str], None]) -> Findings:
    from .explore import example_matrix
    mine = [c for c in cases if c.ruleset is ruleset]
    matrix = example_matrix(ruleset, mine)
    entries = None
    if findings_dir is not None:
        for folder in (findings_dir / ruleset.key, findings_dir):
            entries = read_findings(ruleset, folder, cases_dir, warn)
            if entries is not None:
                report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
                search = report.get("search") or {}
                how = (f"; Hypothesis search of {search.get('examples')} scenes, seed {report.get('seed')}"
                       if search else "")
                origin = f"These questions come from the explorer's report {folder / 'report.json'}{how}."
                return Findings(entries, origin, matrix)
    has_strategy = ruleset.supports(Capability.SEARCH)
    entries = quick_findings(ruleset, mine, cases_dir, examples=examples, seed=seed, matrix=matrix)
    if has_strategy and examples <= 0:
        origin = ("No explorer search ran (--examples 0): only the documented examples were checked against "
                  "every reading.")
    elif has_strategy:
        origin = (f"These questions come from a quick explorer pass made while building the pages ({examples} "
                  f"scenes, seed {seed}); 'verifier explore {ruleset.key}' searches deeper, and the pages read "
                  "its report when there is one.")
    else:
        origin = ("This ruleset has no explorer search yet: only its documented examples were checked against "
                  "every reading.")
    return Findings(entries, origin, matrix)


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def build_site(out: Path | str = "site", *, cases_dir: Path | str | None = "cases",
               findings_dir: Path | str | None = "explore", rulesets: Sequence[str] | None = None,
               examples: int = QUICK_EXAMPLES, seed: int = 0, jobs: int | None = None,
               log: Callable[[str], None] = lambda m: None) -> BuildResult:
    """Build the site into ``out``: gather cases and findings, draw (in ``jobs``
    processes; default one per core), write. Refuses an unsafe ``out`` before any work."""
    start = time.perf_counter()
    out = Path(out)
    cases_dir = Path(cases_dir) if cases_dir is not None else None
    findings_dir = Path(findings_dir) if findings_dir is not None else None
    protect = [p for p in (cases_dir, findings_dir) if p is not None and p.exists()]
    check_out_dir(out, protect=protect)  # refuse before doing any work
    warnings: list[str] = []

    def warn(message: str) -> None:
        warnings.append(message)
        log(f"warning: {message}")

    chosen = [registry.get(k) for k in (rulesets or registry.names())]
    cases = load_cases(cases_dir, warn)
    findings = {}
    for ruleset in chosen:
        findings[ruleset.key] = gather_findings(ruleset, cases, findings_dir=findings_dir, cases_dir=cases_dir,
                                                examples=examples, seed=seed, warn=warn)
    files, summaries = render_site(chosen, cases, findings, warn, jobs=default_jobs() if jobs is None else jobs)
    root = write_site(out, files, protect=protect)
    return BuildResult(root, len(files), sum(len(b) for b in files.values()),
                       sum(1 for name in files if name.endswith(".html")), time.perf_counter() - start,
                       summaries, warnings)
