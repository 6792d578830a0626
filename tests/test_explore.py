"""The explorer finds real problems, finds nothing where there is none, and is reproducible."""

from __future__ import annotations

import shutil

import pytest
import yaml
from conftest import CASES, case_files
from toy_ruleset import CONSISTENT, PLANTED, ToyRuleset

from verifier import registry
from verifier.case import load_case
from verifier.cli import main
from verifier.errors import UnsupportedError
from verifier.explore import analyse, example_conflicts, example_matrix, search, shrink
from verifier.explorer import ExploreOptions, run_explore
from verifier.findings import read_report
from verifier.rulesets.ypp import RULESET as YPP
from verifier.shards import exhaustive

# A time budget that only a hang meets: the number of scenes bounds these runs, whatever the load.
HANG = 3600


def kinds_and_clauses(findings):
    return {(f.kind, f.clauses) for f in findings.values()}


def test_ypp_search_finds_the_contradictory_bump_bullets():
    result = search(YPP, budget=HANG, seed=0, max_examples=600)
    contradictions = {f.clauses for f in result.findings.values() if f.kind == "contradiction"}
    # A forward mover that is larger (or smaller) than the ship it bumps is covered by a motion
    # bullet and a class bullet at once, and they prescribe different things.
    assert ("bump.2", "bump.4") in contradictions
    assert ("bump.2", "bump.3") in contradictions
    for finding in result.findings.values():
        if finding.kind == "contradiction" and finding.point == "bump":
            assert all(c.startswith(("bump.", "wind.bump.")) for c in finding.clauses)
    # The other contradiction: case b of step 2 against a bump at a turner's destination.
    reach = {f.clauses for f in result.findings.values() if f.kind == "contradiction" and f.point == "bump_reach"}
    assert reach <= {("bump.1", "move.2b"), ("wind.2b", "wind.bump.1")}
    assert {f.point for f in result.findings.values() if f.kind == "contradiction"} <= {"bump", "bump_reach"}


def test_ypp_search_finds_the_vacate_gap_and_literal_push_breaches():
    result = search(YPP, budget=HANG, seed=0, max_examples=600)
    assert ("gap", ("move.1b", "move.1c")) in kinds_and_clauses(result.findings)
    breaches = {f.label for f in result.findings.values() if f.kind == "breach"}
    assert any("push_blocked=literal" in b for b in breaches)
    # The reference resolver is order-free and symmetric.
    assert not [f for f in result.findings.values() if f.kind in ("order", "symmetry")]


def test_same_seed_same_fingerprints():
    one = search(YPP, budget=HANG, seed=7, max_examples=300)
    two = search(YPP, budget=HANG, seed=7, max_examples=300)
    assert not one.stopped_by_budget and not two.stopped_by_budget
    assert sorted(one.findings) == sorted(two.findings)


def test_consistent_toy_table_has_no_findings():
    toy = ToyRuleset(CONSISTENT)
    assert search(toy, budget=HANG, seed=0, max_examples=200).findings == {}
    assert exhaustive(toy, workers=1).counts == {}


def test_planted_contradiction_and_gap_are_found():
    toy = ToyRuleset(PLANTED)
    found = search(toy, budget=HANG, seed=0, max_examples=200).findings
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
    result = search(YPP, budget=HANG, seed=0, max_examples=600)
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
    # knock_direction=astern: the Equal Class, Bump layouts have the standing ship face away from the
    # mover, so "back towards its stern" would send it into the mover. bump_reach=destination agrees
    # with every documented example: in Forward Versus Turn the ship at the destination arrived in step 1.
    assert conflicts == {("bump", "motion-first"), ("vacate", "blocked"), ("vacate", "stationary"),
                         ("knock_direction", "astern")}


def _explore(where):
    """``verifier explore ypp`` on a copy of the bundled cases: (report folder, cases folder)."""
    out = where / "out"
    cases = where / "cases"
    shutil.copytree(CASES, cases)
    code = main(["explore", "ypp", "--budget", str(HANG), "--max-examples", "300", "--out", str(out),
                 "--cases", str(cases)])
    assert code == 0
    return out, cases


@pytest.fixture(scope="session")
def explored_once(tmp_path_factory):
    """One run for the tests that only read what it wrote (they must not change it)."""
    return _explore(tmp_path_factory.mktemp("explored"))


@pytest.fixture(scope="session")
def engine_run(explored_once):
    """The engine run with the command's options on the same cases, read by several tests."""
    return run_explore(YPP, ExploreOptions(budget=HANG, max_examples=300, cases_dir=explored_once[1]))


@pytest.fixture
def explored(tmp_path, capsys):
    """A run of its own, for a test that changes the cases or the reports."""
    found = _explore(tmp_path)
    capsys.readouterr()
    return found


