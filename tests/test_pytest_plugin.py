"""The pytest plugin, run in-process with pytester: the same statuses as verifier
check, selection by markers, failures that quote the YAML, and another implementation."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import BUMP, CASES, NODE, ROOT, case_files

from verifier.case import load_case
from verifier.runner import RunOptions, check_paths

pytestmark = pytest.mark.usefixtures("in_repo")


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
