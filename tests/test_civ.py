"""The civ ruleset: bad input gets one located line, the base conflict rule step by step,
the readings of '+1 advantage', open decisions as branches, interchange, the explorer's
spaces and the benchmark."""

from __future__ import annotations

import json
from types import MappingProxyType

import pytest

from verifier import registry
from verifier.case import load_case
from verifier.errors import CaseError, SceneError
from verifier.ruleset import BenchSettings, compare_outcome
from verifier.testing import PlainResolutions, assert_same_table

RULESET = registry.get("civ")

GOOD = """\
id: civ-test
title: test
ruleset: civ
status: derived
source: {seed: 001_495092af0388ca6d.txt, section: "Option A: Naval Battles"}
clauses: [A.2]
before:
  map:
    areas:
      Home: {kind: land, coast: true, at: [0, 0], touches: [Sound], limit: 3}
      Sound: {kind: water, at: [2, 0], touches: [Away, Ocean]}
      Ocean: {kind: open-sea, at: [2, 2], touches: [Away]}
      Away: {kind: land, coast: true, at: [4, 0], limit: 2}
  options: [A]
  nations:
    Crete: {advances: [Astronomy]}
    Babylon: {}
  ships:
    r1: {nation: Crete, at: Home}
    b1: {nation: Babylon, at: Sound}
  tokens:
    Home: {Crete: 5}
actions:
  turns:
    - nation: Crete
      moves:
        - ship: r1
          path: [{at: Home, board: 2}, Sound, {at: Away, drop: 2}]
expect:
  ships:
    r1: {at: Away}
  land:
    Home: {Crete: 3}
    Away: {Crete: 2}
  events:
    - {kind: board, pieces: [r1, Home]}
    - {kind: wade, pieces: [Crete, Away]}
    - {kind: land, pieces: [Crete, Away]}
"""


def error_of(write_case, text, cls=CaseError):
    path = write_case(text)
    with pytest.raises(cls) as info:
        load_case(path)
    return info.value, str(path)


def test_good_case_loads_and_passes(write_case):
    case = load_case(write_case(GOOD))
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert RULESET.compare(case.before, case.expect, outcome) == []


@pytest.mark.parametrize("old, new, clause, message", [
    ("{at: Away, drop: 2}]", "Ocean]", "ship.3", "ship r1 ends its move in open sea Ocean; no ship may"),
    ("{at: Away, drop: 2}]", "Ocean, Away]", "ship.4",
     "ship r1 ends its move with 2 tokens aboard; every token must leave the ship by the end of the phase"),
    ("{at: Home, board: 2}", "{at: Home, board: 6}", "ship.4", "6 tokens board in Home, where Crete has 5"),
    ("r1: {nation: Crete, at: Home}", "r1: {nation: Crete, at: Home, tokens: 4}", "ship.1",
     "ship r1 would carry 6 tokens; a ship carries at most 5"),
    ("{at: Home, board: 2}, Sound, {at: Away, drop: 2}", "{at: Home, board: 2}, Away", "ship.6",
     "Away does not touch Home, where ship r1 is"),
    ("{at: Away, drop: 2}]", "Away, Sound]", "ship.4", "ship r1 ends its move with 2 tokens aboard"),
])
def test_a_move_the_ship_rules_forbid_loads_and_is_refused(write_case, old, new, clause, message):
    """A possible scene with a forbidden action is no load error: the resolver refuses the action, citing
    the clause, and the case fails with that refusal as its mismatch."""
    assert old in GOOD
    case = load_case(write_case(GOOD.replace(old, new)))
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert outcome.refusal is not None and outcome.refusal.clause == clause and outcome.refusal.pieces == ("r1",)
    assert message in outcome.refusal.reason, outcome.refusal.reason
    mismatches = compare_outcome(RULESET, case.before, case.expect, outcome)
    assert [m.message for m in mismatches] == [f"refused by {clause} (r1): {outcome.refusal.reason}; the case "
                                               "expects the action to be carried out"]


