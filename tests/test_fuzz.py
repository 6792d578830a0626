"""verifier fuzz: toy implementations with planted behaviour (tests/impls/fuzz_*.py)
run through generated scenes; the report must tell what was planted."""

from __future__ import annotations

import itertools
import json
import os
import sys
from pathlib import Path

import pytest

from verifier import registry
from verifier.adapter import open_implementation
from verifier.case import load_case
from verifier.cli import main
from verifier.errors import UnsupportedError
from verifier.fuzz import reference_table, run, verdict, write_report
from verifier.ruleset import Capability, Ruleset

ROOT = Path(__file__).parent.parent
IMPLS = Path(__file__).parent / "impls"
YPP = registry.get("ypp")


@pytest.fixture(autouse=True)
def impls_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))


def fuzz(spec: str, examples: int = 80, seed: int = 0, ruleset: str = "ypp", **options):
    impl = open_implementation(spec, 10, rulesets=[ruleset])
    try:
        return run(registry.get(ruleset), impl, examples=examples, seed=seed, budget=120, **options)
    finally:
        impl.close()


@pytest.mark.parametrize("key", ["ypp", "civ"])
def test_the_reference_table_agrees_with_resolving_under_every_reading(key):
    """The table resolves only the combinations of the points a scene consults; every
    full reading must still get the outcome a direct resolve gives."""
    ruleset = registry.get(key)
    size, scenes = ruleset.exhaustive_space(next(iter(ruleset.exhaustive_spaces())))
    readings = ruleset.all_readings()
    checked = consulted = 0
    for before, actions in itertools.islice(scenes, 0, None, max(1, size // 150)):
        table = reference_table(ruleset, before, actions)
        consulted += bool(table.points)
        for reading in readings:
            assert table.key(reading) == ruleset.outcome_key(ruleset.resolve(before, actions, reading))
        checked += 1
    assert checked >= 100 and consulted > 0


def test_reference_is_explained_by_the_default_reading_everywhere():
    result = fuzz("python:verifier.adapters.reference:handle")
    answered = len(result.answered)
    assert answered == len(result.trials) == 80
    assert dict(result.readings[result.best]) == dict(YPP.default_reading)
    assert result.explained[result.best] == answered
    assert result.unexplained == result.other_reading == 0
    assert not result.groups and not result.divergences and not result.problems
    assert result.order_checked == 80 and result.repeat_checked == 16


def test_a_non_default_reading_is_named(tmp_path):
    result = fuzz("python:fuzz_other_reading:handle", examples=120)
    best = dict(result.readings[result.best])
    assert best == {**YPP.default_reading, "bump": "motion-first", "vacate": "blocked"}
    assert result.explained[result.best] == len(result.answered)
    assert result.runner_up is not None and result.explained[result.runner_up] < result.explained[result.best]
    for point, option in (("bump", "motion-first"), ("vacate", "blocked")):
        entry = result.points[point]
        assert entry["informative"] > 0
        assert entry["options"][option]["share"] == 1.0
        assert entry["options"][entry["default"]]["share"] < 1.0
    _, md_path, _ = write_report(result, tmp_path)
    assert "The implementation follows bump=motion-first, vacate=blocked" in md_path.read_text()


def test_a_planted_bug_is_found_and_shrunk_to_a_minimal_scene(tmp_path):
    result = fuzz("python:fuzz_planted_bug:handle", examples=120)
    assert dict(result.readings[result.best]) == dict(YPP.default_reading)
    assert result.unexplained > 0 and result.groups
    # The bug turns the bumping ship: every group differs in a ship's heading only, and
    # shrinks to two ships.
    for group in result.groups:
        assert group.fingerprint.endswith(":ships.*.heading"), group.fingerprint
    assert min(len(g.before.ships) for g in result.groups) == 2
    assert sum(g.count for g in result.groups) + result.groups_not_shrunk == result.unexplained
    json_path, md_path, data = write_report(result, tmp_path)
    first = data["disagreements"]["groups"][0]
    case_file, diagram = tmp_path / first["case"], tmp_path / first["diagram"]
    assert diagram.read_bytes().startswith(b"\x89PNG")
    text = case_file.read_text()
    assert "# The implementation's outcome:" in text
    case = load_case(case_file)
    assert case.status == "derived"
    group = result.groups[0]
    # The case holds the reference's outcome, so the reference passes it and the toy does not.
    assert not YPP.compare(case.before, case.expect, YPP.resolve(case.before, case.actions, case.readings))
    assert YPP.compare(case.before, case.expect, group.actual)
    assert "Disagreements no reading explains" in md_path.read_text()
    assert json.loads(json_path.read_text())["generator"] == "verifier fuzz"


def test_dependence_on_listing_order_is_reported_and_shrunk(tmp_path):
    result = fuzz("python:fuzz_listing_order:handle", examples=120)
    kinds = {d.kind for d in result.divergences}
    assert kinds == {"order"}
    assert all(d.label == "reversed listing" for d in result.divergences)
    [shown] = result.shown
    assert len(shown.before.ships) == 2  # the toy needs two ships listed in some order, no more
    _, md_path, data = write_report(result, tmp_path)
    example = data["order"]["example"]
    assert example["transform"] == "reversed listing" and data["order"]["differing"] == len(result.divergences)
    case = load_case(tmp_path / example["case"])
    assert case.status == "derived"
    text = (tmp_path / example["case"]).read_text()
    assert "# Its outcome for the same scene after the reversed listing" in text
    assert (tmp_path / example["diagram"]).read_bytes().startswith(b"\x89PNG")
    assert "answers changed beyond the renaming" in md_path.read_text()


def test_random_answers_are_explained_by_no_reading():
    result = fuzz("python:fuzz_random:handle", examples=60)
    answered = len(result.answered)
    assert result.explained[result.best] * 2 < answered
    assert result.unexplained > answered // 2
    assert verdict(result).startswith("No reading explains this implementation")
    assert any(d.kind == "repeat" for d in result.divergences)
    assert [d.kind for d in result.shown] == ["order", "repeat"]


def test_the_same_seed_gives_the_same_report(tmp_path):
    reports, answers = [], []
    for name in ("one", "two"):
        result = fuzz("python:fuzz_planted_bug:handle", examples=60, seed=3)
        _, _, data = write_report(result, tmp_path / name)
        reports.append(data)
        answers.append([t.data for t in result.trials])
    assert reports[0] == reports[1]
    one, two = tmp_path / "one" / "findings", tmp_path / "two" / "findings"
    names = sorted(p.name for p in one.iterdir())
    assert names and names == sorted(p.name for p in two.iterdir())
    for name in names:
        assert (one / name).read_bytes() == (two / name).read_bytes()
    other = fuzz("python:fuzz_planted_bug:handle", examples=60, seed=4)
    assert [t.data for t in other.trials] != answers[0]  # the seed does choose the scenes


def test_failures_are_counted_per_scene_and_the_run_goes_on():
    result = fuzz("python:fuzz_faulty:handle", examples=40)
    counts = {}
    for problem in result.problems:
        counts[problem.kind] = counts.get(problem.kind, 0) + 1
    failing = {p.scene.split("-")[2][-1] for p in result.problems}
    assert failing == {"3", "7"}
    assert counts.get("unreadable", 0) >= 4 and counts.get("protocol", 0) + counts.get("errored", 0) >= 4
    unanswered = {p.scene for p in result.problems if p.scene.count("-") == 2}  # not the resent copies
    assert len(result.answered) == len(result.trials) - len(unanswered) == 32
    assert result.explained[result.best] == len(result.answered)


def test_a_timeout_is_counted_on_its_scene():
    impl = open_implementation("python:fuzz_slow:handle", 0.5, rulesets=["ypp"])
    try:
        result = run(YPP, impl, examples=12, seed=0, budget=120)
    finally:
        impl.close()
    [problem] = result.problems
    assert problem.scene == "fuzz-0-5" and problem.kind == "protocol" and "0.5" in problem.message
    assert len(result.answered) == 11


def test_a_crashing_process_is_restarted(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(IMPLS)]))
    result = fuzz(f"{sys.executable} {IMPLS / 'fuzz_dying.py'}", examples=30)
    crashed = [p for p in result.problems if p.kind == "protocol"]
    assert crashed and {p.scene.split("-")[2][-1] for p in crashed} == {"4"}
    assert len(result.answered) == 27  # scenes 4, 14 and 24 have no answer; the others do
    assert result.explained[result.best] == 27


