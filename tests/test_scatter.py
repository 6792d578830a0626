"""The scatter ruleset: the seed's printed results, exact odds, readings, precise
errors, and the explorer's report of where the seed disagrees with itself."""

from __future__ import annotations

import itertools
import json
import textwrap
from fractions import Fraction

import pytest
from conftest import CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.case import load_case
from verifier.cli import main
from verifier.errors import CaseError, SceneError
from verifier.explore import analyse, search
from verifier.findings import add_sections
from verifier.ruleset import ReportSection
from verifier.rulesets.scatter import RULESET
from verifier.rulesets.scatter.clauses import PUBLISHED_READING, SEED_READING
from verifier.rulesets.scatter.exact import QSqrt3
from verifier.rulesets.scatter.model import ALL_ROLLS, ROLLS, Roll, Shot
from verifier.rulesets.scatter.report import describe_readings, report_sections
from verifier.rulesets.scatter.resolver import hit_count, land, probability, resolve
from verifier.rulesets.scatter.seedcode import SeedCall, hit_share, is_hit, r_print
from verifier.rulesets.scatter.strategies import shots

SCATTER = CASES / "scatter"
R30 = 0.5 * 30 / 25.4  # the seed's tests add this to their distances

# The seed's twelve tests, transcribed: (AOE, dist argument, max, dice, what the code asserts).
SEED_TESTS = [
    (3, 0, 6, (1, 1), True),
    (3, 1 + R30, 6, (1, 1), True),
    (3, 2.5 + R30, 6, (1, 1), False),
    (3, 2.5 + R30, 6, (6, 1), False),
    (3, 2.5 + R30, 6, (5, 1), True),
    (3, 2.5 + R30, 6, (6, 4), False),
    (3, 0, 6, (1, 2), True),
    (3, 0, 6, (2, 3), True),
    (3, 0, 6, (3, 5), False),
    (3, 0, 6, (4, 6), False),
    (3, 0, 1, (4, 6), True),
    (5, 0, 6, (3, 6), True),
]


def seed_test_cases():
    return [load_case(p) for p in sorted(SCATTER.glob("seed-test-*.yaml"))]


# --- the seed's printed results -------------------------------------------------------------


@pytest.mark.parametrize("number, test", list(enumerate(SEED_TESTS, 1)))
def test_seed_function_in_doubles_gives_each_assertion(number, test):
    aoe, dist, maximum, (distance, direction), asserted = test
    assert is_hit(SeedCall(aoe, dist, 30, maximum, distance, direction)) is asserted


def test_every_seed_test_is_a_case_and_reproduces_under_the_seed_reading():
    cases = seed_test_cases()
    assert [c.source.example for c in cases] == [f"TEST {n}" for n in range(1, 13)]
    for case, (aoe, _dist, maximum, dice, asserted) in zip(cases, SEED_TESTS):
        shot = case.before
        assert (shot.aoe, shot.base, float(shot.max_deviation)) == (aoe, 30, maximum)
        assert dict(case.readings) == dict(SEED_READING)
        assert (case.actions.distance, case.actions.direction) == dice
        expected = "hit" if asserted else "miss"
        assert case.expect.result == expected == case.expect.seed.assertion
        assert land(shot, case.actions, SEED_READING).hit is asserted


def test_the_worked_example_prints_0_1111111():
    assert r_print(hit_share(3, 2.5)) == "0.1111111"
    case = load_case(SCATTER / "seed-worked-example-36-rolls.yaml")
    outcome = resolve(case.before, ALL_ROLLS, SEED_READING)
    assert outcome.after.probability == Fraction(4, 36)
    assert r_print(float(outcome.after.probability)) == case.expect.seed.printed
    assert [landing.roll for landing in outcome.after.landings if landing.hit] == [Roll(d, 1) for d in (2, 3, 4, 5)]
    # Roll 1-1 ends exactly touching; the seed's '<' makes it a miss, and so does exact arithmetic.
    assert outcome.after.landing(Roll(1, 1)).touching


def test_test_6_comment_contradicts_its_assertion_under_every_reading():
    case = load_case(SCATTER / "seed-test-06-six-inches-back-after-two-and-a-half-short.yaml")
    assert (case.expect.seed.comment, case.expect.seed.assertion) == ("hit", "miss")
    assert not any(land(case.before, case.actions, r).hit for r in RULESET.all_readings())


# --- exact arithmetic -----------------------------------------------------------------------