@pytest.mark.parametrize("old, new, where, message", [
    ("touches: [Away, Ocean]", "touches: [Away, Oceann]", "11:56: before.map.areas.Sound.touches[1]",
     "'Oceann' is not an area of this scene; did you mean 'Ocean'?"),
    ("r1: {nation: Crete, at: Home}", "r1: {nation: Crete, at: Home, tokens: 6}", "19:43: before.ships.r1.tokens",
     "ship 'r1' has 6 tokens aboard; a ship carries at most 5"),
    ("advances: [Astronomy]", "advances: [Astronmy]", "16:24: before.nations.Crete.advances[0]",
     "'Astronmy' is not an advance these rules know; did you mean 'Astronomy'?"),
    ("advances: [Astronomy]", "advances: [Sailing]", "16:24: before.nations.Crete.advances[0]",
     "expected one of 'Astronomy', 'Cloth Making', 'Engineering', 'Mathematics', 'Metalworking'"),
    ("b1: {nation: Babylon, at: Sound}", "b1: {nation: Babylon, at: Ocean}", "20:31: before.ships.b1.at",
     "ship 'b1' is in open sea 'Ocean'"),
    ("Babylon: {}\n  ships:", "Babylon: {}\n    Thrace: {}\n  ships:", None, None),
])
def test_bad_input_names_file_line_column_and_field(write_case, old, new, where, message):
    assert old in GOOD
    text = GOOD.replace(old, new)
    if where is None:  # a harmless change: still loads
        load_case(write_case(text))
        return
    error, path = error_of(write_case, text, SceneError)
    assert str(error).startswith(f"{path}:{where}: "), str(error)
    assert message is None or message in str(error)
    assert "\n" not in str(error)


def test_open_sea_needs_astronomy(write_case):
    text = GOOD.replace("advances: [Astronomy]", "advances: []").replace(
        "{at: Away, drop: 2}]", "Ocean, {at: Away, drop: 2}]")
    case = load_case(write_case(text))
    refused = RULESET.resolve(case.before, case.actions, case.readings).refusal
    assert refused is not None and refused.clause == "ship.3"
    assert "enters open sea Ocean, which needs Astronomy; Crete does not have it" in refused.reason


def test_five_areas_need_cloth_making(write_case):
    path = "[Sound, Away, Sound, Away, Sound]"
    text = GOOD.replace("[{at: Home, board: 2}, Sound, {at: Away, drop: 2}]", path)
    case = load_case(write_case(text))
    refused = RULESET.resolve(case.before, case.actions, case.readings).refusal
    assert refused is not None and refused.clause == "ship.2"
    assert "enters a 5th area; it moves at most 4" in refused.reason
    loaded = load_case(write_case(text.replace("advances: [Astronomy]", "advances: [Astronomy, Cloth Making]")
                                  .replace("expect:\n  ships:\n    r1: {at: Away}", "expect:\n  ships:\n    r1: "
                                           "{at: Sound}"), "cloth.yaml"))
    assert loaded.actions.turns[0].moves[0].path[-1].area == "Sound"


def test_unknown_named_map_suggests_one(write_case):
    text = GOOD.replace("  map:\n    areas:", "  map: straits\n  unused:\n    areas:")
    text = text.split("  unused:")[0] + "  options: [A]" + text.split("  options: [A]")[1]
    error, _ = error_of(write_case, text, SceneError)
    assert "no map named 'straits'" in str(error) and "did you mean 'strait'?" in str(error)


@pytest.mark.parametrize("old, new, message", [
    ("kind: water", "knd: water", "11:15: before.map.areas.Sound.knd: unknown field 'knd'; did you mean 'kind'?"),
    ("{at: Away, drop: 2}", "{at: Away, dropp: 2}",
     "28:58: actions.turns[0].moves[0].path[2].dropp: unknown field 'dropp'; did you mean 'drop'?"),
    ("r1: {at: Away}", "r1: sank", "31:9: expect.ships.r1: 'sank' does not have the expected form"),
])
def test_a_misspelt_key_is_one_located_line(write_case, old, new, message):
    error, path = error_of(write_case, GOOD.replace(old, new))
    assert str(error).startswith(f"{path}:{message}") and "\n" not in str(error)


# --- the base conflict rule ----------------------------------------------------------------------


def _fight(sides: dict[str, int], metal: frozenset = frozenset(), ends: str = "one-left"):
    from verifier.rulesets.civ.resolver import fight
    pieces = {n: [f"{n}{i + 1}" for i in range(c)] for n, c in sides.items()}
    return fight(pieces, lambda n, k: (1 if n in metal else 0, k), ends=ends)[0]


