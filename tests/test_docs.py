"""The rule pages (`verifier docs`), without a browser: what the pages say, that
case text is escaped, that every image has alt text and nothing comes from the
network, that animations are made for cases with several steps, and that the
site is only ever written where it belongs. tests/test_docs_site.py opens the
site in a real browser."""

from __future__ import annotations

import json
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from verifier import registry
from verifier.case import load_case
from verifier.cli import main
from verifier.docs import MARKER, FindingEntry, Findings, SiteError, build_site, check_out_dir, render_site
from verifier.execute import Execution

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))


class Page(HTMLParser):
    """The parts of a page the tests look at."""

    def __init__(self, text: str):
        super().__init__()
        self.images: list[dict] = []
        self.links: list[str] = []
        self.sources: list[str] = []
        self.ids: set[str] = set()
        self.stylesheets: list[str] = []
        self.scripts = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "img":
            self.images.append(a)
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "source":
            self.sources.append(a.get("srcset", ""))
        elif tag == "link" and a.get("rel") == "stylesheet":
            self.stylesheets.append(a["href"])
        elif tag == "script":
            self.scripts += 1


def section(text: str, anchor: str, end: str = "</article>") -> str:
    """The HTML of the <article> (or, with ``end``, other element) with this id."""
    start = text.index(f'id="{anchor}"')
    return text[start:text.index(end, start)]


def read(site, ruleset: str, page: str = "index.html") -> str:
    return (site.out / ruleset / page).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site(docs_site):
    return docs_site


def ypp_summary(site):
    return next(s for s in site.summaries if s.key == "ypp")


def test_index_links_the_rulesets_with_counts(site):
    text = (site.out / "index.html").read_text(encoding="utf-8")
    ypp = registry.get("ypp")
    summary = ypp_summary(site)
    assert [s.key for s in site.summaries] == registry.names()
    assert summary.clauses == len(ypp.clauses)
    assert summary.cases == len(list((ROOT / "cases" / "ypp").rglob("*.yaml")))
    assert summary.open > 0
    row = text[text.index('href="ypp/index.html"'):]
    row = row[:row.index("</tr>")]
    numbers = [int(n) for n in re.findall(r"<td[^>]*>(\d+)", row)]
    assert numbers[:3] == [summary.clauses, summary.cases, summary.open]
    assert site.pages == 1 + 3 * len(registry.names())  # per ruleset: the rule, every case, the questions


def test_every_clause_has_a_stable_anchor_with_its_source(site):
    text = (site.out / "ypp" / "index.html").read_text(encoding="utf-8")
    page = Page(text)
    for clause in registry.get("ypp").clauses:
        anchor = f"clause-{clause.id}"
        assert anchor in page.ids
        block = section(text, anchor)
        assert clause.source.seed in block and clause.source.section.replace("&", "&amp;") in block


