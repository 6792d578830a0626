"""Smoke tests of ``verifier bench``: it runs, names its figures and prints numbers.

Speed is never asserted here; the sizes are tiny so the whole file takes a few seconds.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from verifier import bench, registry
from verifier.cli import main as cli_main
from verifier.kit import bench as kit_bench
from verifier.ruleset import BenchSettings, BenchSuite, Capability, Ruleset
from verifier.rulesets.scatter import bench as scatter_bench
from verifier.rulesets.ypp import RULESET
from verifier.rulesets.ypp import bench as ypp_bench
from verifier.rulesets.ypp.model import Token

REPO = Path(__file__).resolve().parent.parent
NUMBER = r"[0-9][0-9,]*(?:\.[0-9]+)?"
TIME = rf"{NUMBER} (?:s|ms|us|µs)"


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


def _args(tmp_path: Path, cases: Path, snapshots: Path, **extra: Any) -> argparse.Namespace:
    settings = dict(cases=str(cases), quick=True, json=str(tmp_path / "bench.json"), snapshots=str(snapshots),
                    repeats=1, suite="core", list=False)
    return argparse.Namespace(**{**settings, **extra})


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def small_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick ``ypp.turns`` sizes cut down to 30 and 120 ships."""
    monkeypatch.setattr(ypp_bench, "QUICK_SIZES", (30, 120))
    monkeypatch.setattr(ypp_bench, "MEMORY_SHIPS", 120)


def test_core_prints_check_figures_and_writes_nothing(tmp_path, capsys):
    cases, snapshots = _tiny_setup(tmp_path)
    before = _tree(snapshots)
    code = bench.main(_args(tmp_path, cases, snapshots))
    out = capsys.readouterr().out
    assert code == 0, out

    assert re.search(r"^core: cases per second of 'verifier check'", out, re.M), out
    draw_line = re.search(r"^check: cases/s \(with drawing\) +(\S+)", out, re.M)
    assert draw_line and (re.fullmatch(NUMBER, draw_line.group(1)) or draw_line.group(1) == "unavailable"), out
    assert re.search(rf"^check: cases/s \(no drawing\) +{NUMBER}  median {NUMBER}; 1 cases", out, re.M), out
    assert "resolver:" not in out and "turn:" not in out  # the core suite is the check alone

    data = json.loads((tmp_path / "bench.json").read_text())
    assert list(data["suites"]) == ["core"]
    check = data["suites"]["core"]
    assert check["cases"] == 1
    assert check["without_draw"]["cases_per_second"] > 0
    # CPU seconds too: the figure to compare when other work shares the machine.
    assert check["without_draw"]["cpu_seconds_per_pass"] > 0
    assert check["without_draw"]["cases_per_cpu_second"] == 1 / check["without_draw"]["cpu_seconds_per_pass"]
    assert re.search(rf"^check: cases/s \(no drawing\) .* CPU/pass \({NUMBER} per CPU second\)", out, re.M), out
    # Benchmarking never writes snapshots.
    assert _tree(snapshots) == before


def test_every_ypp_and_scatter_figure(tmp_path, capsys, small_turns):
    cases, snapshots = _tiny_setup(tmp_path)
    code = bench.main(_args(tmp_path, cases, snapshots, suite="ypp.rounds,ypp.turns,scatter.odds"))
    out = capsys.readouterr().out
    assert code == 0, out

    assert re.search(rf"^resolver: rounds/s \(2 ships, record=False\) +{NUMBER} ", out, re.M), out
    assert re.search(rf"^resolver: rounds/s \(2 ships, record=True\) +{NUMBER} ", out, re.M), out
    assert re.search(rf"^turn: 30 ships, 4 rounds +{TIME} ", out, re.M), out
    assert re.search(rf"^turn: 120 ships, 4 rounds +{TIME} .*with the GC paused {TIME}", out, re.M), out
    assert re.search(rf"^turn: t\(120\)/t\(30\) +{NUMBER} .*function calls grow {NUMBER}x; plainly linear", out,
                     re.M), out
    assert re.search(rf"^turn: peak memory, 120 ships +{NUMBER} MB ", out, re.M), out
    assert re.search(rf"^scatter: exact odds of one geometry, fast path \(median\) +{TIME}$", out, re.M), out
    assert re.search(rf"^scatter: sweep of 1,000 geometries x 24 readings +{TIME}  {NUMBER} geometry-readings/s",
                     out, re.M), out
    assert "check:" not in out

    data = json.loads((tmp_path / "bench.json").read_text())
    assert list(data["suites"]) == ["ypp.rounds", "ypp.turns", "scatter.odds"]
    rounds, big, odds = (data["suites"][k] for k in ("ypp.rounds", "ypp.turns", "scatter.odds"))
    for record in ("record_false", "record_true"):
        assert rounds[record]["rounds_per_second"] > 0
    assert [row["ships"] for row in big["turns"]] == [30, 120]
    assert all(row["seconds"] > 0 and row["events"] > 0 and row["function_calls"] > 0 for row in big["turns"])
    assert big["ratios"]["120/30"]["time"] > 0 and big["ratios"]["120/30"]["baseline"] > 0
    assert big["turns"][1]["seconds_gc_paused"] > 0
    assert big["memory"]["peak_bytes"] > 0
    assert odds["sweep"] == 1000 and odds["readings"] == 24
    assert all(odds[k] > 0 for k in ("fast_path_seconds", "full_resolver_seconds", "sweep_seconds",
                                     "sweep_all_readings_seconds"))


