"""The ruleset contract, checked on every registered ruleset and on the out-of-tree ones
in tests/plugins. Parametrised from the registry, so a new ruleset gets it for free
(see docs/ruleset-guide.md, "The contract suite").

Per case file (cases/<key>/, tests/plugins/cases/<key>/, or a folder named in
VERIFIER_CONTRACT_CASES): the clauses it lists exist; the scene survives case_data and
parsing; the outcome survives the adapter protocol's JSON; expect_data describes the
outcome it came from; resolving is deterministic and keeps the ruleset's own transforms
(reordering under any reading, turning or mirroring under the default); drawing gives
the same pixels twice, and animation frames are of one size. Per ruleset: the
explorer's strategy gives scenes the ruleset resolves and accepts again as cases, and
every declared capability is implemented and runs, and no other.

The drawing checks run on at most SAMPLE cases per ruleset, spread evenly."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from types import MappingProxyType

import jsonschema
import pytest
from conftest import CASES, PLUGINS, plugin_keys

from verifier import registry
from verifier.case import CaseStatus, load_case, load_case_text
from verifier.findings import dump_yaml
from verifier.kit.modular import ModularRuleset
from verifier.ruleset import CAPABILITY_METHODS, AnimationFrame, BenchSuite, Capability, Ruleset, TermStatus, Transform

BUILT_IN = registry.names()
PLUGIN_KEYS = [k for k in plugin_keys() if k not in BUILT_IN]
KEYS = BUILT_IN + PLUGIN_KEYS
SAMPLE = 10


# Case folders, each with a <key>/ folder per ruleset. A ruleset installed from another
# package names its own in VERIFIER_CONTRACT_CASES (several separated by os.pathsep).
FOLDERS = [CASES, PLUGINS / "cases"] + [Path(p) for p in os.environ.get("VERIFIER_CONTRACT_CASES", "").split(
    os.pathsep) if p]


def _files(key: str) -> list:
    return sorted(path for folder in FOLDERS for path in (folder / key).glob("*.yaml"))


def _sampled(files: list, most: int = SAMPLE) -> list:
    step = max(1, math.ceil(len(files) / most))
    return files[::step]


def _params(most: int | None = None) -> list:
    return [pytest.param(key, path, id=f"{key}/{path.stem}")
            for key in KEYS for path in (_files(key) if most is None else _sampled(_files(key), most))]


@pytest.fixture
def registered(request):
    """A function that gives the ruleset of a key, registering tests/plugins first if it is from there."""
    def get(key: str) -> Ruleset:
        if key in PLUGIN_KEYS:
            request.getfixturevalue("plugin_rulesets")
        return registry.get(key)
    return get


@pytest.fixture(params=KEYS)
def ruleset(request, registered) -> Ruleset:
    return registered(request.param)


def _load(registered, key, path):
    registered(key)
    return load_case(path)


def _checks(case):
    """(reading, expectation) pairs the case states: its expect, or the outcome per reading."""
    if case.expect is not None:
        return [(case.readings, case.expect)]
    return list(case.outcomes)


def _reparsed(case, before_data, actions_data, expect_data=None):
    """The case file again with other before, actions or expectation; an expectation is
    written as a finding's outcome, which may break the ruleset's invariants."""
    data = {k: v for k, v in case.doc.data.items() if k not in ("expect", "outcomes", "finding")}
    data.update(before=before_data, actions=actions_data, status=str(CaseStatus.NEEDS_RULING),
                finding={"fingerprint": "contract", "kind": "divergence"},
                outcomes=[{"reading": dict(case.readings), "expect": expect_data if expect_data is not None else
                           (case.doc.data.get("expect") or case.doc.data["outcomes"][0]["expect"])}])
    return load_case_text(dump_yaml(data), f"{case.path} (rewritten)")


# --- per case ------------------------------------------------------------------------------------


@pytest.mark.parametrize("key,path", _params())
def test_every_clause_a_case_lists_exists(registered, key, path):
    case = _load(registered, key, path)
    assert case.ruleset.key == key
    missing = [c for c in case.clauses if c not in case.ruleset.clause_ids]
    assert not missing, f"{path.name} lists clauses that {key} does not have: {missing}"


@pytest.mark.parametrize("key,path", _params())
def test_scene_survives_case_data_and_parsing(registered, key, path):
    case = _load(registered, key, path)
    rs = case.ruleset
    if not rs.supports(Capability.FINDINGS):
        pytest.skip(f"{key} does not declare 'findings' (no case_data)")
    again = _reparsed(case, *rs.case_data(case.before, case.actions))
    assert (again.before, again.actions) == (case.before, case.actions)


@pytest.mark.parametrize("key,path", _params())
def test_outcome_survives_the_adapter_json(registered, key, path):
    case = _load(registered, key, path)
    rs = case.ruleset
    if not rs.supports(Capability.INTERCHANGE):
        pytest.skip(f"{key} does not declare 'interchange'")
    for reading, expect in _checks(case):
        outcome = rs.resolve(case.before, case.actions, reading)
        data = json.loads(json.dumps(rs.outcome_json(outcome)))  # as it crosses the wire
        jsonschema.Draft202012Validator(rs.outcome_schema).validate(data)
        back = rs.outcome_from_json(case.before, data)
        direct = rs.compare(case.before, expect, outcome)
        assert [m.path for m in rs.compare(case.before, expect, back)] == [m.path for m in direct]
        if case.expect is not None:
            assert not direct, [m.message for m in direct]


@pytest.mark.parametrize("key,path", _params())
def test_expect_data_describes_its_outcome(registered, key, path):
    """``compare`` of an outcome with (the case file form of) itself is empty."""
    case = _load(registered, key, path)
    rs = case.ruleset
    if not rs.supports(Capability.FINDINGS):
        pytest.skip(f"{key} does not declare 'findings' (no expect_data)")
    outcome = rs.resolve(case.before, case.actions, case.readings)
    again = _reparsed(case, case.doc.data["before"], case.doc.data["actions"], rs.expect_data(case.before, outcome))
    assert rs.compare(again.before, again.outcomes[0][1], outcome) == []


@pytest.mark.parametrize("key,path", _params())
def test_resolving_is_deterministic_and_keeps_its_transforms(registered, key, path):
    case = _load(registered, key, path)
    rs = case.ruleset
    outcome = rs.resolve(case.before, case.actions, case.readings)
    assert rs.resolve(case.before, case.actions, MappingProxyType(dict(case.readings))) == outcome
    if not rs.supports(Capability.SEARCH):
        return
    # Listing order never matters. A turn or mirror may break under a reading other than
    # the default (scatter's side=folded does, on purpose): that is a finding, not a bug.
    for reading in {tuple(case.readings.items()), tuple(rs.default_reading.items())}:
        reading = MappingProxyType(dict(reading))
        key_of = rs.outcome_key(rs.resolve(case.before, case.actions, reading))
        for transform in rs.transforms(case.before, case.actions):
            assert isinstance(transform, Transform) and transform.kind in ("order", "symmetry")
            if transform.kind == "order" or reading == rs.default_reading:
                moved = rs.outcome_key(rs.resolve(transform.before, transform.actions, reading))
                assert moved == transform.map_key(key_of), f"{transform.kind}: {transform.name} under {dict(reading)}"


@pytest.mark.parametrize("key,path", _params(SAMPLE))
def test_drawing_gives_the_same_pixels_twice(registered, key, path):
    case = _load(registered, key, path)
    rs = case.ruleset
    outcome = rs.resolve(case.before, case.actions, case.readings)
    first = rs.draw(case.before, case.actions, outcome, title=case.title)
    second = rs.draw(case.before, case.actions, outcome, title=case.title)
    assert first.size == second.size and first.tobytes() == second.tobytes()
    if rs.supports(Capability.FRAMES):
        frames = rs.draw_frames(case.before, case.actions, outcome)
        assert all(isinstance(f, AnimationFrame) and f.words for f in frames)
        assert len({f.image.size for f in frames}) <= 1


# --- per ruleset ---------------------------------------------------------------------------------


# Breaches of the contract this suite found that are not fixed yet, by ruleset. Strict:
# once one is fixed its test passes, fails as XPASS, and the entry must go.
STRATEGY_BREACHES = {
    "scatter": "expect_data writes 'moved' as an exact fraction in quotes (\"1/6\"), which scatter's expect "
               "schema rejects ({'type': 'number'}): a finding with such a landing cannot be loaded again",
}


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.xfail(reason=STRATEGY_BREACHES[k], strict=True))
                                 if k in STRATEGY_BREACHES else k for k in KEYS])
def test_strategy_gives_scenes_the_ruleset_accepts(registered, key):
    ruleset = registered(key)
    if not ruleset.supports(Capability.SEARCH):
        pytest.skip(f"{ruleset.key} does not declare 'search'")
    from hypothesis import HealthCheck, given, settings
    template = load_case(_files(ruleset.key)[0])

    @settings(max_examples=25, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(ruleset.strategy())
    def accepted(example):
        before, actions = example
        outcome = ruleset.resolve(before, actions, template.readings)
        if ruleset.supports(Capability.FINDINGS):
            again = _reparsed(template, *ruleset.case_data(before, actions), ruleset.expect_data(before, outcome))
            # The actions may come back in another spelling (ypp writes an empty round as a
            # 'none' token); what matters is that the finding's case gives the same outcome.
            assert again.before == before
            assert ruleset.outcome_key(ruleset.resolve(again.before, again.actions, template.readings)) == \
                ruleset.outcome_key(outcome)

    accepted()


def _calls(rs: Ruleset, case, outcome, tmp_path) -> dict:
    """How to call each capability method on one case."""
    b, a = case.before, case.actions
    panels = [("before", None), ("after", outcome)]
    return {
        "outcome_json": lambda: rs.outcome_json(outcome),
        "outcome_from_json": lambda: rs.outcome_from_json(b, json.loads(json.dumps(rs.outcome_json(outcome)))),
        "strategy": rs.strategy,
        "outcome_key": lambda: hash(rs.outcome_key(outcome)),
        "case_data": lambda: rs.case_data(b, a),
        "expect_data": lambda: rs.expect_data(b, outcome),
        "draw_readings": lambda: rs.draw_readings(b, a, panels, title=case.title).size,
        "exhaustive_spaces": rs.exhaustive_spaces,
        "exhaustive_space": lambda: rs.exhaustive_space(next(iter(rs.exhaustive_spaces()))),
        "draw_frames": lambda: rs.draw_frames(b, a, outcome),
        "draw_narrow": lambda: rs.draw_narrow(b, a, panels, title=case.title).size,
        "describe_scene": lambda: rs.describe_scene(b, a),
        "page_notes": rs.page_notes,
        "report_sections": lambda: rs.report_sections([case], tmp_path),
        "benchmarks": rs.benchmarks,
        "state_json": lambda: [rs.state_json(frame.state) for frame in outcome.frames],
        "state_from_json": lambda: _states_round_trip(rs, outcome),
        "boundaries": rs.boundaries,
    }


def _states_round_trip(rs: Ruleset, outcome) -> list:
    """Every frame's state through JSON and back is the same state."""
    back = [rs.state_from_json(json.loads(json.dumps(rs.state_json(f.state)))) for f in outcome.frames]
    assert back == [f.state for f in outcome.frames]
    return back


