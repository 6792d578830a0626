"""Exhaustive spaces in shards: the same findings on any number of workers or on a cluster,
a results file that resumes a run and refuses what it cannot trust, the YPP spaces reduced
by symmetry, and commands whose output does not depend on the workers."""

from __future__ import annotations

import json
import shutil
import sys
from itertools import permutations, product

import pytest
from conftest import CASES

from verifier import registry
from verifier.cli import main
from verifier.errors import CaseError
from verifier.execute import Execution, close_clients
from verifier.rulesets.ypp import spaces
from verifier.rulesets.ypp.spaces import Space, symmetries
from verifier.shards import exhaustive, read_results

pytest_plugins = ["pytester"]
CIV = registry.get("civ")
forked = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="local workers are forked on Linux")


def summary(result):
    return (result.counts, result.raw_counts, result.scenes, result.raw_scenes,
            {k: (f.before, f.actions) for k, f in result.examples.items()})


@forked
def test_the_same_findings_on_any_number_of_workers():
    one = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=5)
    two = exhaustive(CIV, space="two-sides", execution=Execution(2), shards=5)
    assert one.scenes == 576 and one.counts
    assert summary(one) == summary(two)


def test_a_results_file_resumes_a_run_without_redoing_shards(tmp_path):
    results = tmp_path / "civ.jsonl"
    whole = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=6, results=results)
    lines = results.read_text().splitlines()
    assert len(lines) == 7 and json.loads(lines[0])["shards"] == 6
    again = exhaustive(CIV, space="two-sides", execution=Execution(1), results=results)
    assert again.resumed == 6 and summary(again) == summary(whole)  # examples enumerated again
    # An interrupted run: three shards recorded, the last line cut short by the interruption.
    results.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    resumed = exhaustive(CIV, space="two-sides", execution=Execution(1), results=results)
    assert resumed.resumed == 3 and summary(resumed) == summary(whole)


@pytest.mark.parametrize("change, message", [
    (lambda lines: ["not json"] + lines[1:], ".jsonl:1: not JSON"),
    (lambda lines: ['{"results": "something else"}'] + lines[1:], "not an exhaustive results file"),
    (lambda lines: [lines[0].replace("two-sides", "landings")] + lines[1:], "records space 'landings'"),
    (lambda lines: lines[:2] + [lines[1]], ".jsonl:3: shard: shard 0 is recorded twice"),
    (lambda lines: lines[:1] + [lines[1].replace('"scenes": ', '"scenes": -')],
     ".jsonl:2: scenes: scenes must be a whole number"),
    (lambda lines: lines[:1] + [lines[1].replace('"shard": 0', '"shard": 9')], "from 0 to 3"),
])
def test_a_results_file_that_cannot_be_trusted_is_a_located_error(tmp_path, change, message):
    results = tmp_path / "civ.jsonl"
    exhaustive(CIV, space="two-sides", execution=Execution(1), shards=4, results=results)
    results.write_text("\n".join(change(results.read_text().splitlines())) + "\n")
    with pytest.raises(CaseError) as error:
        read_results(results, "civ", "two-sides", None)
    assert str(results) in str(error.value) and message in str(error.value)


def test_a_results_file_of_another_shard_count_is_refused(tmp_path):
    results = tmp_path / "civ.jsonl"
    exhaustive(CIV, space="two-sides", execution=Execution(1), shards=4, results=results)
    with pytest.raises(CaseError, match="in 4 shards, this run asks for 5"):
        exhaustive(CIV, space="two-sides", execution=Execution(1), shards=5, results=results)


# --- the YPP spaces reduced by symmetry ------------------------------------------------------

TINY = {"tiny-three": Space(3, 2, ("sloop",), False, ""), "tiny-rock": Space(2, 3, ("sloop", "war frigate"), True, "")}


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(spaces, "SPACES", {**spaces.SPACES, **TINY})
    return TINY


def canonical(space, tiles_states, rock, moves):
    """The smallest image of a named scene under the symmetries and renamings, by brute force."""
    best = None
    for tile, heading, token in moves:
        for order in permutations(range(space.ships)):
            image = (tuple(sorted((tile(tiles_states[i][0]), heading(tiles_states[i][1]), token(tiles_states[i][2]),
                                   tiles_states[i][3]) for i in order)), tile(rock) if rock else None)
            best = image if best is None or image < best else best
    return best


@pytest.mark.parametrize("name", sorted(TINY))
def test_each_class_is_enumerated_once_with_the_scenes_it_stands_for(tiny, name):
    space = tiny[name]
    shards = [list(spaces.shard(name, index, 4)) for index in range(4)]
    found = [item for shard in shards for item in shard]
    assert sum(weight for _, _, weight in found) == space.raw_scenes
    assert len(found) == spaces.classes(name)
    # By brute force on the named scenes: as many classes, and each scene's class appears.
    moves = symmetries(space.size)
    headings, tokens = list(spaces.HEADINGS), list(spaces.TOKENS)

    def key_of(scene, turn):
        tokens_of = dict(turn.rounds[0])
        ships = [(s.at, headings.index(s.heading), tokens.index(tokens_of[s.name]), space.types.index(s.type))
                 for s in scene.ships]
        rock = next(iter(scene.board.rocks), None)
        return canonical(space, ships, rock, moves)

    enumerated = {key_of(scene, turn) for scene, turn, _ in found}
    assert len(enumerated) == len(found)
    board = [(x, y) for x in range(space.size) for y in range(space.size)]
    states = list(product(range(4), range(4), range(len(space.types))))
    sample = 0
    for tiles in permutations(board, space.ships):
        for rock in ([t for t in board if t not in tiles] if space.rock else [None])[:2]:
            for chosen in list(product(states, repeat=space.ships))[::29]:
                ships = [(t, *s) for t, s in zip(tiles, chosen)]
                assert canonical(space, ships, rock, moves) in enumerated
                sample += 1
    assert sample > 500