def test_fewer_removes_first_then_alternately():
    assert _fight({"a": 2, "b": 4}) == [("a1",), ("b1",), ("a2",)]


def test_equal_sides_remove_together():
    assert _fight({"a": 2, "b": 2}) == [("a1", "b1"), ("a2", "b2")]


def test_metalworking_holders_remove_after_the_others():
    assert _fight({"a": 2, "b": 4}, frozenset({"a"})) == [("b1",), ("a1",), ("b2",), ("a2",)]


def test_three_sides_in_ascending_strength_until_one_is_left_or_the_first_is_out():
    assert _fight({"a": 1, "b": 2, "c": 3}) == [("a1",), ("b1",), ("c1",), ("b2",)]
    assert _fight({"a": 1, "b": 2, "c": 3}, ends="first-out") == [("a1",)]
    assert _fight({"a": 2, "b": 2, "c": 3}) == [("a1", "b1"), ("c1",), ("a2", "b2")]


def test_a_land_conflict_stops_once_the_area_holds_no_more_than_its_limit():
    from verifier.rulesets.civ.resolver import fight
    pieces = {"a": ["a1", "a2"], "b": ["b1", "b2", "b3"]}
    steps, stopped = fight(pieces, lambda n, k: (k,), limit=3)
    assert (steps, stopped) == ([("a1",), ("b1",)], False)
    assert pieces == {"a": ["a2"], "b": ["b2", "b3"]}  # both nations stay
    equal = {"a": ["a1", "a2"], "b": ["b1", "b2"]}
    assert fight(equal, lambda n, k: (k,), limit=3)[0] == [("a1", "b1")]  # together, so one under the limit
    assert fight({"a": ["a1"], "b": ["b1"]}, lambda n, k: (k,), limit=2)[0] == []


