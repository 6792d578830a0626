"""Whatever a case file says, loading it either works or raises one of our own
errors with a location: never a traceback."""

from __future__ import annotations

import copy

import yaml
from conftest import case_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.case import load_case_text
from verifier.errors import CaseError, CaseErrors, VerifierError

SAMPLES = [yaml.safe_load(p.read_text()) for p in case_files()]

junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 1000), st.floats(allow_nan=True),
                 st.text(max_size=8), st.lists(st.integers(-2, 9), max_size=3),
                 st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
                 # what hostile files hold: whole-number floats, huge integers, long or odd text, odd keys
                 st.integers(0, 9).map(float), st.integers(10 ** 15, 10 ** 40), st.text(min_size=200, max_size=400),
                 st.sampled_from(["ship\nname", "\x1b[2J", "\u202eevil", "\ud800"]),
                 st.dictionaries(st.one_of(st.none(), st.floats(), st.integers()), st.integers(), min_size=1,
                                 max_size=2),
                 st.recursive(st.just(1), lambda inner: st.lists(inner, min_size=1, max_size=1), max_leaves=120))

# Damage done to the text itself: tags, aliases, deep nesting, a byte-order mark, cut lines.
text_damage = st.sampled_from([
    lambda t: t,
    lambda t: t.replace("id:", "!!python/name:os.system id:", 1),
    lambda t: "a: &a [*a]\n" + t,
    lambda t: "bomb: &b0 [1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"b{i}: &b{i} [*b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}, *b{i - 1}]\n"
        for i in range(1, 8)) + t,
    lambda t: t.replace("title:", "title: !!binary aGVsbG8=\nx-title:", 1),
    lambda t: "\ufeff" + t,
    lambda t: t[: len(t) // 2],
    lambda t: t + "\n" + "[" * 400 + "]" * 400 + "\n",
])


def paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths(value, prefix + (i,))


@st.composite
def mutated_cases(draw):
    data = copy.deepcopy(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(list(paths(data))))
        if not where:
            continue
        parent = data
        for part in where[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "rename"]))
        if action == "replace":
            parent[where[-1]] = draw(junk)
        elif action == "delete":
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = parent.pop(where[-1])
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_cases(), text_damage)
def test_mutated_case_loads_or_fails_with_a_located_error(data, damage):
    try:
        text = damage(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    except (yaml.YAMLError, RecursionError, UnicodeEncodeError):
        return  # PyYAML cannot write this value; no file of it could exist
    try:
        case = load_case_text(text, "fuzz.yaml")
    except (CaseError, CaseErrors) as error:
        errors = error.errors if isinstance(error, CaseErrors) else (error,)
        for e in errors:
            assert e.location.file == "fuzz.yaml"
            assert "\n" not in str(e)
        return
    except VerifierError as error:  # any other error type of ours is a bug in the loader
        raise AssertionError(f"unexpected {type(error).__name__}: {error}") from error
    # A mutation that still loads must resolve without a traceback too.
    case.ruleset.resolve(case.before, case.actions, case.readings)
