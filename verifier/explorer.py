"""The explorer engine: one call runs the whole pipeline for one ruleset. An exhaustive
space (in shards) and a Hypothesis search find findings, the documented examples are
checked against every reading, every finding is shrunk to a small scene, and the
rulings among the cases mark findings resolved. Given a report folder, each finding
is written there as a needs-ruling case with a diagram.

``verifier explore`` and the docs builder call ``run_explore``; the
stages themselves live in ``explore`` (search, shrinking, examples), ``shards``
(exhaustive spaces) and ``findings`` (case files and reports). This module sits above
all three, so that none of them imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .execute import IN_PROCESS, Execution, Progress, map_ordered
from .explore import ExampleMatrix, Finding, SearchResult, example_conflicts, example_matrix, search, shrink
from .findings import FindingEntry, WrittenFinding, add_sections, report_json, report_markdown, rulings, write_findings
from .ruleset import Capability, FindingKind, Ruleset
from .shards import ExhaustiveResult, exhaustive

if TYPE_CHECKING:
    from .case import Case


@dataclass(frozen=True)
class ExploreOptions:
    """What one run does. The same options give the same findings, unless the time
    budget cuts the search short: pin ``max_examples`` and give a generous budget
    for a run that repeats exactly."""

    search: bool = True  # a search of generated scenes (needs Capability.SEARCH; seeded with Capability.SCENES)
    budget: float = 60.0  # seconds the search may take
    max_examples: int = 20000  # scenes the search may try
    seed: int = 0
    boundary_share: float | None = None  # of the search's scenes on boundaries (generation.BOUNDARY_SHARE)
    exhaustive: bool = False  # also enumerate a bounded space (needs Capability.EXHAUSTIVE)
    space: str | None = None  # which space; the ruleset's first by default
    shards: int | None = None  # the space cut into this many shards (shards.DEFAULT_SHARDS by default)
    results: Path | None = None  # finished shards recorded here, and read back to resume
    cases_dir: Path | None = Path("cases")  # documented cases and rulings
    out: Path | None = None  # where each finding is written as a case file and a diagram; None writes nothing
    execution: Execution = IN_PROCESS  # where shards, the seeded search and shrinking run
    progress: bool = False  # progress bars on stderr


@dataclass(frozen=True)
class ExploreRun:
    """What a run found, and everything its report is made of."""

    ruleset: Ruleset
    options: ExploreOptions
    cases: tuple[Case, ...]  # every case that was read, of any ruleset
    matrix: ExampleMatrix  # the documented examples of this ruleset against every reading
    search: SearchResult | None
    exhaustive: ExhaustiveResult | None
    findings: tuple[FindingEntry, ...]  # shrunk, in fingerprint order, each open or resolved
    written: tuple[WrittenFinding, ...] = ()  # with ``options.out``: the files of each finding

    def report(self) -> tuple[dict[str, Any], str]:
        """The JSON and Markdown report of a run that wrote its findings (``options.out``),
        with the ruleset's own sections."""
        out = self.options.out
        if out is None:
            raise ValueError("only a run with a report folder (ExploreOptions.out) has a report")
        written = list(self.written)
        data = report_json(self.ruleset, written, search=self.search, exhaustive=self.exhaustive,
                           matrix=self.matrix, seed=self.options.seed, budget=self.options.budget, out=out)
        sections = (self.ruleset.report_sections(list(self.cases), out)
                    if self.ruleset.supports(Capability.REPORT_SECTIONS) else [])
        return add_sections(data, report_markdown(self.ruleset, data, written, self.matrix), sections)


def shrunk(ruleset: Ruleset, finding: Finding) -> Finding:
    """The finding on the smallest scene that still shows it; a documented example is kept as it is."""
    return finding if finding.kind is FindingKind.EXAMPLE_CONFLICT else shrink(ruleset, finding)


