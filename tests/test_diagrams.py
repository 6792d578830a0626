"""Every case's before/after diagram matches its PNG snapshot in snapshots/<ruleset>/.

Regenerate with ``pytest --snapshot-update``; syrupy then also lists (and removes)
snapshots that no case uses."""

from __future__ import annotations

import pytest
from conftest import case_files, case_param

from verifier.case import load_case
from verifier.refusal import draw_outcome
from verifier.snapshots import png_bytes
from verifier.syrupy_png import diagram_extension


def diagram(case):
    """The picture 'verifier check' keeps: the ruleset's drawing, with the band of a refusal."""
    outcome = case.ruleset.resolve(case.before, case.actions, case.readings)
    return draw_outcome(case.ruleset, case.before, case.actions, outcome, case.title)


@pytest.mark.parametrize("path", [case_param(p) for p in case_files()])
def test_diagram_matches_snapshot(path, snapshot):
    case = load_case(path)
    if case.status == "needs-ruling":
        pytest.skip("needs a ruling: drawn per reading by 'verifier explore'")
    assert snapshot.use_extension(diagram_extension(case.ruleset.key, case.id)) == diagram(case)


def test_drawing_is_deterministic():
    case = load_case(case_files()[0])
    assert png_bytes(diagram(case)) == png_bytes(diagram(case))


@pytest.mark.parametrize("name", ["move-1b-equal-class-bump", "rock-forward", "edge-forward"])
def test_a_ypp_outcome_read_from_json_draws_its_events_without_their_places(name):
    """Another implementation's answer names its events but not where they happened; the
    picture still marks each one, between the ships it names."""
    case = load_case(case_files()[0].parent.parent / "ypp" / f"{name}.yaml")
    ruleset = case.ruleset
    outcome = ruleset.resolve(case.before, case.actions, case.readings)
    answered = ruleset.outcome_from_json(case.before, ruleset.outcome_json(outcome))
    assert answered.events and all(e.at is None for e in answered.events)
    image = ruleset.draw(case.before, case.actions, answered, title=case.title)
    # Same panels; only the reading line under the title is missing (an answer names no reading).
    assert image.width == ruleset.draw(case.before, case.actions, outcome, title=case.title).width
