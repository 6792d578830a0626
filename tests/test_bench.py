"""Smoke tests of ``verifier bench``: it runs, names its figures and prints numbers.

Speed is never asserted here; the sizes are tiny so the whole file takes a few seconds.
"""

from __future__ import annotations

import json
import re
import shutil
import types
from pathlib import Path

import pytest

from verifier import bench
from verifier.rulesets.ypp import RULESET
from verifier.rulesets.ypp.model import Token

REPO = Path(__file__).resolve().parent.parent
NUMBER = r"[0-9][0-9,]*(?:\.[0-9]+)?"


def _tiny_setup(tmp_path: Path) -> tuple[Path, Path]:
    """One bundled case (and its snapshot, if there is one) copied into tmp_path."""
    files = sorted((REPO / "cases" / "ypp").glob("*.yaml"))
    if not files:
        pytest.skip("no bundled cases")
    cases = tmp_path / "cases" / "ypp"
    cases.mkdir(parents=True)
    shutil.copy(files[0], cases / files[0].name)
    snapshots = tmp_path / "snapshots"
    (snapshots / "ypp").mkdir(parents=True)
    for png in (REPO / "snapshots" / "ypp").glob("*.png") if (REPO / "snapshots" / "ypp").is_dir() else ():
        shutil.copy(png, snapshots / "ypp" / png.name)
    return cases.parent, snapshots


def _args(tmp_path: Path, cases: Path, snapshots: Path, **extra) -> types.SimpleNamespace:
    settings = dict(cases=str(cases), quick=True, json=str(tmp_path / "bench.json"), snapshots=str(snapshots),
                    repeats=1, sizes=(30, 120), memory_ships=120)
    return types.SimpleNamespace(**{**settings, **extra})


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_bench_prints_every_figure(tmp_path, capsys):
    cases, snapshots = _tiny_setup(tmp_path)
    before = _tree(snapshots)
    code = bench.main(_args(tmp_path, cases, snapshots))
    out = capsys.readouterr().out
    assert code == 0, out

    draw_line = re.search(r"^check: cases/s \(with drawing\) +(\S+)", out, re.M)
    assert draw_line and (re.fullmatch(NUMBER, draw_line.group(1)) or draw_line.group(1) == "unavailable"), out
    assert re.search(rf"^check: cases/s \(no drawing\) +{NUMBER}  median {NUMBER}; 1 cases", out, re.M), out
    assert re.search(rf"^resolver: rounds/s \(2 ships, record=False\) +{NUMBER} ", out, re.M), out
    assert re.search(rf"^resolver: rounds/s \(2 ships, record=True\) +{NUMBER} ", out, re.M), out
    assert re.search(rf"^turn: 30 ships, 4 rounds +{NUMBER} (?:s|ms|us) ", out, re.M), out
    assert re.search(rf"^turn: 120 ships, 4 rounds +{NUMBER} (?:s|ms|us) .*with the GC paused {NUMBER} (?:s|ms|us)",
                     out, re.M), out
    assert re.search(rf"^turn: t\(120\)/t\(30\) +{NUMBER} ", out, re.M), out
    assert re.search(rf"^turn: peak memory, 120 ships +{NUMBER} MB ", out, re.M), out

    data = json.loads((tmp_path / "bench.json").read_text())
    assert data["check"]["cases"] == 1
    assert data["check"]["without_draw"]["cases_per_second"] > 0
    for record in ("record_false", "record_true"):
        assert data["rounds"][record]["rounds_per_second"] > 0
    assert [row["ships"] for row in data["big"]["turns"]] == [30, 120]
    assert all(row["seconds"] > 0 and row["events"] > 0 for row in data["big"]["turns"])
    assert data["big"]["ratios"]["120/30"]["time"] > 0
    assert data["big"]["turns"][1]["seconds_gc_paused"] > 0
    assert data["big"]["memory"]["peak_bytes"] > 0

    # Benchmarking never writes snapshots.
    assert _tree(snapshots) == before


def test_missing_drawing_is_reported_not_raised(tmp_path, capsys, monkeypatch):
    cases, snapshots = _tiny_setup(tmp_path)

    def no_drawing(*args, **kwargs):
        raise ImportError("No module named 'verifier.rulesets.ypp.draw'")

    monkeypatch.setattr(type(RULESET), "draw", no_drawing)
    code = bench.main(_args(tmp_path, cases, snapshots, sizes=(20,), memory_ships=20))
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"^check: cases/s \(with drawing\) +unavailable +drawing is not available", out, re.M), out
    assert re.search(rf"^check: cases/s \(no drawing\) +{NUMBER} ", out, re.M), out
    assert "unavailable" in json.loads((tmp_path / "bench.json").read_text())["check"]["with_draw"]


@pytest.mark.parametrize("ships", [1, 50, 2000])
def test_big_scene_is_deterministic_and_well_formed(ships):
    a, b = bench.big_scene(ships), bench.big_scene(ships)
    assert a == b
    board, fleet = a.scene.board, a.scene.ships
    assert (board.width, board.height) == (1000, 1000)
    wind = {tile for tile, _ in board.wind}
    whirl = set(board.whirl_at)
    assert len(wind) == len(board.wind) and len(whirl) == 4 * len(board.whirlpools)
    assert not (wind & whirl or wind & board.rocks or whirl & board.rocks)
    tiles = [s.at for s in fleet]
    assert len(set(tiles)) == ships and not set(tiles) & board.rocks
    assert all(board.on_board(t) for t in tiles)
    assert [s.name for s in fleet] == sorted(s.name for s in fleet)
    assert len(a.turn.rounds) == 4
    names = {s.name for s in fleet}
    for round_ in a.turn.rounds:
        assert {n for n, _ in round_} <= names
        assert all(t is not Token.NONE for _, t in round_)


def test_two_ship_scene_interacts():
    scene, turn = bench.two_ship_scene()
    outcome = RULESET.resolve(scene, turn, RULESET.default_reading)
    assert [e.kind for e in outcome.events] == ["collision"]
    used = outcome.clauses_used()
    assert {"wind.tile", "whirl.tile"} <= used
