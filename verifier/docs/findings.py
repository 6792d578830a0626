"""The findings shown on the pages: read from an explorer report, or found by a
quick, deterministic pass of the explorer engine while the pages are built."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..explore import ExampleMatrix, documented_examples, example_matrix
from ..explorer import ExploreOptions, run_explore
from ..findings import FindingEntry, code_digest, example_digest, read_report
from ..ruleset import Capability, Ruleset

# What the quick explorer pass does when there is no explorer report to read: a fixed
# number of scenes and a budget it never reaches, so the same seed gives the same findings.
QUICK_EXAMPLES = 150
QUICK_BUDGET = 3600.0


@dataclass(frozen=True)
class Findings:
    entries: Sequence[FindingEntry]
    origin: str  # a sentence: where these findings come from
    matrix: ExampleMatrix | None = None  # None: worked out from the cases when the page is made
    # By fingerprint, the size of the picture the explorer's report drew of a finding: the page
    # learns from it, before drawing, that a picture is too wide to show.
    drawn_sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)


def examples_against_readings(ruleset: Ruleset, cases: Sequence[Any]) -> ExampleMatrix:
    """The documented examples of ``ruleset`` among ``cases`` against every reading, with no search."""
    return run_explore(ruleset, ExploreOptions(search=False, cases_dir=None), cases=cases).matrix


def _examples(ruleset: Ruleset, cases: Sequence[Any], saved: Mapping[str, Any]) -> ExampleMatrix:
    """The documented examples against every reading: the report's rows where the report
    was written by this code, for these readings and for the same case data; the other
    rows worked out here."""
    examples = documented_examples(ruleset, cases)
    readings = ruleset.all_readings()
    rows: dict[str, list[bool]] = {}
    if saved.get("code") == code_digest() and saved.get("readings") == [dict(r) for r in readings]:
        digests, table = saved.get("digests") or {}, saved.get("cases") or {}
        for case in examples:
            row = table.get(case.id)
            if (isinstance(row, list) and len(row) == len(readings) and all(isinstance(b, bool) for b in row)
                    and digests.get(case.id) == example_digest(case)):
                rows[case.id] = row
    worked = example_matrix(ruleset, [c for c in examples if c.id not in rows])
    agrees = dict(worked.agrees)
    for case_id, row in rows.items():
        agrees.update(((case_id, i), agree) for i, agree in enumerate(row))
    return ExampleMatrix(readings, examples, agrees)


def _drawn_sizes(report: Path) -> dict[str, tuple[int, int]]:
    """fingerprint -> the width and height of the picture the explorer drew of it, from the
    header of each PNG its report names (``read_report`` has checked the report)."""
    from PIL import Image, UnidentifiedImageError
    folder = report.parent
    sizes = {}
    for item in json.loads(report.read_text(encoding="utf-8")).get("findings", []):
        fingerprint, diagram = item.get("fingerprint"), item.get("diagram")
        if not (isinstance(fingerprint, str) and isinstance(diagram, str) and diagram):
            continue
        path = folder / diagram
        if not path.resolve().is_relative_to(folder.resolve()) or path.is_symlink() or not path.is_file():
            continue
        try:
            with Image.open(path, formats=["PNG"]) as image:
                sizes[fingerprint] = image.size
        except (OSError, ValueError, UnidentifiedImageError, Image.DecompressionBombError):
            continue
    return sizes


def gather_findings(ruleset: Ruleset, cases: Sequence[Any], *, findings_dir: Path | None, cases_dir: Path | None,
                    examples: int, seed: int, warn: Callable[[str], None]) -> Findings:
    """The findings of the explorer's report in ``findings_dir`` (``RULESET/report.json``,
    or ``report.json`` itself), else of a quick explorer pass of ``examples`` scenes."""
    mine = [c for c in cases if c.ruleset is ruleset]
    report = None
    if findings_dir is not None:
        for folder in (findings_dir / ruleset.key, findings_dir):
            report = read_report(ruleset, folder, cases_dir, warn, cases=cases)
            if report is not None:
                break
    if report is not None:
        # The report has the findings and their rulings: only the examples are checked here.
        how = (f"; Hypothesis search of {report.search_examples} scenes, seed {report.seed}"
               if report.search_examples is not None else "")
        return Findings(report.findings, f"These questions come from the explorer's report {report.path}{how}.",
                        _examples(ruleset, mine, report.examples or {}), _drawn_sizes(report.path))
    # Findings are drawn as cases are, so a ruleset that cannot draw them shows none.
    drawable = ruleset.supports(Capability.FINDINGS)
    searching = drawable and examples > 0 and ruleset.supports(Capability.SEARCH)
    options = ExploreOptions(search=searching, budget=QUICK_BUDGET, max_examples=examples, seed=seed,
                             cases_dir=cases_dir)
    run = run_explore(ruleset, options, cases=mine)
    if ruleset.supports(Capability.SEARCH) and examples <= 0:
        origin = ("No explorer search ran (--examples 0): only the documented examples were checked against "
                  "every reading.")
    elif ruleset.supports(Capability.SEARCH):
        origin = (f"These questions come from a quick explorer pass made while building the pages ({examples} "
                  f"scenes, seed {seed}); 'verifier explore {ruleset.key}' searches deeper, and the pages read "
                  "its report when there is one.")
    else:
        origin = ("This ruleset has no explorer search yet: only its documented examples were checked against "
                  "every reading.")
    return Findings(run.findings if drawable else (), origin, run.matrix)
