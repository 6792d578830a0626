"""The ruleset contract suite, shipped with verifier so that any ruleset, built in or
installed from another package, runs it with one command:

    pytest --verifier-contract KEY --verifier-contract-cases DIR

(``KEY``: one ruleset key or several, separated by commas; ``DIR``: a folder holding a
``<KEY>/`` folder of case files, default ``cases``; both options may be repeated.) The
same tests run with ``pytest --pyargs verifier.testing``, over every registered ruleset.

Per case file: the clauses it lists exist; the scene survives case_data and parsing; the
outcome survives the adapter protocol's JSON, and so does each of its parts left out;
expect_data describes the outcome it came from; resolving is deterministic and keeps the
ruleset's own transforms (reordering under any reading, turning or mirroring under the
default); drawing gives the same pixels twice, and animation frames are of one size. Per
ruleset: the explorer's strategy gives scenes the ruleset resolves and accepts again as
cases; every declared capability is implemented and runs, and no other; every outcome
part names its fields; the required parts are there.

A test module may use the suite with settings of its own: ``from verifier.testing import *``
and then set ``CONTRACT_RULESETS`` (keys), ``CONTRACT_CASES`` (folders) and
``CONTRACT_KNOWN_BREACHES`` (key -> why: that ruleset's strategy test is a strict xfail).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from random import Random
from types import MappingProxyType
from typing import Any

import jsonschema
import pytest

from . import registry
from .adapter.declare import Declaration
from .adapter.protocol import read_answer, reported_outcome, restated_expectation
from .case import Case, CaseStatus, dump_case, load_case, load_case_text
from .errors import CaseError, VerifierError
from .kit.choices import RandomChoices
from .kit.modular import ModularRuleset
from .ruleset import (
    CAPABILITY_METHODS,
    AnimationFrame,
    BenchSuite,
    Capability,
    Outcome,
    Ruleset,
    TermStatus,
    Transform,
    compare_outcome,
)

__all__ = [
    "pytest_generate_tests", "test_declared_capabilities_are_implemented", "test_drawing_gives_the_same_pixels_twice",
    "test_each_outcome_part_can_be_left_out", "test_every_clause_a_case_lists_exists",
    "test_expect_data_describes_its_outcome",
    "test_outcome_survives_the_adapter_json", "test_required_parts_are_there",
    "test_resolving_is_deterministic_and_keeps_its_transforms", "test_scene_survives_case_data_and_parsing",
    "test_strategy_gives_scenes_the_ruleset_accepts", "test_an_answer_in_the_reference_form_matches_that_outcome",
    "test_its_resolutions_give_the_table_plain_resolves_give", "PlainResolutions", "assert_same_table",
]

SAMPLE = 10  # the drawing checks run on at most this many cases per ruleset, spread evenly


# --- what the suite runs on ------------------------------------------------------------------------

def contract_rulesets(config: pytest.Config, module: Any = None) -> list[str]:
    """The ruleset keys to check: the module's CONTRACT_RULESETS, else --verifier-contract,
    else every registered ruleset. An unknown key is a usage error."""
    keys = getattr(module, "CONTRACT_RULESETS", None)
    if keys is None:
        given = config.getoption("--verifier-contract", None) or []
        keys = [k.strip() for option in given for k in option.split(",") if k.strip()] or registry.names()
    for key in keys:
        try:
            registry.get(key)
        except CaseError as error:
            raise pytest.UsageError(f"--verifier-contract: {error.message}") from None
        except VerifierError as error:
            raise pytest.UsageError(f"--verifier-contract: {error}") from None
    return list(keys)


def contract_folders(config: pytest.Config, module: Any = None) -> list[Path]:
    """The folders whose ``<key>/`` folders hold the case files: the module's CONTRACT_CASES,
    else --verifier-contract-cases (relative to where pytest was started), else ``cases``;
    and those named in VERIFIER_CONTRACT_CASES (separated by os.pathsep)."""
    folders = getattr(module, "CONTRACT_CASES", None)
    if folders is None:
        start = config.invocation_params.dir
        folders = [start / f for f in config.getoption("--verifier-contract-cases", None) or ["cases"]]
    extra = [Path(p) for p in os.environ.get("VERIFIER_CONTRACT_CASES", "").split(os.pathsep) if p]
    return [Path(f) for f in folders] + extra


def case_files(folders: Sequence[Path], key: str) -> list[Path]:
    return sorted(path for folder in folders for path in (folder / key).rglob("*.yaml"))


def _sampled(files: list[Path], most: int = SAMPLE) -> list[Path]:
    step = max(1, math.ceil(len(files) / most))
    return files[::step]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``contract_key``: each ruleset; ``contract_case``: each case file; ``contract_sample``:
    at most SAMPLE case files per ruleset. Each case is a (key, path) pair."""
    names = metafunc.fixturenames
    if not {"contract_key", "contract_case", "contract_sample"} & set(names):
        return
    keys = contract_rulesets(metafunc.config, metafunc.module)
    folders = contract_folders(metafunc.config, metafunc.module)
    if "contract_key" in names:
        breaches: Mapping[str, str] = getattr(metafunc.module, "CONTRACT_KNOWN_BREACHES", {})
        strict = metafunc.function.__name__ == test_strategy_gives_scenes_the_ruleset_accepts.__name__
        metafunc.parametrize("contract_key", [
            pytest.param(k, marks=pytest.mark.xfail(reason=breaches[k], strict=True)) if strict and k in breaches
            else k for k in keys])
    for name, most in (("contract_case", None), ("contract_sample", SAMPLE)):
        if name in names:
            metafunc.parametrize(name, [
                pytest.param((key, path), id=f"{key}/{path.stem}") for key in keys
                for path in (case_files(folders, key) if most is None else _sampled(case_files(folders, key), most))])