def test_declared_capabilities_are_implemented(ruleset, tmp_path):
    """A declared capability overrides its methods, and each of them runs (for a
    ModularRuleset that means its module has the function); an undeclared one leaves
    the base class's alone (ModularRuleset's forwarding counts as alone)."""
    rs = ruleset
    case = load_case(_files(rs.key)[0])
    outcome = rs.resolve(case.before, case.actions, case.readings)
    calls = _calls(rs, case, outcome, tmp_path)
    assert set(calls) == {m for methods in CAPABILITY_METHODS.values() for m in methods}, "a new capability method"
    stock = [Ruleset] + ([ModularRuleset] if isinstance(rs, ModularRuleset) else [])
    for capability, methods in CAPABILITY_METHODS.items():
        for name in methods:
            own = getattr(type(rs), name)
            if rs.supports(capability):
                assert own is not getattr(Ruleset, name), f"{rs.key} declares {capability} but not {name}"
                assert calls[name]() is not None, f"{rs.key}.{name} gave nothing"
            else:
                assert any(own is getattr(base, name) for base in stock), \
                    f"{rs.key} implements {name} but does not declare {capability}"
    if rs.outcome_parts:  # each part's fields are fields of the expectation and of the answer
        assert rs.supports(Capability.INTERCHANGE)
        properties = set((rs.outcome_schema or {}).get("properties", {}))
        expected = set(rs.expect_schema.get("properties", {}))
        for part in rs.outcome_parts:
            assert set(part.fields) <= properties | expected, f"{rs.key} part {part.name} names unknown fields"
        assert any(p.required for p in rs.outcome_parts), f"{rs.key}: some part must be in every answer"
    if rs.supports(Capability.SEARCH):  # the optional parts, which the explorer calls all the same
        assert all(isinstance(t, Transform) for t in rs.transforms(case.before, case.actions))
        assert all(len(b) == 3 for b in rs.invariant_breaches(case.before, case.actions, outcome))
        assert all(len(s) == 2 for s in rs.simpler(case.before, case.actions))
    if rs.supports(Capability.PAGE_NOTES):
        assert rs.page_notes().strip()
    if rs.supports(Capability.EXHAUSTIVE):
        spaces = rs.exhaustive_spaces()
        assert spaces and all(isinstance(v, str) and v for v in spaces.values())
        size, scenes = rs.exhaustive_space(next(iter(spaces)))
        before, actions = next(iter(scenes))
        assert size > 0
        rs.resolve(before, actions, rs.default_reading)
        # Shards hold the space's scenes between them, each with a weight of at least one.
        sharded = [item for index in range(3) for item in rs.exhaustive_shard(next(iter(spaces)), index, 3)]
        assert len(sharded) == size and all(isinstance(w, int) and w >= 1 for _, _, w in sharded)
    if rs.supports(Capability.BENCHMARKS):
        suites = rs.benchmarks()
        assert suites and all(isinstance(s, BenchSuite) for s in suites)
        assert len({s.name for s in suites}) == len(suites)
    if rs.supports(Capability.INTERCHANGE):
        jsonschema.Draft202012Validator.check_schema(rs.outcome_schema)


