"""The kit's checks of another implementation's answer, shared by the rulesets' readers."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.case import load_case
from verifier.errors import ImplementationError
from verifier.kit.interchange import require_every_piece

CASES = Path(__file__).resolve().parent.parent / "cases"


def test_an_answer_with_every_piece_passes():
    require_every_piece(["b", "a"], {"a", "b"})


def test_missing_and_unknown_pieces_are_named_in_one_sentence():
    with pytest.raises(ImplementationError) as caught:
        require_every_piece(["a", "z"], ["a", "b", "c"], who="each branch")
    assert str(caught.value) == ("each branch must give every ship of the scene and no other: "
                                 "missing ['b', 'c'], unknown ['z']")


@pytest.mark.parametrize("key", ["armada", "armada2k"])
def test_a_ruleset_reader_refuses_an_answer_that_leaves_a_ship_out(key):
    case = load_case(sorted((CASES / key).rglob("*.yaml"))[0])
    rs = case.ruleset
    answer = rs.outcome_json(rs.resolve(case.before, case.actions, case.readings))
    left_out = sorted(answer["ships"])[0]
    del answer["ships"][left_out]
    with pytest.raises(ImplementationError, match=rf"missing \['{left_out}'\], unknown \[\]"):
        rs.outcome_from_json(case.before, answer)