def _load(contract: tuple[str, Path]) -> Case:
    key, path = contract
    case = load_case(path)
    assert case.ruleset.key == key, f"{path.name} is a case of {case.ruleset.key}, found in the folder of {key}"
    return case


def _checks(case: Case) -> list[tuple[Mapping[str, str], Any]]:
    """(reading, expectation) pairs the case states: its expect, or the outcome per reading."""
    if case.expect is not None:
        return [(case.readings, case.expect)]
    return list(case.outcomes)


def _reparsed(case: Case, before_data: Any, actions_data: Any, expect_data: Any = None) -> Case:
    """The case file again with other before, actions or expectation; an expectation is
    written as a finding's outcome, which may break the ruleset's invariants."""
    data = {k: v for k, v in case.doc.data.items() if k not in ("expect", "outcomes", "finding")}
    data.update(before=before_data, actions=actions_data, status=str(CaseStatus.NEEDS_RULING),
                finding={"fingerprint": "contract", "kind": "divergence"},
                outcomes=[{"reading": dict(case.readings), "expect": expect_data if expect_data is not None else
                           (case.doc.data.get("expect") or case.doc.data["outcomes"][0]["expect"])}])
    return load_case_text(dump_case(data), f"{case.path} (rewritten)")


# --- per case ------------------------------------------------------------------------------------


def test_every_clause_a_case_lists_exists(contract_case: tuple[str, Path]) -> None:
    case = _load(contract_case)
    missing = [c for c in case.clauses if c not in case.ruleset.clause_ids]
    assert not missing, f"{Path(case.path).name} lists clauses that {case.ruleset.key} does not have: {missing}"


def test_scene_survives_case_data_and_parsing(contract_case: tuple[str, Path]) -> None:
    case = _load(contract_case)
    rs = case.ruleset
    if not rs.supports(Capability.FINDINGS):
        pytest.skip(f"{rs.key} does not declare 'findings' (no case_data)")
    again = _reparsed(case, *rs.case_data(case.before, case.actions))
    assert (again.before, again.actions) == (case.before, case.actions)


def test_outcome_survives_the_adapter_json(contract_case: tuple[str, Path]) -> None:
    case = _load(contract_case)
    rs = case.ruleset
    if not rs.supports(Capability.INTERCHANGE):
        pytest.skip(f"{rs.key} does not declare 'interchange'")
    for reading, expect in _checks(case):
        outcome = rs.resolve(case.before, case.actions, reading)
        if outcome.refusal is not None:  # a refusal crosses the wire as the refused answer
            answer = read_answer({"id": case.id}, {"type": "refused", "id": case.id, "clause": outcome.refusal.clause,
                                                   "reason": outcome.refusal.reason})
            back = reported_outcome(rs, Declaration(), case.before, answer.data)
            assert isinstance(back, Outcome) and back.refusal is not None, back
            assert compare_outcome(rs, case.before, expect, back) == compare_outcome(rs, case.before, expect, outcome)
            continue
        data = json.loads(json.dumps(rs.outcome_json(outcome)))  # as it crosses the wire
        jsonschema.Draft202012Validator(rs.outcome_schema or {}).validate(data)
        back = rs.outcome_from_json(case.before, data)
        direct = rs.compare(case.before, expect, outcome)
        assert [m.path for m in rs.compare(case.before, expect, back)] == [m.path for m in direct]
        if case.expect is not None:
            assert not direct, [m.message for m in direct]


