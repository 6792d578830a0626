"""Writing what the explorer found: one needs-ruling case and one diagram per
finding, plus a Markdown and a JSON report; and reading such a report back. Files
the user already has are never overwritten; a finding whose case was ruled is
reported as resolved."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jsonschema

from .case import CaseStatus, collect, load_case, write_case
from .case import dump_yaml as dump_yaml  # fuzz and the docs write their YAML with it too
from .errors import VerifierError
from .explore import (
    FINGERPRINT_TEXT,
    ExampleMatrix,
    Finding,
    SearchResult,
    finding_readings,
    reading_label,
    single_point_readings,
)
from .output import json_mark, remember
from .ruleset import FindingKind, Outcome, ReportSection, Ruleset
from .shards import ExhaustiveResult
from .snapshots import png_bytes


def slug(text: str, limit: int = 80) -> str:
    text = re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")
    return text[:limit].rstrip("-.")


def finding_question(ruleset: Ruleset, finding: Finding) -> str:
    for point in ruleset.reading_points:
        if point.name == finding.point:
            return point.question
    if finding.kind is FindingKind.ORDER:
        return "Does the outcome depend on the order in which pieces are listed or processed?"
    if finding.kind is FindingKind.SYMMETRY:
        return "Should turning or mirroring the whole scene change the outcome only by the same turn or mirror?"
    return "Which outcome does the rule intend?"


def finding_title(finding: Finding) -> str:
    title = _kind_title(finding)
    return f"{title}, when {finding.situation}" if finding.situation else title


def _kind_title(finding: Finding) -> str:
    clauses = " and ".join(finding.clauses) if finding.clauses else ""
    return {
        "contradiction": f"Contradiction: {clauses} both apply and disagree",
        "gap": f"Gap: no clause decides ({finding.point}; nearest {clauses})",
        "divergence": f"Readings diverge: {finding.point} {finding.label}" + (f" at {clauses}" if clauses else ""),
        "breach": f"Invariant breach: {finding.label}",
        "order": f"Order dependence: {finding.label}",
        "symmetry": f"Broken symmetry: {finding.label}",
        "example-conflict": f"Documented example contradicts {finding.point}={finding.label}",
    }.get(finding.kind, finding.kind)


def finding_file_name(ruleset: Ruleset, finding: Finding) -> str:
    """The finding's file name: readable words, plus a short hash of the situation shape
    where there is one (shapes are sentences, too long for a name)."""
    name = slug(f"{ruleset.key}-{finding.kind}-{finding.point}-{'-'.join(finding.clauses)}-{finding.label}")
    if finding.situation:
        name += "-" + hashlib.sha1(finding.situation.encode()).hexdigest()[:6]
    return name


@dataclass(frozen=True)
class FindingEntry:
    """A finding, open or resolved by the ruling in ``resolved_by``."""

    finding: Finding
    status: Literal["open", "resolved"]
    resolved_by: str | None = None


@dataclass(frozen=True)
class WrittenFinding:
    finding: Finding
    status: Literal["open", "resolved"]
    case_file: Path
    diagram: Path
    kept_existing: bool
    resolved_by: str | None
    outcomes: list[tuple[str, Mapping[str, str], Any]]  # (label, reading, outcome)


def rulings(ruleset: Ruleset, folders: list[Path], loaded: Iterable[Any] = ()) -> dict[str, str]:
    """fingerprint -> file, for every case in ``folders``, and among the ``loaded`` cases,
    that rules on a finding."""
    found = {}
    existing = [f for f in folders if f.exists()]
    # Broken files do not count here: 'verifier check' reports them.
    for case in [*loaded, *(collect(existing).cases if existing else ())]:
        if case.ruleset is ruleset and case.finding and case.status is CaseStatus.RULED:
            found[case.finding["fingerprint"]] = case.path
    return found


def write_findings(ruleset: Ruleset, findings: list[Finding], out: Path,
                   ruled: Mapping[str, str]) -> list[WrittenFinding]:
    folder = out / "findings"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for finding in findings:
        name = finding_file_name(ruleset, finding)
        case_file, diagram = folder / f"{name}.yaml", folder / f"{name}.png"
        outcomes = []
        for label, reading in finding_readings(ruleset, finding):
            outcome = ruleset.resolve(finding.before, finding.actions, reading)
            outcomes.append((label, reading, outcome))
        before_data, actions_data = ruleset.case_data(finding.before, finding.actions)
        first = ruleset.clause(finding.clauses[0]).source if finding.clauses else None
        data = {
            "id": name,
            "title": finding_title(finding),
            "ruleset": ruleset.key,
            "status": str(CaseStatus.NEEDS_RULING),
            "source": {"seed": first.seed if first else "(explorer)",
                       "section": first.section if first else "(no single clause)",
                       "example": "found by verifier explore"},
            "clauses": list(finding.clauses) or [c.id for c in ruleset.clauses][:1],
            "finding": {"fingerprint": finding.fingerprint, "kind": str(finding.kind),
                        "summary": finding.summary, "question": finding_question(ruleset, finding)},
            "note": "To rule: set status to ruled, pin the chosen reading under 'readings', and copy "
                    "that reading's expectation to 'expect'.",
            "before": before_data,
            "actions": actions_data,
            "outcomes": [{"reading": {finding.point: reading[finding.point]} if finding.point in reading else {},
                          "expect": ruleset.expect_data(finding.before, outcome)}
                         for _, reading, outcome in outcomes],
        }
        kept = case_file.exists()
        if not kept:
            write_case(case_file, data)
        panels: list[tuple[str, Outcome | None]] = [("before", None)]
        panels += [(f"after, {label}", o) for label, _, o in outcomes]
        image = ruleset.draw_readings(finding.before, finding.actions, panels, title=finding_title(finding))
        diagram.write_bytes(png_bytes(image))
        resolved_by = ruled.get(finding.fingerprint)
        written.append(WrittenFinding(finding, "resolved" if resolved_by else "open", case_file, diagram,
                                      kept, resolved_by, outcomes))
    return written


def report_json(ruleset: Ruleset, written: list[WrittenFinding], *, search: SearchResult | None,
                exhaustive: ExhaustiveResult | None, matrix: ExampleMatrix | None, seed: int,
                budget: float, out: Path) -> dict[str, Any]:
    findings = []
    for w in written:
        f = w.finding
        entry: dict[str, Any] = {
            "fingerprint": f.fingerprint, "kind": str(f.kind), "point": f.point, "clauses": list(f.clauses),
            "label": f.label, "situation": f.situation, "summary": f.summary, "status": w.status,
            "resolved_by": w.resolved_by,
            "case": str(w.case_file.relative_to(out)), "diagram": str(w.diagram.relative_to(out)),
            "outcomes": {label: ruleset.outcome_json(o) for label, _, o in w.outcomes},
        }
        if search is not None:
            entry["first_found_seconds"] = round(search.first_seen[f.fingerprint], 3) \
                if f.fingerprint in search.first_seen else None
            entry["from_boundary"] = search.from_boundaries.get(f.fingerprint)
        if exhaustive is not None:
            entry["exhaustive_scenes"] = exhaustive.counts.get(f.fingerprint, 0)
            entry["exhaustive_share"] = round(entry["exhaustive_scenes"] / max(exhaustive.scenes, 1), 6)
        findings.append(entry)
    data: dict[str, Any] = {"generator": json_mark("explore"), "ruleset": ruleset.key, "seed": seed,
                            "fingerprint": FINGERPRINT_TEXT,
                            "budget_seconds": budget,
                            "counts": {k: sum(1 for w in written if w.finding.kind == k)
                                       for k in sorted({w.finding.kind for w in written})},
                            "open": sum(w.status == "open" for w in written),
                            "resolved": sum(w.status == "resolved" for w in written),
                            "findings": findings}
    if search is not None:
        data["search"] = {"examples": search.examples, "seconds": round(search.seconds, 2),
                          "stopped_by_budget": search.stopped_by_budget, "classes": len(search.findings)}
        if search.boundaries:
            from_boundaries: dict[str, int] = {}
            for visit in search.from_boundaries.values():
                name = visit.split(" (")[0]
                from_boundaries[name] = from_boundaries.get(name, 0) + 1
            data["boundaries"] = {**search.boundaries, "share_asked": search.boundary_share,
                                  "classes_first_seen": dict(sorted(from_boundaries.items()))}
    if exhaustive is not None:
        classes = set(exhaustive.counts)
        data["exhaustive"] = {"space": exhaustive.space, "scenes": exhaustive.scenes,
                              "seconds": round(exhaustive.seconds, 2), "workers": exhaustive.workers,
                              "classes": len(classes),
                              "scenes_per_second": round(exhaustive.scenes / max(exhaustive.seconds, 1e-9)),
                              "counts": exhaustive.counts,
                              "shards": exhaustive.shards,
                              "last_class_seconds": round(max(exhaustive.first_seen.values(), default=0.0), 2)}
        if exhaustive.raw_scenes != exhaustive.scenes:
            # One scene per class of symmetric scenes: what the classes stand for.
            data["exhaustive"].update(raw_scenes=exhaustive.raw_scenes, raw_counts=exhaustive.raw_counts,
                                      saved_by_symmetry=exhaustive.raw_scenes - exhaustive.scenes)
        if search is not None:
            found = classes & set(search.findings)
            data["recall"] = {"found": len(found), "of": len(classes),
                              "share": round(len(found) / len(classes), 3) if classes else 1.0,
                              "missed": sorted(classes - found)}
    if matrix is not None:
        data["examples"] = {
            "readings": [dict(r) for r in matrix.readings],
            "cases": {c.id: [matrix.agrees[(c.id, i)] for i in range(len(matrix.readings))] for c in matrix.cases},
            "agreeing_with_all": [dict(r) for r in matrix.readings_agreeing_with_all()],
            # what the rows depend on, so that a reader can reuse them (see example_digest)
            "code": code_digest(ruleset),
            "digests": {c.id: example_digest(c) for c in matrix.cases},
        }
    return data


def report_markdown(ruleset: Ruleset, data: Mapping[str, Any], written: list[WrittenFinding],
                    matrix: ExampleMatrix | None) -> str:
    lines = [f"# Explorer report: {ruleset.key} ({ruleset.title})", ""]
    counts = ", ".join(f"{n} {k}" for k, n in data["counts"].items()) or "none"
    lines += [f"{len(written)} distinct findings ({counts}); {data['open']} open, {data['resolved']} resolved.", ""]
    if "search" in data:
        s = data["search"]
        lines.append(f"- Hypothesis search: seed {data['seed']}, {s['examples']} scenes in {s['seconds']} s"
                     + (" (stopped by the time budget)" if s["stopped_by_budget"] else "") + ".")
    if "exhaustive" in data:
        e = data["exhaustive"]
        lines.append(f"- Exhaustive enumeration: {e['scenes']} scenes in {e['seconds']} s on {e['workers']} "
                     f"processes ({e['scenes_per_second']} scenes/s), {e['classes']} finding classes.")
        if "raw_scenes" in e:
            lines.append(f"- The space holds one scene per class of scenes equal up to symmetry: its {e['scenes']} "
                         f"scenes stand for {e['raw_scenes']}, so the reduction saved "
                         f"{e['saved_by_symmetry']} scenes.")
    if "recall" in data:
        r = data["recall"]
        lines.append(f"- Recall of the search against the exhaustive classes: {r['found']}/{r['of']}"
                     + (f"; missed: {', '.join(r['missed'])}" if r["missed"] else "") + ".")
    lines.append("")
    if matrix is not None and matrix.cases:
        default = ruleset.default_reading
        index = {tuple(sorted(r.items())): i for i, r in enumerate(matrix.readings)}
        # The default, then each single-point change: one column per option, however many
        # full combinations there are.
        columns = [index[tuple(sorted(r.items()))] for _, _, r in single_point_readings(ruleset)]
        lines += ["## Documented examples against readings", "",
                  "Each column is the default reading or one option changed from it; a cross marks a documented "
                  "example that the reading gets wrong.", ""]
        heads = [reading_label(matrix.readings[i], default) for i in columns]
        lines.append("| example | " + " | ".join(f"R{n + 1}" for n in range(len(heads))) + " |")
        lines.append("|---|" + "---|" * len(heads))
        unanimous = [c for c in matrix.cases if all(matrix.agrees[(c.id, i)] for i in columns)]
        for case in matrix.cases:
            if case in unanimous:
                continue
            marks = ["ok" if matrix.agrees[(case.id, i)] else "**x**" for i in columns]
            lines.append(f"| {case.id} | " + " | ".join(marks) + " |")
        lines += ["", f"The other {len(unanimous)} documented examples hold under every one of these readings.", ""]
        for n, head in enumerate(heads):
            lines.append(f"- R{n + 1}: {head}")
        agreeing = matrix.readings_agreeing_with_all()
        shown = agreeing[:12]
        lines += ["", f"Of the {len(matrix.readings)} full readings (every combination of options), {len(agreeing)} "
                  "agree with every documented example" + (": " if shown else ".")
                  + "; ".join(reading_label(r, default) for r in shown)
                  + (f"; and {len(agreeing) - len(shown)} more (report.json lists them all)."
                     if len(agreeing) > len(shown) else ("." if shown else "")), ""]
    if "boundaries" in data:
        from .kit.boundary import boundaries_text
        b = data["boundaries"]
        firsts = ", ".join(f"{name} {n}" for name, n in b["classes_first_seen"].items()) or "none"
        lines += ["## Boundaries", "", f"The search was asked to build a share of {b['share_asked']:.0%} of its "
                  "scenes on the ruleset's boundaries (its contacts, ties and limits), exactly on them and just "
                  "either side. " + boundaries_text(b), "",
                  f"Finding classes first seen on a boundary scene, by boundary: {firsts}; the findings table "
                  "names the boundary and side of each.", ""]
    lines += ["## Findings", ""]
    lines += [FINGERPRINT_TEXT, ""]
    if "exhaustive" in data:
        lines += [f"The scenes column counts the scenes of the exhaustive space ({data['exhaustive']['space']}, "
                  f"{data['exhaustive']['scenes']:,} scenes) that show each finding, and their share of it; one "
                  "scene can show several findings.", ""]
    lines.append("| # | kind | fingerprint | status | " + ("scenes (exhaustive) | " if "exhaustive" in data else "")
                 + ("first found (s) |" if "search" in data else ""))
    lines.append("|---|---|---|---|" + ("---|" if "exhaustive" in data else "") + ("---|" if "search" in data else ""))
    for i, (w, entry) in enumerate(zip(written, data["findings"]), 1):
        row = f"| {i} | {w.finding.kind} | `{w.finding.fingerprint}` | {w.status} | "
        if "exhaustive" in data:
            row += f"{entry['exhaustive_scenes']:,} ({100 * entry['exhaustive_share']:.2f}%) | "
        if "search" in data:
            first = entry.get("first_found_seconds")
            row += f"{first if first is not None else '-'}"
            row += f" (on {entry['from_boundary']}) |" if entry.get("from_boundary") else " |"
        lines.append(row)
    lines.append("")
    for i, w in enumerate(written, 1):
        f = w.finding
        lines += [f"### {i}. {finding_title(f)}", "", f.summary + ".", "",
                  f"*Question for the rule writer:* {finding_question(ruleset, f)}", ""]
        for clause_id in f.clauses:
            clause = ruleset.clause(clause_id)
            lines.append(f"- **{clause.id}**: {clause.summary} ({clause.source})")
        if f.clauses:
            lines.append("")
        for label, _, outcome in w.outcomes:
            lines.append(f"- under {label}: " + ruleset.summarise(f.before, outcome))
        alt = f"{finding_title(f)}: the scene before, then the outcome under each reading"
        lines += ["", f"![{alt}]({w.diagram.parent.name}/{w.diagram.name})", "",
                  f"Minimal example: [{w.case_file.name}]({w.case_file.parent.name}/{w.case_file.name})"
                  + (" (existing file kept)" if w.kept_existing else ""),
                  ""]
        if w.status == "resolved":
            lines += [f"Resolved by the ruling in `{w.resolved_by}`.", ""]
        before, actions = ruleset.case_data(f.before, f.actions)
        lines += ["```yaml", dump_yaml({"before": before, "actions": actions}).rstrip(), "```", ""]
    return "\n".join(lines)


def add_sections(data: dict[str, Any], markdown: str,
                 sections: Sequence[ReportSection]) -> tuple[dict[str, Any], str]:
    """The report with a ruleset's own sections (``Ruleset.report_sections``): each
    becomes a ``##`` section of the Markdown, placed before the list of findings, and
    an entry of ``sections`` in the JSON."""
    if not sections:
        return data, markdown
    text = "".join(f"## {s.title}\n\n{s.markdown.rstrip()}\n\n" for s in sections)
    marker = "## Findings\n"
    markdown = markdown.replace(marker, text + marker, 1) if marker in markdown else markdown.rstrip() + "\n\n" + text
    data = {**data, "sections": [{"title": s.title, "data": dict(s.data)} for s in sections]}
    return data, markdown


def write_reports(out: Path, data: Mapping[str, Any], markdown: str) -> tuple[Path, Path]:
    json_path, md_path = out / "report.json", out / "report.md"
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    remember(json_path)  # so that the next run may write into this folder (verifier.output)
    remember(md_path)
    return json_path, md_path


MAX_REPORT_BYTES = 16 << 20
# What is read back of a report; anything else in it is left alone.
REPORT_SCHEMA = {
    "type": "object", "required": ["ruleset", "findings"],
    "properties": {
        "ruleset": {"type": "string"},
        "findings": {"type": "array", "items": {
            "type": "object", "required": ["case", "kind"],
            "properties": {"case": {"type": "string", "pattern": "^[^/\\\\]", "maxLength": 300},
                           "kind": {"type": "string"}, "point": {"type": ["string", "null"]},
                           "clauses": {"type": "array", "items": {"type": "string"}},
                           "label": {"type": ["string", "null"]}, "summary": {"type": ["string", "null"]},
                           "situation": {"type": ["string", "null"]},
                           "resolved_by": {"type": ["string", "null"]}}}},
    },
}


def _draws_only(relative: str) -> bool:
    """Modules that only draw or write pages: no resolver imports them, so a change to a
    picture or a page leaves the report's results valid (and the next site build warm)."""
    parts = relative.split("/")
    return (parts[0] == "docs" or parts[:2] == ["kit", "draw"]
            or (parts[0] == "rulesets" and parts[-1] in ("draw.py", "animate.py")))