def test_explore_writes_cases_diagrams_and_reports(explored_once, capsys):
    out, cases = explored_once
    assert (out / "report.md").exists() and (out / "report.json").exists()
    yamls = sorted((out / "findings").glob("*.yaml"))
    assert yamls and len(yamls) == len(list((out / "findings").glob("*.png")))
    contradiction = next((out / "findings").glob("ypp-contradiction-bump-bump.2-bump.4-*.yaml"))
    case = load_case(contradiction)
    assert case.status == "needs-ruling" and case.finding["kind"] == "contradiction"
    assert [dict(r)["bump"] for r, _ in case.outcomes] == ["class-first", "motion-first", "turn-first"]
    # verifier check reports findings as open, not failed.
    assert main(["check", str(out / "findings"), "--no-draw"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"0 passed, 0 failed, {len(yamls)} open")


def test_a_ruling_resolves_the_finding_and_nothing_is_overwritten(explored, capsys):
    out, cases = explored
    source = next((out / "findings").glob("ypp-contradiction-bump-bump.2-bump.4-*.yaml"))
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
    assert main(["explore", "ypp", "--budget", str(HANG), "--max-examples", "300", "--out", str(out),
                 "--cases", str(cases)]) == 0
    printed = capsys.readouterr().out
    assert "RESOLVED contradiction:bump:bump.2+bump.4:-" in printed
    assert source.read_text().endswith("# my notes\n")
    report = yaml.safe_load((out / "report.json").read_text())
    entry = next(f for f in report["findings"] if f["fingerprint"].startswith("contradiction:bump:bump.2+bump.4:-@"))
    assert entry["status"] == "resolved" and entry["resolved_by"] == str(ruling)


def test_the_command_writes_what_the_engine_finds(explored_once, engine_run):
    out, _ = explored_once
    report = yaml.safe_load((out / "report.json").read_text())
    run = engine_run
    assert run.written == () and run.search is not None and run.search.examples == report["search"]["examples"]
    assert [e.finding.fingerprint for e in run.findings] == [f["fingerprint"] for f in report["findings"]]
    assert [e.status for e in run.findings] == [f["status"] for f in report["findings"]]
    assert report["examples"]["cases"] == {c.id: [run.matrix.agrees[(c.id, i)] for i in range(len(run.matrix.readings))]
                                           for c in run.matrix.cases}


def test_a_report_reads_back_to_the_findings_it_was_written_from(explored_once, engine_run):
    out, cases = explored_once
    run = engine_run
    report = read_report(YPP, out, cases)
    assert report is not None and report.seed == 0 and report.search_examples == 300
    assert [e.finding for e in report.findings] == [e.finding for e in run.findings]
    for entry in report.findings:  # each scene read back still shows its finding
        if entry.finding.kind != "example-conflict":
            assert entry.finding.fingerprint in analyse(YPP, entry.finding.before, entry.finding.actions)
    assert read_report(YPP, out / "findings", cases) is None  # no report there


def test_the_engine_searches_enumerates_and_shrinks_through_its_stages():
    toy = ToyRuleset(PLANTED)
    run = run_explore(toy, ExploreOptions(budget=HANG, max_examples=200, exhaustive=True, cases_dir=None))
    assert run.search is not None and run.exhaustive is not None and run.cases == ()
    fingerprints = [e.finding.fingerprint for e in run.findings]
    assert fingerprints == sorted(set(run.search.findings) | set(run.exhaustive.counts))
    assert all(e.status == "open" and e.resolved_by is None for e in run.findings)
    gap = next(e.finding for e in run.findings if e.finding.kind == "gap")
    assert gap.before == (1, 0)  # shrunk, as shrink() alone gives it
    quiet = run_explore(toy, ExploreOptions(search=False, cases_dir=None))
    assert quiet.search is None and quiet.exhaustive is None and quiet.findings == ()
    with pytest.raises(ValueError, match="report folder"):
        quiet.report()


def test_the_engine_refuses_to_write_findings_a_ruleset_cannot_draw(tmp_path):
    toy = ToyRuleset(PLANTED)
    with pytest.raises(UnsupportedError, match="the explorer's report needs the 'findings' capability"):
        run_explore(toy, ExploreOptions(out=tmp_path / "out", cases_dir=None))
    assert not (tmp_path / "out").exists()


def test_explore_rejects_unknown_ruleset(capsys):
    assert main(["explore", "ypq", "--budget", "1"]) == 2
    assert "did you mean 'ypp'?" in capsys.readouterr().err


def test_explore_refuses_a_search_of_no_scenes(tmp_path, capsys):
    assert main(["explore", "ypp", "--max-examples", "0", "--out", str(tmp_path / "out")]) == 2
    assert "--max-examples must be 1 or more" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


_SCENE_DIGEST = """
import hashlib, json, sys
for name in sys.argv[2:]:
    __import__(name)  # a different set of our modules loaded before the search
from verifier import explore, registry
from verifier.execute import Execution
seen = []
for key in ("ypp", "armada", "armada2k", "civ", "scatter"):
    result = explore.search(registry.get(key), seed=3, max_examples=120, budget=600,
                            execution=Execution(int(sys.argv[1])))
    seen.append(f"{key} {result.examples}")
    ruleset = registry.get(key)
    seen.extend(f"{f} {result.findings[f].visible} "
                + json.dumps(ruleset.case_data(result.findings[f].before, result.findings[f].actions), sort_keys=True,
                             default=str)
                for f in sorted(result.findings))
print(hashlib.sha256("\\n".join(seen).encode()).hexdigest(), len(seen))
"""


def test_same_seed_same_scenes_and_findings_whatever_the_process():
    # Scenes are built from the seed and the scene's number alone (kit.choices), so a script,
    # a command and a test run, with any modules loaded, any string hashing and any number of
    # workers, try the same scenes and keep the same example of each finding.
    import os
    import subprocess
    import sys

    def digest(workers: int, *preload: str, hash_seed: str = "0") -> str:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", _SCENE_DIGEST, str(workers), *preload], capture_output=True,
                             text=True, timeout=600, env=env)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    plain = digest(1)
    assert digest(1, "verifier.case", "verifier.cli", "verifier.docs", "verifier.fuzz", hash_seed="12345") == plain
    assert digest(2) == plain


