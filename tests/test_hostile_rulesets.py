"""Hostile input for armada, armada2k and civ (and the kit parts scatter and ypp share):
answers that pass by being NaN or by listing a branch twice, map files from outside the
case's tree, scenes whose checks would grow with the square of their pieces, and
pictures that would need gigabytes. The hostile case files are in tests/hostile/
(tests/test_hostile_cases.py runs them)."""

from __future__ import annotations

import math
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import CASES, ROOT

from verifier import registry
from verifier.adapter import InProcessImplementation, check_implementation
from verifier.case import load_case
from verifier.errors import ImplementationError
from verifier.kit.bench import count_calls
from verifier.kit.compare import beyond, numbers_text
from verifier.kit.draw import PIECE_BUDGET, PictureTooLargeError
from verifier.kit.interchange import require_finite_numbers
from verifier.ruleset import Refusal
from verifier.source import Located

IMPLS = Path(__file__).parent / "impls"
ARMADA_CASE = CASES / "armada" / "squadron-as-ship.yaml"
ARMADA2K_CASE = CASES / "armada2k" / "blocked-move-prefix.yaml"
CIV_CASE = CASES / "civ" / "a2-landing-then-land-conflict.yaml"
CIV_BRANCHES = CASES / "civ" / "a5-either-may-want-conflict.yaml"


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(IMPLS))


# --- every number finite, every comparison strict ------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["armada", "armada2k"])
def test_an_implementation_answering_nan_fails_every_case_it_answers(ruleset):
    impl = InProcessImplementation("python:nan_answers:handle", timeout=30)
    results = check_implementation([CASES / ruleset], impl, draw=False)
    assert len(results) == len(list((CASES / ruleset).rglob("*.yaml")))
    for result in results:
        if isinstance(result.case.expect, Refusal):
            # A refusal is answered with no numbers at all, so there is nothing to be NaN.
            continue
        assert str(result.status) == "errored", result.id
        message = result.problems[0].message
        assert "is nan; every number must be finite" in message and "the answer's ships." in message, message


def test_an_infinite_position_is_refused_naming_its_field():
    impl = InProcessImplementation("python:nan_answers:infinite", timeout=30)
    [result] = check_implementation([ARMADA2K_CASE], impl, draw=False)
    assert str(result.status) == "errored"
    assert "the answer's ships.scout.at[0] is inf; every number must be finite" in result.problems[0].message


def test_the_finite_check_names_nested_fields():
    require_finite_numbers({"ships": {"a": {"at": [1.0, 2.0]}}, "events": [{"n": 3}]})
    with pytest.raises(ImplementationError, match=r"the answer's moves\[1\]\.tool\[0\]\[2\] is -inf"):
        require_finite_numbers({"moves": [{"end": [0, 0, 0]}, {"tool": [[1.0, 2.0, -math.inf]]}]})


def test_a_non_finite_gap_is_always_a_mismatch():
    assert beyond(math.nan, 0.01) and beyond(math.inf, 1e300) and beyond(0.02, 0.01)
    assert not beyond(0.01, 0.01) and not beyond(0.0, 0.0)


@pytest.mark.parametrize(("path", "reposition"), [
    (ARMADA_CASE, lambda ruleset, outcome, value: replace(outcome, after=replace(outcome.after, ships=tuple(
        replace(s, pose=replace(s.pose, x=value, heading=value)) for s in outcome.after.ships)))),
    (ARMADA2K_CASE, lambda ruleset, outcome, value: replace(outcome, after=replace(
        outcome.after, scene=outcome.after.scene.with_ships(tuple(
            replace(s, at=(value, value), heading=value) for s in outcome.after.scene.ships))))),
], ids=["armada", "armada2k"])
@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_every_comparison_takes_a_non_finite_position_for_a_mismatch(path, reposition, value):
    case = load_case(path)
    ruleset = case.ruleset
    outcome = ruleset.resolve(case.before, case.actions, case.readings)
    assert ruleset.compare(case.before, case.expect, outcome) == []
    spoilt = reposition(ruleset, outcome, value)
    fields = {m.path[-1] for m in ruleset.compare(case.before, case.expect, spoilt)}
    assert {"at", "heading"} <= fields or "ships" in fields


def test_far_from_the_origin_two_positions_print_apart():
    assert numbers_text([1e15, 1e15], [1e15 + 3, 1e15]) == ("[1000000000000000, 1000000000000000]",
                                                           "[1000000000000003, 1000000000000000]")
    assert numbers_text([1.5, 2], [1.25, 2]) == ("[1.5, 2]", "[1.25, 2]")