def test_quick_explore_figures():
    figures = bench.explore_figures(RULESET, quick=True, budget=2.0)
    assert figures["search"]["scenes"] > 0 and figures["search"]["seconds"] > 0
    table = bench.explore_table(figures)
    assert re.search(rf"^ypp search: scenes / s +{NUMBER}$", table, re.M), table
    assert re.search(r"^ypp search: classes found in [0-9.]+ s +[0-9]+$", table, re.M), table


def test_missing_drawing_is_reported_not_raised(tmp_path, capsys, monkeypatch):
    cases, snapshots = _tiny_setup(tmp_path)

    def no_drawing(*args, **kwargs):
        raise ImportError("No module named 'verifier.rulesets.ypp.draw'")

    monkeypatch.setattr(type(RULESET), "draw", no_drawing)
    code = bench.main(_args(tmp_path, cases, snapshots))
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"^check: cases/s \(with drawing\) +unavailable +drawing is not available", out, re.M), out
    assert re.search(rf"^check: cases/s \(no drawing\) +{NUMBER} ", out, re.M), out
    assert "unavailable" in json.loads((tmp_path / "bench.json").read_text())["suites"]["core"]["with_draw"]


def test_list_shows_every_suite(capsys):
    assert cli_main(["bench", "--list"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    assert names[0] == "core" and names[-1] == "all"
    assert {"ypp.rounds", "ypp.turns", "ypp.explore", "scatter.odds"} <= set(names)
    for ruleset in registry.all_rulesets():
        if ruleset.supports(Capability.BENCHMARKS):
            assert all(f"{ruleset.key}.{suite.name}" in names for suite in ruleset.benchmarks())


@pytest.mark.parametrize("suite, words", [
    ("ypp.turn", "no benchmark suite 'ypp.turn'; did you mean 'ypp.turns'?"),
    ("scater", "did you mean 'scatter'?"),
    ("nothing-like-it", "expected one of 'all', "),
    ("core,nope", "no benchmark suite 'nope'"),
])
def test_unknown_suite_is_one_line_error(capsys, suite, words):
    assert cli_main(["bench", "--suite", suite]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --suite: ") and words in lines[0], captured.err


def test_suite_names_expand():
    available = bench.suites()
    assert bench.select("core", available) == ["core"]
    assert bench.select("ypp", available) == [n for n in available if n.startswith("ypp.")]
    assert bench.select("all", available) == list(available)
    assert bench.select("scatter.odds, core,scatter", available) == ["scatter.odds", "core", "scatter.growth",
                                                                      "scatter.explore"]


class _Stopwatch(Ruleset):
    """A ruleset registered at runtime, with one suite of its own."""

    key = "stopwatch"
    title = "a ruleset that only has a benchmark"
    capabilities = frozenset({Capability.BENCHMARKS})

    def benchmarks(self) -> tuple[BenchSuite, ...]:
        def run(settings: BenchSettings) -> dict[str, Any]:
            return {"ticks": 3, "quick": settings.quick, "cases": settings.cases}

        return (BenchSuite("ticks", "counts to three", run, lambda f: kit_bench.format_rows([("ticks", str(f["ticks"]),
                                                                                          "")])),)


class _Silent(Ruleset):
    key = "silent"
    title = "a ruleset without benchmarks"


def test_runtime_ruleset_suites_are_choices(tmp_path, capsys, monkeypatch):
    real = registry.all_rulesets()
    extra = [_Stopwatch(), _Silent()]
    monkeypatch.setattr(registry, "all_rulesets", lambda: [*real, *extra])

    assert cli_main(["bench", "--list"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^stopwatch\.ticks +counts to three$", out, re.M), out
    assert "silent" not in out

    cases, snapshots = _tiny_setup(tmp_path)
    code = bench.main(_args(tmp_path, cases, snapshots, suite="stopwatch"))
    out = capsys.readouterr().out
    assert code == 0 and re.search(r"^stopwatch\.ticks: counts to three$", out, re.M), out
    assert re.search(r"^ticks +3$", out, re.M), out
    assert json.loads((tmp_path / "bench.json").read_text())["suites"] == {
        "stopwatch.ticks": {"ticks": 3, "quick": True, "cases": str(cases)}}

    assert cli_main(["bench", "--suite", "stopwatch.tick"]) == 2
    assert "did you mean 'stopwatch.ticks'?" in capsys.readouterr().err
    assert cli_main(["bench", "--suite", "silent"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "'benchmarks' capability" in err, err


def test_failing_suite_is_reported_and_the_others_run(tmp_path, capsys, monkeypatch):
    def broken(settings: BenchSettings) -> dict[str, Any]:
        raise RuntimeError("out of paper")

    real = registry.all_rulesets()

    class Broken(_Stopwatch):
        key = "broken"

        def benchmarks(self) -> tuple[BenchSuite, ...]:
            return (BenchSuite("jam", "always fails", broken, lambda f: "never printed"),)

    monkeypatch.setattr(registry, "all_rulesets", lambda: [*real, Broken(), _Stopwatch()])
    cases, snapshots = _tiny_setup(tmp_path)
    code = bench.main(_args(tmp_path, cases, snapshots, suite="broken,stopwatch"))
    out = capsys.readouterr().out
    assert code == 1
    assert re.search(r"^suite +error +RuntimeError: out of paper$", out, re.M), out
    assert re.search(r"^ticks +3$", out, re.M), out


def test_scatter_table_keeps_its_figures():
    figures = {"samples": 200, "fast_path_seconds": 7e-6, "full_resolver_samples": 50,
               "full_resolver_seconds": 2e-3, "sweep": 1000, "sweep_seconds": 0.016, "readings": 24,
               "sweep_all_readings_seconds": 0.2}
    rows = scatter_bench.odds_rows(figures)
    assert rows[0][:2] == ("scatter: exact odds of one geometry, fast path (median)", "7.0 us")
    assert rows[2] == ("scatter: sweep of 1,000 geometries, default reading", "16.00 ms", "62,500 geometries/s")
    assert rows[3][2] == "120,000 geometry-readings/s"


@pytest.mark.parametrize("ships", [1, 50, 2000])
def test_big_scene_is_deterministic_and_well_formed(ships):
    a, b = ypp_bench.big_scene(ships), ypp_bench.big_scene(ships)
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
    scene, turn = ypp_bench.two_ship_scene()
    outcome = RULESET.resolve(scene, turn, RULESET.default_reading)
    assert [e.kind for e in outcome.events] == ["collision"]
    used = outcome.clauses_used()
    assert {"wind.tile", "whirl.tile"} <= used


def test_docs_suite_is_listed_and_reports_a_build_in_a_table():
    available = bench.suites(findings="nowhere")
    assert bench.select("docs", available) == ["docs"]
    figures = {"cases": "cases", "findings": "explore", "warm": ["ypp"], "cold": ["civ"], "seconds": 12.5,
               "seconds_median": 13.0, "repeats": 3, "cpu_seconds": 20.0,
               "load_average": (1.5, 1.0, 1.0), "files": 400, "bytes": 21_000_000, "pages": 15,
               "warnings": 0, "workers": 2}
    table = available["docs"].table(figures)
    assert "docs: site build" in table and "12.500 s" in table and "median 13.000 s of 3" in table
    assert "load average 1.5" in table and "docs: processor time" in table and "20.000 s" in table
    assert "21.0 MB" in table and "400 files, 15 pages" in table
    assert "warm explorer reports: ypp; quick pass for civ" in table

def test_search_suite_is_listed_and_rates_scenes_per_cpu_second():
    from verifier.bench import SEARCH, search_rows, suites

    assert SEARCH in suites()
    figures = {"quick": True, "seed": 0, "rulesets": {
        "ypp": {"explore": {"scenes": 200, "seconds": 2.0, "cpu_seconds": 0.5},
                "fuzz": {"scenes": 30, "seconds": 1.0, "cpu_seconds": 0.3}}}}
    rows = search_rows(figures)
    assert rows == [("ypp explore: scenes / CPU s", "400", "200 scenes, 0.50 s CPU, 2.00 s wall"),
                    ("ypp fuzz: scenes / CPU s", "100", "30 scenes, 0.30 s CPU, 1.00 s wall")]


def test_fuzz_with_answers_at_once_is_its_own_row_and_a_run_that_missed_answers_is_not_a_rate():
    from verifier.bench import search_rows

    fuzz = {"scenes": 30, "seconds": 1.0, "cpu_seconds": 0.3}
    at_once = {"scenes": 30, "seconds": 0.2, "cpu_seconds": 0.1, "missed": 0}
    rows = search_rows({"rulesets": {"ypp": {"explore": fuzz, "fuzz": fuzz, "fuzz_at_once": at_once}}})
    assert ("ypp fuzz, answers at once: scenes / CPU s", "300",
            "the reference's answers recorded, then looked up: 30 scenes, 0.10 s CPU") in rows
    rows = search_rows({"rulesets": {"ypp": {"explore": fuzz, "fuzz": fuzz,
                                             "fuzz_at_once": {**at_once, "missed": 2}}}})
    assert ("ypp fuzz, answers at once: scenes / CPU s", "invalid",
            "2 requests had no recorded answer: the two runs asked different things") in rows


def test_fuzz_with_answers_at_once_looks_up_every_answer_it_is_asked_for():
    figures = bench._fuzzed_at_once(registry.get("ypp"), 12, 0)
    assert figures["scenes"] == 12 and figures["missed"] == 0 and figures["cpu_seconds"] > 0
    assert bench._RECORDED == {} and bench._MISSED == []  # both runs were forked: nothing stays here


def test_a_request_with_no_recorded_answer_is_counted_and_answered_as_an_error(monkeypatch):
    from verifier.adapter import PROTOCOL

    monkeypatch.setattr(bench, "_RECORDED", {})
    monkeypatch.setattr(bench, "_MISSED", [])
    request = {"type": "case", "id": "fuzz-0-1", "ruleset": "ypp", "before": {}, "actions": {}}
    answer = bench.recording_reference(request)
    assert bench.recorded_answer(request) is answer
    assert bench.recorded_answer({**request, "id": "fuzz-0-2"})["type"] == "errored"
    assert bench._MISSED == ["fuzz-0-2"]
    assert bench.recorded_answer({"type": "hello", "protocol": PROTOCOL})["type"] == "hello"


def test_every_ruleset_with_benchmarks_has_a_growth_suite_of_the_kit():
    for ruleset in registry.all_rulesets():
        if ruleset.supports(Capability.BENCHMARKS):
            growth = [s for s in ruleset.benchmarks() if s.name == "growth"]
            assert len(growth) == 1 and "1x, 10x and 100x" in growth[0].summary, ruleset.key


def test_growth_suite_times_and_measures_1x_10x_and_100x():
    def work(n: int):
        return lambda: [str(i) for i in range(n)]

    suite = kit_bench.growth_suite("listing", work, 20, "linear in items", noun="items")
    figures = suite.run(BenchSettings(cases="cases", quick=True))
    assert [step["pieces"] for step in figures["steps"]] == [20, 200, 2000]
    assert all(step["seconds"] > 0 and step["peak_bytes"] > 0 for step in figures["steps"])
    assert figures["pieces_factor"] == 100 and figures["scales"] == [1, 10, 100]
    table = suite.table(figures)
    assert re.search(rf"^listing of +2,000 items: +{TIME}, peak {NUMBER} MB$", table, re.M), table
    assert re.search(r"^listing: 100x the items took [0-9.]+x the time and [0-9.]+x the memory "
                     r"\(bound: linear in items\)$", table, re.M), table


def test_a_suites_steps_show_on_the_bench_meter(tmp_path, capsys, monkeypatch):
    real = registry.all_rulesets()

    class Stepper(_Stopwatch):
        key = "stepper"

        def benchmarks(self) -> tuple[BenchSuite, ...]:
            def run(settings: BenchSettings) -> dict[str, Any]:
                kit_bench.progress("  winding the spring ...")
                return {"ticks": 1}
            return (BenchSuite("steps", "says what it does", run, lambda f: str(f["ticks"])),)

    monkeypatch.setattr(registry, "all_rulesets", lambda: [*real, Stepper()])
    cases, snapshots = _tiny_setup(tmp_path)
    assert bench.main(_args(tmp_path, cases, snapshots, suite="stepper")) == 0
    err = capsys.readouterr().err
    assert re.search(r"^benchmarking stepper\.steps: 0/1 suites, .*, winding the spring \.\.\.$", err, re.M), err
    assert kit_bench.set_meter(None) is None  # the meter is let go when the run ends


def test_search_suite_tells_fuzz_once_drawn_apart_from_drawing():
    from verifier.bench import search_rows

    figures = {"quick": True, "seed": 0, "rulesets": {
        "ypp": {"explore": {"scenes": 200, "seconds": 2.0, "cpu_seconds": 0.5},
                "fuzz": {"scenes": 30, "seconds": 1.0, "cpu_seconds": 0.3},
                "drawing": {"scenes": 30, "seconds": 0.2, "cpu_seconds": 0.1}}}}
    assert search_rows(figures)[-1] == ("ypp fuzz once drawn: scenes / CPU s", "150",
                                        "drawing 30 scenes alone took 0.10 s CPU, 33% of fuzz's")


def test_exhaustive_spaces_are_recorded_by_analysis_digest(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFIER_STATE_DIR", str(tmp_path))
    folder = tmp_path / "bench"
    folder.mkdir()
    stale, fresh = folder / "ypp-two-ships-old.jsonl", folder / "ypp-two-ships-other.jsonl"
    other_space = folder / "ypp-terrain-old.jsonl"
    for path in (stale, fresh, other_space):
        path.write_text("{}\n")
    hours_ago = __import__("time").time() - 7200
    for path in (stale, other_space):
        __import__("os").utime(path, (hours_ago, hours_ago))
    where = bench.space_cache("ypp", "two-ships")
    assert where == folder / f"ypp-two-ships-{bench.analysis_digest('ypp')}.jsonl"
    # another digest of the same space an hour old is dropped; a fresh one and other spaces stay
    assert not stale.exists() and fresh.exists() and other_space.exists()


def test_explore_figures_read_the_space_back_and_pace_the_search(tmp_path, monkeypatch):
    from toy_ruleset import PLANTED, ToyRuleset

    monkeypatch.setenv("VERIFIER_STATE_DIR", str(tmp_path))
    toy = ToyRuleset(PLANTED)
    first = bench.explore_figures(toy, budget=0.05, workers=1)
    again = bench.explore_figures(toy, budget=0.05, workers=1)
    space = next(iter(first["spaces"].values()))
    assert space["resumed"] == 0 and next(iter(again["spaces"].values()))["resumed"] == space["shards"]
    assert {n: (s["classes"], s["scenes"]) for n, s in again["spaces"].items()} == \
        {n: (s["classes"], s["scenes"]) for n, s in first["spaces"].items()}
    assert space["classes"] == 2 and space["cache"].startswith(str(tmp_path / "bench"))
    per_core = first["per_core"]
    paced = max(int(per_core["scenes"] / per_core["cpu_seconds"] * 0.05), 1)
    # Hypothesis stops once it has drawn every scene of the toy's 36, however many were asked for
    assert first["search"]["scenes"] == min(paced, 36)
    table = bench.explore_table(again)
    assert re.search(r"^toy exhaustive \S+: scenes +[0-9,]+ +all [0-9]+ shards read from ", table, re.M), table


def test_search_suite_shows_the_first_fuzz_run_apart_from_the_rate():
    from verifier.bench import search_rows

    figures = {"quick": False, "seed": 0, "rulesets": {
        "ypp": {"explore": {"scenes": 1000, "seconds": 2.0, "cpu_seconds": 1.0},
                "fuzz_start": {"scenes": 5, "seconds": 0.5, "cpu_seconds": 0.25},
                "fuzz": {"scenes": 300, "seconds": 3.0, "cpu_seconds": 2.0}}}}
    assert search_rows(figures)[1:] == [
        ("ypp fuzz: scenes / CPU s", "150", "300 scenes, 2.00 s CPU, 3.00 s wall"),
        ("ypp fuzz start: CPU s", "0.25", "the process's first fuzz run of ypp, 5 scenes, timed apart")]
