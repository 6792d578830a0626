"""check --impl (verifier/adapter/run.py): a deliberately wrong implementation in
another language gets exactly its failures reported; known-failure lists; reports
never overwrite a case file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import BUMP, NODE, case_files, run

from verifier.adapter import supports_protocol
from verifier.case import load_case
from verifier.errors import CaseError
from verifier.known_failures import load_known_failures
from verifier.ruleset import compare_outcome

pytestmark = pytest.mark.usefixtures("in_repo")


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
            mismatches = [m for m in compare_outcome(case.ruleset, case.before, case.expect, outcome)
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
