"""The explorer finds real problems, finds nothing where there is none, and is reproducible."""

from __future__ import annotations

import shutil

import pytest
import yaml
from conftest import CASES, case_files
from toy_ruleset import CONSISTENT, PLANTED, ToyRuleset

from verifier.case import load_case
from verifier.cli import main
from verifier.explore import analyse, example_conflicts, example_matrix, exhaustive, search, shrink
from verifier.rulesets.ypp import RULESET as YPP


def kinds_and_clauses(findings):
    return {(f.kind, f.clauses) for f in findings.values()}


def test_ypp_search_finds_the_contradictory_bump_bullets():
    result = search(YPP, budget=120, seed=0, max_examples=600)
    contradictions = {f.clauses for f in result.findings.values() if f.kind == "contradiction"}
    # A forward mover that is larger (or smaller) than the ship it bumps is covered by a motion
    # bullet and a class bullet at once, and they prescribe different things.
    assert ("bump.2", "bump.4") in contradictions
    assert ("bump.2", "bump.3") in contradictions
    for finding in result.findings.values():
        if finding.kind == "contradiction":
            assert finding.point == "bump"
            assert all(c.startswith(("bump.", "wind.bump.")) for c in finding.clauses)


def test_ypp_search_finds_the_vacate_gap_and_literal_push_breaches():
    result = search(YPP, budget=120, seed=0, max_examples=600)
    assert ("gap", ("move.1b", "move.1c")) in kinds_and_clauses(result.findings)
    breaches = {f.label for f in result.findings.values() if f.kind == "breach"}
    assert any("push_blocked=literal" in b for b in breaches)
    # The reference resolver is order-free and symmetric.
    assert not [f for f in result.findings.values() if f.kind in ("order", "symmetry")]


def test_same_seed_same_fingerprints():
    one = search(YPP, budget=120, seed=7, max_examples=300)
    two = search(YPP, budget=120, seed=7, max_examples=300)
    assert not one.stopped_by_budget and not two.stopped_by_budget
    assert sorted(one.findings) == sorted(two.findings)


def test_consistent_toy_table_has_no_findings():
    toy = ToyRuleset(CONSISTENT)
    assert search(toy, budget=60, seed=0, max_examples=200).findings == {}
    assert exhaustive(toy, workers=1).counts == {}


def test_planted_contradiction_and_gap_are_found():
    toy = ToyRuleset(PLANTED)
    found = search(toy, budget=60, seed=0, max_examples=200).findings
    assert kinds_and_clauses(found) == {("contradiction", ("lean.1", "lean.2")),
                                        ("gap", ("lean.1", "lean.2", "lean.3"))}
    counts = exhaustive(toy, workers=1).counts
    assert counts == {"contradiction:-:lean.1+lean.2:-": 6, "gap:-:lean.1+lean.2+lean.3:-": 5}


def test_shrinking_keeps_the_fingerprint_and_minimises():
    toy = ToyRuleset(PLANTED)
    finding = analyse(toy, (5, 4), None)["gap:-:lean.1+lean.2+lean.3:-"]
    small = shrink(toy, finding)
    assert small.fingerprint == finding.fingerprint and small.before == (1, 0)


def test_shrunk_ypp_contradiction_still_shows_the_disagreement():
    result = search(YPP, budget=120, seed=0, max_examples=600)
    finding = next(f for f in result.findings.values() if f.clauses == ("bump.2", "bump.4"))
    small = shrink(YPP, finding)
    assert len(small.before.ships) == 2 and len(small.actions.rounds) == 1
    outcomes = {YPP.outcome_key(YPP.resolve(small.before, small.actions, YPP.reading({"bump": o})))
                for o in ("class-first", "motion-first")}
    assert len(outcomes) == 2


def test_exhaustive_two_ship_space_counts_scenes_per_class():
    assert list(YPP.exhaustive_spaces()) == ["two-ships", "terrain", "three-ships", "three-ships-terrain",
                                             "four-ships", "four-ships-terrain"]
    total, scenes = YPP.exhaustive_space("two-ships")
    assert total == 24 * 16 * 16 * 16
    first = [next(scenes) for _ in range(3)]
    assert all(len(b.ships) == 2 and len(a.rounds) == 1 for b, a in first)


def test_documented_examples_matrix():
    cases = [load_case(p) for p in case_files()]
    matrix = example_matrix(YPP, cases)
    agreeing = matrix.readings_agreeing_with_all()
    assert YPP.default_reading in agreeing
    assert all(r["bump"] != "motion-first" and r["vacate"] == "follow" for r in agreeing)
    conflicts = {(f.point, f.label) for f in example_conflicts(YPP, matrix)}
    assert conflicts == {("bump", "motion-first"), ("vacate", "blocked"), ("vacate", "stationary")}


@pytest.fixture
def explored(tmp_path, capsys):
    out = tmp_path / "out"
    cases = tmp_path / "cases"
    shutil.copytree(CASES, cases)
    code = main(["explore", "ypp", "--budget", "60", "--max-examples", "300", "--out", str(out),
                 "--cases", str(cases)])
    assert code == 0
    return out, cases, capsys.readouterr().out


def test_explore_writes_cases_diagrams_and_reports(explored, capsys):
    out, cases, printed = explored
    assert (out / "report.md").exists() and (out / "report.json").exists()
    yamls = sorted((out / "findings").glob("*.yaml"))
    assert yamls and len(yamls) == len(list((out / "findings").glob("*.png")))
    contradiction = out / "findings" / "ypp-contradiction-bump-bump.2-bump.4.yaml"
    case = load_case(contradiction)
    assert case.status == "needs-ruling" and case.finding["kind"] == "contradiction"
    assert [dict(r)["bump"] for r, _ in case.outcomes] == ["class-first", "motion-first", "turn-first"]
    # verifier check reports findings as open, not failed.
    assert main(["check", str(out / "findings"), "--no-draw"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"0 passed, 0 failed, {len(yamls)} open")


def test_a_ruling_resolves_the_finding_and_nothing_is_overwritten(explored, capsys):
    out, cases, _ = explored
    source = out / "findings" / "ypp-contradiction-bump-bump.2-bump.4.yaml"
    data = yaml.safe_load(source.read_text())
    chosen = data["outcomes"][1]
    data.update(status="ruled", readings=chosen["reading"], expect=chosen["expect"])
    del data["outcomes"]
    data["id"] = "ypp-ruling-bump-forward-larger"
    ruling = cases / "ypp" / "ruling-bump-forward-larger.yaml"
    ruling.write_text(yaml.safe_dump(data, sort_keys=False))
    source.write_text(source.read_text() + "# my notes\n")
    assert main(["check", str(ruling), "--no-draw"]) == 0
    capsys.readouterr()
    assert main(["explore", "ypp", "--budget", "60", "--max-examples", "300", "--out", str(out),
                 "--cases", str(cases)]) == 0
    printed = capsys.readouterr().out
    assert "RESOLVED contradiction:bump:bump.2+bump.4:-" in printed
    assert source.read_text().endswith("# my notes\n")
    report = yaml.safe_load((out / "report.json").read_text())
    entry = next(f for f in report["findings"] if f["fingerprint"] == "contradiction:bump:bump.2+bump.4:-")
    assert entry["status"] == "resolved" and entry["resolved_by"] == str(ruling)


def test_explore_rejects_unknown_ruleset(capsys):
    assert main(["explore", "ypq", "--budget", "1"]) == 2
    assert "did you mean 'ypp'?" in capsys.readouterr().err