def test_each_outcome_part_can_be_left_out(contract_case: tuple[str, Path]) -> None:
    """An answer without a part's fields, from an implementation whose hello does not list
    that part (or lists only the parts every answer has), is read and compared on the rest."""
    from .adapter.declare import Declaration, carries, left_out, parts, unreported_fields, without_fields
    from .adapter.protocol import reported_outcome
    case = _load(contract_case)
    rs = case.ruleset
    if not rs.supports(Capability.INTERCHANGE):
        pytest.skip(f"{rs.key} does not declare 'interchange'")
    required = frozenset(p.name for p in rs.outcome_parts if p.required)
    every = frozenset(p.name for p in parts(rs))
    for reading, expect in _checks(case):
        outcome = rs.resolve(case.before, case.actions, reading)
        if outcome.refusal is not None:
            continue  # a refusal is answered whole ("refused"): it has no parts to leave out
        data = json.loads(json.dumps(rs.outcome_json(outcome)))
        names = frozenset(p.name for p in parts(rs) if not p.optional or any(carries(data, f) for f in p.fields))
        left_outs = [frozenset({p.name}) for p in rs.outcome_parts if not p.required and p.name in names]
        left_outs.append(names - required)
        for unreported in left_outs:
            unreported |= {p.name for p in parts(rs) if set(p.needs) & unreported and p.name in names}
            fields = unreported_fields(rs, unreported)
            answer = without_fields(data, fields)
            assert not any(carries(answer, f) for f in fields)
            read = reported_outcome(rs, Declaration(names - unreported), case.before, answer)
            assert not isinstance(read, str), f"without {sorted(unreported)}: {read}"
            assert unreported <= read.unreported <= unreported | (every - names)
            found = [m.message for m in rs.compare(case.before, expect, read) if not left_out(m.path, fields)]
            assert not found or case.expect is None, f"without {sorted(unreported)}: {found}"


def test_expect_data_describes_its_outcome(contract_case: tuple[str, Path]) -> None:
    """``compare`` of an outcome with (the case file form of) itself is empty."""
    case = _load(contract_case)
    rs = case.ruleset
    if not rs.supports(Capability.FINDINGS):
        pytest.skip(f"{rs.key} does not declare 'findings' (no expect_data)")
    outcome = rs.resolve(case.before, case.actions, case.readings)
    if outcome.refusal is not None:  # a refusal is its own expectation, the same in every ruleset
        expect = restated_expectation(rs, case.path, case.before, case.doc.data["before"], case.doc.data["actions"],
                                      outcome)
        assert compare_outcome(rs, case.before, expect, outcome) == []
        return
    again = _reparsed(case, case.doc.data["before"], case.doc.data["actions"], rs.expect_data(case.before, outcome))
    assert rs.compare(again.before, again.outcomes[0][1], outcome) == []


def test_resolving_is_deterministic_and_keeps_its_transforms(contract_case: tuple[str, Path]) -> None:
    case = _load(contract_case)
    rs = case.ruleset
    outcome = rs.resolve(case.before, case.actions, case.readings)
    assert rs.resolve(case.before, case.actions, MappingProxyType(dict(case.readings))) == outcome
    if not rs.supports(Capability.SEARCH):
        return
    # Listing order never matters. A turn or mirror may break under a reading other than
    # the default (a ruleset may do so on purpose): that is a finding, not a bug.
    for pairs in {tuple(case.readings.items()), tuple(rs.default_reading.items())}:
        reading = MappingProxyType(dict(pairs))
        first = rs.resolve(case.before, case.actions, reading)
        for transform in rs.transforms(case.before, case.actions):
            assert isinstance(transform, Transform) and transform.kind in ("order", "symmetry")
            if transform.kind == "order" or reading == rs.default_reading:
                again = rs.resolve(transform.before, transform.actions, reading)
                if first.refusal is not None or again.refusal is not None:  # the same clause refuses either way
                    assert (first.refusal and first.refusal.clause) == (again.refusal and again.refusal.clause), \
                        f"{transform.kind}: {transform.name} under {dict(reading)}"
                    continue
                moved, key_of = rs.outcome_key(again), rs.outcome_key(first)
                assert moved == transform.map_key(key_of), f"{transform.kind}: {transform.name} under {dict(reading)}"