def test_required_parts_are_there(ruleset):
    rs = ruleset
    assert rs.key and rs.title and rs.clauses
    assert len(set(rs.clause_ids)) == len(rs.clause_ids), "clause ids repeat"
    for schema in (rs.before_schema, rs.actions_schema, rs.expect_schema):
        jsonschema.Draft202012Validator.check_schema(schema)
    for point in rs.reading_points:
        assert point.default in point.options
        assert set(point.clauses) <= set(rs.clause_ids)
    for clause in rs.clauses:
        assert set(clause.readings) <= {p.name for p in rs.reading_points}
    _check_glossary(rs)
    for name in ("parse", "resolve", "compare", "draw", "describe", "summarise"):
        assert getattr(type(rs), name) is not getattr(Ruleset, name), f"{rs.key} lacks {name}"
    assert _files(rs.key), f"{rs.key} has no case files in {[str(f) for f in FOLDERS]} (VERIFIER_CONTRACT_CASES)"


def _check_glossary(rs):
    """A glossary may be empty; where there is one, every term is tied to real clauses and
    every word the source leaves open became a reading point or says why it has one meaning."""
    names = [t.name for t in rs.glossary]
    assert len(set(names)) == len(names), "glossary terms repeat"
    points = {p.name for p in rs.reading_points}
    for term in rs.glossary:
        assert term.definition and term.judged_at, f"{term.name}: definition and moment required"
        assert term.clauses and set(term.clauses) <= set(rs.clause_ids), f"{term.name}: unknown clauses"
        assert not term.reading or term.reading in points, f"{term.name}: unknown reading point {term.reading}"
        if term.status != TermStatus.DEFINED:
            assert term.reading or term.single_meaning, f"{term.name} is {term.status} but decides nothing"
        if term.status == TermStatus.UNDEFINED and term.single_meaning:
            assert not term.reading, f"{term.name}: a reading point and a single meaning at once"
        if term.status == TermStatus.DEFINED:
            assert term.source is not None, f"{term.name} is defined, so it cites where"
    for table in rs.tables:
        assert table.rows and all(len(row) == len(table.columns) for row in table.rows), table.title