# --- keyed items once -----------------------------------------------------------------------------------


def test_a_civ_answer_listing_a_wrong_copy_of_a_branch_first_is_refused():
    case = load_case(CIV_BRANCHES)
    ruleset = case.ruleset
    answer = ruleset.outcome_json(ruleset.resolve(case.before, case.actions, case.readings))
    assert len(answer["branches"]) > 1
    right = answer["branches"][0]
    wrong = {**right, "land": {}, "removals": {}}
    with pytest.raises(ImplementationError, match="the answer's branches lists two branches with .+; each may "
                                                  "appear once"):
        ruleset.outcome_from_json(case.before, {**answer, "branches": [wrong, *answer["branches"]]})


def test_an_implementation_listing_a_branch_twice_fails_every_civ_case_it_answers():
    impl = InProcessImplementation("python:civ_twice:handle", timeout=30)
    results = check_implementation([CASES / "civ"], impl, draw=False)
    answered = [r for r in results if not isinstance(r.case.expect, Refusal)]  # a refusal lists no branches
    assert answered and all(str(r.status) == "errored" for r in answered)
    assert all("lists two branches with" in r.problems[0].message for r in answered)


# --- map files stay inside the case's tree --------------------------------------------------------------


def _civ_case(folder: Path, map_line: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = CIV_CASE.read_text(encoding="utf-8").replace("map: strait", map_line)
    path = folder / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _load_error(path: Path) -> str:
    from verifier.errors import CaseError
    with pytest.raises(CaseError) as caught:
        load_case(path)
    return str(caught.value)


@pytest.mark.skipif(os.name == "nt", reason="symbolic links")
def test_a_map_file_linked_out_of_the_tree_is_refused_and_never_quoted(tmp_path):
    secret = tmp_path / "elsewhere" / "secret.json"
    secret.parent.mkdir()
    secret.write_text('"TOP SECRET ' + "S" * 3000 + '"', encoding="utf-8")
    case = _civ_case(tmp_path / "cases", "map: strait")
    (tmp_path / "cases" / "maps").mkdir()
    (tmp_path / "cases" / "maps" / "strait.json").symlink_to(secret)
    message = _load_error(case)
    assert "a link out of" in message and "refused" in message and "SECRET" not in message


@pytest.mark.skipif(os.name == "nt", reason="symbolic links")
def test_a_maps_folder_linked_out_of_the_tree_is_refused(tmp_path):
    case = _civ_case(tmp_path / "cases", "map: strait")
    (tmp_path / "cases" / "maps").symlink_to(ROOT / "cases" / "civ" / "maps")
    message = _load_error(case)
    assert message.startswith(f"{case}:") and "a link out of" in message


@pytest.mark.parametrize("name", ["../../etc/passwd", "/etc/passwd", "x" * 300, "strait\x07"])
def test_a_map_name_is_a_plain_name(tmp_path, name):
    message = _load_error(_civ_case(tmp_path, f"map: {name!r}".replace("'", '"')))
    assert "a map's name is up to 64 letters, digits, '-' or '_'" in message and len(message) < 400


def test_a_map_file_of_the_wrong_kind_is_reported_without_its_content(tmp_path):
    case = _civ_case(tmp_path, "map: strait")
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "strait.json").write_text('"' + "T" * 5000 + '"', encoding="utf-8")
    message = _load_error(case)
    assert "a map file holds one object" in message and "TTTT" not in message
    (tmp_path / "maps" / "strait.json").write_text('{"areas": {"a": {"kind": "' + "U" * 5000 + '", "at": [0, 0]}}}',
                                                   encoding="utf-8")
    assert len(_load_error(case)) < 500


def test_a_map_beside_the_case_is_still_read(tmp_path):
    case = _civ_case(tmp_path, "map: strait")
    (tmp_path / "maps").mkdir()
    shutil.copy(ROOT / "cases" / "civ" / "maps" / "strait.json", tmp_path / "maps" / "strait.json")
    assert load_case(case).before.map.name == "strait"


# --- bounded work -----------------------------------------------------------------------------------------


def _parse_calls(ruleset_key: str, before: dict, actions: object) -> int:
    ruleset = registry.get(ruleset_key)
    doc = Located("<test>", {"before": before, "actions": actions}, {}, {})
    return count_calls(lambda: ruleset.parse(doc, ("before",), ("actions",), None))