def test_a_meeting_at_the_limit_is_no_conflict_and_cites_it():
    case = load_case("cases/civ/conflict-4-meeting-within-limit.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert [e.detail for e in outcome.events if e.kind == "within-limit"] == ["3 tokens, limit 3"]
    assert not outcome.after.branches[0].state.removals
    assert "conflict.4" in outcome.clauses_used()


def test_the_limit_comes_from_the_map_file():
    case = load_case("cases/civ/conflict-4-stops-at-limit.yaml")
    limits = {a.name: a.limit for a in case.before.map.areas if a.kind == "land"}
    assert limits == {"Eastreach": 1, "Farshore": 2, "Highfold": 2, "Pinecape": 3, "Westmark": 2}


@pytest.mark.parametrize("old, new, where, message", [
    ("Away: {kind: land, coast: true, at: [4, 0], limit: 2}", "Away: {kind: land, coast: true, at: [4, 0]}",
     "13:7: before.map.areas.Away", "land area 'Away' needs its population limit (limit: N"),
    ("Sound: {kind: water,", "Sound: {kind: water, limit: 2,", "11:28: before.map.areas.Sound.limit",
     "only land has a population limit; 'Sound' is water"),
    ("  tokens:\n    Home: {Crete: 5}", "  tokens:\n    Home: {Crete: 5}\n  overland:\n    Home: {Crete: 6}",
     "24:19: before.overland.Home.Crete", "6 Crete tokens in 'Home' moved overland, but before.tokens gives Crete 5"),
])
def test_limits_and_overland_tokens_are_checked_where_written(write_case, old, new, where, message):
    assert old in GOOD
    error, path = error_of(write_case, GOOD.replace(old, new), SceneError)
    assert str(error).startswith(f"{path}:{where}: ") and message in str(error), str(error)
    assert "\n" not in str(error)


def test_boarding_tokens_that_moved_overland_is_refused_citing_ship_5():
    """The scene is possible and the action parses; the resolver refuses it, and nothing moves."""
    case = load_case("cases/civ/refused/overland-may-not-board.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert outcome.refusal is not None
    assert (outcome.refusal.clause, outcome.refusal.pieces) == ("ship.5", ("r1",))
    assert "moved over land" in outcome.refusal.reason
    assert outcome.after.branches[0].state.land_of("Westmark") == {"Crete": 3} and not outcome.events


def test_a_drop_of_more_tokens_than_may_board_after_an_overland_move_is_refused(write_case):
    text = GOOD.replace("  tokens:\n    Home: {Crete: 5}",
                        "  tokens:\n    Home: {Crete: 5}\n  overland:\n    Home: {Crete: 4}")
    case = load_case(write_case(text))
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert outcome.refusal is not None and outcome.refusal.clause == "ship.5"


def test_a_phase_where_nothing_happens_still_weighs_the_movement_allowance():
    case = load_case("cases/civ/ship-2-nothing-happens.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert RULESET.compare(case.before, case.expect, outcome) == []
    assert {str(c) for c in outcome.provenance["r1"]} >= {"ship.2"} and not outcome.events


def test_the_outcome_lists_every_removal_in_order():
    case = load_case("cases/civ/conflict-1-fewer-loses-first.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    removes = [(e.step, e.pieces) for e in outcome.events if e.kind == "remove"]
    assert removes == [(1, ("Crete token",)), (2, ("Babylon token",)), (3, ("Crete token",))]


# --- readings, decisions, branches ----------------------------------------------------------------


def test_the_four_advantage_readings_disagree_on_one_scene():
    case = load_case("cases/civ/a6-advantage-strength.yaml")
    removals = {}
    for option in ("strength", "phantom", "order", "tiebreak"):
        reading = RULESET.reading({"advantage": option})
        outcome = RULESET.resolve(case.before, case.actions, reading)
        assert "advantage" in outcome.consulted
        removals[option] = outcome.after.branches[0].state.removals
    assert len(set(removals.values())) == 4


def test_tiebreak_counts_ships_first_and_points_only_between_equal_fleets():
    for name, removals in (("a6-advantage-tiebreak", (("r1",), ("b1",), ("r2",))),
                           ("a6-advantage-tiebreak-equal-fleets", (("b1",), ("r1",), ("b2",)))):
        case = load_case(f"cases/civ/{name}.yaml")
        outcome = RULESET.resolve(case.before, case.actions, case.readings)
        assert outcome.after.branches[0].state.removals == (("Narrows", removals),)


def test_phantom_says_whose_reading_it_is():
    from verifier.rulesets.civ.clauses import READING_POINTS
    options = next(p for p in READING_POINTS if p.name == "advantage").options
    assert "project's own reading" in options["phantom"] and "issue 27" in options["tiebreak"]


def test_an_advantage_nobody_holds_consults_no_reading():
    case = load_case("cases/civ/a5-either-may-want-conflict.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert "advantage" not in outcome.consulted and not outcome.decisions


def test_open_decisions_give_a_branch_each():
    case = load_case("cases/civ/a7-landing-after-lost-conflict.yaml")
    open_both = case.actions.__class__(case.actions.blockade, case.actions.turns,
                                       case.actions.choices.__class__())
    outcome = RULESET.resolve(case.before, open_both, case.readings)
    labels = [b.choices for b in outcome.after.branches]
    # conflict yes (then Crete's ship is lost and Babylon decides) or no (then Crete's own ship shields it)
    assert labels == [(("conflict", "Eastreach", "no"),),
                      (("conflict", "Eastreach", "yes"), ("prevent", "Eastreach", "no")),
                      (("conflict", "Eastreach", "yes"), ("prevent", "Eastreach", "yes"))]


def test_stranded_tokens_are_a_contradiction_of_base_and_variant():
    case = load_case("cases/civ/b4-blocked-tokens-stay.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    decision = next(d for d in outcome.decisions if d.point == "stranded")
    assert str(decision.kind) == "contradiction" and decision.clauses == ("B.4", "ship.4")


def test_listing_order_does_not_matter():
    case = load_case("cases/civ/b4a-carrying-limit.yaml")
    before = case.before
    flipped = before.__class__(before.map, before.options, before.nations[::-1], before.ships[::-1],
                               before.tokens[::-1])
    reading = MappingProxyType(dict(case.readings))
    assert RULESET.resolve(flipped, case.actions, reading).after == RULESET.resolve(before, case.actions,
                                                                                    reading).after


# --- interchange, explorer, bench ----------------------------------------------------------------------


def test_branches_survive_the_adapter_json():
    case = load_case("cases/civ/b2-block-or-let-pass.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    back = RULESET.outcome_from_json(case.before, json.loads(json.dumps(RULESET.outcome_json(outcome))))
    assert RULESET.compare(case.before, case.expect, back) == []
    tampered = RULESET.outcome_json(outcome)
    tampered["branches"][0]["ships"]["r1"]["at"] = "Eastreach"
    wrong = RULESET.outcome_from_json(case.before, tampered)
    assert [m.path for m in RULESET.compare(case.before, case.expect, wrong)] == [("branches", 0, "ships", "r1")]


def test_exhaustive_spaces_have_the_sizes_they_claim():
    for name, size in (("two-sides", 576), ("three-sides", 216)):
        count, scenes = RULESET.exhaustive_space(name)
        assert count == size == len(list(scenes))


def test_benchmark_runs_the_big_phase():
    suite = RULESET.benchmarks()[0]
    figures = suite.run(BenchSettings(quick=True, repeats=1))
    assert figures["phase"]["areas"] == 500 and figures["phase"]["nations"] == 20
    assert figures["phase"]["ships"] == 80 and figures["conflicts"]["per_second"] > 0
    assert "500 areas" in suite.table(figures)


def test_a_block_choice_off_the_ships_path_is_refused(write_case):
    text = GOOD.replace("options: [A]", "options: [A, B]").replace(
        "expect:", "  choices:\n    block: {r1: Ocean}\nexpect:")
    error, path = error_of(write_case, text, SceneError)
    assert str(error).startswith(f"{path}:30:17: actions.choices.block.r1: ship 'r1' is never in 'Ocean'")


def test_a_named_map_beside_the_case_is_checked_where_it_stands(write_case, tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "reef.json").write_text(
        '{"areas": {\n  "Home": {"kind": "land", "coast": true, "limit": 2, "at": [0, 0], "touches": ["Sound"]},\n'
        '  "Sound": {"kind": "water", "at": [2, 0], "touches": ["Reef"]}\n}}\n', encoding="utf-8")
    text = GOOD.replace("  map:\n    areas:", "  map: reef\n  unused:\n    areas:")
    text = text.split("  unused:")[0] + "  options: [A]" + text.split("  options: [A]")[1]
    error, _ = error_of(write_case, text, SceneError)
    assert str(error).startswith(f"{tmp_path / 'maps' / 'reef.json'}:3:56: areas.Sound.touches[0]: 'Reef' is not "
                                 "an area of this scene")


def test_too_many_open_decisions_are_refused_not_run(write_case):
    areas = ["Northbay", "Pinecape", "Westmark", "Narrows", "Eastreach", "Southbay", "Farshore"]
    nations = ["Assyria", "Babylon", "Crete", "Egypt"]
    ships = []
    for i, area in enumerate(areas):  # two nations in every area: seven conflicts nobody decided
        for k in range(2):
            n = (2 * i + k) % 4
            ships.append(f"    s{2 * i + k}: {{nation: {nations[n]}, at: {area}}}")
    text = (GOOD.split("before:")[0] + "before:\n  map: strait\n  options: [A]\n  nations:\n"
            + "".join(f"    {n}: {{}}\n" for n in nations) + "  ships:\n" + "\n".join(ships)
            + "\nactions: {}\nexpect:\n  events: []\n")
    error, path = error_of(write_case, text, SceneError)
    assert str(error).startswith(f"{path}:") and "more than 64 branches (conflict Eastreach, conflict " in str(error)
    assert "state some in actions.choices" in str(error) and "\n" not in str(error)


def test_the_report_shows_where_the_advantage_readings_disagree():
    section = RULESET.report_sections([])[0]
    pairs = {tuple(p["readings"]): p for p in section.data["pairs"]}
    assert set(pairs) == {("strength", "phantom"), ("strength", "order"), ("strength", "tiebreak"),
                          ("phantom", "order"), ("phantom", "tiebreak"), ("order", "tiebreak")}
    assert section.data["conflicts"] == 576
    for pair in pairs.values():
        assert pair["removals_differ"] >= pair["survivors_differ"] > 0
    # One Metalworking ship against three: as strength (1+1 < 3) it goes first and alone;
    # as order its point ranks it above Babylon, which loses a ship first.
    example = pairs[("strength", "order")]["example"]
    assert example["sides"] == "Assyria 1 ship (Metalworking), Babylon 3 ships"
    assert example["strength"] == [["a1"]] and example["order"] == [["b1"], ["a1"]]


def test_the_landings_space_covers_every_option_set():
    count, scenes = RULESET.exhaustive_space("landings")
    listed = list(scenes)
    assert count == len(listed) == 96
    assert {before.options for before, _ in listed} == {frozenset(), frozenset("A"), frozenset("B"), frozenset("AB")}
    branching = [b for b, a in listed if len(RULESET.resolve(b, a, RULESET.default_reading).after.branches) == 2]
    assert branching and all("A" in b.options for b in branching)  # only naval battles let Babylon refuse


def test_a_branch_limit_is_applied_even_after_the_same_phase_was_resolved_without_one():
    """The resolver keeps recent outcomes; a call with a branch limit still counts the branches."""
    from pathlib import Path

    from verifier.rulesets.civ.resolver import TooManyBranches, resolve

    ruleset = registry.get("civ")
    case = load_case(Path(__file__).parent.parent / "cases" / "civ" / "a5-either-may-want-conflict.yaml")
    reading = dict(ruleset.default_reading)
    outcome = resolve(case.before, case.actions, reading)
    branches = len(outcome.after.branches)
    assert branches > 1
    assert resolve(case.before, case.actions, dict(reading)) is outcome  # kept
    # within the limit, the kept outcome is the answer (parsing a case counts its branches so)
    assert resolve(case.before, case.actions, dict(reading), max_branches=branches) is outcome
    with pytest.raises(TooManyBranches):
        resolve(case.before, case.actions, dict(reading), max_branches=branches - 1)


def test_a_reading_table_is_the_same_after_the_scene_was_read_and_resolved(monkeypatch):
    """Fuzz's reading table resolves, under a reading that notes its look-ups, the scene the
    adapter has just read (resolving it under the default reading to count its branches): a
    kept outcome is handed over where the options the resolver looked up agree, asked in the
    order the resolver asks them, so the decision tree (which point it branches on first), its
    keys and outcomes are those of a table made afresh."""
    from verifier.fuzz.reference import reading_table
    from verifier.generation import seeded_scene
    from verifier.rulesets.civ import resolver
    from verifier.rulesets.civ.parse import forget_scenes
    from verifier.source import Located

    civ = registry.get("civ")
    made = []
    carry_out = resolver.carry_out
    monkeypatch.setattr(resolver, "carry_out", lambda *args, **kw: made.append(1) or carry_out(*args, **kw))
    fresh_resolves = again_resolves = 0
    for index in range(1, 80):
        before, actions, _ = seeded_scene(civ, 0, index)
        resolver._KEPT.clear()
        resolver._LOOKED_UP.clear()
        forget_scenes()  # the scene is read afresh below, as the adapter reads a request
        made.clear()
        fresh = reading_table(civ, before, actions)
        fresh_resolves += len(made)
        data_before, data_actions = civ.case_data(before, actions)
        civ.parse(Located("<request>", {"before": data_before, "actions": data_actions}, {}, {}), ("before",),
                  ("actions",), None)
        made.clear()
        again = reading_table(civ, before, actions)
        again_resolves += len(made)
        assert list(again.keys.items()) == list(fresh.keys.items())
        assert again.points == fresh.points
        assert again.outcomes == fresh.outcomes
    assert again_resolves < fresh_resolves * 0.8  # the default reading's outcome was handed over


def test_the_reading_table_of_civ_resolutions_is_the_table_of_plain_resolves():
    """Civ hands fuzz's reading table resolutions under another option made by the resolver,
    not looked up among the outcomes kept by the scene's value (parse's, under the default
    reading): the same points, leaves, keys and outcomes, the reading each was resolved under
    too, whether or not the scene was read (and so resolved under the default reading) first."""
    from verifier.fuzz.reference import reading_table
    from verifier.generation import seeded_scene
    from verifier.rulesets.civ import resolver
    from verifier.rulesets.civ.parse import forget_scenes
    from verifier.source import Located

    civ = registry.get("civ")
    branched = 0
    for index in range(1, 120):
        before, actions, _ = seeded_scene(civ, 0, index)
        for read_first in (False, True):
            resolver._KEPT.clear()
            resolver._LOOKED_UP.clear()
            forget_scenes()
            if read_first:
                data_before, data_actions = civ.case_data(before, actions)
                civ.parse(Located("<request>", {"before": data_before, "actions": data_actions}, {}, {}),
                          ("before",), ("actions",), None)
            walked = reading_table(civ, before, actions)
            plain = reading_table(PlainResolutions(civ), before, actions)
            assert_same_table(walked, plain)
        branched += len(walked.keys) > 1
    assert branched > 30
