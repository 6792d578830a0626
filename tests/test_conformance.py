"""Checking other implementations: the adapter protocol and its schema, the reference
adapter's round trip, toy implementations that are wrong, crash, hang or answer
badly, known-failure lists, report formats, export, and the pytest plugin."""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import CASES, ROOT, case_files

from verifier import adapter, registry
from verifier.adapter import (
    PROTOCOL,
    InProcessImplementation,
    SubprocessImplementation,
    adapter_schema,
    check_implementation,
    schema_problem,
    supports_protocol,
)
from verifier.case import load_case
from verifier.cli import main
from verifier.errors import CaseError, Location
from verifier.known_failures import apply_known_failures, load_known_failures
from verifier.report import github_annotations, results_junit, summary_table
from verifier.ruleset import Capability
from verifier.runner import CaseResult, Problem, RunOptions, check_paths, summary_line

IMPLS = Path(__file__).parent / "impls"
PYTHON = sys.executable
REFERENCE = f"{PYTHON} -m verifier.adapters.reference"
NODE = shutil.which("node")
BUMP = CASES / "ypp" / "move-1b-equal-class-bump.yaml"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)  # relative paths in reports, as a user at the top of the repository sees them


def by_id(results):
    return {r.id: r for r in results}


# --- the schema ------------------------------------------------------------------

def test_published_adapter_schema_is_current():
    published = json.loads((ROOT / "docs" / "schema" / "adapter.schema.json").read_text())
    published.pop("$comment", None)  # the mark of the command that wrote it
    assert published == adapter_schema(), \
        "docs/schema/adapter.schema.json is stale: run 'verifier schema --adapter -o docs/schema/adapter.schema.json'"
    jsonschema.Draft202012Validator.check_schema(published)


def test_every_message_of_the_reference_adapter_fits_the_schema():
    from verifier.adapters.reference import handle
    hello = adapter.hello_message()
    assert schema_problem("hello", hello) is None
    assert schema_problem("hello_reply", handle(hello)) is None
    for path in case_files():
        case = load_case(path)
        if not supports_protocol(case.ruleset) or case.status == "needs-ruling":
            continue
        request = adapter.case_request(case)
        assert schema_problem("case", request) is None
        answer = handle(request)
        assert schema_problem("response", answer) is None, answer
        assert schema_problem(f"outcome_{case.ruleset.key}", answer["outcome"]) is None


def test_outcome_json_round_trips_for_every_case():
    """outcome_from_json(outcome_json(o)) compares exactly as o does."""
    for path in case_files():
        case = load_case(path)
        if not supports_protocol(case.ruleset) or case.expect is None:
            continue
        outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
        data = json.loads(json.dumps(case.ruleset.outcome_json(outcome)))
        back = case.ruleset.outcome_from_json(case.before, data)
        assert case.ruleset.compare(case.before, case.expect, back) == \
            case.ruleset.compare(case.before, case.expect, outcome) == [], path


def test_schema_problems_name_the_field():
    assert "heading" in schema_problem("outcome_ypp", {"ships": {"A": {"at": [1, 1], "heading": "X"}}, "events": []})
    assert "'reason' is a required property" in adapter.answer_problem({"type": "skipped"})
    assert "expected 'outcome', 'skipped' or 'errored'" in adapter.answer_problem({"type": "result"})


# --- the reference adapter: the protocol round-trips ---------------------------------

def _statuses(results):
    return {r.id: r.status for r in results}


def _expected_statuses():
    """In-process statuses, with cases the protocol cannot check shown as skipped."""
    expected = {}
    for r in check_paths([CASES], RunOptions(draw=False)):
        skipped = r.case is not None and not supports_protocol(r.case.ruleset) and r.status != "open"
        expected[r.id] = "skipped" if skipped else r.status
    return expected