def test_qsqrt3_signs_are_exact():
    r3 = QSqrt3(Fraction(0), Fraction(1))
    assert (QSqrt3.of(7) - r3 * 4).sign() == 1  # 7 > 6.928...
    assert (QSqrt3.of(6) - r3 * 4).sign() == -1
    assert (QSqrt3.of(2) + r3) * (QSqrt3.of(2) - r3) == QSqrt3.of(1)
    assert r3 * r3 == QSqrt3.of(3)
    # 97/56 is just above sqrt(3) (by about 1e-4): floats would agree here, exactness must too.
    assert QSqrt3.of(Fraction(97, 56)) > r3 and QSqrt3.of(Fraction(1351, 780)) > r3
    assert QSqrt3.of(Fraction(1351, 780)) - r3 < QSqrt3.of(Fraction(1, 10 ** 6))


def test_landing_spots_are_exact():
    shot = Shot(3, 30, Fraction(12))
    landing = land(shot, Roll(2, 2), PUBLISHED_READING)
    assert landing.point.x == QSqrt3(Fraction(0), Fraction(1)) and landing.point.y == QSqrt3.of(1)
    assert landing.distance_squared == 4 and isinstance(landing.distance_squared, Fraction)


@settings(max_examples=150, deadline=None, database=None)
@given(shots(), st.sampled_from(RULESET.all_readings()))
def test_odds_are_exact_36ths_and_the_fast_path_agrees_with_the_resolver(shot, reading):
    p = probability(shot, reading)
    assert isinstance(p, Fraction) and 0 <= p <= 1 and 36 % p.denominator == 0
    odds = resolve(shot, ALL_ROLLS, reading).after
    assert odds.probability == p == Fraction(hit_count(shot, reading), 36)
    assert [landing.hit for landing in odds.landings] == [land(shot, roll, reading).hit for roll in ROLLS]
    for landing in odds.landings:  # the closed form used for the hit test, against the exact point
        assert landing.point.norm_squared() == QSqrt3.of(landing.distance_squared)
        assert (landing.point - landing.start).norm_squared() == QSqrt3.of(landing.moved ** 2)


@settings(max_examples=150, deadline=None, database=None)
@given(shots(), st.sampled_from(ROLLS))
def test_exact_agrees_with_the_seeds_doubles_away_from_ties(shot, roll):
    exact = land(shot, roll, SEED_READING)
    dist = float(shot.short_distance) if shot.short is not None else 0.0
    call = SeedCall(shot.aoe, dist, shot.base, float(shot.max_deviation), roll.distance, roll.direction)
    if abs(exact.centre_distance - float(exact.reach)) > 1e-9:
        assert is_hit(call) is exact.hit


# --- readings differ where they should -------------------------------------------------------


def test_distance_reading_decides_where_the_template_starts():
    shot = load_case(SCATTER / "seed-test-03-one-inch-after-two-and-a-half-short.yaml").before
    centre = land(shot, Roll(1, 1), {**SEED_READING, "distance": "centre"})
    edge = land(shot, Roll(1, 1), SEED_READING)
    assert centre.start_distance_squared == (Fraction(5, 2) + shot.base_radius) ** 2
    assert edge.start_distance_squared == (Fraction(5, 2) + 2 * shot.base_radius) ** 2
    assert centre.touching and not edge.touching and not edge.hit


def test_touch_reading_decides_exact_contact_only():
    shot = load_case(SCATTER / "seed-test-03-one-inch-after-two-and-a-half-short.yaml").before
    reading = {**PUBLISHED_READING, "distance": "centre"}
    assert not land(shot, Roll(1, 1), {**reading, "touch": "miss"}).hit
    assert land(shot, Roll(1, 1), {**reading, "touch": "hit"}).hit
    assert probability(shot, {**reading, "touch": "hit"}) - probability(shot, reading) == Fraction(1, 36)


def test_side_reading_moves_the_landing_but_never_the_odds():
    shot = Shot(3, 30, Fraction(12))
    clockwise = land(shot, Roll(2, 2), PUBLISHED_READING).point
    counter = land(shot, Roll(2, 2), {**PUBLISHED_READING, "side": "counterclockwise"}).point
    assert counter == clockwise.mirrored()
    folded = {**PUBLISHED_READING, "side": "folded"}
    assert land(shot, Roll(3, 5), folded).point == land(shot, Roll(3, 3), folded).point
    assert land(shot, Roll(3, 5), PUBLISHED_READING).point == land(shot, Roll(3, 3), PUBLISHED_READING).point.mirrored()
    for other in (Shot(4, 50, Fraction(10), Fraction(3, 2)), Shot(5, 120, Fraction(6), Fraction(4), True)):
        assert len({probability(other, {**PUBLISHED_READING, "side": s}) for s in ("clockwise", "folded",
                                                                                   "counterclockwise")}) == 1


