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

The package, one module per job: ``findings`` (from an explorer report or a quick
pass of the explorer engine), ``model`` (views of a ruleset's cases and findings), ``pictures`` (drawing
tasks, PNG and GIF, worker processes), ``html`` and ``page`` (a ruleset's page),
``site`` (every page and the index), ``output`` (writing the folder safely) and
``build`` (the command).
"""

from __future__ import annotations

from ..findings import FindingEntry
from .build import BuildResult, build_site, load_cases
from .findings import QUICK_EXAMPLES, Findings, examples_against_readings, gather_findings
from .model import CaseView, FindingView
from .output import MARKER, SiteError, check_out_dir, write_site
from .pictures import run_tasks
from .site import ASSETS, RulesetSummary, render_site

__all__ = [
    "ASSETS", "MARKER", "QUICK_EXAMPLES", "BuildResult", "CaseView", "FindingEntry", "FindingView", "Findings",
    "RulesetSummary", "SiteError", "build_site", "check_out_dir", "examples_against_readings", "gather_findings",
    "load_cases", "render_site", "run_tasks", "write_site",
]
