"""verifier fuzz on boundaries: toy implementations that depart from the rules exactly at
a contact, a tie or a limit (tests/impls/boundary_toys.py) are found within fuzz's default
budget (200 scenes), each as one group whose minimal scene sits on the boundary that
decides it."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import registry
from verifier.adapter import open_implementation
from verifier.fuzz import run
from verifier.kit.boundary import Side, beside

IMPLS = Path(__file__).parent / "impls"


@pytest.fixture(autouse=True)
def impls_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))


def fuzz(key: str, toy: str, **options):
    impl = open_implementation(f"python:boundary_toys:{toy}", 10, rulesets=[key])
    try:
        return run(registry.get(key), impl, budget=3600, **options)  # the default 200 scenes bound it, not time
    finally:
        impl.close()


TOYS = [
    # the toy, ruleset, toy implementation, the boundary that decides it
    ("a: touching counted as overlapping", "armada", "touching_overlaps", "ship-touches-ship"),
    ("b: a tie broken by listing order", "armada", "tie_by_listing", "closest-range-tie"),
    ("c: a turn limit one degree off", "armada2k", "turn_limit_off", "turn-limit"),
    ("d: one step more than the size allows", "armada2k", "one_step_too_many", "steps-at-maximum"),
    ("d: the last step goes one step too far into a piece", "armada2k", "last_step_unchecked",
     "last-step-touches-piece"),
    ("e: doubles compared at an exact tangency", "scatter", "tangency_in_doubles", "template-touches-base"),
]


@pytest.mark.parametrize("what,key,toy,boundary", TOYS, ids=[t[2] for t in TOYS])
def test_a_toy_that_departs_at_a_boundary_is_found_as_one_group_shrunk_onto_it(what, key, toy, boundary):
    result = fuzz(key, toy)
    # Answered (a toy may crash now and then: counting touching as overlapping, a ship touching
    # another at its start is blocked even at speed 0).
    assert len(result.answered) >= 0.9 * len(result.trials), f"{toy}: {result.problems[:3]}"
    groups = result.groups + result.mixed
    assert len(groups) == 1, f"{what}: {[(g.fingerprint, g.decided_at) for g in groups]} in {len(result.trials)} scenes"
    group = groups[0]
    assert group.boundary_visits, f"{toy}: none of its scenes was built on a boundary"
    assert group.decided_at.startswith(f"{boundary} ("), group.decided_at
    named = next(b for b in registry.get(key).boundaries() if b.name == boundary)
    assert group.on_boundary == boundary and beside(named, group.before, group.actions)
    assert result.boundaries["on_boundaries"] > 0


def test_without_boundaries_the_toys_go_unseen():
    """The same budget with no share on boundaries finds nothing: they hide at the boundary."""
    for key, toy in [("armada", "touching_overlaps"), ("armada2k", "turn_limit_off")]:
        result = fuzz(key, toy, boundary_share=0.0)
        assert not result.groups and not result.mixed, toy
        assert result.boundaries.get("on_boundaries", 0) == 0


def test_the_report_says_which_boundaries_were_visited_and_what_came_from_them(tmp_path):
    import json

    from verifier.fuzz import write_report

    result = fuzz("armada", "touching_overlaps")
    write_report(result, tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "## Boundaries" in text and "ship-touches-ship" in text
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["boundaries"]["share_asked"] == pytest.approx(0.3) and data["boundaries"]["share"] > 0
    assert set(data["boundaries"]["boundaries"]) == {b.name for b in registry.get("armada").boundaries()}
    assert any(group["boundary_visits"] for group in data["disagreements"]["groups"])
    assert [g["decided_at"] for g in data["disagreements"]["groups"]] == ["ship-touches-ship (on)"]
    assert "| ship-touches-ship (on)" in text
    assert Side.ON.value in next(iter(data["boundaries"]["boundaries"].values()))
