"""One ruleset's page as HTML: its clauses with the cases under them, the readings,
the open questions and the clause coverage."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..ruleset import Capability
from .common import _plural, _reading_key, _sentence
from .html import _citation, _page, _picture, _read_text, _status_badge, _verdict_class, esc
from .model import CaseView, FindingView, PageModel
from .pictures import FIRST_MS, FRAME_MS, LAST_MS


class RulesetPage(PageModel):
    """Everything on one ruleset's page, worked out once (``PageModel``); ``render`` writes the HTML."""

    def clause_link(self, clause_id: str) -> str:
        anchor = self.clause_anchor.get(clause_id)
        code = f"<code>{esc(clause_id)}</code>"
        return f'<a href="#{anchor}">{code}</a>' if anchor else code

    def term_link(self, name: str) -> str:
        anchor = self.term_anchor.get(name)
        return f'<a href="#{anchor}">{esc(name)}</a>' if anchor else esc(name)

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
        if view.gif and view.gif_size:
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
        if view.image and view.size:
            w, h = view.size
            alt = f"Small diagram of the case \u201c{c.title}\u201d; the link goes to the full example."
            thumb = (f'<a class="thumb" href="#{view.anchor}"><img src="{esc(view.image)}" width="{w}" height="{h}" '
                     f'alt="{esc(alt)}"></a>')
        return (f'<li class="card">{thumb}<div><a href="#{view.anchor}">{esc(c.title)}</a> '
                f"{_status_badge(c.status)}<br><span class=\"sentence\">{esc(view.sentence)}</span></div></li>")

    def render(self, index_href: str, css_href: str) -> str:
        rs = self.ruleset
        documented = [v for v in self.cases if v.case.status == "documented"]
        body = [(f'<nav class="crumbs" aria-label="Breadcrumb"><a href="{index_href}">All rule pages</a> '
                f"\u203a {esc(rs.title)}</nav>"),
                f'<h1 id="top">{esc(rs.title)}</h1>',
                (f'<p class="lede">{_plural(len(rs.clauses), "clause")}, {_plural(len(self.cases), "case")} '
                f"({len(documented)} documented), {_plural(len(self.open), 'open question')} from the explorer. "
                "Each clause is paraphrased in our own words, with its source. Under it stand the cases whose "
                "resolution used it (found by provenance), each run by the reference resolver and drawn "
                "before and after.</p>")]
        body.append('<nav class="toc" aria-label="On this page"><h2 class="toc-title">On this page</h2><ol>'
                    '<li><a href="#pictures">How to read the pictures</a></li>'
                    '<li><a href="#clauses">Clauses</a><ul class="clause-index">'
                    + "".join(f'<li><a href="#{self.clause_anchor[c.id]}">{esc(c.id)}</a></li>' for c in rs.clauses)
                    + "</ul></li>"
                    + ('<li><a href="#glossary">Glossary</a></li>' if rs.glossary else "")
                    + ('<li><a href="#tables">Tables</a></li>' if rs.tables else "")
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
            terms = rs.terms_of(clause.id)
            if terms:
                body.append('<p class="terms">Terms it decides by: '
                            + ", ".join(self.term_link(t.name) for t in terms) + ".</p>")
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
        body.append(self.render_glossary())
        body.append(self.render_tables())
        body.append(self.render_readings())
        body.append(self.render_findings())
        body.append(self.render_coverage())
        body.append(f'<footer><p>Made by <code>verifier docs</code> from the case files and the clause table. '
                    f"{esc(self.findings.origin)}</p>"
                    f'<p><a href="#top">Back to the top</a> \u00b7 <a href="{index_href}">All rule pages</a></p>'
                    "</footer>")
        return _page(f"{rs.title} \u2013 rule pages", "\n".join(body), css_href,
                     f"The clauses of {rs.title}, each with the cases that exercise it.")

    def render_glossary(self) -> str:
        rs = self.ruleset
        if not rs.glossary:
            return ""
        undefined = sum(t.status != "defined" for t in rs.glossary)
        out = [('<section id="glossary"><h2>Glossary</h2><p>Every word the clauses decide an outcome by, in our '
                f"words: {_plural(len(rs.glossary), 'term')}, {undefined} of them not plainly defined by the source. "
                "Each undefined or doubly defined term either became a named reading or says why only one meaning "
                "is possible. <em>Judged at</em> is the moment of the round the word is evaluated at.</p>"),
               '<div class="table-wrap"><table><thead><tr><th scope="col">term</th><th scope="col">meaning</th>'
               '<th scope="col">source</th><th scope="col">judged at</th><th scope="col">decided by</th>'
               '<th scope="col">clauses</th></tr></thead><tbody>']
        for term in rs.glossary:
            anchor = self.term_anchor[term.name]
            source = _citation(term.source) if term.source else "<em>undefined</em>"
            decided = (f"reading {self.reading_link(term.reading)}" if term.reading else "")
            if term.single_meaning:
                decided += ("; " if decided else "") + "one meaning only: " + esc(term.single_meaning)
            out.append(f'<tr id="{anchor}"><th scope="row"><a class="self" href="#{anchor}">{esc(term.name)}</a>'
                       f'<br><small>{esc(term.status)}{", " + esc(term.kind) if term.kind else ""}</small></th>'
                       f"<td>{esc(term.definition)}</td><td>{source}</td><td>{esc(term.judged_at)}</td>"
                       f"<td>{decided or 'the source'}</td>"
                       f"<td>{', '.join(self.clause_link(c) for c in term.clauses)}</td></tr>")
        out.append("</tbody></table></div></section>")
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
            out.append(f"</tbody></table></div><p class=\"source\">Source: {_citation(table.source)}</p>")
        out.append("</section>")
        return "\n".join(out)

    def render_readings(self) -> str:
        rs = self.ruleset
        if not rs.reading_points:
            return ""
        from ..explore import single_point_readings
        out = [('<section id="readings"><h2>Readings</h2><p>Where the rule text is silent or contradicts itself, '
               "the reference resolver follows a named default reading and accepts the others by name. A case "
               "can pin one. The last column says which readings the documented examples support (each option "
               "changed alone, the other points at their defaults).</p>")]
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
            from ..findings import finding_title
            for e in self.resolved:
                out.append(f"<li>{esc(finding_title(e.finding))}: ruled in "
                           f"<code>{esc(e.resolved_by or '?')}</code></li>")
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
