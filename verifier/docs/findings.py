"""The findings shown on the pages: read from an explorer report, or found by a
quick, deterministic explorer pass while the pages are built."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from ..errors import VerifierError
from ..ruleset import Capability, FindingKind, Ruleset

# What the quick explorer pass does when there is no explorer report to read.
QUICK_EXAMPLES = 150


@dataclass
class FindingEntry:
    finding: Any  # verifier.explore.Finding
    status: str  # open | resolved
    resolved_by: str | None = None


MAX_REPORT_BYTES = 16 << 20
# What docs needs of an explorer report; anything else in it is left alone.
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


@dataclass
class Findings:
    entries: list[FindingEntry]
    origin: str  # a sentence: where these findings come from
    matrix: Any = None  # verifier.explore.ExampleMatrix, or None


def read_findings(ruleset: Ruleset, folder: Path, cases_dir: Path | None,
                  warn: Callable[[str], None] = lambda m: None) -> list[FindingEntry] | None:
    """The findings of an explorer report folder (``explore/<ruleset>``), or None if
    there is no report. A finding is rebuilt from its needs-ruling case file."""
    from ..case import load_case
    from ..explore import Finding
    from ..findings import rulings

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
    ruled = rulings(ruleset, [p for p in (cases_dir, folder / "findings") if p is not None])
    entries = []
    for item in data.get("findings", []):
        path = folder / str(item.get("case", ""))
        if not path.resolve().is_relative_to(folder.resolve()) or path.is_symlink():
            warn(f"{report}: skipped a finding whose case {item.get('case')!r} is not a file inside {folder}")
            continue
        try:
            case = load_case(path)
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
    return entries


def quick_findings(ruleset: Ruleset, cases: Sequence[Any], cases_dir: Path | None, *,
                   examples: int = QUICK_EXAMPLES, seed: int = 0, matrix: Any = None) -> list[FindingEntry]:
    """A short, deterministic explorer pass: a fixed number of Hypothesis scenes
    (no time budget, so the same seed gives the same findings), the documented
    examples against every reading, and shrinking."""
    from ..explore import example_conflicts, example_matrix, search, shrink
    from ..findings import rulings

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