def test_drawing_gives_the_same_pixels_twice(contract_sample: tuple[str, Path]) -> None:
    case = _load(contract_sample)
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


def _first_case(request: pytest.FixtureRequest, key: str) -> Case:
    folders = contract_folders(request.config, request.module)
    files = case_files(folders, key)
    assert files, f"{key} has no case files in {[str(f) for f in folders]} (--verifier-contract-cases)"
    return load_case(files[0])


def test_strategy_gives_scenes_the_ruleset_accepts(contract_key: str, request: pytest.FixtureRequest) -> None:
    ruleset = registry.get(contract_key)
    if not ruleset.supports(Capability.SEARCH):
        pytest.skip(f"{ruleset.key} does not declare 'search'")
    from hypothesis import HealthCheck, given, settings
    template = _first_case(request, contract_key)

    @settings(max_examples=25, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(ruleset.strategy())
    # Unannotated: Hypothesis derives its derandomized examples from the signature too, and
    # these are the examples that the known breaches were recorded with.
    def accepted(example):  # type: ignore[no-untyped-def]
        before, actions = example
        outcome = ruleset.resolve(before, actions, template.readings)
        if ruleset.supports(Capability.FINDINGS):
            again = _reparsed(template, *ruleset.case_data(before, actions), ruleset.expect_data(before, outcome))
            # The actions may come back in another spelling (an empty round written as a
            # token, say); what matters is that the finding's case gives the same outcome.
            assert again.before == before
            assert ruleset.outcome_key(ruleset.resolve(again.before, again.actions, template.readings)) == \
                ruleset.outcome_key(outcome)

    accepted()


def test_an_answer_in_the_reference_form_matches_that_outcome(contract_key: str) -> None:
    """An answer that is a reference outcome as the reference adapter gives it
    (``outcome_answer``) fits the outcome schema and agrees with that outcome and no
    other, and its states read back as the reference's frames: fuzz takes such answers
    without comparing or reading their states (``fuzz.engine._reference_form``), and
    this is why it may."""
    ruleset = registry.get(contract_key)
    if not all(ruleset.supports(c) for c in (Capability.SEARCH, Capability.INTERCHANGE)):
        pytest.skip(f"{ruleset.key} does not declare 'search' and 'interchange'")
    from .adapter.protocol import outcome_answer
    from .fuzz.compare import matching
    from .fuzz.reference import reading_table

    def matched(before: Any, actions: Any) -> None:
        table = reading_table(ruleset, before, actions)
        for key, reference in table.outcomes.items():
            if reference.refusal is not None:
                continue
            data = json.loads(json.dumps(outcome_answer(ruleset, reference)))  # as it crosses the wire
            jsonschema.Draft202012Validator(ruleset.outcome_schema or {}).validate(data)
            actual = reported_outcome(ruleset, Declaration(), before, data)
            assert isinstance(actual, Outcome), actual
            if ruleset.supports(Capability.STATES):  # read back as the reference's own frames, which fuzz takes
                assert actual.frames == tuple(f for f in reference.frames if not f.is_start)
            if not actual.unreported:  # an optional part it leaves out: compared in full, as any answer
                assert matching(ruleset, before, actions, table, actual) == frozenset((key,))

    _on_strategy_scenes(ruleset, matched)


class PlainResolutions:
    """``ruleset`` with the generic reading table: every resolution a plain resolve
    (``ruleset.Resolution``), whatever ``Ruleset.resolution`` the ruleset gives. A ruleset
    that gives its own (taken up part way, or keyed before its outcome is made) holds its
    table against this one's."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def resolution(self, before: Any, actions: Any, reading: dict[str, str]) -> Any:
        from .ruleset import Resolution

        return Resolution(self, before, actions, reading)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ruleset, name)


def test_its_resolutions_give_the_table_plain_resolves_give(contract_key: str) -> None:
    """The reference under every reading, walked with the ruleset's own resolutions, has
    the points, leaves, keys and outcomes (each under its own reading) that plain
    resolves give."""
    ruleset = registry.get(contract_key)
    if not ruleset.supports(Capability.SEARCH):
        pytest.skip(f"{ruleset.key} does not declare 'search'")
    from .fuzz.reference import reading_table

    def same(before: Any, actions: Any) -> None:
        assert_same_table(reading_table(ruleset, before, actions),
                          reading_table(PlainResolutions(ruleset), before, actions))  # type: ignore[arg-type]

    _on_strategy_scenes(ruleset, same)


def assert_same_table(own: Any, plain: Any) -> None:
    """Two reading tables of one scene (``fuzz.reference.ReadingTable``) are the same:
    the points consulted, the leaves and their keys in order, the outcomes in order, each
    resolved under the same reading."""
    assert own.points == plain.points
    assert list(own.keys.items()) == list(plain.keys.items())
    assert list(own.outcomes) == list(plain.outcomes)
    for key, outcome in own.outcomes.items():
        assert outcome == plain.outcomes[key] and dict(outcome.reading) == dict(plain.outcomes[key].reading)


def _on_strategy_scenes(ruleset: Ruleset, check: Callable[[Any, Any], None]) -> None:
    """``check(before, actions)`` on 25 scenes of the ruleset's strategy, the same ones every run."""
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=25, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(ruleset.strategy())
    def checked(example):  # type: ignore[no-untyped-def]
        check(*example)

    checked()


def _calls(rs: Ruleset, case: Case, outcome: Any, tmp_path: Path) -> dict[str, Callable[[], Any]]:
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
        "scene": lambda: rs.scene(RandomChoices(Random(0))),
    }


