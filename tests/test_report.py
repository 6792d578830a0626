"""Reports of a check run: the summary line and table, GitHub annotations, JUnit, and
known failures applied without an implementation."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import BUMP

from verifier.case import load_case
from verifier.errors import Location
from verifier.known_failures import apply_known_failures, load_known_failures
from verifier.report import github_annotations, results_junit, summary_table
from verifier.runner import CaseResult, Problem, RunOptions, check_paths, summary_line

pytestmark = pytest.mark.usefixtures("in_repo")


# --- reports -----------------------------------------------------------------------

def _result(status, case_id="ypp-x", clauses=("move.1a",), problems=(), reason=""):
    case = replace(load_case(BUMP), id=case_id, clauses=tuple(clauses))
    return CaseResult(case.path, case, status, tuple(problems), reason=reason)


def test_summary_line_and_table_count_every_status():
    results = [_result("passed", "ypp-a", ("move.1a", "bump.2")), _result("failed", "ypp-b", ("bump.2",)),
               _result("errored", "ypp-c"), _result("skipped", "ypp-d"), _result("xfail", "ypp-e"),
               _result("xpass", "ypp-f")]
    assert summary_line(results) == "1 passed, 1 failed, 1 errored, 1 xpassed, 1 xfailed, 1 skipped"
    assert summary_line(results[:2]) == "1 passed, 1 failed"
    rows = {(r["ruleset"], r["clause"]): r for r in summary_table(results)}
    assert rows[("ypp", "*")]["total"] == 6
    assert (rows[("ypp", "bump.2")]["passed"], rows[("ypp", "bump.2")]["failed"]) == (1, 1)
    assert rows[("ypp", "move.1a")]["xfail"] == 1 and rows[("ypp", "move.1a")]["errored"] == 1
    assert list(rows)[:3] == [("ypp", "*"), ("ypp", "move.1a"), ("ypp", "bump.2")]  # clause-table order


def test_github_annotations_are_escaped_and_located():
    problem = Problem("two\nlines, 100%", Location("cases/ypp/a,b.yaml", 7, 3, "expect.ships"))
    (line,) = github_annotations([_result("failed", problems=(problem,)), _result("passed")])
    # A problem's message is one line (verifier.errors.one_line): its line break is shown as \x0a.
    assert line == "::error file=cases/ypp/a%2Cb.yaml,line=7,col=3,title=ypp-x (failed)::two\\x0alines, 100%25 " \
                   "[expect.ships]"


def test_junit_marks_errors_skips_and_expected_failures():
    problem = Problem("boom", Location(str(BUMP), 1))
    root = results_junit([_result("errored", "ypp-a", problems=(problem,)), _result("skipped", "ypp-b", reason="no"),
                          _result("xfail", "ypp-c", reason="known"), _result("xpass", "ypp-d", problems=(problem,))])
    suite = root.find("testsuite")
    assert (suite.get("errors"), suite.get("failures"), suite.get("skipped")) == ("1", "1", "2")
    assert suite.find("testcase[@name='ypp-a']/error").get("message") == "boom"
    assert suite.find("testcase[@name='ypp-b']/skipped").get("message") == "no"
    assert suite.find("testcase[@name='ypp-c']/skipped").get("message") == "expected failure: known"


def test_known_failures_apply_without_an_implementation(tmp_path):
    known = tmp_path / "k.txt"
    known.write_text("ypp-move-1b-equal-class-bump: pretend\n")
    results, notes = apply_known_failures(check_paths([BUMP], RunOptions(draw=False)), load_known_failures(known))
    assert results[0].status == "xpass" and results[0].failing and not notes