def test_seeded_scenes_are_the_same_in_process_and_differ_by_seed():
    from verifier.generation import seeded_scene
    for key in ("ypp", "armada", "armada2k", "civ", "scatter"):
        ruleset = registry.get(key)
        one = [seeded_scene(ruleset, 5, i) for i in range(40)]
        assert [seeded_scene(ruleset, 5, i) for i in range(40)] == one
        assert [seeded_scene(ruleset, 6, i) for i in range(40)] != one
        assert any(visit is not None for _, _, visit in one), f"{key}: no scene on a boundary"


def test_one_reading_point_in_two_situation_shapes_gives_two_findings():
    from verifier.explore import analyse
    from verifier.rulesets.ypp import RULESET as YPP
    from verifier.rulesets.ypp.model import Board, Heading, Scene, Ship, Token, Turn
    turn = Turn(((("A", Token.FORWARD),),))
    across = Scene(Board(7, 7), (Ship("A", "sloop", (3, 4), Heading.N), Ship("B", "sloop", (3, 3), Heading.E)))
    ahead = Scene(Board(7, 7), (Ship("A", "sloop", (3, 4), Heading.N), Ship("B", "sloop", (3, 3), Heading.N)))
    mirrored = Scene(Board(7, 7), (Ship("A", "sloop", (3, 4), Heading.N), Ship("B", "sloop", (3, 3), Heading.W)))

    def knock(scene):
        return {k for k, f in analyse(YPP, scene, turn).items() if f.point == "knock_direction"}
    one, two, three = knock(across), knock(ahead), knock(mirrored)
    assert len(one) == len(two) == 1 and one != two  # different shapes, different findings
    assert one == three  # a mirror image is the same situation
    assert all("@" in k for k in one | two)


def test_a_transforms_quick_key_is_the_key_of_the_transformed_scene_resolved_in_full():
    # The explorer takes Transform.key (ypp: resolved without frames) instead of resolving the
    # turned, mirrored or renamed scene: the two must agree, under any reading.
    from verifier.generation import seeded_scene
    readings = [YPP.default_reading, YPP.reading({"push_blocked": "literal", "bump": "motion-first"})]
    checked = 0
    for index in range(150):
        before, actions, _ = seeded_scene(YPP, 11, index)
        for transform in YPP.transforms(before, actions):
            assert transform.key is not None
            for reading in readings:
                full = YPP.outcome_key(YPP.resolve(transform.before, transform.actions, reading))
                assert transform.key(reading) == full, (transform.name, index)
                checked += 1
    assert checked >= 600