def test_the_three_ship_space_is_reduced_48_fold():
    three = spaces.SPACES["three-ships"]
    assert three.raw_scenes == 16 * 15 * 14 * 16 ** 3 == 13_762_560
    assert spaces.classes("three-ships") == 286_720  # every placement's states, over 8 symmetries and 6 names
    scene, turn, weight = next(spaces.shard("three-ships", 0, 64))
    assert len(scene.ships) == 3 and len(turn.rounds) == 1 and weight == 48


# --- the commands --------------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ships_picks_the_space_by_its_number_and_errors_are_located(capsys, tmp_path):
    code, _, err = run(capsys, "explore", "ypp", "--exhaustive", "--ships", "9", "--out", str(tmp_path / "x"))
    assert code == 2 and "--ships" in err and "no exhaustive space of 9 pieces" in err and "three-ships" in err
    code, _, err = run(capsys, "explore", "ypp", "--ships", "3", "--out", str(tmp_path / "y"))
    assert code == 2 and "--ships only means something with --exhaustive" in err
    code, _, err = run(capsys, "check", str(CASES / "civ"), "--workers", "0")
    assert code == 2 and "--workers must be 1 or more" in err


@forked
def test_explore_reports_the_same_findings_with_one_or_two_workers(capsys, tmp_path):
    reports = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        code, text, _ = run(capsys, "explore", "civ", "--exhaustive", "--budget", "3600", "--max-examples", "10",
                            "--workers", workers, "--out", str(out), "--cases", str(CASES / "civ"))
        assert code == 0 and "576 scenes" in text
        data = json.loads((out / "report.json").read_text())
        for entry in data["findings"]:
            entry.pop("first_found_seconds", None)
        for key in ("seconds", "scenes_per_second", "workers", "last_class_seconds"):
            data["exhaustive"].pop(key)
        data["search"].pop("seconds")
        files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.suffix in (".yaml", ".png")}
        reports.append((data, files))
    assert reports[0] == reports[1] and reports[0][1]


@forked
def test_check_prints_the_same_with_any_workers_and_writes_snapshots_in_them(capsys, tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    for path in sorted((CASES / "civ").glob("*.yaml"))[:8]:
        shutil.copy(path, cases)
    snapshots = tmp_path / "snapshots"
    outputs = []
    for workers in ("1", "2"):
        code, out, _ = run(capsys, "check", str(cases), "--workers", workers, "--snapshots", str(snapshots / workers),
                           "--failures", str(tmp_path / "failures"))
        assert code == 1 and "no snapshot at" in out  # missing snapshots fail, and none is written
        assert not (snapshots / workers).exists()
        outputs.append(out.replace(f"snapshots/{workers}/", "snapshots/N/"))
    assert outputs[0] == outputs[1]
    code, out, _ = run(capsys, "check", str(cases), "--workers", "2", "--snapshots", str(snapshots / "2"),
                       "--update-snapshots")
    assert code == 0 and out.count("wrote new snapshot") == len(list(cases.glob("*.yaml")))
    code, out, _ = run(capsys, "check", str(cases), "--workers", "2", "--snapshots", str(snapshots / "2"))
    assert code == 0 and "0 failed" in out


def test_an_exhaustive_space_runs_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=4)
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  silence_logs=40) as cluster:
        try:
            remote = exhaustive(CIV, space="two-sides", execution=Execution(scheduler=cluster.scheduler_address),
                                shards=4, results=tmp_path / "civ.jsonl")
        finally:
            close_clients()
    assert remote.workers == 2 and summary(remote) == summary(local)
    assert len((tmp_path / "civ.jsonl").read_text().splitlines()) == 5


@forked
def test_the_pytest_plugin_checks_ahead_in_workers_with_the_same_results(pytester):
    cases = pytester.path / "cases"
    cases.mkdir()
    for path in sorted((CASES / "civ").glob("*.yaml"))[:6]:
        shutil.copy(path, cases)
    broken = cases / "broken.yaml"
    broken.write_text((CASES / "civ" / "a6-advantage-order.yaml").read_text().replace(
        "id: ", "id: broken-", 1).replace("expect:", "expect:\n  nothing: here", 1))
    outcomes = []
    for workers in ("1", "2"):
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--verifier-no-draw", "--verifier-workers",
                                              workers, str(cases))
        outcomes.append(result.parseoutcomes())
        assert "broken-" in result.stdout.str()
    assert outcomes[0] == outcomes[1] and outcomes[0]["failed"] == 1 and outcomes[0]["passed"] >= 5


def test_bad_shard_counts_and_unusable_results_files_are_located_errors(tmp_path):
    for shards in (0, -3):
        with pytest.raises(CaseError, match="--shards must be from 1"):
            exhaustive(CIV, space="two-sides", execution=Execution(1), shards=shards)
    with pytest.raises(CaseError) as error:
        exhaustive(CIV, space="two-sides", execution=Execution(1), results=tmp_path)  # a folder
    assert str(tmp_path) in str(error.value) and "cannot read the results file" in str(error.value)
    with pytest.raises(CaseError, match="cannot write the results file"):
        exhaustive(CIV, space="two-sides", execution=Execution(1), results=tmp_path / "no" / "such.jsonl")
