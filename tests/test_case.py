"""The case loader is strict and every error names file, line, column and field."""

from __future__ import annotations

import textwrap

import pytest

from verifier.case import load_case
from verifier.errors import CaseError, CaseErrors, SceneError, UnknownReadingError, UnknownRulesetError

GOOD = textwrap.dedent("""\
    id: sample
    title: Sample
    ruleset: ypp
    source: {seed: 000_ddf34e19307a0e0d.txt, section: Collision rules}
    clauses: [move.1a]
    before:
      board:
        size: [5, 5]
        rocks: [[0, 0]]
      ships:
        A: {type: sloop, at: [2, 2], heading: N}
        B: {type: war frigate, at: [4, 4], heading: W}
    actions:
      - {A: forward}
    expect:
      ships:
        A: {at: [2, 1], heading: N}
      events: []
    """)


def error_of(write_case, text, cls=CaseError):
    path = write_case(text)
    with pytest.raises(cls) as info:
        load_case(path)
    return info.value, str(path)


def test_good_case_loads(write_case):
    case = load_case(write_case(GOOD))
    assert case.id == "sample"
    assert [s.name for s in case.before.ships] == ["A", "B"]
    assert case.readings["bump"] == "class-first"


def test_duplicate_key_names_both_lines(write_case):
    text = GOOD.replace("title: Sample\n", "title: Sample\ntitle: Again\n")
    error, path = error_of(write_case, text)
    assert str(error) == f"{path}:3:1: title: duplicate key 'title' (first given on line 2)"


def test_duplicate_ship_name_is_an_error(write_case):
    text = GOOD.replace("    B: {type: war frigate", "    A: {type: war frigate")
    error, _ = error_of(write_case, text)
    assert "duplicate key 'A'" in str(error) and error.location.line == 12


def test_unknown_key_suggests_near_miss(write_case):
    error, path = error_of(write_case, GOOD.replace("clauses:", "clause:"))
    assert error.location.line == 5 and error.location.column == 1
    assert "unknown field 'clause'; did you mean 'clauses'?" in str(error)


def test_nested_unknown_key_has_field_path(write_case):
    error, path = error_of(write_case, GOOD.replace("heading: N}\n    B", "hedaing: N}\n    B"))
    messages = [str(e) for e in (error.errors if isinstance(error, CaseErrors) else [error])]
    assert any(f"{path}:11:" in m and "before.ships.A.hedaing: unknown field 'hedaing'; did you mean 'heading'?" in m
               for m in messages)


def test_several_problems_are_all_reported(write_case):
    text = GOOD.replace("clauses:", "clause:").replace("heading: W", "heading: Q")
    error, _ = error_of(write_case, text, CaseErrors)
    assert len(error.errors) >= 2
    lines = [e.location.line for e in error.errors]
    assert lines == sorted(lines)


def test_wrong_type_message(write_case):
    error, _ = error_of(write_case, GOOD.replace("size: [5, 5]", "size: five"))
    assert "before.board.size: expected a list, got 'five'" in str(error)


def test_unsafe_yaml_tag_is_rejected(write_case):
    error, _ = error_of(write_case, GOOD.replace("title: Sample", "title: !!python/object:os.system ls"))
    assert error.location.line == 2 and "not valid YAML" in str(error)


def test_invalid_yaml_syntax(write_case):
    error, path = error_of(write_case, GOOD.replace("ships:\n    A:", "ships:\n    A: [\n"))
    assert str(error).startswith(f"{path}:") and "not valid YAML" in str(error)


def test_empty_file(write_case):
    error, _ = error_of(write_case, "")
    assert "empty" in str(error)


def test_unknown_ruleset(write_case):
    error, _ = error_of(write_case, GOOD.replace("ruleset: ypp", "ruleset: ypq"), UnknownRulesetError)
    assert error.location.line == 3 and "did you mean 'ypp'?" in str(error)


def test_unknown_reading_point_and_option(write_case):
    error, _ = error_of(write_case, GOOD + "readings: {bmp: class-first}\n", UnknownReadingError)
    assert error.location.line == 19 and "did you mean 'bump'?" in str(error)
    error, _ = error_of(write_case, GOOD + "readings: {bump: clas-first}\n", UnknownReadingError)
    assert "did you mean 'class-first'?" in str(error)


def test_unknown_clause(write_case):
    error, _ = error_of(write_case, GOOD.replace("[move.1a]", "[move.1z]"))
    assert error.location.line == 5 and "no clause 'move.1z'" in str(error)


@pytest.mark.parametrize("old,new,words,line", [
    ("at: [4, 4], heading: W", "at: [2, 2], heading: W", "both on tile [2, 2]", 12),
    ("at: [4, 4], heading: W", "at: [5, 4], heading: W", "off the 5x5 board", 12),
    ("at: [4, 4], heading: W", "at: [0, 0], heading: W", "on the rock at [0, 0]", 12),
    ("type: war frigate", "type: war galleon", "missing from seed 000's table", 12),
    ("type: war frigate", "type: war frigat", "did you mean 'war frigate'?", 12),
    ("rocks: [[0, 0]]", "rocks: [[0, 9]]", "the rock at [0, 9] is off the 5x5 board", 9),
    ("  - {A: forward}", "  - {Z: forward}", "'Z' is not a ship in this scene", 14),
    ("  events: []", "  events: []\n  damage: {Q: 1}", "damaged ship 'Q' is not a ship in this scene", 19),
])
def test_impossible_scenes_are_sentences(write_case, old, new, words, line):
    error, path = error_of(write_case, GOOD.replace(old, new), SceneError)
    assert words in str(error)
    assert error.location.line == line and str(error).startswith(f"{path}:{line}:")


def test_expected_damage_must_be_a_number(write_case):
    error, path = error_of(write_case, GOOD.replace("  events: []", "  events: []\n  damage: {A: lots}"))
    assert error.location.line == 19 and "damage" in str(error) and str(error).startswith(f"{path}:19:")


def test_whirlpool_must_fit_and_not_overlap(write_case):
    text = GOOD.replace("rocks: [[0, 0]]", "whirlpools: [[4, 1]]")
    error, _ = error_of(write_case, text, SceneError)
    assert "does not fit" in str(error)
    text = GOOD.replace("rocks: [[0, 0]]", "whirlpools: [[0, 0], [1, 1]]")
    error, _ = error_of(write_case, text, SceneError)
    assert "overlaps whirlpool 1" in str(error)


def test_too_many_rounds(write_case):
    text = GOOD.replace("  - {A: forward}\n", "  - {A: forward}\n" * 5)
    error, _ = error_of(write_case, text)
    assert "actions: needs at most 4 items, got 5" in str(error)


def test_event_with_wrong_arity(write_case):
    text = GOOD.replace("events: []", "events: [{kind: collision, ships: [A]}]")
    error, _ = error_of(write_case, text, SceneError)
    assert "a collision event names 2 ships, not 1" in str(error)
