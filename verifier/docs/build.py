"""The command: gather cases and findings, render the site, write it
(``verifier docs`` calls ``build_site``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from .. import registry
from ..execute import Execution, Progress, map_ordered
from ..ruleset import Ruleset
from .findings import QUICK_EXAMPLES, Findings, gather_findings
from .output import check_out_dir, write_site
from .site import RulesetSummary, render_site


@dataclass
class BuildResult:
    out: Path
    files: int
    bytes: int
    pages: int
    seconds: float
    summaries: list[RulesetSummary]
    warnings: list[str]


def load_cases(cases_dir: Path | None, warn: Callable[[str], None], execution: Execution | None = None) -> list[Any]:
    from ..case import collect
    from ..execute import IN_PROCESS
    if cases_dir is None or not cases_dir.exists():
        return []
    collection = collect([cases_dir], execution or IN_PROCESS)
    for failure in collection.failures:
        warn(f"skipped a case that does not load (see 'verifier check'): {failure.errors[0]}")
    return list(collection.cases)


def _rulesets_of(cases: Sequence[Any]) -> list[str]:
    """The rulesets whose cases were loaded, in the registry's order: a folder of one
    ruleset's cases builds that ruleset's page, not four empty ones."""
    keys = {getattr(c.ruleset, "key", None) for c in cases}
    return [k for k in registry.names() if k in keys]


def _gather_quietly(ruleset: Ruleset, *, cases: Sequence[Any], findings_dir: Path | None, cases_dir: Path | None,
                    examples: int, seed: int) -> tuple[Findings, list[str]]:
    """``gather_findings`` with its warnings returned, for a worker process to send back."""
    said: list[str] = []
    found = gather_findings(ruleset, cases, findings_dir=findings_dir, cases_dir=cases_dir, examples=examples,
                            seed=seed, warn=said.append)
    return found, said


def build_site(out: Path | str = "site", *, cases_dir: Path | str | None = "cases",
               findings_dir: Path | str | None = "explore", rulesets: Sequence[str] | None = None,
               examples: int = QUICK_EXAMPLES, seed: int = 0, execution: Execution | None = None,
               log: Callable[[str], None] = lambda m: None) -> BuildResult:
    """Build the site into ``out``: gather cases and findings, draw (on ``execution``;
    default every local core), write. Refuses an unsafe ``out`` before any work."""
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

    execution = execution or Execution()
    log(f"loading the cases under {cases_dir} ...")
    cases = load_cases(cases_dir, warn, execution)
    chosen = [registry.get(k) for k in (rulesets or _rulesets_of(cases) or registry.names())]
    findings = {}
    gather = partial(_gather_quietly, cases=cases, findings_dir=findings_dir, cases_dir=cases_dir,
                     examples=examples, seed=seed)
    log(f"reading the explorer's findings of {len(chosen)} ruleset(s) from {findings_dir} "
        "(a quick explorer pass where there is no report) ...")
    with Progress("findings", len(chosen), unit="rulesets") as progress:
        for ruleset, (found, said) in zip(chosen, map_ordered(gather, chosen, execution, progress=progress)):
            for message in said:
                warn(message)
            findings[ruleset.key] = found
    log(f"drawing and writing the pages of {len(cases)} cases ...")
    files, summaries = render_site(chosen, cases, findings, warn, execution=execution)
    root = write_site(out, files, protect=protect)
    return BuildResult(root, len(files), sum(len(b) for b in files.values()),
                       sum(1 for name in files if name.endswith(".html")), time.perf_counter() - start,
                       summaries, warnings)
