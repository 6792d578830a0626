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
from verifier.fuzz import MAX_GROUPS, deciding_points, fingerprint, reading_table, run, verdict, write_report
from verifier.ruleset import Capability, Ruleset

ROOT = Path(__file__).parent.parent
IMPLS = Path(__file__).parent / "impls"
YPP = registry.get("ypp")
# A time budget that only a hang meets: the number of scenes bounds these runs, whatever the load.
HANG = 3600


@pytest.fixture(autouse=True)
def impls_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))


def fuzz(spec: str, examples: int = 80, seed: int = 0, ruleset: str = "ypp", **options):
    impl = open_implementation(spec, 10, rulesets=[ruleset])
    try:
        return run(registry.get(ruleset), impl, examples=examples, seed=seed, budget=HANG, **options)
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
        table = reading_table(ruleset, before, actions)
        consulted += bool(table.points)
        for reading in readings:
            assert table.key(reading) == ruleset.outcome_key(ruleset.resolve(before, actions, reading))
        assert table.default_key == table.keys[table.leaf(ruleset.default_reading)]  # as the walk found it
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


def test_a_scene_past_the_resolve_cap_is_counted_not_crashed(monkeypatch):
    # Past MAX_RESOLVES a scene's table misses some combinations of readings; those are
    # unknown (no answer matches them), and the run and its reading shares go on.
    import verifier.fuzz.reference as fuzz_module
    monkeypatch.setattr(fuzz_module, "MAX_RESOLVES", 2)
    result = fuzz("python:fuzz_other_reading:handle", examples=60)
    assert len(result.answered) == 60
    assert any(len(t.table.keys) == 2 and len(t.table.points) > 1 for t in result.trials)
    assert all(0 <= n <= 60 for n in result.explained)


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
    _, md_path, _, _ = write_report(result, tmp_path)
    assert "The implementation follows bump=motion-first, vacate=blocked" in md_path.read_text()


def test_a_planted_bug_is_found_and_shrunk_to_a_minimal_scene(tmp_path):
    result = fuzz("python:fuzz_planted_bug:handle", examples=120)
    assert dict(result.readings[result.best]) == dict(YPP.default_reading)
    assert result.unexplained > 0
    # The bug turns the bumping ship, by whichever clause it comes to bump: one bug, one group,
    # told by where the outcomes first differ (the first event of the turned ship) and what differs.
    [group] = result.groups
    assert group.fingerprint == "bump(*):ships"
    assert len(group.before.ships) == 2
    assert group.count == result.unexplained and result.groups_not_shrunk == 0
    json_path, md_path, data, _ = write_report(result, tmp_path)
    first = data["disagreements"]["groups"][0]
    # Which rule text to look at: the clauses of the event where the outcomes first differ.
    assert first["clauses"] and all(YPP.clause(c).id == c for c in first["clauses"])
    case_file, diagram = tmp_path / first["case"], tmp_path / first["diagram"]
    assert diagram.read_bytes().startswith(b"\x89PNG")
    text = case_file.read_text()
    assert "# The implementation's outcome:" in text
    case = load_case(case_file)
    assert case.status == "derived"
    # The case holds the reference's outcome, so the reference passes it and the toy does not.
    assert not YPP.compare(case.before, case.expect, YPP.resolve(case.before, case.actions, case.readings))
    assert YPP.compare(case.before, case.expect, group.actual)
    assert "Disagreements no reading explains" in md_path.read_text()
    assert json.loads(json_path.read_text())["generator"] == "verifier fuzz"


def test_two_planted_bugs_in_different_situations_give_two_groups():
    """Both bugs turn a ship, one after a bump and one after hitting a rock: the same
    fields differ, so the situation alone must tell them apart."""
    result = fuzz("python:fuzz_two_bugs:handle", examples=300)
    assert sorted(g.fingerprint for g in result.groups) == ["bump(*):ships", "rock(*):ships"]
    assert sum(g.count for g in result.groups) == result.unexplained