def test_cap_reading_half_distance_against_the_seeds_maximum():
    shot = Shot(3, 30, Fraction(4))
    half = land(shot, Roll(6, 1), PUBLISHED_READING)
    seed_max = land(shot, Roll(6, 1), {**PUBLISHED_READING, "cap": "seed-max"})
    assert (half.moved, half.hit) == (2, True)
    assert (seed_max.moved, seed_max.hit) == (6, False)
    outcome = resolve(shot, Roll(6, 1), PUBLISHED_READING)
    assert "cap" in outcome.consulted and "dev.cap" in outcome.clauses_used()
    assert [d.kind for d in outcome.decisions if d.point == "cap"] == ["contradiction"]


def test_the_diagram_geometry_gives_8_in_36_not_the_4_the_prose_states():
    case = load_case(SCATTER / "seed-diagram-roll-1-2.yaml")
    assert case.expect.seed.claim == Fraction(4, 36)
    assert probability(case.before, case.readings) == Fraction(8, 36)
    assert probability(case.before, {**case.readings, "distance": "edge"}) == Fraction(4, 36)
    assert abs(land(case.before, case.actions, case.readings).start_clearance - 0.0157) < 1e-4


# --- precise errors --------------------------------------------------------------------------

GOOD = textwrap.dedent("""\
    id: scatter-sample
    title: Sample
    ruleset: scatter
    source: {seed: 002_19d6070c068c80ab.txt, section: Tests of is.scatter.hit}
    clauses: [hit.overlap]
    before:
      aoe: 3
      base: 30
      aim: {from_attacker: 14, short: 2.5}
    actions: {distance: 1, direction: 1}
    expect:
      result: hit
    """)


def error_of(write_case, text, cls=CaseError):
    path = write_case(text)
    with pytest.raises(cls) as info:
        load_case(path)
    return info.value, str(path)


def test_good_scatter_case_loads(write_case):
    case = load_case(write_case(GOOD))
    assert case.before.short == Fraction(5, 2) and case.actions == Roll(1, 1)


@pytest.mark.parametrize("old, new, where, message", [
    ("aoe: 3", "aoe: 6", "7:8: before.aoe", "there is no 6-inch AOE template; templates are 3, 4 or 5 inches across"),
    ("base: 30", "base: 25", "8:9: before.base", "there is no 25 mm base; bases are 30, 40, 50 or 120 mm across"),
    ("short: 2.5}", "short: -1}", "9:35: before.aim.short", "cannot be negative, got -1"),
    ("short: 2.5}", "short: \"1/0\"}", "9:35: before.aim.short", "is not a number of inches"),
    ("direction: 1}", "direction: 7}", "10:35: actions.direction", "the direction die shows 1 to 6, not 7"),
    ("distance: 1,", "distance: 0,", "10:21: actions.distance", "the distance die shows 1 to 6, not 0"),
    ("result: hit", "probability: \"4/36\"", "12:16: expect.probability", "needs every roll: set the actions to 'all'"),
    ("aim: {from_attacker: 14, short: 2.5}", "aim: {from_attacker: 14, plus_base_radius: true}",
     "9:46: before.aim.plus_base_radius", "but this shot has no 'short'"),
    ("aim: {from_attacker: 14, short: 2.5}", "aim: {from_attacker: 0, short: 2.5}",
     "9:24: before.aim.from_attacker", "must be more than 0"),
])
def test_bad_shots_name_file_line_column_and_field(write_case, old, new, where, message):
    error, path = error_of(write_case, GOOD.replace(old, new), SceneError)
    assert str(error).startswith(f"{path}:{where}: ") and message in str(error)
    assert "\n" not in str(error)


def test_probability_must_be_a_share_of_36(write_case):
    text = GOOD.replace("actions: {distance: 1, direction: 1}", "actions: all").replace(
        "result: hit", "probability: \"1/7\"")
    error, path = error_of(write_case, text, SceneError)
    assert str(error) == (f"{path}:12:16: expect.probability: 1/7 is no share of the 36 rolls; a chance over two "
                          f"dice is some number of 36ths")


def test_one_roll_expectations_are_refused_for_all_rolls(write_case):
    error, path = error_of(write_case, GOOD.replace("actions: {distance: 1, direction: 1}", "actions: all"),
                           SceneError)
    assert str(error).startswith(f"{path}:12:11: expect.result: 'result' describes one roll")


def test_unknown_field_gets_a_hint(write_case):
    error, path = error_of(write_case, GOOD.replace("aim: {from_attacker", "aim: {from_atacker"))
    assert "before.aim.from_atacker: unknown field 'from_atacker'; did you mean 'from_attacker'?" in str(error)