# Besides the drawing, the modules no explorer report's results can depend on: the other
# commands (conformance checks, fuzz and its adapters, the benchmarks, the test plugins).
_OTHER_COMMANDS = ("bench.py", "boundary_bench.py", "check.py", "runner.py", "export.py", "snapshots.py",
                   "syrupy_png.py", "pytest_plugin.py", "testing.py", "known_failures.py")
_OTHER_COMMAND_DIRS = ("fuzz", "adapter", "adapters")


def outside_results(relative: str) -> bool:
    """Whether the module at ``relative`` (to the package) is left out of ``code_digest``."""
    return (_draws_only(relative) or relative in _OTHER_COMMANDS
            or relative.split("/")[0] in _OTHER_COMMAND_DIRS or relative.endswith("/bench.py"))


def sources_digest(leave_out: Callable[[str], bool], cut: Mapping[str, str] | None = None) -> str:
    """A digest of the verifier's Python sources (rulesets included) but for those
    ``leave_out`` names; a module in ``cut`` counts only up to the first line holding its
    mark."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if leave_out(relative):
            continue
        text = path.read_bytes()
        if cut and relative in cut:
            text = text.split(cut[relative].encode(), 1)[0]
        digest.update(relative.encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:24]


def ruleset_package(ruleset: Any) -> str | None:
    """The folder under ``rulesets/`` that holds a bundled ruleset's code; None for one
    from another package."""
    parts = type(ruleset).__module__.split(".")
    return parts[2] if parts[:2] == ["verifier", "rulesets"] and len(parts) > 2 else None


def other_rulesets(package: str | None) -> Callable[[str], bool]:
    """Whether a module belongs to a bundled ruleset other than ``package`` (none, for None)."""
    def other(relative: str) -> bool:
        parts = relative.split("/")
        return package is not None and len(parts) > 2 and parts[0] == "rulesets" and parts[1] != package
    return other


def code_digest(ruleset: Any = None) -> str:
    """The digest of the sources an explorer report's results depend on (``outside_results``
    leaves out the drawing, the pages and the other commands; for a bundled ``ruleset``, the
    other bundled rulesets too): results worked out by other code are not reused."""
    package = ruleset_package(ruleset) if ruleset is not None else None
    if package not in _CODE_DIGESTS:
        other = other_rulesets(package)
        _CODE_DIGESTS[package] = sources_digest(lambda relative: outside_results(relative) or other(relative))
    return _CODE_DIGESTS[package]


_CODE_DIGESTS: dict[str | None, str] = {}


def example_digest(case: Any) -> str:
    """A digest of everything a documented example's row of the matrix depends on besides
    the code: the case's data as loaded (ruleset, status, scene, expectation)."""
    text = json.dumps(case.doc.data, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class ExploreReport:
    """An explorer report read back: its findings, each rebuilt from its case file."""

    path: Path  # the report.json
    findings: tuple[FindingEntry, ...]
    seed: int | None
    search_examples: int | None  # scenes of its Hypothesis search, or None if it ran none
    examples: Mapping[str, Any] | None = None  # the documented examples against every reading, as written


def read_report(ruleset: Ruleset, folder: Path, cases_dir: Path | None,
                warn: Callable[[str], None] = lambda m: None, *,
                cases: Sequence[Any] | None = None) -> ExploreReport | None:
    """The report in ``folder`` (as written by ``write_reports``), or None if there is
    none or it cannot be read (with a warning). A finding whose case file is missing
    or broken is left out with a warning; rulings in ``cases_dir`` and the report's
    findings folder mark findings resolved. ``cases``: the cases of ``cases_dir``
    when the caller has loaded them already (they are not read again)."""
    report = folder / "report.json"
    if not report.is_file():
        return None
    try:
        if report.stat().st_size > MAX_REPORT_BYTES:
            raise ValueError(f"larger than {MAX_REPORT_BYTES:,} bytes")
        data = json.loads(report.read_text(encoding="utf-8"))
        jsonschema.validate(data, REPORT_SCHEMA)
    except (OSError, ValueError, RecursionError, jsonschema.ValidationError) as error:
        why = error.message if isinstance(error, jsonschema.ValidationError) else str(error)
        warn(f"{report}: not a readable explorer report ({why[:200]}); running a quick pass instead")
        return None
    if data.get("ruleset") != ruleset.key:
        warn(f"{report}: a report of ruleset {data.get('ruleset')!r}, not {ruleset.key!r}; ignored")
        return None
    # The findings folder is read once, for the rulings in it and for the findings' scenes.
    kept = collect([folder / "findings"]).cases if (folder / "findings").is_dir() else ()
    by_file = {Path(c.path).resolve(): c for c in kept}
    if cases is None:
        ruled = rulings(ruleset, [cases_dir] if cases_dir is not None else [], kept)
    else:
        ruled = rulings(ruleset, [], [*cases, *kept])
    entries = []
    for item in data.get("findings", []):
        path = folder / str(item.get("case", ""))
        if not path.resolve().is_relative_to(folder.resolve()) or path.is_symlink():
            warn(f"{report}: skipped a finding whose case {item.get('case')!r} is not a file inside {folder}")
            continue
        try:
            case = by_file.get(path.resolve()) or load_case(path)
        except (VerifierError, OSError) as error:
            warn(f"{path}: skipped this finding, its case does not load ({error})")
            continue
        try:
            kind = FindingKind(str(item.get("kind")))
        except ValueError:
            warn(f"{path}: skipped this finding, its kind {item.get('kind')!r} is not one of "
                 f"{', '.join(k.value for k in FindingKind)}")
            continue
        finding = Finding(kind, str(item.get("point") or ""), tuple(item.get("clauses") or ()),
                          str(item.get("label") or ""), str(item.get("summary") or ""), case.before, case.actions,
                          situation=str(item.get("situation") or ""))
        resolved_by = ruled.get(finding.fingerprint) or item.get("resolved_by")
        entries.append(FindingEntry(finding, "resolved" if resolved_by else "open", resolved_by))
    search, seed = data.get("search"), data.get("seed")
    examples = search.get("examples") if isinstance(search, dict) else None
    return ExploreReport(report, tuple(entries), seed if isinstance(seed, int) else None,
                         examples if isinstance(examples, int) else None,
                         data["examples"] if isinstance(data.get("examples"), dict) else None)
