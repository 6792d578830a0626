"""The armada2k ruleset: pyramid footprints, exact step fans, firing areas, located
errors for impossible scenes, and every command on its cases."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap

import pytest
from conftest import CASES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.case import load_case, load_case_text
from verifier.errors import CaseError
from verifier.kit.geometry import Contact, Pose, classify, classify_solids, solid_separation
from verifier.rulesets.armada2k import RULESET
from verifier.rulesets.armada2k.explore import strategy
from verifier.rulesets.armada2k.geometry import World, check_step, fan, firing_area, has_step, old_piece_limit
from verifier.rulesets.armada2k.model import (
    FOOTPRINTS,
    SIZES,
    SOLID_READINGS,
    TEMPLATES,
    Area,
    Scene,
    Ship,
    bow,
    footprint,
    pieces_contact,
    slant,
    solid,
    solids_contact,
)

A2K = CASES / "armada2k"
HEADER = """\
id: armada2k-test
title: a test
ruleset: armada2k
status: derived
source: {seed: 004_8d2b28d8637aa8b2.txt, section: Setup}
clauses: [setup.2a]
"""


def _case(body: str):
    return load_case_text(HEADER + textwrap.dedent(body), "bad.yaml")


def _error(body: str) -> str:
    with pytest.raises(CaseError) as caught:
        _case(body)
    return str(caught.value)


# --- the pieces -------------------------------------------------------------------------


def test_slant_heights_are_the_facts_in_millimetres():
    assert [round(slant(z) * 25.4, 2) for z in ("large", "medium", "small")] == [46.23, 36.31, 26.39]


def test_the_pentagon_has_its_raised_corners_beside_the_face_ahead_of_the_stern():
    for size in SIZES:
        points = TEMPLATES[(size, "pentagon")].points
        assert len(points) == 5
        b = TEMPLATES[(size, "slant")].points[1][0] * 2
        raised = [p for p in points if 0 < p[1] < slant(size)]
        assert [round(y, 9) for _, y in raised] == [round(b * b / (2 * slant(size)), 9)] * 2
        assert sorted(abs(x) for x, _ in raised) == [b / 2, b / 2]
        # the face (the slant triangle) lies inside the outline
        face = footprint(Ship("s", "p", size, (0, 0), 0), "slant")
        outline = footprint(Ship("s", "p", size, (0, 0), 0), "pentagon")
        assert outline.buffer(1e-9).contains(face) and outline.area > face.area


def test_the_upright_reading_is_a_triangle_as_long_as_the_height():
    assert TEMPLATES[("large", "upright")].bow == (0.0, 1.75)


# --- steps and fans -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("reading", FOOTPRINTS)
def test_the_old_piece_limit_is_where_the_pieces_first_share_an_edge(size, reading):
    ship = Ship("s", "p", size, (0.0, 0.0), 0.0)
    scene = Scene(Area(radius=50), (ship,), ("p",), "p")
    world = World(scene, {"s": ship}, reading)
    limit = old_piece_limit(ship, reading)
    assert check_step(ship, limit - 0.01, world, frozenset()).old is Contact.APART
    assert check_step(ship, limit, world, frozenset()).old is Contact.TOUCHING
    assert check_step(ship, limit + 0.01, world, frozenset()).old is Contact.OVERLAPPING
    # the same, measured with the shapes themselves
    x, y = bow(ship, reading)
    if reading in SOLID_READINGS:  # the pieces meet as solids, not as outlines
        old_solid = solid(size, ship.pose)
        assert classify_solids(old_solid, solid(size, Pose(x, y, limit - 0.01))) is Contact.TOUCHING
        assert classify_solids(old_solid, solid(size, Pose(x, y, limit + 0.01))) is Contact.OVERLAPPING
        return
    old = footprint(ship, reading)
    assert classify(old, footprint(ship, reading, Pose(x, y, limit - 0.01))) is Contact.TOUCHING
    assert classify(old, footprint(ship, reading, Pose(x, y, limit + 0.01))) is Contact.OVERLAPPING


@pytest.mark.parametrize("size, limit, outlines", [("small", 74.85, 72.40), ("medium", 74.72, 72.19),
                                                   ("large", 74.64, 72.07)])
def test_as_solids_a_step_turns_further_than_the_outlines_allow(size, limit, outlines):
    ship = Ship("s", "p", size, (0.0, 0.0), 0.0)
    assert round(old_piece_limit(ship, "pentagon"), 2) == limit == round(old_piece_limit(ship, "slant"), 2)
    assert round(90 - TEMPLATES[(size, "pentagon")].bow_half_angle, 2) == outlines
    # between the two, the outlines overlap (in the air) and the solids only share the stern point
    x, y = bow(ship, "pentagon")
    between = Pose(x, y, (limit + outlines) / 2)
    assert classify(footprint(ship, "pentagon"), footprint(ship, "pentagon", between)) is Contact.OVERLAPPING
    assert classify_solids(solid(size, ship.pose), solid(size, between)) is Contact.TOUCHING


def test_the_solid_contact_of_two_boxes_resting_on_a_plane():
    def box(x0: float, y0: float, x1: float, y1: float, height: float) -> list[tuple[float, float, float]]:
        return [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (0.0, height)]
    assert classify_solids(box(0, 0, 1, 1, 1), box(1.5, 0, 2, 1, 1)) is Contact.APART
    assert classify_solids(box(0, 0, 1, 1, 1), box(1, 0, 2, 1, 1)) is Contact.TOUCHING
    assert classify_solids(box(0, 0, 1, 1, 1), box(0.9, 0, 2, 1, 1)) is Contact.OVERLAPPING
    assert solid_separation(box(0, 0, 1, 1, 1), box(1.5, 0, 2, 1, 1)) == pytest.approx(0.5)
    assert solid_separation(box(0, 0, 1, 1, 1), box(0.9, 0, 2, 1, 1)) == pytest.approx(-0.1)
    # a wedge leaning over a low block: they overlap in top view but not in space
    wedge = [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 2.0), (0.0, 1.0, 2.0), (1.0, 0.0, 2.0), (1.0, 1.0, 2.0)]
    assert classify_solids(wedge, box(0.6, 0, 1.2, 1, 0.5)) is Contact.APART


def test_a_tip_under_a_raised_corner_does_not_meet_it_but_a_tip_on_the_face_does():
    flagship = Ship("flagship", "red", "large", (0.0, 0.0), 0.0)
    under = Ship("scout", "blue", "small", (1.5088, 0.25), 270.0)
    on_face = Ship("scout", "blue", "small", (1.4088, 0.25), 270.0)
    assert pieces_contact(under, flagship, "slant") is Contact.APART
    assert classify(footprint(under, "pentagon"), footprint(flagship, "pentagon")) is Contact.OVERLAPPING
    assert pieces_contact(under, flagship, "pentagon") is Contact.APART
    assert pieces_contact(on_face, flagship, "pentagon") is Contact.OVERLAPPING


def test_a_start_with_outlines_overlapping_in_the_air_is_no_overlap():
    case = _case("""\
        before:
          ships:
            flagship: {player: red, size: large, at: [0, 0], heading: 0}
            scout: {player: blue, size: small, at: [1.5088, 0.25], heading: 270}
        actions: []
        expect: {events: []}
        """)
    ships = {s.name: s for s in case.before.ships}
    assert classify(footprint(ships["scout"], "pentagon"), footprint(ships["flagship"], "pentagon")) \
        is Contact.OVERLAPPING
    from verifier.rulesets.armada2k.explore import invariant_breaches
    outcome = RULESET.resolve(case.before, case.actions, RULESET.reading({"footprint": "pentagon"}))
    assert invariant_breaches(case.before, case.actions, outcome) == []


def test_a_fan_cut_by_solids_agrees_with_testing_every_quarter_degree():
    flagship = Ship("flagship", "red", "large", (0.0, 0.0), 0.0)
    scout = Ship("scout", "blue", "small", (2.4476, 0.25), 270.0)  # one step puts its tip on the large's face
    scene = Scene(Area(radius=50), (flagship, scout), ("blue", "red"), "blue")
    reading = {**RULESET.default_reading, "footprint": "pentagon"}
    world = World(scene, {"flagship": flagship, "scout": scout}, "pentagon")
    wrong, count = _brute(scout, world, reading)
    assert wrong == 0 and count == 2  # the large cuts the fan in two


def test_solids_contact_is_classify_solids() -> None:
    import random
    rng = random.Random(5)
    found = set()
    for k in range(600):
        a = (rng.choice(SIZES), Pose(rng.randint(-4, 4) / 4, rng.randint(-4, 4) / 4, rng.randint(0, 23) * 15.0))
        b = (rng.choice(SIZES), Pose(rng.randint(-4, 4) / 4, rng.randint(-4, 4) / 4,
                                     rng.randint(0, 23) * 15.0 if k % 2 else rng.uniform(0, 360)))
        found.add(solids_contact(a, b))
        assert solids_contact(a, b) is classify_solids(solid(*a), solid(*b))
    assert found == set(Contact)


class _Asked(dict):
    def __init__(self, options):
        super().__init__(options)
        self.asked: list[str] = []

    def __getitem__(self, point):
        self.asked.append(point)
        return super().__getitem__(point)


@settings(max_examples=20, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(strategy(), st.sampled_from(FOOTPRINTS), st.sampled_from(["touch", "overlap"]))
def test_has_step_is_whether_the_fan_is_empty_and_asks_what_it_asks(example, footprint_reading, contact):
    scene, _ = example
    ships = {s.name: s for s in scene.ships}
    world = World(scene, ships, footprint_reading)
    for ship in ships.values():
        options = {**RULESET.default_reading, "footprint": footprint_reading, "contact": contact}
        quick, whole = _Asked(options), _Asked(options)
        assert has_step(ship, world, quick, frozenset({ship.name})) == bool(fan(ship, world, whole,
                                                                                 frozenset({ship.name}))[0])
        assert set(quick.asked) == set(whole.asked) == {"contact"}


def _brute(ship: Ship, world: World, reading, step: float = 0.25) -> tuple[int, int]:
    intervals, _ = fan(ship, world, reading, frozenset({ship.name}))
    wrong = sum(1 for k in range(int(360 / step))
                if check_step(ship, k * step, world, frozenset({ship.name})).allowed(reading)
                != any(i.contains(k * step) for i in intervals))
    return wrong, len(intervals)


@pytest.mark.parametrize("name", ["fan-near-edge-and-reef", "note-stuck-between-ships", "pentagon-turn-limit-medium",
                                  "pentagon-tip-under-raised-corner"])
def test_a_fan_agrees_with_testing_every_quarter_degree(name):
    case = load_case(A2K / f"{name}.yaml")
    reading = RULESET.reading(case.readings)
    ships = {s.name: s for s in case.before.ships}
    action = next(a for a in case.actions if a.kind == "fan")
    world = World(case.before, ships, reading["footprint"])
    assert _brute(ships[action.ship], world, reading)[0] == 0


@settings(max_examples=15, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(strategy(), st.sampled_from(FOOTPRINTS), st.sampled_from(["touch", "overlap"]))
def test_fans_of_generated_scenes_agree_with_sampling(example, footprint_reading, contact):
    scene, _ = example
    reading = {**RULESET.default_reading, "footprint": footprint_reading, "contact": contact}
    ships = {s.name: s for s in scene.ships}
    world = World(scene, ships, footprint_reading)
    assert _brute(ships["a"], world, reading, step=0.5)[0] == 0


def test_straight_steps_cover_whole_lengths():
    outcome = RULESET.resolve(*_parsed("whole-steps-small-three"))
    assert outcome.after.scene.ship("scout").at == pytest.approx((0.0, 3 * slant("small")))


def _parsed(name: str, **pins: str):
    case = load_case(A2K / f"{name}.yaml")
    return case.before, case.actions, RULESET.reading({**case.readings, **pins})


def test_each_footprint_gives_its_own_answer():
    ends = {fp: RULESET.resolve(*_parsed("footprint-slant-two-steps", footprint=fp)).after for fp in FOOTPRINTS}
    assert ends["slant"].scene.ship("frigate").at == pytest.approx((0, 2 * slant("medium")))
    assert ends["upright"].scene.ship("frigate").at == pytest.approx((0, 2.75))
    widths = {fp: dict(ends[fp].fans)["frigate"][0].width for fp in FOOTPRINTS}
    assert widths["upright"] < widths["pentagon"] == widths["slant"]  # solids meet where their faces do


def test_readings_the_cases_pin_change_the_outcome_they_say():
    for default_case, other_case, point in [("contact-touch-blocks", "contact-overlap-allows", "contact"),
                                            ("target-partly-in-area-hit", "target-whole-required", "target"),
                                            ("sight-centre-line-clear", "sight-area-obstructs", "sight"),
                                            ("placement-centred-misses", "placement-sliding-hits", "placement"),
                                            ("alt-flag-touched-wins", "alt-flag-touch-blocked", "flag-contact")]:
        a, b = load_case(A2K / f"{default_case}.yaml"), load_case(A2K / f"{other_case}.yaml")
        first = RULESET.resolve(a.before, a.actions, a.readings)
        second = RULESET.resolve(b.before, b.actions, b.readings)
        assert RULESET.outcome_key(first) != RULESET.outcome_key(second), point
        assert point in first.consulted and point in second.consulted


def test_a_touching_step_is_a_decision_for_the_contact_reading():
    outcome = RULESET.resolve(*_parsed("contact-touch-blocks"))
    decision = next(d for d in outcome.decisions if d.point == "contact")
    assert decision.kind is not None and decision.kind.value == "gap"
    assert [e.kind for e in outcome.events] == ["blocked"]


def test_the_flag_is_a_contradiction_between_movement_and_the_goal():
    outcome = RULESET.resolve(*_parsed("alt-flag-touched-wins"))
    decision = next(d for d in outcome.decisions if d.point == "flag-contact")
    assert decision.kind is not None and decision.kind.value == "contradiction"
    assert outcome.after.winner == "blue"


def test_carried_damage_that_sinks_a_ship_cites_that_damage_stays():
    case = load_case(A2K / "damage-carried-sinks.yaml")
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert {"dmg.3", "dmg.2"} <= {str(c) for c in outcome.provenance["frigate"]}
    fresh = RULESET.resolve(*_parsed("fire-small-sinks-and-fleet-gone"))
    assert all(str(c) != "dmg.3" for causes in fresh.provenance.values() for c in causes)


def test_the_large_laid_to_aim_lies_against_the_side_at_table_level():
    ship = Ship("s", "p", "large", (0.0, 0.0), 0.0)
    area, mid = firing_area(ship, "starboard", "pentagon", "centred")
    assert mid == pytest.approx((0.25, slant("large") / 2))  # the middle of the resting face's side
    resting_edge = [p for p in area.exterior.coords[:-1] if abs((p[0] - 0.5) * slant("large") + p[1] * 0.5) < 1e-9]
    assert len(resting_edge) == 2  # both ends of the large's resting edge lie on that side


def test_the_sliding_area_holds_the_centred_one():
    ship = Ship("s", "p", "large", (0.0, 0.0), 0.0)
    for reading in FOOTPRINTS:
        centred = firing_area(ship, "starboard", reading, "centred")[0]
        sliding = firing_area(ship, "starboard", reading, "sliding")[0]
        assert sliding.buffer(1e-9).contains(centred) and sliding.area > centred.area


def test_listing_order_does_not_matter():
    case = load_case(A2K / "illus3-cannon-ranges.yaml")
    scene = case.before
    flipped = scene.with_ships(scene.ships[::-1])
    assert RULESET.outcome_key(RULESET.resolve(flipped, case.actions, case.readings)) == \
        RULESET.outcome_key(RULESET.resolve(scene, case.actions, case.readings))


# --- bad input: one located line each ----------------------------------------------------------------


def test_overlapping_pieces_at_the_start():
    message = _error("""\
        before:
          ships:
            a: {player: blue, size: medium, at: [0, 0], heading: 0}
            b: {player: red, size: small, at: [0.1, 0.5], heading: 90}
        actions: []
        expect: {events: []}
        """)
    assert message.startswith("bad.yaml:10:") and "before.ships.b.at" in message
    assert "ships 'a' and 'b' overlap" in message and "\n" not in message


def test_a_sixth_piece_of_one_size():
    ships = "\n".join(f"    s{i}: {{player: blue, size: small, at: [{i * 1.0 - 3}, 0], heading: 0}}" for i in range(6))
    message = _error(f"before:\n  ships:\n{ships}\nactions: []\nexpect: {{events: []}}\n")
    assert "before.ships.s5.size" in message and "only 5 small pieces" in message and "bad.yaml:14:" in message


@pytest.mark.parametrize("ships, action, clause, words", [
    ("a: {player: blue, size: large, at: [0, 0], heading: 0}", "{move: a, steps: [0, 10]}", "move.1a",
     "a large ship moves at most 1 step in one move, not 2"),
    ("a: {player: blue, size: medium, at: [0, 0], heading: 0}\n            b: {player: red, size: small, at: [2, 0], "
     "heading: 0}", "{fire: a, side: stern, target: b}", "fire.3", "a stern shot needs the rear-cannon variant"),
    ("a: {player: blue, size: medium, at: [0, 0], heading: 0}", "{fire: a, side: port, target: a}", "fire.3",
     "a cannot fire at itself"),
])
def test_an_action_the_rules_never_allow_loads_and_is_refused(ships, action, clause, words):
    case = _case(f"""\
        before:
          ships:
            {ships}
        actions:
          - {action}
        expect: {{events: []}}
        """)
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    assert outcome.refusal is not None and (outcome.refusal.clause, outcome.refusal.pieces) == (clause, ("a",))
    assert words in outcome.refusal.reason and not outcome.events
    assert outcome.after.scene == case.before


def test_a_heading_that_is_not_a_number():
    message = _error("""\
        before:
          ships:
            a: {player: blue, size: medium, at: [0, 0], heading: north}
        actions: []
        expect: {events: []}
        """)
    assert "bad.yaml:9:" in message and "before.ships.a.heading" in message and "expected a number" in message


@pytest.mark.parametrize("body,words", [
    ("""\
        before:
          obstacles: {reef: [[2, 2], [3, 2], [3, 3]]}
          ships:
            a: {player: blue, size: medium, at: [0, 0], heading: 0}
        actions: []
        expect: {events: []}
        """, "obstacles need the obstructed variant"),
    ("""\
        before:
          ships:
            a: {player: blue, size: medium, at: [0, 9.5], heading: 0}
        actions: []
        expect: {events: []}
        """, "does not lie wholly on the playing area"),
    ("""\
        before:
          ships:
            a: {player: blue, size: medium, at: [0, 0], heading: 0}
        actions:
          - {fire: a, side: port, target: ab}
        expect: {events: []}
        """, "did you mean 'a'?"),
    ("""\
        before:
          ships:
            a: {player: blue, size: medium, at: [0, 0], heading: 0, damage: 2}
        actions: []
        expect: {events: []}
        """, "would already be sunk"),
])
def test_other_impossible_scenes_are_located_sentences(body, words):
    message = _error(body)
    assert message.startswith("bad.yaml:") and words in message and "\n" not in message


# --- the commands ------------------------------------------------------------------------------------


def _verifier(tmp_path, *args: str, code: int = 0) -> str:
    done = subprocess.run([sys.executable, "-m", "verifier.cli", *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == code, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_check_through_the_adapter_protocol(tmp_path):
    out = _verifier(tmp_path, "check", "--no-draw", "--impl", f"{sys.executable} -m verifier.adapters.reference",
                    str(A2K))
    assert out.strip().splitlines()[-1] == f"{len(list(A2K.rglob('*.yaml')))} passed, 0 failed"


def test_show_render_and_export(tmp_path):
    out = _verifier(tmp_path, "show", str(A2K / "contact-overlap-allows.yaml"), "--reading", "contact=touch")
    assert "reading contact=touch" in out and "frigate is blocked" in out
    assert "differs from the case's expectation" in out
    assert _verifier(tmp_path, "render", str(A2K / "illus3-cannon-ranges.yaml"), "-o", "r.png").startswith("wrote")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
    data = json.loads(_verifier(tmp_path, "export", "--format", "json", str(A2K)))
    assert {c["ruleset"] for c in data["cases"]} == {"armada2k"}


def test_explore_finds_the_contact_gap_and_the_footprint_divergence(tmp_path):
    cases = tmp_path / "cases" / "armada2k"
    cases.mkdir(parents=True)
    (cases / "one.yaml").write_text((A2K / "illus1-fan-each-size.yaml").read_text())
    out = _verifier(tmp_path, "explore", "armada2k", "--budget", "3600", "--max-examples", "60", "--exhaustive",
                    "--space", "corner", "--out", "ex", "--cases", str(tmp_path / "cases"))
    assert "recall of the search" in out
    report = json.loads((tmp_path / "ex" / "report.json").read_text())
    found = {(f["kind"], f["point"]) for f in report["findings"]}
    assert ("divergence", "footprint") in found and ("gap", "footprint") in found, found
    scenes = report["exhaustive"]["scenes"]
    for finding in report["findings"]:
        assert (tmp_path / "ex" / finding["diagram"]).is_file()
        # Each finding's share of the exhaustive space, in the JSON and in the Markdown table.
        assert finding["exhaustive_share"] == round(finding["exhaustive_scenes"] / scenes, 6)
        assert finding["exhaustive_scenes"] == report["exhaustive"]["counts"].get(finding["fingerprint"], 0)
    markdown = (tmp_path / "ex" / "report.md").read_text()
    assert "A finding's fingerprint is kind:point:clauses:label" in markdown and "%) |" in markdown


def test_docs_and_bench(tmp_path):
    out = _verifier(tmp_path, "docs", "--out", "site", "--cases", str(ROOT / "cases"), "--ruleset", "armada2k",
                    "--examples", "6", "--findings", "no-findings")
    assert "armada2k:" in out
    page = (tmp_path / "site" / "armada2k" / "index.html").read_text()
    assert "move.note" in page and "How to read the pictures" in page
    assert "armada2k.fleet" in _verifier(tmp_path, "bench", "--list")
    out = _verifier(tmp_path, "bench", "--suite", "armada2k.fleet", "--quick", "--repeats", "1", "--json", "b.json")
    figures = json.loads((tmp_path / "b.json").read_text())["suites"]["armada2k.fleet"]
    assert figures["ships_per_side"] == 12 and all(figures[k]["per_second"] > 0 for k in ("steps", "shots", "fans"))
    assert "allowed-heading fans" in out


def test_the_straight_distance_from_the_centre_decides_the_edge():
    """A round sea is tested exactly, not as a polygon: a piece whose bow lies on the rim touches the edge."""
    radius = 10.0
    ship = Ship("s", "p", "small", (0.0, radius - 2 * slant("small")), 0.0)
    scene = Scene(Area(radius=radius), (ship,), ("p",), "p")
    check = check_step(ship, 0.0, World(scene, {"s": ship}, "slant"), frozenset())
    assert check.edge is Contact.TOUCHING
    assert math.isclose(check.heading, 0.0)


def test_a_point_the_resolver_did_not_consult_never_changes_the_outcome():
    """What the memo in resolve() relies on: under every one-point change of every case's reading, the
    outcome worked out afresh equals the remembered one."""
    from verifier.explore import single_point_readings
    from verifier.rulesets.armada2k.resolver import carry_out, resolve
    for path in sorted(A2K.glob("*.yaml")):
        case = load_case(path)
        for _, _, reading in single_point_readings(RULESET):
            reading = RULESET.reading({**reading, **case.readings})
            assert resolve(case.before, case.actions, reading) == carry_out(case.before, case.actions, reading), path


def test_step_badges_count_on_over_the_moves_and_the_key_says_planned_for_a_refused_move():
    from verifier.rulesets.armada2k.draw import _key, _step_labels
    case = load_case(A2K / "contact-ship-blocks-step.yaml")  # two one-step moves of one ship
    label = _step_labels(case.actions)
    assert [label(1, 1), label(2, 1)] == ["1", "2"]
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    moved = [e for e in outcome.events if e.kind == "move"]
    assert [e.detail for e in moved] == ["1 step"]
    refused = load_case(A2K / "refused" / "large-two-steps.yaml")
    words = {e.name: e.description for e in _key(refused.before, 1, {"move"})}
    assert "took" not in words["step"] and "plans" in words["step"]
    words = {e.name: e.description for e in _key(refused.before, 1, {"move", "moved", "moves"})}
    assert "taken" in words["step"] and "over a ship's moves" in words["step"]


def test_a_shot_a_flag_obstructs_crosses_the_adapter_json_and_is_read_back():
    """The reference names the flag ("flag:red") as what obstructs the shot; its own reader
    once refused that name, so a conforming implementation's answer was unreadable."""
    case = _case("""
        before:
          area: {circle: 8, centre: [0, 0]}
          players: [blue, red]
          turn: blue
          variants: {capture-the-flag: {flags: {red: [0, -0.5]}, flagships: {}}}
          ships:
            a: {player: blue, size: small, at: [0.5, -0.5], heading: 30}
            b: {player: red, size: small, at: [0, 0], heading: 0}
        actions: [{fire: a, side: port, target: b}]
        expect: {events: []}
        """)
    outcomes = [RULESET.resolve(case.before, case.actions, reading) for reading in RULESET.all_readings()]
    obstructed = [o for o in outcomes
                  if ("obstructed", ("a", "b", "flag:red")) in [(e.kind, e.pieces) for e in o.events]]
    assert obstructed  # under some reading
    for outcome in obstructed:
        back = RULESET.outcome_from_json(case.before, json.loads(json.dumps(RULESET.outcome_json(outcome))))
        assert RULESET.outcome_key(back) == RULESET.outcome_key(outcome)