def test_mismatches_name_the_expectation(write_case):
    text = GOOD.replace("result: hit", "result: miss\n  landing: [0, -1]")
    case = load_case(write_case(text))
    outcome = RULESET.resolve(case.before, case.actions, case.readings)
    messages = {m.path: m.message for m in RULESET.compare(case.before, case.expect, outcome)}
    assert messages[("result",)].startswith("the template should miss the target, but it is a hit")
    assert messages[("landing",)] == "the template should land at [0, -1] but lands at [0, -1.5]"


# --- the explorer ------------------------------------------------------------------------------


def test_describe_readings_names_boxes_and_their_complements():
    names = ["a", "b"]
    options = [["x", "y"], ["p", "q"]]
    assert describe_readings({("x", "p"), ("x", "q"), ("y", "p"), ("y", "q")}, names, options) == "every reading"
    assert describe_readings(set(), names, options) == "no reading"
    assert describe_readings({("x", "p"), ("x", "q")}, names, options) == "a=x"
    assert describe_readings({("x", "p"), ("x", "q"), ("y", "p")}, names, options) == "every reading except a=y and b=q"
    assert describe_readings({("x", "p"), ("y", "q")}, names, options) == "a=x with b=p; or a=y with b=q"


def test_mirror_symmetry_holds_under_the_default_reading():
    for shot in (Shot(3, 30, Fraction(12)), Shot(4, 40, Fraction(6), Fraction(2), True)):
        for actions in (Roll(3, 2), Roll(2, 5), ALL_ROLLS):
            kinds = {f.kind for f in analyse(RULESET, shot, actions).values()}
            assert "symmetry" not in kinds


def test_search_finds_the_gaps_contradictions_and_breaches():
    result = search(RULESET, budget=120, seed=0, max_examples=250)
    found = set(result.findings)
    assert {"gap:touch:hit.overlap:-", "gap:distance:aim.short:-", "contradiction:side:dev.dir+dev.fold:-",
            "contradiction:cap:dev.cap+dev.max:-", "divergence:touch:hit.overlap:miss vs hit",
            "divergence:distance:aim.short:centre vs edge"} <= found
    breaches = {f.label for f in result.findings.values() if f.kind == "breach"}
    assert "the template deviates more than half the distance to the target under cap=seed-max" in breaches
    assert "mirror-image rolls land on spots that are not mirror images under side=folded" in breaches
    assert not [f for f in result.findings.values() if f.kind in ("order", "symmetry")]


def scatter_cases():
    return [load_case(p) for p in sorted(SCATTER.glob("*.yaml"))]


def test_report_lists_under_which_readings_each_statement_holds(tmp_path):
    sections = {title: (text, data) for title, text, data in report_sections(RULESET, scatter_cases(), tmp_path)}
    _, data = sections["Scatter: the blog post's statements under every reading"]
    holds = {(s["example"], s["kind"]): s["holds_under"] for s in data["statements"]}
    assert holds[("TEST 6", "comment")] == "no reading"
    assert holds[("TEST 6", "assertion")] == "every reading"
    assert holds[("TEST 3", "assertion")] == "every reading except distance=centre and touch=hit"
    assert holds[("diagram: distance 1, direction 2", "claim")] == "distance=edge and touch=miss"
    assert holds[("diagram: distance 1, direction 2", "start_clearance")] == "distance=centre"
    printed = ("all 36 rolls, printed share 0.1111111", "printed")
    assert holds[printed] == "every reading except distance=edge and touch=hit"
    assert all(s["seed_function"] == s["seed_reading"].split(" ")[0] for s in data["statements"]
               if s["kind"] in ("assertion", "printed"))
    assert (tmp_path / "scatter-36-rolls.png").exists() and (tmp_path / "scatter-hit-probability.png").exists()


def test_report_lists_the_disagreements_with_numbers(tmp_path):
    sections = {title: data for title, _, data in report_sections(RULESET, scatter_cases(), tmp_path)}
    items = sections["Scatter: where the prose, the test comments, the code and the printed figures disagree"]
    text = {item["topic"]: item["text"] for item in items["disagreements"]}
    assert "9.68 in" in text["test comment against assertion"] and "TEST 6" in text["test comment against assertion"]
    assert "8/36 = 2/9" in text["statement against its own reading"]
    assert "3.6811 in" in text["test arguments against the code's measure"]
    assert "TEST 3 (miss under the code, exactly touching" in text["test arguments against the code's measure"]
    assert "2.179 in by the code and 1.709 in by the sentence" in text["prose trigonometry against the code"]
    assert "TEST 10 lands at (3.46, 2.00) by the code, (-3.46, 2.00) by the prose" in text["which side 5 and 6 are on"]
    assert "on 49 of the 49 documented rolls" in text["the blog post's doubles against exact arithmetic"]
    chances = sections["Scatter: the exact chance of a hit under each reading"]
    assert chances["relevant_points"] == ["distance", "touch"]
    row = next(r for r in chances["rows"] if r["example"] == "diagram: distance 1, direction 2")
    assert row["chances"] == {"distance=centre, touch=miss": "8/36", "distance=centre, touch=hit": "8/36",
                              "distance=edge, touch=miss": "4/36", "distance=edge, touch=hit": "5/36"}