def test_reference_adapter_through_a_subprocess_passes_every_case_as_in_process(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--impl", REFERENCE, "--json", tmp_path / "r.json")
    report = json.loads((tmp_path / "r.json").read_text())
    assert {c["id"]: c["status"] for c in report["cases"]} == _expected_statuses()
    assert code == 0, out
    assert report["implementation"]["hello"]["protocol"] == PROTOCOL
    assert out.splitlines()[0].startswith("implementation: verifier reference resolver")
    assert out.strip().splitlines()[-1].startswith(f"{report['summary']['passed']} passed, 0 failed")


def test_reference_adapter_in_process_gives_the_same_statuses():
    impl = InProcessImplementation("python:verifier.adapters.reference:handle", timeout=10)
    assert _statuses(check_implementation([CASES], impl, draw=False)) == _expected_statuses()


def test_rulesets_without_json_outcomes_are_skipped_with_a_reason():
    class Mute(type(registry.get("ypp"))):
        capabilities = registry.get("ypp").capabilities - {Capability.INTERCHANGE}  # not declared

    muted = replace(load_case(BUMP), ruleset=Mute())
    run_ = adapter.ImplRun(InProcessImplementation("python:verifier.adapters.reference:handle"))
    result = adapter.check_case_with(muted, run_)
    assert result.status == "skipped"
    assert "does not define its outcome as JSON" in result.reason


# --- a deliberately wrong implementation in another language ------------------------

def naive_outcome(before: dict, actions: list) -> dict:
    """What tests/impls/naive.js answers: every ship plays its tokens alone, no events."""
    ahead = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    left = {"N": "W", "W": "S", "S": "E", "E": "N"}
    right = {v: k for k, v in left.items()}
    ships = {n: {"at": list(s["at"]), "heading": s["heading"]} for n, s in before["ships"].items()}
    for round_ in actions:
        for name, token in round_.items():
            ship = ships[name]
            if token == "none":
                continue
            dx, dy = ahead[ship["heading"]]
            ship["at"] = [ship["at"][0] + dx, ship["at"][1] + dy]
            if token in ("left", "right"):
                ship["heading"] = (left if token == "left" else right)[ship["heading"]]
                dx, dy = ahead[ship["heading"]]
                ship["at"] = [ship["at"][0] + dx, ship["at"][1] + dy]
    return {"ships": ships, "events": []}


def naive_expectations():
    """Each case's status and problem messages under the naive toy, worked out in Python."""
    expected = {}
    for path in case_files():
        case = load_case(path)
        data = case.doc.data
        if case.status == "needs-ruling":
            expected[case.id] = ("open", [])
        elif not supports_protocol(case.ruleset) or case.ruleset.key != "ypp":  # the toy's hello lists ypp only
            expected[case.id] = ("skipped", [])
        elif case.pinned:
            expected[case.id] = ("skipped", [])
        elif data["before"]["board"].get("whirlpools"):
            expected[case.id] = ("errored", [])
        else:
            answer = naive_outcome(data["before"], data["actions"])
            outcome = case.ruleset.outcome_from_json(case.before, answer)
            # Optional parts the answer leaves out (ypp: damage) are not compared.
            absent = {f for part in case.ruleset.outcome_parts if part.optional for f in part.fields
                      if not any(g in answer for g in part.fields)}
            mismatches = [m for m in case.ruleset.compare(case.before, case.expect, outcome)
                          if not (m.path and m.path[0] in absent)]
            expected[case.id] = ("failed" if mismatches else "passed", [m.message for m in mismatches])
    return expected


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_wrong_node_implementation_gets_its_failures_reported(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--impl", "node tests/impls/naive.js", "--json", tmp_path / "r.json",
                       "--junit", tmp_path / "r.xml", "--github-output", tmp_path / "gh.txt", "--no-draw")
    assert code == 1
    report = json.loads((tmp_path / "r.json").read_text())
    got = {c["id"]: (c["status"], [p["message"] for p in c["problems"] if p["kind"] == "mismatch"])
           for c in report["cases"]}
    assert got == naive_expectations()
    statuses = {s for s, _ in got.values()}
    assert {"passed", "failed", "errored", "skipped"} <= statuses

    cases = {c["id"]: c for c in report["cases"]}
    assert cases["ypp-move-1a-forward"]["status"] == "passed"
    bump = cases["ypp-move-1b-equal-class-bump"]
    line = next(i for i, row in enumerate(BUMP.read_text().splitlines(), 1) if "Self-Centered Blowfish: {at:" in row)
    assert {"message": "Self-Centered Blowfish should end at [2, 2] but ends at [2, 3]", "kind": "mismatch",
            "file": "cases/ypp/move-1b-equal-class-bump.yaml", "line": line, "column": 34,
            "field": "expect.ships.Self-Centered Blowfish.at"} in bump["problems"]
    assert bump["outcome"]["ships"]["Haughty Sawfish"] == {"at": [2, 3], "heading": "N"}  # the toy's answer
    # With drawing, a failure also names the expected, actual and diff images.
    run(capsys, "check", "--impl", "node tests/impls/naive.js", "--json", tmp_path / "one.json",
        "--failures", tmp_path / "failures", BUMP)
    (one,) = json.loads((tmp_path / "one.json").read_text())["cases"]
    drawings = next(p["message"] for p in one["problems"] if p["kind"] == "artifacts")
    for kind in ("expected", "actual", "diff"):
        assert (tmp_path / "failures" / "impl" / "ypp" / f"ypp-move-1b-equal-class-bump.{kind}.png").exists()
        assert f"ypp-move-1b-equal-class-bump.{kind}.png" in drawings
    whirl = cases["ypp-wind-2a-whirl"]
    assert whirl["status"] == "errored"
    assert whirl["problems"][0]["message"] == "the implementation reports an error: whirlpools are not implemented"
    toy_skips = [c for c in report["cases"] if c["ruleset"] == "ypp" and c["status"] == "skipped"]
    assert toy_skips and all(c["reason"] == "the toy knows only the default readings" for c in toy_skips)
    assert report["implementation"]["hello"]["implementation"]["language"] == "javascript"

    # The terminal: each failure with its located problems, skip reasons, the table, the summary line.
    assert "FAIL ypp-move-1b-equal-class-bump (cases/ypp/move-1b-equal-class-bump.yaml)" in out
    assert f"  cases/ypp/move-1b-equal-class-bump.yaml:{line}:34: expect.ships.Self-Centered Blowfish.at: " \
           "Self-Centered Blowfish should end at [2, 2] but ends at [2, 3]" in out
    assert "ERROR ypp-wind-2a-whirl" in out
    assert f"skipped {len(toy_skips)} cases: the toy knows only the default readings" in out
    counts = report["summary"]
    last = out.strip().splitlines()[-1]
    assert last == f"{counts['passed']} passed, {counts['failed']} failed, {counts['errored']} errored, " \
                   f"{counts['skipped']} skipped"
    table = [row for row in out.splitlines() if row.startswith("ypp ")]
    ypp = [s for i, (s, _) in got.items() if i.startswith("ypp-")]
    assert table[0].split() == ["ypp", "(all", "cases)"] + [str(ypp.count(s)) for s in
                                                            ("passed", "failed", "errored", "skipped")]

    # JUnit and GitHub annotations.
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite[@name='ypp']")
    assert suite.get("failures") == str(counts["failed"]) and suite.get("errors") == str(counts["errored"])
    case_xml = suite.find("testcase[@name='ypp-wind-2a-whirl']")
    assert case_xml.find("error") is not None
    annotations = (tmp_path / "gh.txt").read_text().splitlines()
    assert f"::error file=cases/ypp/move-1b-equal-class-bump.yaml,line={line},col=34," \
           "title=ypp-move-1b-equal-class-bump (failed)::Self-Centered Blowfish should end at [2, 2] but ends at " \
           "[2, 3] [expect.ships.Self-Centered Blowfish.at]" in [a.split("%0A")[0] for a in annotations]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_known_failures_are_expected_and_lists_must_shrink(capsys, tmp_path):
    expected = naive_expectations()
    failing = sorted(i for i, (s, _) in expected.items() if s in ("failed", "errored"))
    full = tmp_path / "known.txt"
    full.write_text("# the naive toy\n" + "".join(f"{i}: the toy ignores collisions\n" for i in failing))
    code, out, _ = run(capsys, "check", "--impl", "node tests/impls/naive.js", "--known-failures", full, "--no-draw")
    assert code == 0, out
    assert out.strip().splitlines()[-1].endswith(f"{len(failing)} xfailed, "
                                                 f"{sum(s == 'skipped' for s, _ in expected.values())} skipped")

    # The toy got better at one case, the list was not updated, and it has a typo.
    stale = tmp_path / "stale.txt"
    stale.write_text(full.read_text() + "ypp-move-1a-forward: pretend it failed\nypp-move-1a-froward: typo\n")
    code, out, _ = run(capsys, "check", "--impl", "node tests/impls/naive.js", "--known-failures", stale,
                       "--no-draw", "--junit", tmp_path / "r.xml")
    assert code == 1
    line = len(failing) + 2
    assert "XPASS ypp-move-1a-forward (cases/ypp/move-1a-forward.yaml)" in out
    assert ("passes now, but the known-failure list says it fails (pretend it failed); "
            f"delete line {line} of {stale}") in out
    assert f"note: {stale}:{line + 1}: no case with id 'ypp-move-1a-froward' was run; did you mean " \
           "'ypp-move-1a-forward'?" in out
    assert ", 1 xpassed, " in out.strip().splitlines()[-1]
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite[@name='ypp']")
    assert suite.find("testcase[@name='ypp-move-1a-forward']/failure") is not None
    assert suite.find(f"testcase[@name='{failing[0]}']/skipped").get("type") == "pytest.xfail"


def test_reports_never_overwrite_a_case_file(capsys, tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(BUMP.read_text())
    for option in ("--json", "--junit", "--github-output"):
        code, _, err = run(capsys, "check", "--no-draw", BUMP, option, case)
        assert code == 2 and "was not written by the verifier" in err
    assert case.read_text() == BUMP.read_text()
    code, out, _ = run(capsys, "check", "--no-draw", "--github", BUMP, "--no-table")  # a flag: BUMP stays a path
    assert code == 0 and out.strip().splitlines() == ["1 passed, 0 failed"]


def test_known_failure_files_are_checked(tmp_path):
    bad = tmp_path / "k.txt"
    bad.write_text("ypp-a: one\nypp-b\n")
    with pytest.raises(CaseError, match=r"k.txt:2:1: ypp-b: give a reason after the id"):
        load_known_failures(bad)
    bad.write_text("ypp-a: one\nypp-a: two\n")
    with pytest.raises(CaseError, match="listed twice"):
        load_known_failures(bad)
    good = tmp_path / "k.json"
    good.write_text(json.dumps({"ypp-a": "why"}))
    assert load_known_failures(good).reasons == {"ypp-a": "why"}
    quoted = tmp_path / "k.yaml"
    quoted.write_text("ypp-a: 'fails: see #3'\n")
    assert load_known_failures(quoted).reasons == {"ypp-a": "fails: see #3"}


# --- crashing, hanging and badly answering implementations -------------------------

def _track_processes(monkeypatch) -> list[int]:
    pids = []
    original = adapter._Process.__init__

    def init(self, argv, cwd):
        original(self, argv, cwd)
        pids.append(self.popen.pid)

    monkeypatch.setattr(adapter._Process, "__init__", init)
    return pids


def _gone(pgid: int) -> bool:
    """Whether a process group has ended (allowing a moment for the system to reap it)."""
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_crashing_implementation_is_reported_per_case_and_restarted(monkeypatch):
    pids = _track_processes(monkeypatch)
    impl = SubprocessImplementation(f"sh {IMPLS / 'crash.sh'}", timeout=5)
    results = check_implementation([CASES], impl, draw=False)
    assert len(results) == len(case_files())
    rocky = {r.id for r in results if r.case is not None and r.case.doc.data["before"].get("board", {}).get("rocks")}
    assert rocky
    errored = {r.id: r for r in results if r.status == "errored"}
    assert set(errored) == rocky
    for r in errored.values():
        assert r.problems[0].message == ("the implementation exited with code 3 while resolving this case; its last "
                                         "words on stderr: crash.sh: segmentation fault (pretend) on a rock; it "
                                         "will be restarted")
    assert {r.status for r in results if r.id not in rocky} <= {"skipped", "open"}
    # The toy answers without an id, so each answer ends its process (a stray line could not be told from the
    # next case's answer): one start per case sent, crashed or answered.
    sent = [r for r in results if r.status == "errored" or r.reason == "the crashing toy only crashes"]
    assert impl.starts == len(sent) > len(rocky)
    assert all(_gone(pid) for pid in pids)


def test_hanging_implementation_is_stopped_reported_and_the_run_goes_on(monkeypatch, capsys):
    pids = _track_processes(monkeypatch)
    paths = [CASES / "ypp" / n for n in ("rock-forward.yaml", "move-1a-forward.yaml", "wind-1a-wind-tile.yaml",
                                         "wind-1c-direct-conflict.yaml", "move-2a-turn.yaml")]
    start = time.monotonic()
    code, out, _ = run(capsys, "check", "--impl", f"sh {IMPLS / 'hang.sh'}", "--impl-timeout", "0.4", *paths)
    assert time.monotonic() - start < 8
    assert code == 1
    assert "ERROR ypp-wind-1a-wind-tile" in out and "ERROR ypp-wind-1c-direct-conflict" in out
    assert out.count("no answer within 0.4 s (--impl-timeout); the implementation was stopped and will be "
                     "restarted") == 2
    assert "ERROR ypp-rock-forward" in out
    assert "the answer is not valid JSON (Expecting value: line 1 column 1 (char 0)): 'this is not JSON'" in out
    assert "skipped 2 cases: the hanging toy only hangs" in out  # the cases after a hang are still answered
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed, 3 errored, 2 skipped"
    assert len(pids) == 5  # once per case: after the bad line, each hang and each answer without an id
    assert all(_gone(pid) for pid in pids)  # the hung 'sleep' went with its shell


def test_badly_answering_implementation_in_process(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))
    names = ["move-1a-forward", "move-2a-turn", "move-2a-no-collision", "edge-forward", "rock-forward",
             "move-1c-direct-conflict", "move-1b-equal-class-bump", "move-2b-forward-versus-turn"]
    impl = adapter.open_implementation("python:bad_python:handle", timeout=0.5)
    results = by_id(check_implementation([CASES / "ypp" / f"{n}.yaml" for n in names], impl, draw=False))
    message = {i: r.problems[0].message if r.problems else "" for i, r in results.items()}
    assert message["ypp-move-1a-forward"].startswith("the implementation raised ZeroDivisionError: division by zero at "
                                                     "bad_python.py:")
    assert message["ypp-move-2a-turn"].startswith("the answer is not JSON (Object of type set is not JSON serializable")
    assert message["ypp-move-2a-no-collision"].startswith("the answer does not fit the protocol ((top level): "
                                                          "'outcome' is a required property)")
    assert message["ypp-edge-forward"] == ("the outcome cannot be read: the outcome does not say where "
                                           "'Haughty Sawfish' ends; list every ship, moved or not")
    assert message["ypp-rock-forward"] == ("the answer is for case 'ypp-some-other-case', not 'ypp-rock-forward'; "
                                           "the implementation is out of step")
    assert message["ypp-move-1c-direct-conflict"].startswith("the outcome does not fit the ypp outcome schema")
    assert "heading: 'X' is not one of" in message["ypp-move-1c-direct-conflict"]
    assert message["ypp-move-1b-equal-class-bump"].startswith("no answer within 0.5 s (--impl-timeout)")
    assert all(results[f"ypp-{n}"].status == "errored" for n in names[:-1])
    assert results["ypp-move-2b-forward-versus-turn"].status == "passed"  # the run went on


def test_another_protocol_version_stops_the_run(capsys, tmp_path, monkeypatch):
    (tmp_path / "future_impl.py").write_text(textwrap.dedent("""
        def handle(message):
            return {"type": "hello", "protocol": "verifier-adapter/2"}
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "check", "--impl", "python:future_impl:handle", BUMP)
    assert code == 2
    assert "the implementation speaks verifier-adapter/2, but this verifier speaks verifier-adapter/1" in err


def test_one_session_counts_start_failures_for_check_and_fuzz_alike():
    # check --impl and fuzz both ask through adapter.Session: the same limit, the same words.
    from verifier.fuzz import run as fuzz
    session = adapter.Session(adapter.open_implementation("no-such-program-xyz"))
    words = [session.start() for _ in range(adapter.MAX_START_FAILURES)]
    assert all(w and w.startswith("the implementation could not be started: cannot start") for w in words)
    assert session.given_up.startswith(f"the implementation failed to start {adapter.MAX_START_FAILURES} times")
    assert session.start() == session.given_up  # nothing more is tried
    result = fuzz(registry.get("ypp"), adapter.open_implementation("no-such-program-xyz"), examples=10)
    assert result.given_up == session.given_up
    assert len(result.problems) == adapter.MAX_START_FAILURES and result.exit_code == 2


def test_a_missing_program_is_reported_per_case_then_given_up(capsys):
    code, out, _ = run(capsys, "check", "--impl", "no-such-program-xyz --flag", "--no-table")
    assert code == 1
    assert out.count("could not be started: cannot start 'no-such-program-xyz --flag': there is no program "
                     "'no-such-program-xyz'") == adapter.MAX_START_FAILURES
    assert "not tried: the implementation failed to start 3 times in a row" in out
    assert out.strip().splitlines()[-1].startswith("0 passed, 0 failed, ")


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


# --- export ------------------------------------------------------------------------

def test_export_writes_every_case_as_json(capsys, tmp_path):
    code, out, _ = run(capsys, "export", "--format", "json", "-o", tmp_path / "cases.json")
    assert code == 0
    data = json.loads((tmp_path / "cases.json").read_text())
    assert data["format"] == "verifier-cases/1" and data["protocol"] == PROTOCOL
    files = case_files()
    assert len(data["cases"]) == len(files)
    keys = [(c["ruleset"], c["id"]) for c in data["cases"]]
    assert keys == sorted(keys)
    exported = {c["file"]: c for c in data["cases"]}
    for path in files:
        raw = yaml.safe_load(path.read_text())
        entry = exported[str(path.relative_to(ROOT))]
        for field in ("id", "ruleset", "title", "status", "clauses", "before", "actions", "expect", "source"):
            assert entry.get(field) == raw.get(field, entry.get(field)), (path, field)
        case = load_case(path)
        assert entry["readings"] == dict(case.readings) and entry["pinned"] == dict(case.pinned)
    code, out, _ = run(capsys, "export", "--format", "jsonl")
    assert [json.loads(row)["id"] for row in out.splitlines()] == [c["id"] for c in data["cases"]]


def test_export_refuses_broken_cases(capsys, tmp_path):
    (tmp_path / "bad.yaml").write_text(BUMP.read_text().replace("title:", "titel:"))
    code, out, err = run(capsys, "export", tmp_path, "-o", tmp_path / "out.json")
    assert code == 2 and "titel: unknown field 'titel'; did you mean 'title'?" in err
    assert not (tmp_path / "out.json").exists()


# --- the pytest plugin (run in-process with pytester: the interpreter is already warm) ---

pytest_plugins = ["pytester"]


def pytest_run(pytester, *args, cwd=None):
    """Run pytest in-process, from ``cwd`` (default: the repository) with its settings."""
    os.chdir(cwd or ROOT)
    if cwd is None:
        args = ("--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), *args)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *map(str, args))


def test_pytest_gives_every_bundled_case_the_status_verifier_check_gives(pytester):
    done = pytest_run(pytester, "cases/", "-q", "-rA", "--strict-markers", "--verifier-no-draw")
    words = {"PASSED": "passed", "FAILED": "failed", "SKIPPED": "open"}
    got = {}
    for line in done.outlines:
        word, _, rest = line.partition(" ")
        if word in words and "::" in rest:
            got[rest.split("::")[1].split(" ")[0]] = words[word]
    expected = {r.id: r.status for r in check_paths([CASES], RunOptions(draw=False))}
    assert got == expected, "\n".join(done.outlines[-40:])


def test_pytest_selects_cases_by_clause_tag_ruleset_and_status(pytester):
    def selected(*args):
        done = pytest_run(pytester, "cases/", "--collect-only", "-q", "--strict-markers", *args)
        assert done.ret in (0, 5), "\n".join(done.outlines + done.errlines)
        return {row.split("::")[1] for row in done.outlines if "::" in row}

    cases = [load_case(p) for p in case_files()]
    assert selected("-m", "clause_bump_2") == {c.id for c in cases if "bump.2" in c.clauses}
    assert selected("-k", "move.1b and not wind") == {
        c.id for c in cases if any("move.1b" in k for k in c.clauses) and not any(
            "wind" in k for k in (c.id, c.status, *c.tags, *c.clauses, Path(c.path).name))}
    assert selected("-m", "ruleset_ypp and status_derived and tag_basic") == {
        c.id for c in cases if c.status == "derived" and "basic" in c.tags}


def test_pytest_failure_quotes_the_yaml_and_diffs_fields(pytester, tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    folder = tmp_path / "cases" / "ypp"
    folder.mkdir(parents=True)
    broken = folder / "broken.yaml"
    broken.write_text(BUMP.read_text().replace("at: [2, 2], heading: N", "at: [2, 1], heading: E")
                      .replace("id: ypp-move-1b-equal-class-bump", "id: ypp-broken"))
    (folder / "typo.yaml").write_text(BUMP.read_text().replace("title:", "titel:").replace(
        "id: ypp-move-1b-equal-class-bump", "id: ypp-typo"))
    (tmp_path / "cases" / "settings.yaml").write_text("colour: blue\n")  # not a case: left alone
    (tmp_path / "elsewhere.yaml").write_text("ruleset: ypp\n")  # not under cases/: left alone
    done = pytest_run(pytester, "-rA", cwd=tmp_path)
    out = "\n".join(done.outlines)
    assert done.ret == 1, out
    assert "collected 2 items" in out
    line = next(i for i, row in enumerate(broken.read_text().splitlines(), 1) if "heading: E" in row)
    assert f">  {line} |     Self-Centered Blowfish: {{at: [2, 1], heading: E}}" in out
    assert "expect.ships.Self-Centered Blowfish.heading  E         N       " + str(line) in out
    assert "Haughty Sawfish: r1 token.forward, r1 move.1b, r1 bump.2" in out
    assert " *bump.2" in out and "Bump by a ship going forward" in out
    assert f"actual: {tmp_path}/.verifier-failures/ypp/ypp-broken.actual.png" in out
    assert "typo.yaml:2:1: titel: unknown field 'titel'; did you mean 'title'?" in out
    assert ">   2 | titel: Equal class, bump" in out

    # Snapshots: written on request, then compared; a listed failure is a strict xfail.
    pytest_run(pytester, "-q", "--verifier-update-snapshots", cwd=tmp_path)
    assert (tmp_path / "snapshots" / "ypp" / "ypp-broken.png").exists()
    known = tmp_path / "known.txt"
    known.write_text("ypp-broken: the expectation is wrong on purpose\nypp-brokn: a typo\n")
    done = pytest_run(pytester, "-q", "--verifier-known-failures", known, "cases/ypp/broken.yaml", cwd=tmp_path)
    assert done.ret == 0 and "1 xfailed" in done.outlines[-1], done.outlines
    assert f"verifier: {known}:2: no case with id 'ypp-brokn' was run; did you mean 'ypp-broken'?" in done.outlines
    broken.write_text(broken.read_text().replace("at: [2, 1], heading: E", "at: [2, 2], heading: N"))
    done = pytest_run(pytester, "-q", "--verifier-known-failures", known, "cases/ypp/broken.yaml", cwd=tmp_path)
    assert done.ret == 1 and "[XPASS(strict)] known failure" in "\n".join(done.outlines)  # lists shrink


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_pytest_runs_cases_through_another_implementation(pytester):
    done = pytest_run(pytester, "cases/ypp/move-1a-forward.yaml", "cases/ypp/move-1b-equal-class-bump.yaml", "-q",
                      "--verifier-impl", "node tests/impls/naive.js", "--verifier-no-draw")
    assert done.ret == 1
    assert "1 failed, 1 passed" in done.outlines[-1]
    assert "provenance of the reference resolver (the implementation gave none):" in done.outlines