def test_armada_set_up_checks_grow_far_slower_than_the_square_of_the_ships():
    from verifier.rulesets.armada.bench import crowd
    from verifier.rulesets.armada.parse import case_data
    small, large = (_parse_calls("armada", *case_data(*crowd(n, 1))) for n in (100, 1_000))
    assert large / small < 20, (small, large)  # every pair: about 100 times


def test_armada2k_set_up_checks_grow_far_slower_than_the_square_of_the_ships():
    from verifier.rulesets.armada2k.bench import crowd
    from verifier.rulesets.armada2k.parse import case_data
    small, large = (_parse_calls("armada2k", *case_data(*crowd(n))) for n in (60, 600))
    assert large / small < 20, (small, large)


def test_a_civ_land_conflict_costs_a_step_a_token():
    from verifier.rulesets.civ.bench import land_conflict
    from verifier.rulesets.civ.resolver import resolve
    ruleset = registry.get("civ")
    calls = []
    for tokens in (1_000, 10_000):
        scene, actions = land_conflict(tokens)
        calls.append(count_calls(lambda s=scene, a=actions: resolve(s, a, ruleset.default_reading)))
    assert calls[1] / calls[0] < 12, calls
    outcome = resolve(*land_conflict(10_000), ruleset.default_reading)
    [(area, steps)] = outcome.after.branches[0].state.removals
    assert area == "land" and len(steps) == 2 * (10_000 // 3) - 1  # the weaker side out, alternately


def test_civ_map_borders_are_found_without_testing_every_pair():
    from verifier.rulesets.civ.bench import big_phase
    from verifier.rulesets.civ.draw import borders
    maps = [big_phase(areas=n, nations=2)[0].map for n in (250, 2_500)]
    calls = [count_calls(lambda m=m: borders(m)) for m in maps]
    assert calls[1] / calls[0] < 20, calls


# --- drawing within budgets ---------------------------------------------------------------------------------


def _pixels(image) -> int:
    return image.width * image.height


def test_a_tool_of_10_to_the_15_mm_draws_within_the_pixel_budget():
    from verifier.kit.draw import PIXEL_BUDGET
    case = load_case(CASES / "armada" / "both-sides-first-side.yaml")
    tool = replace(case.before.tool, step=1e15)
    before = replace(case.before, tool=tool)
    ruleset = case.ruleset
    image = ruleset.draw(before, case.actions, ruleset.resolve(before, case.actions, case.readings))
    assert _pixels(image) <= PIXEL_BUDGET * 1.5


def test_a_ship_4e14_from_the_centre_draws_within_the_pixel_budget():
    from verifier.kit.draw import PIXEL_BUDGET
    from verifier.rulesets.armada2k.model import Area
    case = load_case(ARMADA2K_CASE)
    ships = tuple(replace(s, at=(4e14, 0.0)) if s.name == "scout" else s for s in case.before.ships)
    before = replace(case.before, area=Area(radius=1e15), ships=ships)
    ruleset = case.ruleset
    image = ruleset.draw(before, case.actions, ruleset.resolve(before, case.actions, case.readings))
    assert _pixels(image) <= PIXEL_BUDGET * 1.5 and max(image.size) < 20_000


def test_a_map_of_12000_areas_is_refused_before_any_drawing():
    from verifier.rulesets.civ.bench import big_phase
    ruleset = registry.get("civ")
    scene, actions = big_phase(areas=12_000, nations=2)
    outcome = ruleset.resolve(scene, actions, ruleset.default_reading)
    with pytest.raises(PictureTooLargeError, match=f"a picture of 12,008 areas and ships is more than the "
                                                   f"{PIECE_BUDGET:,} pieces a picture draws"):
        ruleset.draw(scene, actions, outcome)


def test_a_long_land_conflict_is_summed_up_in_its_removal_strip():
    from verifier.rulesets.civ.bench import land_conflict
    from verifier.rulesets.civ.draw import STRIP_COLUMNS, removal_strip
    ruleset = registry.get("civ")
    scene, actions = land_conflict(9_999)
    outcome = ruleset.resolve(scene, actions, ruleset.default_reading)
    branch = outcome.after.branches[0]
    [(area, steps)] = branch.state.removals
    strip = removal_strip(scene, branch.moved, branch.state, area, steps, 1, "Removals on land")
    short = removal_strip(scene, branch.moved, branch.state, area, steps[:STRIP_COLUMNS - 1], 1, "Removals")
    assert strip.width == short.width and strip.height == short.height