def test_cases_stand_under_the_clauses_their_provenance_names(site):
    """A case whose resolution used token.forward, though the case does not list it,
    is shown under token.forward."""
    text = (site.out / "ypp" / "index.html").read_text(encoding="utf-8")
    text = read(site, "ypp", "cases.html")
    block = section(text, "cases-clause-token.forward", "</section>")
    case = load_case(ROOT / "cases/ypp/move-1b-equal-class-bump.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    assert "token.forward" not in case.clauses and "token.forward" in outcome.clauses_used()
    assert f'href="#case-{case.id}"' in block


def test_each_case_is_drawn_once_in_full_with_an_outcome_sentence(site):
    text = read(site, "ypp", "cases.html")
    for path in sorted((ROOT / "cases" / "ypp").glob("*.yaml")):
        case = load_case(path)
        assert text.count(f'id="case-{case.id}"') == 1
        block = section(text, f"case-{case.id}")
        assert "<strong>Outcome:</strong>" in block
        assert f'src="cases/{case.id}.png"' in block
        assert (site.out / "ypp" / "cases" / f"{case.id}.png").is_file()
    # The documented turn-versus-turn example says what happened, in words.
    block = section(text, "case-ypp-move-2d-turn-versus-turn")
    assert "collision between Haughty Sawfish and Self-Centered Blowfish" in block
    assert "as the rule text says" in block


def test_every_rule_page_reads_as_the_rule(site):
    """An introduction, the glossary before the clauses, the clauses in the source's
    order with at most one picture each, and the catalogue and questions linked."""
    for key in registry.names():
        rs = registry.get(key)
        text = read(site, key)
        assert rs.glossary and rs.introduction, f"{key}: no glossary or introduction"
        assert text.index('id="introduction"') < text.index('id="glossary"') < text.index('id="clauses"')
        positions = [text.index(f'id="clause-{c.id}"') for c in rs.clauses]
        assert positions == sorted(positions), f"{key}: clauses out of the source's order"
        for clause in rs.clauses:
            assert len(Page(section(text, f"clause-{clause.id}")).images) <= 1, clause.id
        assert 'href="cases.html"' in text and 'href="findings.html"' in text
        for term in rs.glossary:
            entry = section(text, "term-" + re.sub(r"[^A-Za-z0-9._-]+", "-", term.name).strip("-"), "</dd>")
            if term.reading:
                assert f'href="index.html#reading-{term.reading}"' in entry, term.name
            if term.status != "defined":
                assert 'class="undefined"' in entry, term.name
    # Within the page's budget, each family of clauses (move.*, bump.*, wind.*) shows an example first.
    text = read(site, "ypp")
    shown = [c.id for c in registry.get("ypp").clauses if "<img" in section(text, f"clause-{c.id}")]
    assert len(shown) >= 8 and len({c.split(".")[0] for c in shown}) >= 6, shown
    assert "A documented example" in text


def test_sources_are_named_by_title_and_the_file_name_is_detail(site):
    for key in registry.names():
        rs = registry.get(key)
        text = read(site, key)
        for seed, title in rs.source_titles.items():
            if seed not in text:
                continue
            assert f'read from the file {seed}">{title}</cite>' in text.replace("&amp;", "&"), (key, title)
            bare = re.findall(rf"<cite>{re.escape(seed)}</cite>", text)
            assert bare == [], f"{key}: {seed} cited by file name"
    block = section(read(site, "ypp"), "clause-move.2d")
    assert 'title="read from the file 000_ddf34e19307a0e0d.txt">YPPedia, Collision mechanics</cite>' in block


def test_open_questions_are_grouped_one_per_reading_point(site):
    text = read(site, "ypp", "findings.html")
    groups = re.findall(r'<section class="question-group" id="([^"]+)"', text)
    situations = re.findall(r'<article class="finding" id="', text)
    assert len(situations) == ypp_summary(site).open
    assert len(groups) < len(situations)  # one question, many situations beneath it
    points = {p.name for p in registry.get("ypp").reading_points}
    titles = re.findall(r'<section class="question-group" id="[^"]+"><h2><a class="self" href="#[^"]+">([^<]+)</a>',
                        text)
    named = [t for t in titles if t.startswith("Reading point")]
    assert len(named) == len(set(named)) and all(any(f"\u201c{p}\u201d" in t for p in points) for t in named)
    # The rule page lists each question once, linked to its situations.
    rule = read(site, "ypp")
    listed = re.findall(r'<li><a href="findings.html#(question-[^"]+)"', rule)
    assert listed == groups


def test_a_strip_too_wide_to_read_is_shown_stacked_or_in_its_own_scroll_box():
    from verifier.docs.html import DESKTOP_FIT, PHONE_FIT, _legible_picture
    wide = _legible_picture("a.png", (DESKTOP_FIT + 400, 300), "A strip.", "a-narrow.png", (600, 900))
    assert 'src="a-narrow.png"' in wide and "<source" not in wide  # stacked everywhere
    plain = _legible_picture("b.png", (900, 300), "A picture.", "b-narrow.png", (PHONE_FIT, 700))
    assert 'src="b.png"' in plain and 'srcset="b-narrow.png"' in plain and "scroll" not in plain
    # A narrow layout too wide to shrink legibly on a phone stands at full size in its own scroll box.
    wider = _legible_picture("b.png", (900, 300), "A picture.", "b-narrow.png", (PHONE_FIT + 50, 700))
    assert "scroll-phone" in wider and "scroll-desk" not in wider
    lone = _legible_picture("c.png", (DESKTOP_FIT + 400, 300), "A strip with no narrow layout.")
    assert "scroll-desk" in lone and "scroll-phone" in lone


def test_cases_with_several_steps_get_an_animation(site):
    four = site.out / "ypp" / "cases" / "ypp-turn-four-rounds.gif"
    with Image.open(four) as gif:
        assert gif.is_animated and gif.n_frames >= 8  # start, then the steps of four rounds
        durations = []
        for i in range(gif.n_frames):
            gif.seek(i)
            durations.append(gif.info["duration"])
    assert durations[0] > durations[1] and durations[-1] > durations[1]
    # A single step forward is plain from its diagram: no animation.
    assert not (site.out / "ypp" / "cases" / "ypp-move-1a-forward.gif").exists()
    text = read(site, "ypp", "cases.html")
    block = section(text, "case-ypp-turn-four-rounds")
    alt = next(i["alt"] for i in Page(block).images if i["src"].endswith(".gif"))
    assert "round 2 of 4, movement, step 1" in alt


def test_animation_frames_are_labelled_for_a_newcomer():
    case = load_case(ROOT / "cases/ypp/move-2d-turn-versus-turn.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    frames = case.ruleset.draw_frames(case.before, case.actions, outcome)
    words = [f.words for f in frames]
    assert words[0].startswith("start")
    assert words[1].startswith("round 1, movement, step 1")
    assert words[2].startswith("round 1, movement, step 2") and "collide" in words[2]
    assert len({f.image.size for f in frames}) == 1


def test_findings_show_every_reading_and_what_the_examples_support(site):
    text = read(site, "ypp", "findings.html")
    page = Page(text)
    findings = [i for i in page.ids if i.startswith("finding-")]
    assert len(findings) == ypp_summary(site).open
    # the bump point's question (a divergence or the contradiction between its clauses), not bump_reach's
    block = section(text, next(i for i in sorted(findings)
                               if re.match(r"finding-(divergence|contradiction)-bump-(?!reach)", i)))
    assert "Under bump=class-first (default):" in block and "Under bump=motion-first:" in block
    assert "contradicted by 2 examples" in block
    assert "supported: all" in block
    assert re.search(r'src="findings/[^"]+\.png"', block)
    # Every reading's outcome reads in words; its exact numbers are on hover.
    for ruleset in registry.names():
        under = re.findall(r"<strong>Under [^<]*:</strong> (<span[^>]*>)?", read(site, ruleset, "findings.html"))
        assert all(span.startswith('<span class="outcome" title="') for span in under), ruleset


def test_coverage_lists_the_clauses_no_documented_example_exercises(site):
    ypp = registry.get("ypp")
    exercised = set()
    for path in sorted((ROOT / "cases" / "ypp").glob("*.yaml")):
        case = load_case(path)
        if case.status == "documented":
            exercised |= case.ruleset.resolve(case.before, case.actions, case.readings).clauses_considered()
    missing = [c.id for c in ypp.clauses if c.id not in exercised]
    assert missing, "the bundled cases leave some clauses without a documented example"
    text = read(site, "ypp", "cases.html")
    para = text[text.index('id="uncovered"'):]
    para = para[:para.index("</p>")]
    assert re.findall(r'href="index.html#clause-([^"]+)"', para) == missing
    assert ypp_summary(site).uncovered == len(missing)


def test_every_image_has_alt_text_and_nothing_comes_from_the_network(site):
    for path in site.out.rglob("*.html"):
        page = Page(path.read_text(encoding="utf-8"))
        assert page.scripts == 0
        for image in page.images:
            assert len(image.get("alt", "")) > 20, (path, image)
            assert image["width"] and image["height"]
        urls = [i["src"] for i in page.images] + page.links + page.sources + page.stylesheets
        assert not [u for u in urls if re.match(r"^[a-z]+:", u) or u.startswith("//")], path
    css = (site.out / "style.css").read_text(encoding="utf-8")
    assert "url(" not in css and "@import" not in css and "@font-face" not in css
    first = next(i for i in Page((site.out / "ypp" / "index.html").read_text(encoding="utf-8")).images)
    assert first["alt"].startswith("Before and after diagram of the case")


def test_internal_links_and_anchors_resolve(site):
    pages = {path.resolve(): Page(path.read_text(encoding="utf-8")) for path in site.out.rglob("*.html")}
    for path, page in pages.items():
        for url in page.links + [i["src"] for i in page.images] + page.sources + page.stylesheets:
            target, _, anchor = url.partition("#")
            file = (path.parent / target).resolve() if target else path
            assert file.is_file(), (path, url)
            if anchor:
                assert anchor in pages[file].ids, (path, url)


def test_case_text_is_escaped(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    text = (ROOT / "cases/ypp/move-2d-turn-versus-turn.yaml").read_text(encoding="utf-8")
    text = text.replace("title: Turn versus turn, equal class",
                        "title: '<script>alert(1)</script> & \"quoted\" <b>bold</b>'")
    text = re.sub(r"layout: >-\n(  .*\n)+", "layout: '<img src=x onerror=alert(2)>'\n", text)
    (cases / "evil.yaml").write_text(text, encoding="utf-8")
    result = build_site(tmp_path / "site", cases_dir=cases, findings_dir=None, rulesets=["ypp"], examples=0)
    html = "".join((result.out / "ypp" / name).read_text(encoding="utf-8")
                   for name in ("index.html", "cases.html", "findings.html"))
    assert "<script>" not in html and "<b>bold</b>" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;" in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html


def test_the_same_input_gives_the_same_site(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in ("move-2d-turn-versus-turn", "push-blocked-by-rock"):
        (cases / f"{name}.yaml").write_text((ROOT / f"cases/ypp/{name}.yaml").read_text(encoding="utf-8"))
    # Drawn in this process, then in two forked ones: the same bytes either way.
    a = build_site(tmp_path / "a", cases_dir=cases, findings_dir=None, rulesets=["ypp"], examples=20,
                   execution=Execution(1))
    b = build_site(tmp_path / "b", cases_dir=cases, findings_dir=None, rulesets=["ypp"], examples=20,
                   execution=Execution(2))
    assert a.files > 8  # enough drawing tasks that two processes share them
    files_a = sorted(p.relative_to(a.out) for p in a.out.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b.out) for p in b.out.rglob("*") if p.is_file())
    for name in files_a:
        assert (a.out / name).read_bytes() == (b.out / name).read_bytes(), name


def test_findings_are_read_from_the_explorers_report(tmp_path, capsys):
    explore, cases = tmp_path / "explore", tmp_path / "cases"
    cases.mkdir()
    for name in ("move-2d-turn-versus-turn", "bump-3-small-into-large"):
        (cases / f"{name}.yaml").write_text((ROOT / f"cases/ypp/{name}.yaml").read_text(encoding="utf-8"))
    assert main(["explore", "ypp", "--budget", "3600", "--max-examples", "20", "--out", str(explore / "ypp"),
                 "--cases", str(cases)]) == 0
    report = json.loads((explore / "ypp" / "report.json").read_text(encoding="utf-8"))
    assert report["open"] > 0
    result = build_site(tmp_path / "site", cases_dir=cases, findings_dir=explore, rulesets=["ypp"])
    assert result.summaries[0].open == report["open"]
    assert "report.json" in result.summaries[0].origin
    text = (result.out / "ypp" / "findings.html").read_text(encoding="utf-8")
    assert text.count('<article class="finding"') == report["open"]


def test_the_quick_pass_is_the_explorer_engine_with_a_fixed_number_of_scenes(tmp_path):
    from toy_ruleset import PLANTED, ToyRuleset

    from verifier.docs import gather_findings
    from verifier.explorer import ExploreOptions, run_explore
    ypp = registry.get("ypp")
    cases = [load_case(ROOT / f"cases/ypp/{name}.yaml")
             for name in ("move-2d-turn-versus-turn", "push-blocked-by-rock")]
    found = gather_findings(ypp, cases, findings_dir=tmp_path / "no-report", cases_dir=None, examples=40, seed=5,
                            warn=pytest.fail)
    run = run_explore(ypp, ExploreOptions(max_examples=40, seed=5, budget=3600, cases_dir=None), cases=cases)
    assert found.entries and list(found.entries) == list(run.findings)
    assert found.matrix == run.matrix and "40 scenes, seed 5" in found.origin
    toy = ToyRuleset(PLANTED)  # no findings capability: its findings could not be drawn
    quick = gather_findings(toy, [], findings_dir=None, cases_dir=None, examples=40, seed=5, warn=pytest.fail)
    assert quick.entries == () and quick.matrix is not None


def test_a_ruleset_without_the_optional_methods_still_gets_a_page():
    from toy_ruleset import PLANTED, ToyRuleset

    from verifier.explore import analyse
    toy = ToyRuleset(PLANTED)
    finding = analyse(toy, (5, 4), None)["gap:-:lean.1+lean.2+lean.3:-"]
    files, (summary,) = render_site([toy], [], {"toy": Findings([FindingEntry(finding, "open")], "A test.")})
    text = files["toy/index.html"].decode("utf-8")
    assert summary.clauses == 3 and summary.cases == 0 and summary.open == 1 and summary.uncovered == 3
    assert 'id="clause-lean.1"' in text and "No case exercises this clause yet." in text
    assert "Gap: no clause decides" in files["toy/findings.html"].decode("utf-8")
    assert b"toy" in files["index.html"]


# --- where the site may be written -------------------------------------------------------------


@pytest.mark.parametrize("where", ["/", "~", "repo", "cwd", "cases", "inside-verifier", "snapshots"])
def test_refuses_unsafe_folders(where, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = {"/": Path("/"), "~": Path.home(), "repo": ROOT, "cwd": Path("."), "cases": ROOT / "cases",
           "inside-verifier": ROOT / "verifier" / "site", "snapshots": ROOT / "snapshots" / "site"}[where]
    with pytest.raises(SiteError):
        check_out_dir(out)
    assert not (ROOT / "verifier" / "site").exists() and not (ROOT / "snapshots" / "site").exists()


def test_refuses_a_file_a_link_and_a_folder_it_did_not_make(tmp_path):
    file = tmp_path / "file.html"
    file.write_text("mine")
    with pytest.raises(SiteError, match="is a file"):
        check_out_dir(file)
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(SiteError, match="symbolic link"):
        check_out_dir(link)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(SiteError, match="not made by 'verifier docs'"):
        check_out_dir(busy)
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    with pytest.raises(SiteError, match="pyproject.toml"):
        check_out_dir(project)
    # An empty folder, or one that does not exist yet, is fine.
    assert check_out_dir(tmp_path / "empty") == (tmp_path / "empty").resolve()
    assert file.read_text() == "mine" and (busy / "notes.txt").read_text() == "mine"


def test_rebuilding_replaces_its_own_files_only_and_never_writes_through_a_link(tmp_path):
    from verifier.docs import write_site
    out = tmp_path / "site"
    write_site(out, {"index.html": b"one", "old/gone.png": b"x", "style.css": b"a"})
    assert json.loads((out / MARKER).read_text())["files"] == ["index.html", "old/gone.png", "style.css"]
    (out / "mine.txt").write_text("the user's own file")
    outside = tmp_path / "outside.css"
    outside.write_text("not the site's")
    (out / "style.css").unlink()
    (out / "style.css").symlink_to(outside)
    (tmp_path / "elsewhere").mkdir()
    (out / "sub").symlink_to(tmp_path / "elsewhere")
    write_site(out, {"index.html": b"two", "style.css": b"b"})
    assert (out / "index.html").read_bytes() == b"two"
    assert not (out / "old").exists()  # the previous build's file, and its folder, are gone
    assert (out / "mine.txt").read_text() == "the user's own file"
    assert outside.read_text() == "not the site's" and not (out / "style.css").is_symlink()
    with pytest.raises(SiteError, match="link"):
        write_site(out, {"sub/page.html": b"x"})
    assert list((tmp_path / "elsewhere").iterdir()) == []
    with pytest.raises(SiteError):
        write_site(out, {"../escape.html": b"x"})
    assert not (tmp_path / "escape.html").exists()


def test_cli_builds_and_refuses(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "a.yaml").write_text((ROOT / "cases/ypp/turn-four-rounds.yaml").read_text(encoding="utf-8"))
    assert main(["docs", "--out", "site", "--cases", str(cases), "--ruleset", "ypp", "--examples", "0"]) == 0
    out = capsys.readouterr().out
    assert "wrote 4 pages" in out and "index.html" in out
    assert (tmp_path / "site" / "ypp" / "cases" / "ypp-turn-four-rounds.gif").is_file()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("x")
    assert main(["docs", "--out", "notes", "--cases", str(cases), "--ruleset", "ypp"]) == 2
    assert "not made by 'verifier docs'" in capsys.readouterr().err
    assert main(["docs", "--out", str(cases), "--cases", str(cases)]) == 2
    assert os.listdir(cases) == ["a.yaml"]


def test_a_folder_of_one_rulesets_cases_builds_that_rulesets_page_only(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "a.yaml").write_text((ROOT / "cases/ypp/turn-four-rounds.yaml").read_text(encoding="utf-8"))
    result = build_site(tmp_path / "site", cases_dir=cases, findings_dir=None, examples=0)
    assert [s.key for s in result.summaries] == ["ypp"]
    assert not (tmp_path / "site" / "civ").exists()


def test_the_bundled_cases_build_without_warnings(site):
    assert site.warnings == []


def test_docs_fails_with_a_sentence_when_it_finds_no_cases(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    assert main(["docs", "--out", "site", "--cases", "empty"]) == 2
    assert "empty: nothing to draw: no case files were found" in capsys.readouterr().err
    assert main(["docs", "--out", "site", "--cases", "nowhere"]) == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


def test_an_outcome_reads_in_words_and_keeps_its_exact_numbers_on_hover():
    from verifier.docs.model import CaseView
    from verifier.docs.page import _outcome_span
    case = load_case("cases/armada/navigate.yaml")
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    sentence = case.ruleset.summarise(case.before, outcome)
    exact = case.ruleset.describe(case.before, case.actions, outcome)
    assert "ends at [" not in sentence and "mm ahead" in sentence and "° right" in sentence
    span = _outcome_span(CaseView(case, outcome, frozenset(), sentence, "", True, "", exact=exact))
    assert span.startswith('<span class="outcome" title="') and "ends at [" in span and "mm ahead" in span
    assert _outcome_span(CaseView(case, outcome, frozenset(), "plain & simple", "", True, "")) == "plain &amp; simple"


def test_a_refused_case_reads_refused_and_why_and_is_drawn_with_the_band(site):
    from PIL import Image

    from verifier.kit.draw.layout import REFUSED_INK
    case = load_case(ROOT / "cases/armada2k/refused/large-two-steps.yaml")
    block = section(read(site, "armada2k", "cases.html"), f"case-{case.id}")
    assert "Refused by move.1a (galleon): a large ship moves at most 1 step" in block
    assert "nothing happen" not in block.lower()
    for name in (f"{case.id}.png", f"{case.id}-narrow.png"):
        image = Image.open(site.out / "armada2k" / "cases" / name).convert("RGB")
        band = {image.getpixel((2, y)) for y in range(image.height - 20, image.height)}
        # the site's PNGs have 256 colours, so the band's is the nearest of them
        assert any(max(abs(a - b) for a, b in zip(pixel, REFUSED_INK)) <= 16 for pixel in band), name


def test_the_pages_reuse_a_reports_example_rows_only_for_the_same_code_and_case_data(tmp_path, monkeypatch):
    import dataclasses

    from verifier import findings as report_module
    from verifier.case import collect
    from verifier.docs.findings import gather_findings
    from verifier.explore import documented_examples, example_matrix
    from verifier.explorer import ExploreOptions, run_explore
    from verifier.rulesets.scatter import RULESET as SCATTER

    cases = list(collect([ROOT / "cases" / "scatter"]).cases)
    run = run_explore(SCATTER, ExploreOptions(search=False, cases_dir=None, out=tmp_path / "scatter"), cases=cases)
    report_module.write_reports(tmp_path / "scatter", *run.report())
    fresh = example_matrix(SCATTER, cases)
    examples, readings = documented_examples(SCATTER, cases), SCATTER.all_readings()
    assert len(examples) >= 3 and len(readings) >= 2
    resolved = []
    resolve = SCATTER.resolve
    monkeypatch.setattr(SCATTER, "resolve", lambda *a, **k: resolved.append(a[0]) or resolve(*a, **k))

    def matrix(of):
        found = gather_findings(SCATTER, of, findings_dir=tmp_path, cases_dir=None, examples=0, seed=0,
                                warn=pytest.fail)
        assert found.matrix is not None and found.origin.startswith("These questions come from the explorer's report")
        return found.matrix

    reused = matrix(cases)
    assert resolved == [] and reused.agrees == fresh.agrees
    assert [c.id for c in reused.cases] == [c.id for c in fresh.cases]
    # an edited example is worked out again under every reading; the others are still read from the report
    edited = examples[1]
    changed = dataclasses.replace(edited, doc=dataclasses.replace(edited.doc, data={**edited.doc.data,
                                                                                   "title": "edited"}))
    again = matrix([changed if c is edited else c for c in cases])
    assert len(resolved) == len(readings) and all(scene is edited.before for scene in resolved)
    assert again.agrees == fresh.agrees
    # a report written by other code is not trusted at all
    resolved.clear()
    monkeypatch.setattr(report_module, "_CODE_DIGESTS", {None: "other code", "scatter": "other code"})
    assert matrix(cases).agrees == fresh.agrees and len(resolved) == len(readings) * len(examples)


def test_a_clause_is_shown_by_a_refusal_only_of_that_clause(site):
    """A refused action shows the clause that refuses it; under any other clause it would
    show nothing of that clause, so another case is chosen."""
    import re
    refused = 0
    for key in ("ypp", "scatter", "armada", "armada2k", "civ"):
        text = read(site, key)
        for article in re.finditer(r'<article class="clause" id="clause-([^"]+)">(.*?)</article>', text, re.S):
            caption = re.search(r"<figcaption>(.*?)</figcaption>", article.group(2), re.S)
            by = re.search(r"Refused by ([\w.]+)", caption.group(1)) if caption else None
            if by:
                refused += 1
                assert by.group(1) == article.group(1), (key, article.group(1), by.group(1))
    assert refused > 0  # the bundled refusal cases do show their own clauses


def test_a_finding_the_report_drew_too_wide_is_drawn_only_in_its_narrow_layout(tmp_path):
    from verifier.docs.common import DESKTOP_FIT
    from verifier.docs.findings import _drawn_sizes
    from verifier.docs.pictures import _draw_finding
    from verifier.explore import finding_readings
    from verifier.findings import finding_title
    ypp = registry.get("ypp")
    cases = [load_case(ROOT / "cases/ypp/move-2d-turn-versus-turn.yaml")]
    from verifier.docs import gather_findings
    finding = gather_findings(ypp, cases, findings_dir=None, cases_dir=None, examples=40, seed=5,
                              warn=pytest.fail).entries[0].finding
    panels = [("before", None)] + [(f"after, {label}", ypp.resolve(finding.before, finding.actions, reading))
                                   for label, reading in finding_readings(ypp, finding)]
    both = _draw_finding(ypp, finding, panels, finding_title(finding), "f")
    assert set(both["files"]) == {"findings/f.png", "findings/f-narrow.png"} and not both["warnings"]
    wide = (DESKTOP_FIT + 1, 400)
    narrow_only = _draw_finding(ypp, finding, panels, finding_title(finding), "f", wide)
    assert set(narrow_only["files"]) == {"findings/f-narrow.png"}
    assert narrow_only["files"]["findings/f-narrow.png"] == both["files"]["findings/f-narrow.png"]
    assert narrow_only["fields"]["size"] == wide and narrow_only["fields"]["narrow"] == "findings/f-narrow.png"
    # the sizes come from the PNG headers of the pictures the report names, inside its folder only
    (tmp_path / "findings").mkdir()
    Image.new("RGB", wide).save(tmp_path / "findings" / "a.png")
    (tmp_path / "report.json").write_text(json.dumps({"ruleset": "ypp", "findings": [
        {"fingerprint": "a", "diagram": "findings/a.png"}, {"fingerprint": "b", "diagram": "../outside.png"},
        {"fingerprint": "c", "diagram": "findings/missing.png"}, {"fingerprint": "d", "diagram": 3}]}))
    assert _drawn_sizes(tmp_path / "report.json") == {"a": wide}