@pytest.mark.parametrize("key", ["ypp", "civ"])
def test_the_readings_counted_for_each_scene_are_those_whose_reference_its_answer_matches(key):
    """The counts per reading and the shares per point, found from each scene's leaves as
    sets of readings, are what looking every reading up in every scene's table gives."""
    result = fuzz("python:fuzz_other_reading:handle", examples=60, ruleset=key)
    answered = result.answered
    assert result.explained == [sum(t.explains(r) for t in answered) for r in result.readings]
    assert min(result.explained) < max(result.explained)  # the readings tell the scenes apart
    best = result.readings[result.best]
    informative_points = 0
    for point in registry.get(key).reading_points:
        informative, matches = 0, dict.fromkeys(point.options, 0)
        for trial in answered:
            keys = {o: trial.table.key({**best, point.name: o}) for o in point.options}
            if None in keys.values() or len(set(keys.values())) < 2:
                continue
            informative += 1
            for option, found in keys.items():
                matches[option] += found in trial.matches
        shares = result.points[point.name]
        assert (shares["informative"], {o: s["matches"] for o, s in shares["options"].items()}) == \
            (informative, matches), point.name
        informative_points += informative > 0
    assert informative_points


def test_a_decision_point_on_the_path_of_the_difference_is_told_but_not_in_the_fingerprint():
    """A point whose options change the differing part is told with the difference; the
    fingerprint is the situation and the parts alone, so that it does not split one fault."""
    ruleset = YPP
    for trial in fuzz("python:fuzz_other_reading:handle", examples=120).answered:
        best = ruleset.default_reading
        if trial.explains(best):
            continue
        reference = ruleset.resolve(trial.before, trial.actions, best)
        assert trial.actual is not None
        points = deciding_points(ruleset, trial.before, trial.actions, reference, trial.actual, best)
        # The toy follows other options of two points; the difference from the default must be
        # decided by at least one of them.
        assert {"bump", "vacate"} & set(points), points
        key = fingerprint(ruleset, trial.before, trial.actions, reference, trial.actual)
        assert not {"bump", "vacate"} & set(key.split(":")), key
        break
    else:
        raise AssertionError("the toy's answers were all explained by the default reading")


def test_dependence_on_listing_order_is_reported_grouped_and_shrunk(tmp_path):
    result = fuzz("python:fuzz_listing_order:handle", examples=120)
    kinds = {d.kind for d in result.divergences}
    assert kinds == {"order"}
    assert all(d.label == "reversed listing" for d in result.divergences)
    # The toy follows the other bump option in one of the two listings: one group, named by it.
    [group] = result.divergence_groups
    # (the best reading may be a third bump option that agrees with both where they meet)
    others = {"class-first", "motion-first"} - {result.readings[result.best]["bump"]}  # the toy's two options
    assert group.fingerprint in {f"reversed listing: reading bump={other}" for other in others}
    assert group.count == len(result.divergences)
    assert len(group.example.before.ships) == 2  # the toy needs two ships listed in some order, no more
    _, md_path, data, _ = write_report(result, tmp_path)
    [entry] = data["order"]["groups"]
    assert entry["transform"] == "reversed listing" and data["order"]["differing"] == entry["count"]
    case = load_case(tmp_path / entry["case"])
    assert case.status == "derived"
    text = (tmp_path / entry["case"]).read_text()
    assert "# Its outcome for the same scene after the reversed listing" in text
    assert (tmp_path / entry["diagram"]).read_bytes().startswith(b"\x89PNG")
    assert "answers changed beyond the renaming" in md_path.read_text()


def test_scenes_another_reading_explains_are_reported(tmp_path):
    """The listing-order toy follows one bump option in most scenes and the other in some:
    those scenes are a finding, grouped by the reading that explains them."""
    result = fuzz("python:fuzz_listing_order:handle", examples=300)
    best = result.readings[result.best]
    assert result.other_reading > 0
    [group] = result.mixed
    assert group.kind == "mixed" and group.count == result.other_reading
    assert group.reading is not None and {p for p in best if group.reading[p] != best[p]} == {"bump"}
    assert group.fingerprint == f"bump={group.reading['bump']}"
    # The minimal scene is still answered as that reading gives it, and not as the best one does.
    assert YPP.outcome_key(group.actual) == YPP.outcome_key(YPP.resolve(group.before, group.actions, group.reading))
    assert YPP.outcome_key(group.actual) != YPP.outcome_key(YPP.resolve(group.before, group.actions, best))
    _, md_path, data, _ = write_report(result, tmp_path)
    [entry] = data["mixed_readings"]["groups"]
    assert entry["count"] == group.count and entry["label"] == group.fingerprint
    assert load_case(tmp_path / entry["case"]).status == "derived"
    assert (tmp_path / entry["diagram"]).read_bytes().startswith(b"\x89PNG")
    assert f"### M1. {group.fingerprint} ({group.count} scenes)" in md_path.read_text()