def test_a_planted_bug_through_a_process(monkeypatch):
    """Shrinking sends many scenes; each request has an id of its own, so the process is
    never taken for out of step."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(IMPLS)]))
    result = fuzz(f"{sys.executable} {IMPLS / 'fuzz_command.py'} fuzz_planted_bug", examples=80)
    assert not result.problems
    assert result.groups and all(g.shrink_tries > 0 for g in result.groups)
    assert min(len(g.before.ships) for g in result.groups) == 2


def test_a_second_ruleset(tmp_path):
    result = fuzz("python:verifier.adapters.reference:handle", examples=40, ruleset="scatter")
    assert result.explained[result.best] == len(result.answered) == 40
    assert dict(result.readings[result.best]) == dict(registry.get("scatter").default_reading)


def test_a_non_default_reading_is_named_on_a_second_ruleset():
    civ = registry.get("civ")
    result = fuzz("python:fuzz_other_reading:handle", examples=80, ruleset="civ")
    assert dict(result.readings[result.best]) == {**civ.default_reading, "advantage": "phantom"}
    assert result.explained[result.best] == len(result.answered) == 80
    entry = result.points["advantage"]
    assert entry["informative"] > 0 and entry["options"]["phantom"]["share"] == 1.0
    assert entry["options"]["strength"]["share"] < 1.0


def test_a_ruleset_without_the_capabilities_is_refused():
    class SearchOnly(Ruleset):
        key = "search-only"
        capabilities = frozenset({Capability.SEARCH, Capability.FINDINGS})

    impl = open_implementation("python:verifier.adapters.reference:handle")
    with pytest.raises(UnsupportedError, match=r"verifier fuzz \(scenes go to the implementation over the adapter "
                                               r"protocol\) needs the 'interchange' capability, which ruleset "
                                               r"'search-only' does not declare"):
        run(SearchOnly(), impl, examples=5)


def test_command(tmp_path, capsys):
    out = tmp_path / "fuzz"
    code = main(["fuzz", "ypp", "--impl", "python:fuzz_planted_bug:handle", "--examples", "60", "--out", str(out),
                 "--workers", "2"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "not parallel yet" in printed and "scenes no reading explains" in printed
    data = json.loads((out / "report.json").read_text())
    assert data["workers"] == 2 and data["disagreements"]["groups"]
    assert "timing" in data and data["timing"]["scenes_per_second"] > 0
    # The case files pass 'verifier check' and fail it through the implementation.
    findings = str(out / "findings")
    assert main(["check", findings, "--no-draw", "--no-table"]) == 0
    assert main(["check", findings, "--no-draw", "--no-table", "--impl", "python:fuzz_planted_bug:handle"]) == 1
    # A second run may replace what the first wrote.
    assert main(["fuzz", "ypp", "--impl", "python:fuzz_planted_bug:handle", "--examples", "60",
                 "--out", str(out)]) == 0


def test_command_stops_when_the_implementation_cannot_start(tmp_path, capsys):
    code = main(["fuzz", "ypp", "--impl", str(tmp_path / "no-such-program"), "--examples", "10",
                 "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1
    assert "the run stopped early: the implementation failed to start 3 times in a row" in err
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    assert data["given_up"].startswith("the implementation failed to start 3 times")
    assert data["problems"]["counts"] == {"protocol": 3} and data["answered"] == 0


def test_command_refuses_a_folder_it_did_not_write(tmp_path, capsys):
    (tmp_path / "mine.yaml").write_text("id: mine\n")
    code = main(["fuzz", "ypp", "--impl", "python:fuzz_planted_bug:handle", "--examples", "5",
                 "--out", str(tmp_path)])
    assert code == 2
    assert "holds files verifier fuzz did not write" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.yaml"]


@pytest.mark.parametrize("argv, words", [
    (["--examples", "0"], "--examples must be 1 or more"),
    (["--budget", "0"], "--budget must be a positive number"),
    (["--workers", "0"], "--workers must be 1 or more"),
])
def test_command_rejects_bad_numbers(tmp_path, capsys, argv, words):
    code = main(["fuzz", "ypp", "--impl", "python:fuzz_planted_bug:handle", "--out", str(tmp_path / "o"), *argv])
    assert code == 2
    assert words in capsys.readouterr().err
