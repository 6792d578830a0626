"""The whole site: every ruleset's page, the index and the style sheet, as a mapping
of file names to bytes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..case import CaseStatus
from ..execute import IN_PROCESS, Execution, Progress
from ..ruleset import Ruleset
from .common import _anchor, _plural
from .findings import Findings
from .html import _page, esc
from .page import RulesetPage
from .pictures import run_tasks

ASSETS = Path(__file__).parent.parent / "site_assets"


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
                warn: Callable[[str], None] = lambda m: None, execution: Execution = IN_PROCESS
                ) -> tuple[dict[str, bytes], list[RulesetSummary]]:
    """Every file of the site, by its path inside the site's folder. Pure: the same
    rulesets, cases and findings give the same bytes, on any ``execution``."""
    files: dict[str, bytes] = {"style.css": (ASSETS / "style.css").read_bytes()}
    summaries = []
    taken: set[str] = {"style.css", "index.html"}
    pages = []
    for ruleset in rulesets:
        folder = _anchor("", ruleset.key, taken)
        mine = [c for c in cases if c.ruleset is ruleset or getattr(c.ruleset, "key", None) == ruleset.key]
        pages.append((folder, RulesetPage(ruleset, mine, findings.get(ruleset.key)
                                           or Findings([], "No findings were looked for."), files, folder, warn)))
    work = [(page, view, task) for _, page in pages for view, task in page.tasks]
    with Progress("drawing", len(work), unit="pictures") as progress:
        drawn_all = run_tasks([task for _, _, task in work], execution, progress)
    for (page, view, _), drawn in zip(work, drawn_all):
        page.take(view, drawn)
    for folder, page in pages:
        ruleset = page.ruleset
        files[f"{folder}/index.html"] = page.render("../index.html", "../style.css").encode("utf-8")
        files[f"{folder}/cases.html"] = page.render_cases("../index.html", "../style.css").encode("utf-8")
        files[f"{folder}/findings.html"] = page.render_findings("../index.html", "../style.css").encode("utf-8")
        summaries.append(RulesetSummary(
            ruleset.key, ruleset.title, f"{folder}/index.html", len(ruleset.clauses), len(page.cases),
            sum(v.case.status == CaseStatus.DOCUMENTED for v in page.cases), len(page.open), len(page.resolved),
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
<li>Each ruleset's page reads as the rule: an introduction, the glossary, then the clauses in the source's order,
each with one example. Every case stands on <code>RULESET/cases.html</code>, the open questions on
<code>RULESET/findings.html</code>.</li>
<li>Each clause has a stable anchor: link to it as <code>RULESET/index.html#clause-ID</code>.</li>
<li><em>Open findings</em> are situations the explorer (<code>verifier explore</code>) found where the rule text
leaves the outcome open; the pages group them into one question per reading point or contradiction.</li>
<li>Rebuild with <code>verifier docs --out DIR</code>.</li>
</ul>
<footer><p>Made by <code>verifier docs</code>.</p></footer>"""
    return _page("Rule pages", body, "style.css", "Illustrated rule pages, made from the verifier's cases.")
