"""One ruleset's pages as HTML: the rule page a player reads (introduction, glossary,
the clauses in the source's order each with the one picture that shows it best,
readings and the list of open questions), the catalogue of every case with the
clause coverage (``cases.html``), and the open questions with every situation the
explorer found them in (``findings.html``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..case import CaseStatus
from ..ruleset import Capability, Ruleset
from .common import _plural, _sentence
from .html import (
    _citation,
    _legible_picture,
    _page,
    _read_text,
    _scroll_classes,
    _shown_height,
    _status_badge,
    _verdict_class,
    esc,
)
from .model import CaseView, FindingView, PageModel, QuestionGroup
from .pictures import FIRST_MS, FRAME_MS, LAST_MS

RULE, CASES, FINDINGS = "index.html", "cases.html", "findings.html"
# The rule page is at most 25 screens of 1280x800 (20,000 px). Its clause pictures get what
# its text leaves of PAGE_TARGET (some margin below that), at least PICTURE_FLOOR; the
# clauses past the budget link to their example instead. Heights in px of the desktop column.
PAGE_TARGET, PICTURE_FLOOR, CAPTION = 17500, 3000, 70


def _text_height(rs: Ruleset, questions: int) -> int:
    """About how tall the rule page's text stands at 1280 px (measured on the bundled
    rulesets: the glossary and the readings run in two columns there)."""
    glossary = 200 + 48 * len(rs.glossary) if rs.glossary else 0
    tables = sum(150 + 35 * len(t.rows) for t in rs.tables)
    readings = 300 + 150 * len(rs.reading_points) if rs.reading_points else 0
    return 1200 + glossary + 185 * len(rs.clauses) + tables + readings + 300 + 75 * questions


class RulesetPage(PageModel):
    """Everything on one ruleset's pages, worked out once (``PageModel``); ``render``,
    ``render_cases`` and ``render_findings`` write the HTML of each."""

    def cite(self, source: object) -> str:
        return _citation(source, self.ruleset.source_titles)

    def clause_link(self, clause_id: str) -> str:
        anchor = self.clause_anchor.get(clause_id)
        code = f"<code>{esc(clause_id)}</code>"
        return f'<a href="{RULE}#{anchor}">{code}</a>' if anchor else code

    def term_link(self, name: str) -> str:
        anchor = self.term_anchor.get(name)
        return f'<a href="{RULE}#{anchor}">{esc(name)}</a>' if anchor else esc(name)

    def reading_link(self, name: str) -> str:
        anchor = self.reading_anchor.get(name)
        return f'<a href="{RULE}#{anchor}">{esc(name)}</a>' if anchor else esc(name)

    def case_link(self, view: CaseView) -> str:
        return f'<a href="{CASES}#{view.anchor}">{esc(view.case.title)}</a>'

    def case_alt(self, view: CaseView) -> str:
        parts = [f"Before and after diagram of the case \u201c{view.case.title}\u201d."]
        if view.scene:
            parts.append(f"Before: {view.scene}")
        if view.sentence:
            parts.append(f"After: {view.sentence}")
        return " ".join(parts)

    def _frame(self, title: str, body: list[str], description: str, index_href: str, css_href: str,
               here: str) -> str:
        rs = self.ruleset
        nav = [(RULE, "The rule"), (CASES, f"Every case ({len(self.cases)})"),
               (FINDINGS, f"Open questions ({len(self.question_groups())})")]
        tabs = " \u00b7 ".join(f"<strong>{esc(text)}</strong>" if href == here else f'<a href="{href}">{esc(text)}</a>'
                               for href, text in nav)
        top = [f'<nav class="crumbs" aria-label="Breadcrumb"><a href="{index_href}">All rule pages</a> \u203a '
               f"{esc(rs.title)}</nav>", f'<nav class="tabs" aria-label="Pages of this rule">{tabs}</nav>']
        foot = [f'<footer><p>Made by <code>verifier docs</code> from the case files and the clause table. '
                f"{esc(self.findings.origin)}</p>"
                f'<p><a href="#top">Back to the top</a> \u00b7 <a href="{index_href}">All rule pages</a></p></footer>']
        return _page(title, "\n".join(top + body + foot), css_href, description)

    # --- the rule page ---

    def render(self, index_href: str, css_href: str) -> str:
        rs = self.ruleset
        groups = self.question_groups()
        intro = rs.introduction or (f"{rs.title}: the rule in {_plural(len(rs.clauses), 'clause')}, each in our "
                                    "own words with its source.")
        body = [f'<h1 id="top">{esc(rs.title)}</h1>', '<section id="introduction" class="intro">']
        body += [f"<p>{esc(p.strip())}</p>" for p in intro.split("\n\n") if p.strip()]
        body.append(f'<p class="lede-links">Below: the glossary, then the {_plural(len(rs.clauses), "clause")} in '
                    "the source's own order, each in plain words with the one example that shows it best. "
                    f'<a href="{CASES}">Every case</a> ({len(self.cases)}, with the clause coverage) and '
                    f'<a href="{FINDINGS}">the open questions</a> ({len(groups)}, found in '
                    f"{_plural(len(self.finding_views), 'situation')}) have pages of their own.</p></section>")
        toc = ['<nav class="toc" aria-label="On this page"><h2 class="toc-title">On this page</h2><ol>']
        if rs.glossary:
            toc.append('<li><a href="#glossary">Glossary</a></li>')
        toc.append('<li><a href="#pictures">How to read the pictures</a></li>'
                   f'<li><a href="#clauses">The rule, clause by clause</a> ({len(rs.clauses)})</li>')
        if rs.tables:
            toc.append('<li><a href="#tables">Tables</a></li>')
        if rs.reading_points:
            toc.append('<li><a href="#readings">Readings</a></li>')
        toc.append('<li><a href="#questions">Open questions</a></li></ol></nav>')
        body.append("".join(toc))
        body.append(self.render_glossary())
        notes = (rs.page_notes() if rs.supports(Capability.PAGE_NOTES) else
                 "Each example is drawn before (the pieces and what they plan) and after (what happened), "
                 "with a legend of its own.")
        body.append('<section id="pictures"><h2>How to read the pictures</h2><p>' + esc(notes)
                    + " Select a picture to open it at full size.</p></section>")
        body.append(self.render_clauses(groups))
        body.append(self.render_tables())
        body.append(self.render_readings())
        body.append(self.render_question_list(groups))
        return self._frame(f"{rs.title} \u2013 rule pages", body,
                           f"The rule of {rs.title}, clause by clause, each with an example.", index_href, css_href,
                           RULE)

    def render_clauses(self, groups: list[QuestionGroup]) -> str:
        rs = self.ruleset
        out = ['<section id="clauses"><h2>The rule, clause by clause</h2>']
        questions_by_clause: dict[str, list[QuestionGroup]] = {}
        for group in groups:
            for cid in group.clauses:
                questions_by_clause.setdefault(cid, []).append(group)
        points_by_clause: dict[str, list[str]] = {}
        for point in rs.reading_points:
            for cid in point.clauses:
                points_by_clause.setdefault(cid, []).append(point.name)
        # The pictures: documented examples first, while the page's budget lasts.
        shown: set[str] = set()
        chosen: dict[str, CaseView] = {}
        for documented_only in (True, False):
            for clause in rs.clauses:
                if clause.id in chosen:
                    continue
                best = self.best_case(clause.id, shown)
                if best is None or (documented_only and best.case.status != CaseStatus.DOCUMENTED):
                    continue
                chosen[clause.id] = best
                shown.add(best.case.id)
        # While the budget lasts, as many clauses as can be get their picture: one for each
        # family of clauses (bump.*, wind.*) before a second, documented examples before
        # others, the least tall first.
        budget = max(PICTURE_FLOOR, PAGE_TARGET - _text_height(rs, len(groups)))
        cost = {cid: _shown_height(v.size, v.narrow_size) + CAPTION for cid, v in chosen.items()}
        cheapest: dict[str, str] = {}
        for cid in sorted(chosen, key=lambda c: (cost[c], c)):
            cheapest.setdefault(cid.split(".")[0], cid)
        seconds = set(chosen) - set(cheapest.values())

        def order(c: str) -> tuple[bool, bool, float, str]:
            return c in seconds, chosen[c].case.status != CaseStatus.DOCUMENTED, cost[c], c

        for cid in sorted(chosen, key=order):
            if cost[cid] > budget:
                del chosen[cid]
            else:
                budget -= cost[cid]
        for clause in rs.clauses:
            anchor = self.clause_anchor[clause.id]
            out.append(f'<article class="clause" id="{anchor}">')
            out.append(f'<h3><a class="self" href="#{anchor}"><code>{esc(clause.id)}</code></a> '
                       f'<span class="summary">{esc(clause.summary)}</span></h3>')
            notes = [f"Source: {self.cite(clause.source)}."]
            terms = rs.terms_of(clause.id)
            if terms:
                notes.append("Words it decides by: " + ", ".join(self.term_link(t.name) for t in terms) + ".")
            points = list(dict.fromkeys(list(clause.readings) + points_by_clause.get(clause.id, [])))
            if points:
                notes.append("Where the text leaves it open, a named reading decides: "
                             + ", ".join(self.reading_link(p) for p in points) + ".")
            qs = questions_by_clause.get(clause.id, [])
            if qs:
                notes.append("Open: " + ", ".join(f'<a href="{FINDINGS}#{g.anchor}">{esc(g.title)}</a>'
                                                    for g in qs) + ".")
            views = self.exercising(clause.id)
            view = chosen.get(clause.id)
            if views:
                doc = sum(v.case.status == CaseStatus.DOCUMENTED for v in views)
                others = [v for v in views if v is not view]
                first = next((v for v in others if v.home == clause.id), others[0] if others else None)
                count = f"{_plural(len(views), 'case')} ({doc} documented)"
                notes.append((f'<a href="{CASES}#{first.anchor}">{count}</a>' if first is not None else count)
                             + " exercise it.")
            out.append('<p class="source">' + " ".join(notes) + "</p>")
            if view is not None and view.image:
                kind = "A documented example" if view.case.status == CaseStatus.DOCUMENTED else "An example"
                out.append('<figure class="diagram">' + _legible_picture(view.image, view.size, self.case_alt(view),
                                                                          view.narrow, view.narrow_size)
                           + f"<figcaption>{kind}: {self.case_link(view)}. {_outcome_span(view)}</figcaption>"
                           "</figure>")
            if not views:
                out.append('<p class="empty">No case exercises this clause yet.</p>')
            out.append("</article>")
        out.append("</section>")
        return "\n".join(out)

    def render_question_list(self, groups: list[QuestionGroup]) -> str:
        out = ['<section id="questions"><h2>Open questions</h2>']
        if not groups:
            out.append(f"<p>No open questions. {esc(self.findings.origin)}</p></section>")
            return "\n".join(out)
        out.append(f"<p>Where the text leaves a point open, or two clauses disagree, the explorer found situations "
                   f"the readings decide differently: {_plural(len(groups), 'question')}, one per reading point or "
                   f'contradiction. <a href="{FINDINGS}">Each with its situations and pictures.</a></p>'
                   '<ul class="qlist">')
        for group in groups:
            out.append(f'<li><a href="{FINDINGS}#{group.anchor}">{esc(group.title)}</a>: {esc(group.question)} '
                       f'<span class="sub">({_plural(len(group.situations), "situation")})</span></li>')
        out.append("</ul></section>")
        return "\n".join(out)

    # --- every case ---

    def full_case(self, view: CaseView) -> str:
        c = view.case
        out = [f'<article class="case" id="{view.anchor}">',
               f'<h4><a class="self" href="#{view.anchor}">{esc(c.title)}</a></h4>',
               '<p class="meta">' + _status_badge(c.status) + f' <code>{esc(c.id)}</code> \u00b7 source: '
               + self.cite(c.source) + "</p>"]
        if view.image:
            out.append('<figure class="diagram">' + _legible_picture(view.image, view.size, self.case_alt(view),
                                                                      view.narrow, view.narrow_size)
                       + f"<figcaption><strong>Outcome:</strong> {_outcome_span(view)}"
                       + (f' <span class="verdict {_verdict_class(view)}">{esc(view.verdict)}</span>'
                          if view.verdict else "") + "</figcaption></figure>")
        elif view.sentence:
            out.append(f"<p><strong>Outcome:</strong> {_outcome_span(view)} {esc(view.verdict)}</p>")
        out.append('<div class="case-more">')
        if view.gif and view.gif_size:
            w, h = view.gif_size
            steps = "; ".join(f"{i}. {s}" for i, s in enumerate(view.steps, 1))
            alt = f"Animation of \u201c{c.title}\u201d in {len(view.steps)} steps: {steps}"
            seconds = (FIRST_MS + LAST_MS + FRAME_MS * (len(view.steps) - 2)) / 1000
            out.append(f'<figure class="animation"><span class="{_scroll_classes((w, h), animation=True)}">'
                       f'<img src="{esc(view.gif)}" width="{w}" height="{h}" alt="{esc(alt)}"></span>'
                       f"<figcaption>Step by step: {len(view.steps)} pictures, {seconds:g} seconds, then again."
                       "</figcaption></figure>")
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
        return (f'<li><a href="#{view.anchor}">{esc(c.title)}</a> {_status_badge(c.status)} '
                f'<span class="sentence"{_exact_title(view)}>{esc(view.sentence)}</span></li>')

    def render_cases(self, index_href: str, css_href: str) -> str:
        rs = self.ruleset
        documented = [v for v in self.cases if v.case.status == CaseStatus.DOCUMENTED]
        body = [f'<h1 id="top">{esc(rs.title)}: every case</h1>',
                (f'<p class="lede">{_plural(len(self.cases), "case")} ({len(documented)} documented), each run by '
                 "the reference resolver and drawn before and after, under the clause it shows best (by "
                 f'provenance). <a href="{RULE}">The rule page</a> gives each clause in plain words.</p>'),
                '<nav class="toc" aria-label="On this page"><h2 class="toc-title">Clauses</h2>'
                '<ul class="clause-index">'
                + "".join(f'<li><a href="#cases-{self.clause_anchor[c.id]}">{esc(c.id)}</a></li>' for c in rs.clauses)
                + '<li><a href="#coverage">coverage</a></li></ul></nav>']
        for clause in rs.clauses:
            views = self.exercising(clause.id)
            homes = [v for v in views if v.home == clause.id]
            elsewhere = [v for v in views if v.home != clause.id]
            body.append(f'<section class="clause" id="cases-{self.clause_anchor[clause.id]}">'
                        f"<h2>{self.clause_link(clause.id)} {esc(clause.summary)}</h2>")
            if not views:
                body.append('<p class="empty">No case exercises this clause yet.</p>')
            for view in homes:
                body.append(self.full_case(view))
            if elsewhere:
                body.append(f'<p class="more">{"Also" if homes else "Cases"} exercising it, shown in full under '
                            'their own clause:</p><ul class="cards">'
                            + "".join(self.case_card(v) for v in elsewhere) + "</ul>")
            body.append("</section>")
        homeless = [v for v in self.cases if v.home is None]
        if homeless:
            body.append('<section class="clause" id="other-cases"><h2>Cases under no clause</h2>')
            body += [self.full_case(v) for v in homeless]
            body.append("</section>")
        body.append(self.render_coverage())
        return self._frame(f"{rs.title} \u2013 every case", body,
                           f"Every case of {rs.title}, drawn before and after.", index_href, css_href, CASES)

    def render_glossary(self) -> str:
        rs = self.ruleset
        if not rs.glossary:
            return ""
        undefined = sum(t.status != "defined" for t in rs.glossary)
        out = [('<section id="glossary"><h2>Glossary</h2><p>The words the clauses decide an outcome by, in our '
                f"words: {_plural(len(rs.glossary), 'term')}, {undefined} of them not plainly defined by the source "
                "(marked, each linked to the reading that decides it, or saying why only one meaning is possible)."
                "</p>"), '<dl class="glossary">']
        for term in rs.glossary:
            anchor = self.term_anchor[term.name]
            mark = "" if term.status == "defined" else f' <span class="undefined">{esc(term.status)}</span>'
            out.append(f'<div><dt id="{anchor}"><a class="self" href="#{anchor}">{esc(term.name)}</a>{mark}</dt>')
            detail = [esc(term.definition)]
            if term.reading:
                detail.append(f"Decided by the reading {self.reading_link(term.reading)}.")
            if term.single_meaning:
                detail.append("One meaning only: " + esc(_sentence(term.single_meaning)))
            extra = [f"judged at {esc(term.judged_at)}"] if term.judged_at else []
            extra.append("source: " + (self.cite(term.source) if term.source else "<em>none</em>"))
            out.append(f'<dd>{" ".join(detail)} <span class="sub">({"; ".join(extra)})</span></dd></div>')
        out.append("</dl></section>")
        return "\n".join(out)

    def render_tables(self) -> str:
        rs = self.ruleset
        if not rs.tables:
            return ""
        out = ['<section id="tables"><h2>Tables</h2>']
        for table in rs.tables:
            out.append(f"<h3>{esc(table.title)}</h3>")
            if table.note:
                out.append(f"<p>{esc(table.note)}</p>")
            out.append('<div class="table-wrap"><table><thead><tr>'
                       + "".join(f'<th scope="col">{esc(c)}</th>' for c in table.columns) + "</tr></thead><tbody>")
            for row in table.rows:
                out.append("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>")
            out.append(f"</tbody></table></div><p class=\"source\">Source: {self.cite(table.source)}</p>")
        out.append("</section>")
        return "\n".join(out)

    def render_readings(self) -> str:
        rs = self.ruleset
        if not rs.reading_points:
            return ""
        from ..explore import single_point_readings
        out = [('<section id="readings"><h2>Readings</h2><p>Where the rule text is silent or contradicts itself, '
               "the reference resolver follows a named default reading and accepts the others by name; a case "
               "can pin one. Under each option: what the documented examples say of it (that option alone "
               "changed, the other points at their defaults).</p>")]
        one = {(p, o): r for p, o, r in single_point_readings(rs) if p}
        default = rs.default_reading
        out.append('<div class="readings-grid">')
        for point in rs.reading_points:
            anchor = self.reading_anchor[point.name]
            out.append(f'<article class="reading" id="{anchor}"><h3><a class="self" href="#{anchor}">'
                       f"{esc(point.name)}</a></h3><p>{esc(point.question)}"
                       + (' <span class="sub">Clauses: ' + ", ".join(self.clause_link(c) for c in point.clauses)
                          + ".</span>" if point.clauses else "") + "</p>")
            out.append('<ul class="options">')
            for option in sorted(point.options, key=lambda o: o != point.default):
                reading = default if option == point.default else one.get((point.name, option), default)
                mark = " <em>(default)</em>" if option == point.default else ""
                out.append(f"<li><code>{esc(option)}</code>{mark}: {esc(point.options[option])} "
                           f'<span class="support">Documented examples: {self.support_html(reading)}.</span></li>')
            out.append("</ul></article>")
        out.append("</div>")
        m = self.matrix
        if m is not None and m.cases:
            from ..explore import reading_label
            agreeing = m.readings_agreeing_with_all()
            shown = agreeing[:12]
            out.append(f"<p>Of the {len(m.readings)} full readings, {len(agreeing)} agree with every documented "
                       "example" + (": " + "; ".join(f"<code>{esc(reading_label(r, default))}</code>"
                                                    for r in shown) if shown else "")
                       + (f"; and {len(agreeing) - len(shown)} more" if len(agreeing) > len(shown) else "")
                       + ".</p>")
        out.append("</section>")
        return "\n".join(out)

    def support_html(self, reading: Mapping[str, str]) -> str:
        text = self.support(reading)
        if not text:
            return "no documented examples"
        m, index = self.matrix, self.reading_index(reading)
        if text.startswith("contradicted") and m is not None and index is not None:
            against = [c for c in m.cases if not m.agrees[(c.id, index)]]
            anchors = {v.case.id: v.anchor for v in self.cases}
            links = ", ".join(f'<a href="{CASES}#{anchors[c.id]}">{esc(c.title)}</a>' if c.id in anchors else esc(c.id)
                              for c in against)
            return f'<span class="no">\u2717 contradicted by {_plural(len(against), "example")}:</span> {links}'
        return f'<span class="yes">\u2713 {esc(text)}</span>'

    def situation(self, fv: FindingView) -> str:
        f = fv.entry.finding
        out = [f'<article class="finding" id="{fv.anchor}">',
               f'<h4><a class="self" href="#{fv.anchor}">{esc(fv.title)}</a></h4>',
               f"<p>{esc(_sentence(f.summary))} <span class=\"sub\">({esc(f.kind)}; fingerprint "
               f"<code>{esc(f.fingerprint)}</code>)</span></p>"]
        if fv.image:
            out.append('<figure class="diagram">' + _legible_picture(fv.image, fv.size, fv.alt, fv.narrow,
                                                                      fv.narrow_size)
                       + "<figcaption>The smallest scene found: before, then after under each reading."
                       "</figcaption></figure>")
        out.append('<ul class="under">')
        for label, reading, _, sentence, _ in fv.readings:
            exact = fv.exact.get(label, "")
            said = f'<span class="outcome" title="{esc(exact)}">{esc(sentence)}</span>' if exact else esc(sentence)
            out.append(f"<li><strong>Under {esc(label)}:</strong> {said}<br>"
                       f'<span class="support">Documented examples: {self.support_html(reading)}</span></li>')
        out.append("</ul>")
        if fv.scene_yaml:
            out.append(f"<details><summary>The scene as case data</summary><pre><code>{esc(fv.scene_yaml)}"
                       "</code></pre></details>")
        out.append("</article>")
        return "\n".join(out)

    def render_findings(self, index_href: str, css_href: str) -> str:
        rs = self.ruleset
        groups = self.question_groups()
        body = [f'<h1 id="top">{esc(rs.title)}: open questions</h1>',
                (f'<p class="lede">{esc(self.findings.origin)} {_plural(len(groups), "question")}, one per reading '
                 "point or contradiction between clauses, each with the situations it was found in, smallest first. "
                 "A rule writer answers a question by ruling: see <em>Explorer</em> in the README.</p>")]
        if not groups:
            body.append('<p class="empty">No open questions.</p>')
        else:
            body.append('<nav class="toc" aria-label="On this page"><h2 class="toc-title">Questions</h2><ol>'
                        + "".join(f'<li><a href="#{g.anchor}">{esc(g.title)}</a> '
                                  f'({_plural(len(g.situations), "situation")})</li>' for g in groups)
                        + "</ol></nav>")
        for group in groups:
            body.append(f'<section class="question-group" id="{group.anchor}">'
                        f'<h2><a class="self" href="#{group.anchor}">{esc(group.title)}</a></h2>'
                        f'<p class="question"><strong>Question for the rule writer:</strong> {esc(group.question)}</p>')
            facts = []
            if group.clauses:
                facts.append("Clauses: " + ", ".join(self.clause_link(c) for c in group.clauses) + ".")
            if group.point:
                facts.append(f"The options: {self.reading_link(group.point)}.")
            facts.append(f"Found in {_plural(len(group.situations), 'situation')}:")
            body.append("<p>" + " ".join(facts) + "</p>")
            body += [self.situation(fv) for fv in group.situations]
            body.append("</section>")
        if self.resolved:
            from ..findings import finding_title
            body.append('<h2 id="resolved">Resolved</h2><ul>')
            body += [f"<li>{esc(finding_title(e.finding))}: ruled in <code>{esc(e.resolved_by or '?')}</code></li>"
                     for e in self.resolved]
            body.append("</ul>")
        return self._frame(f"{rs.title} \u2013 open questions", body,
                           f"The open questions of {rs.title}, by reading point.", index_href, css_href, FINDINGS)

    def render_coverage(self) -> str:
        rows = self.coverage()
        out = ['<section id="coverage"><h2>Clause coverage</h2>']
        missing = [clause for clause, documented, _, _ in rows if not documented]
        if missing:
            out.append(f'<p id="uncovered"><strong>{_plural(len(missing), "clause")} that no documented example '
                       "exercises:</strong> " + ", ".join(self.clause_link(c.id) for c in missing) + ".</p>")
        else:
            out.append('<p id="uncovered">Every clause is exercised by some documented example.</p>')
        out += [("<p>For each clause: the cases whose resolution used it (by provenance), and the open questions "
                "that concern it.</p>"),
                ('<div class="table-wrap"><table class="coverage"><thead><tr><th scope="col">clause</th>'
                '<th scope="col">documented examples</th><th scope="col">other cases</th>'
                '<th scope="col">open questions</th></tr></thead><tbody>')]
        for clause, documented, others, questions in rows:
            gap = ' class="gap"' if not documented else ""
            doc_cell = str(len(documented)) if documented else '<span class="no">none</span>'
            out.append(f"<tr{gap}><th scope=\"row\">{self.clause_link(clause.id)}</th><td>{doc_cell}</td>"
                       f"<td>{len(others)}</td><td>{len(questions)}</td></tr>")
        out.append("</tbody></table></div></section>")
        return "\n".join(out)


def _exact_title(view: CaseView) -> str:
    """A title attribute with the outcome's exact numbers, for the hover over its sentence."""
    return f' title="{esc(view.exact)}"' if view.exact else ""


def _outcome_span(view: CaseView) -> str:
    """The outcome sentence; its exact numbers show on hover."""
    if not view.exact:
        return esc(view.sentence)
    return f'<span class="outcome"{_exact_title(view)}>{esc(view.sentence)}</span>'