def _states_round_trip(rs: Ruleset, outcome: Any) -> list[Any]:
    """Every frame's state through JSON and back is the same state."""
    back = [rs.state_from_json(json.loads(json.dumps(rs.state_json(f.state)))) for f in outcome.frames]
    assert back == [f.state for f in outcome.frames]
    return back


def test_declared_capabilities_are_implemented(contract_key: str, request: pytest.FixtureRequest,
                                               tmp_path: Path) -> None:
    """A declared capability overrides its methods, and each of them runs (for a
    ModularRuleset that means its module has the function); an undeclared one leaves
    the base class's alone (ModularRuleset's forwarding counts as alone)."""
    rs = registry.get(contract_key)
    case = _first_case(request, contract_key)
    outcome = rs.resolve(case.before, case.actions, case.readings)
    calls = _calls(rs, case, outcome, tmp_path)
    assert set(calls) == {m for methods in CAPABILITY_METHODS.values() for m in methods}, "a new capability method"
    stock: list[type[Ruleset]] = [Ruleset] + ([ModularRuleset] if isinstance(rs, ModularRuleset) else [])
    for capability, methods in CAPABILITY_METHODS.items():
        for name in methods:
            own = getattr(type(rs), name)
            if rs.supports(capability):
                assert own is not getattr(Ruleset, name), f"{rs.key} declares {capability} but not {name}"
                assert calls[name]() is not None, f"{rs.key}.{name} gave nothing"
            else:
                assert any(own is getattr(base, name) for base in stock), \
                    f"{rs.key} implements {name} but does not declare {capability}"
    if rs.supports(Capability.INTERCHANGE):  # each part's fields start at fields of the expectation or the answer
        assert rs.outcome_parts, f"{rs.key} names no parts of its outcome (Ruleset.outcome_parts)"
        properties = set((rs.outcome_schema or {}).get("properties", {}))
        expected = set(rs.expect_schema.get("properties", {}))
        for part in rs.outcome_parts:
            assert {f.split(".")[0] for f in part.fields} <= properties | expected, \
                f"{rs.key} part {part.name} names unknown fields"
        assert len({p.name for p in rs.outcome_parts}) == len(rs.outcome_parts), f"{rs.key}: part names repeat"
        assert any(p.required for p in rs.outcome_parts), f"{rs.key}: some part must be in every answer"
    assert len({f.name for f in rs.features}) == len(rs.features), f"{rs.key}: feature names repeat"
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
        jsonschema.Draft202012Validator.check_schema(rs.outcome_schema or {})


def test_required_parts_are_there(contract_key: str, request: pytest.FixtureRequest) -> None:
    rs = registry.get(contract_key)
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
    _first_case(request, contract_key)


def _check_glossary(rs: Ruleset) -> None:
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
