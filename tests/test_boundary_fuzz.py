"""verifier fuzz on boundaries: toy implementations that depart from the rules exactly at
a contact, a tie or a limit (tests/impls/boundary_toys.py) are found within fuzz's default
budget, and the minimal scene of what they do wrong sits on the boundary."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier import registry
from verifier.adapter import open_implementation
from verifier.fuzz import run
from verifier.kit.boundary import SIDE_STEPS, Side

IMPLS = Path(__file__).parent / "impls"


@pytest.fixture(autouse=True)
def impls_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))


def fuzz(key: str, toy: str, **options):
    impl = open_implementation(f"python:boundary_toys:{toy}", 10, rulesets=[key])
    try:
        return run(registry.get(key), impl, budget=120, **options)  # the default number of scenes
    finally:
        impl.close()


def beside(key: str, name: str, before, actions) -> bool:
    """Whether a scene lies on the boundary ``name`` or just either side of it."""
    boundary = next(b for b in registry.get(key).boundaries() if b.name == name)
    value = boundary.quantity(before, actions)
    if value is None:
        return False
    if boundary.exact:
        return value == 0
    return abs(value) <= (SIDE_STEPS + 0.5) * boundary.tolerance


# Since refusals and supported features were merged, fuzz no longer meets these two armada2k
# toys within 200 scenes (open in issue 26).
LOST = pytest.mark.xfail(reason="armada2k boundary toy not met within 200 scenes since the refusal merge")

TOYS = [
    # ruleset, toy, the boundary its minimal scene sits on
    ("armada", "touching_overlaps", "ship-touches-ship"),
    ("armada", "tie_by_listing", "closest-range-tie"),
    pytest.param("armada2k", "turn_limit_off", "turn-limit", marks=LOST),
    pytest.param("armada2k", "last_step_unchecked", None, marks=LOST),
    ("scatter", "tangency_in_doubles", "template-touches-base"),
]


@pytest.mark.parametrize("key,toy,boundary", TOYS, ids=[(t.values if hasattr(t, "values") else t)[1] for t in TOYS])
def test_a_toy_that_departs_at_a_boundary_is_found_and_shrunk_onto_it(key, toy, boundary):
    result = fuzz(key, toy)
    groups = result.groups + result.mixed
    assert groups, f"{toy}: nothing found in {len(result.trials)} scenes"
    if boundary is not None:
        assert any(g.boundary_visits for g in groups), f"{toy}: no group has a scene built on a boundary"
        on = [g for g in groups if g.on_boundary == boundary]
        assert on, f"{toy}: no minimal scene on {boundary}"
        assert all(beside(key, boundary, g.before, g.actions) for g in on)
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
    assert Side.ON.value in next(iter(data["boundaries"]["boundaries"].values()))