def test_ypp_breaches_shared_by_outcomes_with_one_set_of_frames_are_those_of_each():
    # Readings that change only the ram damage share the default's frames, and so its breaches
    # (worked out once); an outcome of another scene is never handed another's breaches.
    from verifier.rulesets.ypp.explore import _BREACHES, invariant_breaches
    from verifier.rulesets.ypp.model import Board, Heading, Scene, Ship, Token, Turn
    turn = Turn(((("A", Token.FORWARD),),))
    scene = Scene(Board(3, 3), (Ship("A", "war frigate", (1, 1), Heading.E), Ship("B", "sloop", (2, 1), Heading.N)))
    literal = YPP.reading({"push_blocked": "literal"})
    outcome = YPP.resolve(scene, turn, literal)
    breaches = invariant_breaches(scene, turn, outcome)
    assert ("ship off the board", ("B",)) in [(kind, ships) for kind, ships, _ in breaches]
    heavier = YPP.resolve(scene, turn, YPP.reading({"push_blocked": "literal", "ram_unit": "large"}))
    assert heavier.frames is outcome.frames and invariant_breaches(scene, turn, heavier) == breaches
    _BREACHES.clear()
    assert invariant_breaches(scene, turn, outcome) == breaches
    fewer = Scene(scene.board, scene.ships[:1])  # the same frames against a scene of one ship: a ship lost
    assert ("ship lost", ()) in [(kind, ships) for kind, ships, _ in invariant_breaches(fewer, turn, outcome)]


def test_ypp_seeded_fleets_of_three_or_more_are_often_of_one_class():
    # Two bumps on one ship, each decided by the motion bullets, need three ships of one class:
    # the seeded stream makes half such fleets of one class, so the search meets them early.
    from verifier.generation import seeded_scene
    fleets = [before.ships for before, _, _ in (seeded_scene(YPP, 2, i, 0.0) for i in range(400))
              if len(before.ships) >= 3]
    alike = sum(len({ship.size for ship in ships}) == 1 for ships in fleets)
    assert len(fleets) > 100 and alike > len(fleets) / 3


def test_ypp_transforms_turned_four_times_or_mirrored_twice_give_the_scene_back():
    # Each transform is built by hand (tiles, headings, wind, whirlpools, tokens, names): turning
    # a scene a quarter four times, or mirroring it twice, must give back the scene and its key.
    from verifier.generation import seeded_scene

    def transformed(before, actions, name):
        return next(t for t in YPP.transforms(before, actions) if t.name == name)

    mirrored = 0
    for index in range(200):
        before, actions, _ = seeded_scene(YPP, 13, index)
        key = YPP.outcome_key(YPP.resolve(before, actions, YPP.default_reading))
        scene, mapped = (before, actions), key
        for _ in range(4):
            turn = transformed(*scene, "quarter turn")
            scene, mapped = (turn.before, turn.actions), turn.map_key(mapped)
        assert scene == (before, actions) and mapped == key
        if not before.board.whirlpools:
            once = transformed(before, actions, "mirror")
            twice = transformed(once.before, once.actions, "mirror")
            assert (twice.before, twice.actions) == (before, actions)
            assert twice.map_key(once.map_key(key)) == key
            mirrored += 1
        order = transformed(before, actions, "reversed listing")
        assert [s.type for s in order.before.ships] == [s.type for s in reversed(before.ships)]
    assert mirrored > 50


def test_ypp_breaches_are_those_of_a_check_of_every_frame():
    # invariant_breaches passes over frames that show nothing new (the same places as the frame
    # before); a plain check of every frame and every pair of frames finds the same breaches.
    from verifier.generation import seeded_scene
    from verifier.rulesets.ypp.explore import invariant_breaches

    def every_frame(before, outcome):
        found = set()
        board = before.board
        frames = [moment.state for moment in outcome.frames]
        for frame in frames:
            places = [at for _, at, _ in frame]
            for i, (name, at, _) in enumerate(frame):
                found |= {("two ships on one tile", tuple(sorted((other, name))))
                          for other, there, _ in frame[:i] if there == at}
                if not board.on_board(at):
                    found.add(("ship off the board", (name,)))
                elif at in board.rocks:
                    found.add(("ship on a rock", (name,)))
            assert len(places) == len(frame)
        for was, now in zip(frames, frames[1:]):
            start, end = {n: at for n, at, _ in was}, {n: at for n, at, _ in now}
            found |= {("ships pass through each other", (a, b)) for a in start for b in start
                      if a < b and b in end and a in end and start[a] == end[b] and start[b] == end[a]
                      and start[a] != start[b]}
        if len(outcome.after.ships) != len(before.ships):
            found.add(("ship lost", ()))
        return found

    literal = YPP.reading({"push_blocked": "literal"})
    breached = 0
    for index in range(400):
        before, actions, _ = seeded_scene(YPP, 17, index)
        for reading in (YPP.default_reading, literal):
            outcome = YPP.resolve(before, actions, reading)
            found = {(kind, ships) for kind, ships, _ in invariant_breaches(before, actions, outcome)}
            assert found == every_frame(before, outcome), index
            breached += bool(found)
    assert breached > 5