def test_random_answers_are_explained_by_no_reading():
    result = fuzz("python:fuzz_random:handle", examples=60)
    answered = len(result.answered)
    assert result.explained[result.best] * 2 < answered
    assert result.unexplained > answered // 2
    assert verdict(result).startswith("No reading explains this implementation")
    assert any(d.kind == "repeat" for d in result.divergences)
    # Changing answers are grouped like disagreements: every one is in exactly one group.
    for kind in ("order", "repeat"):
        groups = [g for g in result.divergence_groups if g.example.kind == kind]
        assert groups and len(groups) <= MAX_GROUPS
        assert sum(g.count for g in groups) + result.divergences_not_shrunk >= sum(
            d.kind == kind for d in result.divergences)
        assert len({s for g in groups for s in g.scene_ids}) == sum(g.count for g in groups)


def _report(tmp_path, name, spec, **options):
    result = fuzz(spec, **options)
    _, _, data, _ = write_report(result, tmp_path / name)
    findings = tmp_path / name / "findings"
    return result, data, {p.name: p.read_bytes() for p in sorted(findings.glob("*"))}


def test_the_same_seed_gives_the_same_report(tmp_path):
    one, data_one, files_one = _report(tmp_path, "one", "python:fuzz_planted_bug:handle", examples=60, seed=3)
    _, data_two, files_two = _report(tmp_path, "two", "python:fuzz_planted_bug:handle", examples=60, seed=3)
    assert data_one == data_two
    assert files_one and files_one == files_two
    other = fuzz("python:fuzz_planted_bug:handle", examples=60, seed=4)
    assert [YPP.case_data(t.before, t.actions) for t in other.trials] != \
        [YPP.case_data(t.before, t.actions) for t in one.trials]  # the seed does choose the scenes


@pytest.mark.parametrize("spec", ["python:fuzz_listing_order:handle", "python:fuzz_two_bugs:handle",
                                  "python:fuzz_faulty:handle"])
def test_the_same_seed_gives_the_same_report_whatever_the_workers(tmp_path, spec):
    """The reference work runs on two processes here; the report and the files must not change."""
    one, data_one, files_one = _report(tmp_path, "one", spec, examples=40, seed=5)
    two, data_two, files_two = _report(tmp_path, "two", spec, examples=40, seed=5, workers=2)
    assert one.workers == 1 and two.workers == 2
    assert data_one == data_two and files_one == files_two
    assert files_one or data_one["problems"]["scenes"]  # findings or problem answers, in the same order


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
        result = run(YPP, impl, examples=12, seed=0, budget=HANG)
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
    assert code == 1  # a disagreement no reading explains
    assert "scenes no reading explains, in 1 group;" in printed
    data = json.loads((out / "report.json").read_text())
    assert data["timing"]["workers"] == 2 and len(data["disagreements"]["groups"]) == 1
    assert "timing" in data and data["timing"]["scenes_per_second"] > 0
    # The case files pass 'verifier check' and fail it through the implementation.
    findings = str(out / "findings")
    assert main(["check", findings, "--no-draw", "--no-table"]) == 0
    assert main(["check", findings, "--no-draw", "--no-table", "--impl", "python:fuzz_planted_bug:handle"]) == 1
    # A second run may replace what the first wrote.
    assert main(["fuzz", "ypp", "--impl", "python:fuzz_planted_bug:handle", "--examples", "60",
                 "--out", str(out)]) == 1


