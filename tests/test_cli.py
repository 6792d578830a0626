"""The command line: exit codes, the summary line, reports, one-line errors."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET

import pytest
from conftest import CASES

from verifier.cli import main

BUMP = CASES / "ypp" / "move-1b-equal-class-bump.yaml"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def broken_case(tmp_path):
    """The bump example with two wrong expectations."""
    text = BUMP.read_text().replace("at: [2, 2], heading: N", "at: [2, 1], heading: E")
    text = text.replace("id: ypp-move-1b-equal-class-bump", "id: ypp-broken")
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    return path


def test_check_passes_on_a_good_case(capsys):
    code, out, _ = run(capsys, "check", "--no-draw", str(BUMP))
    assert code == 0
    assert out.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_check_reports_every_mismatch_with_file_and_line(capsys, broken_case):
    code, out, _ = run(capsys, "check", "--no-draw", str(broken_case))
    assert code == 1
    lines = out.strip().splitlines()
    assert lines[-1] == "0 passed, 1 failed"
    problems = [line for line in lines if line.startswith("  ")]
    assert len(problems) == 2
    line_no = next(i for i, text in enumerate(broken_case.read_text().splitlines(), 1) if "heading: E" in text)
    assert any(f"{broken_case}:{line_no}:" in p and "should end at [2, 1] but ends at [2, 2]" in p for p in problems)
    assert any("should face E but faces N" in p for p in problems)


def test_check_writes_json_and_junit(capsys, tmp_path, broken_case):
    shutil.copy(BUMP, tmp_path / "good.yaml")
    code, out, _ = run(capsys, "check", "--no-draw", str(tmp_path), "--json", str(tmp_path / "r.json"),
                       "--junit", str(tmp_path / "r.xml"))
    assert code == 1
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["summary"]["passed"] == 1 and report["summary"]["failed"] == 1
    failed = next(c for c in report["cases"] if c["status"] == "failed")
    assert len(failed["problems"]) == 2 and all(p["line"] for p in failed["problems"])
    passed = next(c for c in report["cases"] if c["status"] == "passed")
    assert passed["outcome"]["ships"]["Self-Centered Blowfish"]["at"] == [2, 2]
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert len(suite.findall("testcase/failure")) == 1


def test_malformed_case_is_a_failure_not_a_traceback(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BUMP.read_text().replace("title:", "titel:"))
    code, out, err = run(capsys, "check", "--no-draw", str(bad))
    assert code == 1 and "Traceback" not in out + err
    assert f"{bad}:2:1: titel: unknown field 'titel'; did you mean 'title'?" in out


def test_show_prints_provenance(capsys):
    code, out, _ = run(capsys, "show", str(BUMP))
    assert code == 0
    assert "r1 move.1b" in out and "r1 bump.2" in out and "matches the case's expectation" in out


def test_show_with_another_reading(capsys, tmp_path):
    text = BUMP.read_text().replace("type: sloop, at: [2, 4]", "type: war frigate, at: [2, 4]")
    path = tmp_path / "bigger.yaml"
    path.write_text(text)
    code, out, _ = run(capsys, "show", str(path), "--reading", "bump=motion-first")
    assert code == 0 and "bump=motion-first" in out and "r1 bump.2" in out
    code, out, _ = run(capsys, "show", str(path))
    assert "r1 bump.4" in out and "differs from the case's expectation" in out


@pytest.mark.parametrize("argv,words", [
    (["show", "missing.yaml"], "missing.yaml: no such file"),
    (["show", str(BUMP), "--reading", "bump=sideways"], "has no option 'sideways'"),
    (["show", str(BUMP), "--reading", "bump"], "--reading takes POINT=OPTION"),
    (["clauses", "ypq"], "unknown ruleset 'ypq'; did you mean 'ypp'?"),
    (["check", "no/such/folder"], "no/such/folder: no such file or folder"),
])
def test_errors_are_one_line_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and words in err and err.startswith("error: ")


def test_help_lists_commands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("check", "show", "render", "clauses", "schema", "bench"):
        assert command in out


def test_clauses_lists_table_and_readings(capsys):
    code, out, _ = run(capsys, "clauses", "ypp")
    assert code == 0 and "move.1a" in out and "class-first (default)" in out


def test_clauses_lists_the_glossary_and_each_clauses_terms(capsys):
    from verifier.rulesets.ypp import RULESET as YPP
    code, out, _ = run(capsys, "clauses", "ypp")
    assert code == 0
    assert f"glossary ({len(YPP.glossary)} terms: " in out
    assert "back [doubly defined, direction; judged at the step of the bump]" in out
    assert "  reading point: knock_direction" in out
    bump2 = out[out.index("bump.2 "):out.index("bump.3 ")]
    assert "terms: " in bump2 and "back" in bump2.split("terms: ")[1]
    # Every bundled ruleset has a glossary now; scatter's lists its undefined words with their readings.
    from verifier.rulesets.scatter import RULESET as SCATTER
    code, out, _ = run(capsys, "clauses", "scatter")
    assert code == 0 and f"glossary ({len(SCATTER.glossary)} terms: " in out and "reading point: touch" in out


def test_escaped_output_still_tells_a_terminal_from_a_log():
    import io

    from verifier.cli import _Printable

    class Terminal(io.StringIO):
        encoding = "utf-8"

        def isatty(self):
            return True

    assert _Printable(Terminal()).isatty() and _Printable(Terminal()).encoding == "utf-8"
    assert not _Printable(io.StringIO()).isatty()


def test_a_reader_that_goes_away_ends_the_output_quietly():
    import subprocess
    import sys

    # Closing the pipe after one line: the rest of the clause table has nowhere to go.
    reader = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.readline()"], stdin=subprocess.PIPE)
    writer = subprocess.run([sys.executable, "-m", "verifier.cli", "clauses", "ypp"], stdout=reader.stdin,
                            stderr=subprocess.PIPE, text=True, timeout=120)
    reader.stdin.close()
    reader.wait(timeout=30)
    assert writer.stderr == "" and writer.returncode in (0, 141)