def test_ruleset_sections_go_before_the_findings():
    data, markdown = add_sections({"x": 1}, "# R\n\n## Findings\n\nnone\n", [ReportSection("Extra", "body", {"k": 2})])
    assert markdown == "# R\n\n## Extra\n\nbody\n\n## Findings\n\nnone\n"
    assert data == {"x": 1, "sections": [{"title": "Extra", "data": {"k": 2}}]}
    assert add_sections({"x": 1}, "text", []) == ({"x": 1}, "text")


def test_explore_scatter_writes_the_scatter_sections(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["explore", "scatter", "--budget", "3600", "--max-examples", "80", "--out", str(out),
                 "--cases", str(CASES)]) == 0
    report = (out / "report.md").read_text()
    assert report.index("## Scatter: the blog post's statements under every reading") < report.index("## Findings")
    assert "## Scatter: where the prose, the test comments, the code and the printed figures disagree" in report
    data = json.loads((out / "report.json").read_text())
    assert [s["title"] for s in data["sections"]][:3] == [
        "Scatter: the blog post's statements under every reading",
        "Scatter: where the prose, the test comments, the code and the printed figures disagree",
        "Scatter: the exact chance of a hit under each reading"]
    conflicts = {(f["point"], f["label"]) for f in data["findings"] if f["kind"] == "example-conflict"}
    assert conflicts == {("distance", "edge"), ("touch", "hit")}
    for name in ("scatter-36-rolls.png", "scatter-diagram-36-rolls.png", "scatter-hit-probability.png"):
        assert (out / name).stat().st_size > 1000


def _every_reading():
    points = RULESET.reading_points
    for options in itertools.product(*(p.options for p in points)):
        yield dict(zip((p.name for p in points), options))


class _Noting(dict):
    """A reading that notes the order its points are first looked up in, as fuzz's reading
    table does to decide which point to branch on first."""

    def __init__(self, options):
        super().__init__(options)
        self.asked = []

    def __getitem__(self, point):
        if point not in self.asked:
            self.asked.append(point)
        return super().__getitem__(point)


@pytest.mark.parametrize("shot", [
    Shot(3, 40, Fraction(12), Fraction(5, 2)),  # short: the distance reading counts
    Shot(5, 120, Fraction(7), None),  # on target, capped at half the distance by a 4 or more
    Shot(4, 30, Fraction(8), Fraction(1), True, Fraction(3)),  # short plus the base radius, the seed's max of 3
])
def test_all_36_rolls_are_the_rolls_one_at_a_time_under_every_reading(shot):
    """The 36 rolls are worked out a direction face at a time, with what they note shared:
    each landing, cause, decision and point consulted is still that of the roll on its own,
    and the reading's points are looked up first in the order one roll looks them up."""
    for reading in _every_reading():
        odds = resolve(shot, ALL_ROLLS, reading)
        singles = [resolve(shot, roll, reading) for roll in ROLLS]
        assert odds.after.landings == tuple(s.after for s in singles)
        assert odds.after.landings == tuple(land(shot, roll, reading) for roll in ROLLS)
        assert odds.consulted == frozenset().union(*(s.consulted for s in singles))
        for piece, causes in odds.provenance.items():
            merged = list(dict.fromkeys(c for s in singles for c in s.provenance[piece]))
            odds_36 = [c for c in causes if c.clause == "odds.36"]  # the target's, after every roll's
            assert list(causes) == merged + ([] if piece == "template" else odds_36)
        first = {}  # a decision is kept once per point, clauses and prescriptions (the first roll's words)
        for d in (d for s in singles for d in s.decisions):
            first.setdefault((d.point, d.applicable, d.prescriptions, d.near), d)
        assert list(odds.decisions) == list(first.values())
        noted_all, noted_one = _Noting(reading), _Noting(reading)
        resolve(shot, ALL_ROLLS, noted_all)
        for roll in ROLLS:
            land(shot, roll, noted_one)
        assert noted_all.asked == noted_one.asked