def test_command_stops_when_the_implementation_cannot_start(tmp_path, capsys):
    code = main(["fuzz", "ypp", "--impl", str(tmp_path / "no-such-program"), "--examples", "10",
                 "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2  # nothing could be compared
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


# --- the hello: what is compared, and when nothing is ---------------------------------------

def test_a_positions_only_implementation_is_compared_on_positions_alone(tmp_path):
    # Its hello declares that it reports ships and nothing else: its answers carry no
    # events, and none is refused for that; every one agrees with the default reading.
    result = fuzz("python:positions_only:handle", examples=40)
    assert len(result.answered) == 40
    assert not [p for p in result.problems if "'events'" in p.message]
    assert all(t.actual is not None and "events" in t.actual.unreported for t in result.answered)
    assert dict(result.readings[result.best]) == dict(YPP.default_reading)
    assert result.explained[result.best] == 40 and result.unexplained == 0
    assert result.exit_code == 0
    _, md_path, _, _ = write_report(result, tmp_path)
    assert "Its hello declares ypp: reports ships; only the parts it reports are compared" in md_path.read_text()


def test_the_reading_of_a_positions_only_implementation_is_inferred_from_positions_alone():
    # It follows bump=motion-first and sends "events": [] although its hello says it does
    # not report them; the empty events are not taken for its answer.
    result = fuzz("python:positions_motion_first:handle", examples=120)
    assert result.answered and result.unexplained == 0
    best = result.readings[result.best]
    assert best["bump"] == "motion-first"
    assert result.points["bump"]["informative"] > 0
    assert result.points["bump"]["options"]["motion-first"]["share"] == 1.0


def test_a_run_that_compares_nothing_says_so_and_exits_2(tmp_path, capsys):
    # The hello lists only ypp, so no civ scene is asked.
    result = fuzz("python:positions_only:handle", examples=10, ruleset="civ")
    assert not result.answered and result.exit_code == 2
    assert result.compared_nothing.startswith("Nothing could be compared: the implementation answered none of the "
                                              "10 scenes (skipped")
    assert verdict(result).startswith(result.compared_nothing)
    assert {p.kind for p in result.problems} == {"skipped"}
    code = main(["fuzz", "civ", "--impl", "python:positions_only:handle", "--examples", "5",
                 "--out", str(tmp_path / "out")])
    assert code == 2
    assert "Nothing could be compared" in capsys.readouterr().out


def test_the_exit_code_says_whether_a_departure_was_found():
    assert fuzz("python:verifier.adapters.reference:handle", examples=20).exit_code == 0
    planted = fuzz("python:fuzz_planted_bug:handle", examples=60)
    assert planted.unexplained and planted.exit_code == 1
    order = fuzz("python:fuzz_listing_order:handle", examples=120)
    assert order.divergences and order.exit_code == 1


def test_an_answer_that_cannot_be_drawn_is_reported_in_words(tmp_path, monkeypatch):
    result = fuzz("python:fuzz_planted_bug:handle", examples=60)
    assert result.groups

    def refuse(*args, **kwargs):
        raise ValueError("no place for this event")
    monkeypatch.setattr(type(YPP), "draw_readings", refuse)
    _, md_path, data, _ = write_report(result, tmp_path)
    [entry] = data["disagreements"]["groups"]
    assert entry["diagram"] is None
    assert entry["undrawn"] == "the answer could not be drawn (ValueError: no place for this event)"
    assert "(No picture: the answer could not be drawn (ValueError: no place for this event).)" in md_path.read_text()
    assert not list((tmp_path / "findings").glob("*.png")) and list((tmp_path / "findings").glob("*.yaml"))


# --- one departure, one group, on every ruleset -------------------------------------------------

TOY_EXAMPLES = {"ypp": 150, "scatter": 120, "armada": 120, "armada2k": 150, "civ": 100}


@pytest.mark.parametrize("key", sorted(TOY_EXAMPLES))
def test_a_toy_following_another_reading_with_one_bug_gives_one_group_and_names_the_reading(key, tmp_path):
    from fuzz_reading_and_bug import READINGS
    ruleset = registry.get(key)
    # On the strategy's own scenes: boundary scenes show the planted bug in more situations.
    result = fuzz("python:fuzz_reading_and_bug:handle", examples=TOY_EXAMPLES[key], ruleset=key, boundary_share=0.0)
    assert result.exit_code == 1
    best = result.readings[result.best]
    assert {p: o for p, o in best.items() if o != ruleset.default_reading[p]} == READINGS[key]
    [group] = result.groups  # one planted bug, one group, however many scenes it shows in
    assert group.count == result.unexplained > 1 and result.groups_not_shrunk == 0
    assert not result.mixed  # the bug's scenes are disagreements, not another reading
    # The answer is drawn as it is, whatever the JSON it came in leaves out (steps, places, frames).
    [entry] = write_report(result, tmp_path).data["disagreements"]["groups"]
    assert entry["diagram"] and (tmp_path / entry["diagram"]).read_bytes().startswith(b"\x89PNG")


def test_check_impl_failure_pictures_draw_the_answer_in_one_frame(tmp_path):
    """An answer read from JSON (events without steps or places, an event the reference
    lacks) is drawn, and beside the reference in one picture."""
    out = tmp_path / "failures"
    case = ROOT / "cases" / "armada2k" / "contact-touch-blocks.yaml"
    assert main(["check", str(case), "--impl", "python:fuzz_reading_and_bug:handle", "--failures", str(out),
                 "--no-table"]) == 1
    folder = out / "impl" / "armada2k"
    for kind in ("expected", "actual", "diff", "compare"):
        assert (folder / f"armada2k-contact-touch-blocks.{kind}.png").read_bytes().startswith(b"\x89PNG")


def test_a_reading_explains_an_answer_only_where_it_gives_every_reported_field():
    """A field the expectation does not list (armada2k's firing areas) still counts: an answer
    that differs there is explained by no reading, even where the rest matches."""
    from verifier.fuzz.compare import matching
    ruleset = registry.get("armada2k")
    found = 0
    for trial in fuzz("python:verifier.adapters.reference:handle", examples=60, ruleset="armada2k").answered:
        if trial.actual.refusal is not None:
            continue  # a refused action has no firing areas to change
        data = ruleset.outcome_json(trial.actual)
        if not data["fans"]:
            continue
        side = sorted(data["fans"])[0]
        data["fans"] = {**data["fans"], side: []}
        changed = ruleset.outcome_from_json(trial.before, data)
        assert trial.matches and not matching(ruleset, trial.before, trial.actions, trial.table, changed)
        found += 1
    assert found


# --- streaming, budget, progress -------------------------------------------------------------------

def test_the_first_scene_is_sent_as_soon_as_it_is_drawn(monkeypatch):
    import verifier.fuzz.engine as engine
    drawn = []
    asked_when = []
    real = engine.draw_scenes

    def counting(ruleset, seed, examples, deadline, visit, boundary_share=0.0, stop=None, features=None):
        def counted(before, actions, landed):
            drawn.append(1)
            visit(before, actions, landed)
        return real(ruleset, seed, examples, deadline, counted, boundary_share, stop, features)

    def handle(message):
        from verifier.adapters.reference import handle as reference
        if message.get("type") == "case":
            asked_when.append(len(drawn))
        return reference(message)

    import types
    recorder = types.ModuleType("fuzz_recorder")
    recorder.handle = handle
    monkeypatch.setitem(sys.modules, "fuzz_recorder", recorder)
    monkeypatch.setattr(engine, "draw_scenes", counting)
    impl = open_implementation("python:fuzz_recorder:handle", 10, rulesets=["ypp"])
    try:
        result = run(YPP, impl, examples=30, seed=0)
    finally:
        impl.close()
    assert asked_when[0] == 1 and len(drawn) == 30
    assert len(result.trials) == 30


def test_the_budget_bounds_a_run_with_a_slow_implementation():
    impl = open_implementation("python:fuzz_sleepy:handle", 10, rulesets=["ypp"])
    try:
        result = run(YPP, impl, budget=3.0, seed=0)  # the default 200 scenes would take 20 s
    finally:
        impl.close()
    # Each answer takes at least 0.1 s, so however slow the machine no more than 31 fit in the budget;
    # and the first scene is drawn and sent well within 3 s even when loaded (within 1 s at a load of 16).
    assert result.stopped_by_budget and 0 < len(result.trials) <= 31
    assert result.seconds < 15  # sending stops at the budget (there is nothing to shrink): not the 20 s of 200


def test_progress_shows_scenes_groups_and_time_left():
    import io

    from verifier.execute import Progress
    stream = io.StringIO()
    clock = iter(itertools.count(0, 0.5))
    progress = Progress("fuzzing", 200, unit="scenes", noted="groups so far", stream=stream, quiet_for=0, every=0,
                        clock=lambda: next(clock), limit=60)
    result = run(YPP, open_implementation("python:fuzz_planted_bug:handle", 10, rulesets=["ypp"]), examples=40,
                 seed=0, progress=progress)
    lines = stream.getvalue().splitlines()
    assert lines and all(line.startswith("fuzzing: ") for line in lines)
    last = lines[-1]
    assert "/200 scenes" in last and "left" in last and "groups so far" in last and "answered" in last
    assert result.first_finding_seconds is not None


# --- CI reports and problem reasons ---------------------------------------------------------------

def test_github_and_junit_report_each_group_as_check_does(tmp_path, capsys):
    import xml.etree.ElementTree as ET
    out, junit = tmp_path / "fuzz", tmp_path / "fuzz.xml"
    code = main(["fuzz", "ypp", "--impl", "python:fuzz_planted_bug:handle", "--examples", "60", "--out", str(out),
                 "--github", "--junit", str(junit)])
    printed = capsys.readouterr().out
    assert code == 1
    errors = [line for line in printed.splitlines() if line.startswith("::error ")]
    [error] = errors  # one group, one annotation, in its case file
    assert "file=" in error and "ypp-fuzz-1-" in error and "no reading gives the implementation" in error
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "1"
    [failure] = root.iter("failure")
    assert "no reading gives the implementation's answer" in failure.get("message")


def test_report_lists_why_scenes_were_skipped_with_counts(tmp_path):
    result = fuzz("python:fuzz_faulty:handle", examples=40)
    _, md_path, data, _ = write_report(result, tmp_path)
    reasons = data["problems"]["reasons"]
    assert reasons and sum(r["count"] for r in reasons) == len(result.problems)
    text = md_path.read_text()
    assert "| kind | reason | scenes |" in text
    assert f"| {reasons[0]['kind']} | " in text and f" | {reasons[0]['count']} |" in text


def test_intermediate_states_that_depart_are_found_where_the_hello_reports_them():
    """The answers' final outcome is the reference's; only round 1's reported states drift.
    Reported, they are compared as check --impl compares them (one group, named by the
    states part); not reported, nothing departs."""
    result = fuzz("python:fuzz_states_only:handle", examples=120)
    assert dict(result.readings[result.best]) == dict(YPP.default_reading)
    assert result.unexplained > 0
    [group] = result.groups
    assert "states" in group.fingerprint
    assert len(group.actual.frames) > 0
    unreported = fuzz("python:fuzz_states_only:handle_unreported", examples=120)
    assert unreported.unexplained == 0 and not unreported.groups
    assert sum(unreported.explained) >= sum(result.explained)


def test_an_answer_equal_to_the_reference_in_value_but_not_in_json_type_is_not_taken_as_it():
    """An answer that is the reference outcome value for value is taken without the
    comparison; ``true`` written for a round of 1 is equal in Python, but the schema
    refuses it, and the answer stays unreadable."""
    from verifier.adapter.protocol import outcome_answer
    from verifier.fuzz.engine import _reference_work, _ReferenceWork
    from verifier.fuzz.scenes import SceneData

    case = load_case(ROOT / "cases" / "ypp" / "bump-1-turn-into-standing-ship.yaml")
    before, actions = case.before, case.actions
    answer = json.loads(json.dumps(outcome_answer(YPP, YPP.resolve(before, actions, YPP.default_reading))))
    assert any(e["round"] == 1 for e in answer["events"])
    bent = {**answer, "events": [{**e, "round": True} if e["round"] == 1 else e for e in answer["events"]]}
    assert bent == answer

    def done(data):
        work = _ReferenceWork(YPP, None, before, actions, SceneData.of(YPP, before, actions), (("", "s", data),))
        return _reference_work([work])[0]

    assert done(answer).matches and not done(answer).unreadable
    assert not done(bent).matches and done(bent).unreadable
