"""Hostile and broken case files, trees and output paths: each gets a located error and a
bounded cost, one bad case is one failed case, and nothing is overwritten without --force.

The corpus is tests/hostile/: each file's first line says which words its error must
hold. The hostile implementations are in tests/test_adapter_hostile.py."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import CASES, ROOT

from verifier.cli import main
from verifier.errors import CaseError
from verifier.known_failures import load_known_failures
from verifier.runner import RunOptions, Status, check_paths

pytest_plugins = ["pytester"]

HOSTILE = ROOT / "tests" / "hostile"
GOOD = [CASES / "ypp" / "move-1a-forward.yaml", CASES / "ypp" / "move-2a-turn.yaml",
        CASES / "scatter" / "seed-test-01-one-inch-straight-on-after-miss.yaml"]


def _expected(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name} must start with '# expect: WORDS'"
    return first.removeprefix("# expect: ")


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_hostile_case_file_is_one_located_failure(path, capsys):
    assert main(["check", "--no-draw", "--no-table", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "0 passed, 1 failed"
    problem = out.splitlines()[1].strip()
    assert problem.startswith(f"{path}:"), problem
    line = problem.removeprefix(f"{path}:").split(":")[0]
    assert line.isdigit() and int(line) >= 1, f"no line number in {problem!r}"
    assert _expected(path) in problem
    assert len(problem) < 400, "an error quotes the input back only in short"


def test_bad_files_among_good_ones_fail_alone_and_every_report_is_written(tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    for path in GOOD + sorted(HOSTILE.glob("*.yaml")):
        shutil.copy(path, folder / path.name)
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    assert main(["check", "--no-draw", "--json", str(report), "--junit", str(junit), str(folder)]) == 1
    hostile = len(list(HOSTILE.glob("*.yaml")))
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(GOOD)} passed, {hostile} failed"
    data = json.loads(report.read_text())
    assert data["summary"]["passed"] == len(GOOD) and data["summary"]["failed"] == hostile
    assert all(case["problems"][0]["line"] for case in data["cases"] if case["status"] == "failed")
    suites = ET.parse(junit).getroot()
    assert int(suites.get("failures")) == hostile


def test_a_crash_inside_a_ruleset_is_that_case_s_failure(monkeypatch):
    from verifier import registry

    ypp = registry.get("ypp")

    def broken(before, actions, reading):
        raise ZeroDivisionError("the resolver divided by zero")

    monkeypatch.setattr(type(ypp), "resolve", lambda self, *a: broken(*a))
    results = list(check_paths(GOOD, RunOptions(draw=False)))
    assert [r.status for r in results] == [Status.FAILED, Status.FAILED, Status.PASSED]
    message = results[0].problems[0].message
    assert "raised ZeroDivisionError (the resolver divided by zero)" in message
    assert results[0].problems[0].location.file == str(GOOD[0]) and results[0].case is not None


# --- files that are not plain files inside the tree ----------------------------------------

def test_a_link_out_of_the_tree_a_fifo_and_a_link_loop_are_refused(tmp_path, capsys):
    folder = tmp_path / "cases"
    folder.mkdir()
    shutil.copy(GOOD[0], folder / "good.yaml")
    outside = tmp_path / "outside.yaml"
    shutil.copy(GOOD[1], outside)
    (folder / "link-out.yaml").symlink_to(outside)
    (folder / "link-in.yaml").symlink_to(folder / "good.yaml")
    os.mkfifo(folder / "pipe.yaml")
    (folder / "loop").symlink_to(folder)
    assert main(["check", "--no-draw", "--no-table", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "outside" in out and "case files must sit inside the folder being checked" in out
    assert "a named pipe, not a file" in out
    # The link inside the tree is a second name for the good case: its id repeats.
    assert out.splitlines()[-1] == "1 passed, 3 failed"


def test_pytest_collection_reports_a_bad_file_as_one_failing_item(pytester):
    cases = pytester.path / "cases"
    cases.mkdir()
    shutil.copy(GOOD[0], cases / "good.yaml")
    shutil.copy(HOSTILE / "recursive-alias.yaml", cases / "bad.yaml")
    os.mkfifo(cases / "pipe.yaml")  # pytest's walk passes over it; it must not hang on it either
    (cases / "loop").symlink_to(cases)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--verifier-no-draw", str(cases))
    result.assert_outcomes(passed=1, failed=1)
    assert "an alias refers to a value that contains it" in result.stdout.str()


# --- nothing is overwritten without asking ------------------------------------------------

@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A copy of two cases, their snapshots and a known-failure list, as the working folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    shutil.copy(GOOD[0], tmp_path / "cases" / "good.yaml")
    (tmp_path / "snapshots").mkdir()
    shutil.copy(ROOT / "snapshots" / "ypp" / "ypp-move-1a-forward.png", tmp_path / "snapshots" / "shot.png")
    (tmp_path / "known.txt").write_text("ypp-move-1a-forward: not yet\n")
    return tmp_path


@pytest.mark.parametrize("argv, victim", [
    (["export", "cases", "-o", "cases/good.yaml"], "cases/good.yaml"),
    (["schema", "-o", "snapshots/shot.png"], "snapshots/shot.png"),
    (["check", "cases", "--no-draw", "--json", "known.txt"], "known.txt"),
    (["check", "cases", "--no-draw", "--junit", "cases/good.yaml"], "cases/good.yaml"),
    (["render", "cases/good.yaml", "-o", "snapshots/shot.png"], "snapshots/shot.png"),
])
def test_a_command_does_not_replace_a_file_it_did_not_write(tree, capsys, argv, victim):
    before = (tree / victim).read_bytes()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "was not written by the verifier" in err and "--force" in err
    assert (tree / victim).read_bytes() == before


def test_links_are_never_written_through(tree, capsys):
    os.link(tree / "cases" / "good.yaml", tree / "hard.png")
    (tree / "soft.json").symlink_to(tree / "known.txt")
    before = (tree / "cases" / "good.yaml").read_bytes()
    assert main(["render", "cases/good.yaml", "-o", "hard.png"]) == 2
    assert "hard links" in capsys.readouterr().err
    assert main(["export", "cases", "-o", "soft.json"]) == 2
    assert "is a link" in capsys.readouterr().err
    # With --force the link itself is replaced; what it pointed at is untouched.
    assert main(["render", "cases/good.yaml", "-o", "hard.png", "--force"]) == 0
    assert main(["export", "cases", "-o", "soft.json", "--force"]) == 0
    assert (tree / "cases" / "good.yaml").read_bytes() == before
    assert (tree / "known.txt").read_text() == "ypp-move-1a-forward: not yet\n"
    assert not (tree / "soft.json").is_symlink() and (tree / "hard.png").stat().st_nlink == 1


def test_a_command_replaces_what_it_wrote_itself(tree, capsys):
    for argv in (["export", "cases", "-o", "out.json"], ["schema", "-o", "schema.json"],
                 ["render", "cases/good.yaml", "-o", "picture.png"],
                 ["check", "cases", "--no-draw", "--json", "r.json", "--junit", "r.xml"]):
        assert main(argv) in (0, 1)
        assert main(argv) in (0, 1), capsys.readouterr().err  # the second run replaces the first's files
    assert "refusing" not in capsys.readouterr().err


def test_explore_does_not_plant_findings_in_a_case_folder(tree, capsys):
    assert main(["explore", "ypp", "--out", "cases", "--budget", "1"]) == 2
    assert "holds files the explorer did not write" in capsys.readouterr().err
    assert sorted(p.name for p in (tree / "cases").iterdir()) == ["good.yaml"]


# --- outputs are well formed -----------------------------------------------------------------

def test_control_characters_are_escaped_on_the_terminal(tmp_path, capsys):
    text = GOOD[0].read_text().replace("title: A plain forward move into open water",
                                       'title: "Clear\\x1b[2J the \\x07screen\\r"')
    case = tmp_path / "ctl.yaml"
    case.write_text(text)
    assert main(["show", str(case)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "Clear\\x1b[2J the \\x07screen\\x0d" in out


def test_junit_stays_valid_xml_whatever_the_messages_hold(tmp_path):
    from verifier.errors import Location
    from verifier.report import junit_bytes
    from verifier.runner import CaseResult, Problem
    message = "the answer was \x00\x1b[2J\x07\ud800 <b>&amp;</b>"
    result = CaseResult("x.yaml", None, Status.FAILED, (Problem(message, Location("x.yaml", 1)),))
    root = ET.fromstring(junit_bytes([result]))
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None and "\\x1b[2J" in failure.get("message") and "<b>&amp;</b>" in failure.text


# --- a run that checks nothing ------------------------------------------------------------------

def test_a_run_that_checks_nothing_fails_unless_asked(tmp_path, capsys, monkeypatch):
    impl = tmp_path / "skipper.py"
    impl.write_text("from verifier.adapters.reference import handle as reference\n\n"
                    "def handle(message):\n"
                    "    if message['type'] == 'hello':\n"
                    "        return reference(message)\n"
                    "    return {'type': 'skipped', 'id': message['id'], 'reason': 'not today'}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = ["check", "--no-draw", "--impl", "python:skipper:handle", *map(str, GOOD)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "0 passed, 0 failed, 3 skipped"
    assert "nothing was checked" in captured.err and "not today" in captured.err
    assert main([*argv, "--allow-empty"]) == 0


# --- known-failure lists ------------------------------------------------------------------------

def test_known_failure_lists_take_a_bom_but_not_an_empty_list_or_a_path(tmp_path):
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeffypp-move-1a-forward: not yet\n".encode())
    assert "ypp-move-1a-forward" in load_known_failures(bom)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n")
    with pytest.raises(CaseError, match="names no case"):
        load_known_failures(empty)
    paths = tmp_path / "paths.txt"
    paths.write_text("cases/ypp/move-1a-forward.yaml: the file\n")
    with pytest.raises(CaseError, match="is not a case id"):
        load_known_failures(paths)


def test_a_file_that_does_not_load_cannot_be_an_expected_failure(tmp_path, capsys):
    broken = tmp_path / "ypp-broken.yaml"
    broken.write_text("id: [unclosed\n")
    known = tmp_path / "known.txt"
    known.write_text("ypp-broken: it is broken\n")
    assert main(["check", "--no-draw", "--known-failures", str(known), str(broken)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 1 failed"