def run_explore(ruleset: Ruleset, options: ExploreOptions = ExploreOptions(), *,
                cases: Sequence[Case] | None = None, log: Callable[[str], None] = lambda m: None) -> ExploreRun:
    """Explore ``ruleset`` as ``options`` say. ``cases`` are the loaded cases (of any
    ruleset); None reads them from ``options.cases_dir``, leaving out files that do
    not load ('verifier check' reports those). ``log`` gets a line as each stage
    starts and ends. Writing findings (``options.out``) needs Capability.FINDINGS."""
    if options.out is not None:
        ruleset.require(Capability.FINDINGS, "the explorer's report")
    if options.search:
        ruleset.require(Capability.SEARCH, "the explorer's search")
    if options.exhaustive:
        ruleset.require(Capability.EXHAUSTIVE, "the explorer's exhaustive enumeration")
    if options.out is not None:
        options.out.mkdir(parents=True, exist_ok=True)
    loaded = tuple(cases) if cases is not None else _read_cases(options.cases_dir)
    found: dict[str, Finding] = {}
    space_result = _enumerate(ruleset, options, log) if options.exhaustive else None
    if space_result is not None:
        found.update(space_result.examples)
    search_result = _search(ruleset, options, log) if options.search else None
    if search_result is not None:
        for fingerprint, finding in search_result.findings.items():
            found.setdefault(fingerprint, finding)
    matrix = example_matrix(ruleset, loaded)
    for finding in example_conflicts(ruleset, matrix):
        found.setdefault(finding.fingerprint, finding)
    minimal = list(map_ordered(partial(shrunk, ruleset), [found[k] for k in sorted(found)], options.execution))
    folders = [p for p in (options.cases_dir, options.out / "findings" if options.out else None) if p is not None]
    ruled = rulings(ruleset, folders)
    entries = tuple(FindingEntry(f, "resolved" if f.fingerprint in ruled else "open", ruled.get(f.fingerprint))
                    for f in minimal)
    written: tuple[WrittenFinding, ...] = ()
    if options.out is not None:
        written = tuple(write_findings(ruleset, minimal, options.out, ruled))
    return ExploreRun(ruleset, options, loaded, matrix, search_result, space_result, entries, written)


def _read_cases(folder: Path | None) -> tuple[Case, ...]:
    from .case import collect
    if folder is None or not folder.exists():
        return ()
    return collect([folder]).cases  # broken case files are left out: 'verifier check' reports them


def _enumerate(ruleset: Ruleset, options: ExploreOptions, log: Callable[[str], None]) -> ExhaustiveResult:
    space = options.space or next(iter(ruleset.exhaustive_spaces()))
    log(f"enumerating the exhaustive {ruleset.key} space {space} on {options.execution.describe()} ...")
    e = exhaustive(ruleset, space=space, execution=options.execution, shards=options.shards,
                   results=options.results, progress=options.progress)
    reduced = (f" (standing for {e.raw_scenes:,} scenes: symmetry saved {e.raw_scenes - e.scenes:,})"
               if e.raw_scenes != e.scenes else "")
    log(f"  {e.scenes:,} scenes{reduced} in {e.seconds:.1f} s, {e.shards} shards"
        + (f" ({e.resumed} read from {options.results})" if e.resumed else "")
        + f": {len(e.counts)} finding classes")
    return e


def _search(ruleset: Ruleset, options: ExploreOptions, log: Callable[[str], None]) -> SearchResult:
    log(f"searching (seed {options.seed}, budget {options.budget:g} s) ...")
    if options.progress:
        with Progress("searching", options.max_examples, unit="scenes", noted="finding classes",
                      limit=options.budget) as meter:
            result = search(ruleset, budget=options.budget, seed=options.seed, max_examples=options.max_examples,
                            progress=meter, boundary_share=options.boundary_share, execution=options.execution)
    else:
        result = search(ruleset, budget=options.budget, seed=options.seed, max_examples=options.max_examples,
                        boundary_share=options.boundary_share, execution=options.execution)
    log(f"  {result.examples} scenes in {result.seconds:.1f} s: {len(result.findings)} finding classes"
        + (f", {len(result.from_boundaries)} first seen on a boundary "
           f"({result.boundaries.get('on_boundaries', 0)} scenes on boundaries)" if result.boundaries else ""))
    return result

