"""The quick schema check says yes only where jsonschema finds nothing wrong, so that
every rejection is still worded by jsonschema."""

import json

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier import registry
from verifier.adapter.declare import relaxed_schema
from verifier.adapter.protocol import adapter_schema, outcome_problem
from verifier.adapters.reference import _request_schema
from verifier.quickschema import compile_schema, fits
from verifier.schema import _validator

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 2.0, -1.5, 1e9]),
                    st.sampled_from(["", "x", "port", "starboard", "a b"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.sampled_from(["x", "y", "kind", "id"]),
                                                                     inner, max_size=3)), max_leaves=12)


def _reference_outcomes(key):
    ruleset = registry.get(key)
    size, scenes = ruleset.exhaustive_space(next(iter(ruleset.exhaustive_spaces())))
    found = []
    for before, actions in scenes:
        found.append((before, actions, json.loads(json.dumps(
            ruleset.outcome_json(ruleset.resolve(before, actions, ruleset.default_reading))))))
        if len(found) == 5:
            break
    return ruleset, found


def _mutations(data):
    """``data`` with one member at a time replaced, dropped, or joined by another."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield {k: v for k, v in data.items() if k != key}
            for other in (None, "x", -1, 2.5, [], {}):
                yield {**data, key: other}
            for changed in _mutations(value):
                yield {**data, key: changed}
        yield {**data, "unknown": 1}
    elif isinstance(data, list) and data:
        yield data[1:]
        yield data + data[:1]
        for changed in _mutations(data[0]):
            yield [changed] + data[1:]


def test_every_outcome_schema_and_protocol_message_compiles():
    schema = adapter_schema()
    for name in schema["$defs"]:
        assert compile_schema({"$ref": f"#/$defs/{name}"}, schema) is not None, name
    for key in registry.names():
        assert compile_schema(relaxed_schema(registry.get(key).outcome_schema, frozenset())) is not None, key
        assert compile_schema(_request_schema(registry.get(key)), strict_integers=True) is not None, key


def test_a_schema_with_an_unknown_keyword_gets_no_quick_check():
    assert compile_schema({"type": "object", "patternProperties": {"^x": {"type": "string"}}}) is None
    assert fits(None, {}) is False


def test_reference_outcomes_fit_and_each_mutation_is_judged_no_more_kindly_than_by_jsonschema():
    for key in ("ypp", "armada", "scatter"):
        ruleset, found = _reference_outcomes(key)
        schema = relaxed_schema(ruleset.outcome_schema, frozenset())
        check, validator = compile_schema(schema), jsonschema.Draft202012Validator(schema)
        rejected = 0
        for _, _, data in found:
            assert fits(check, data) and outcome_problem(ruleset, data) is None
            for changed in _mutations(data):
                if fits(check, changed):
                    assert validator.is_valid(changed), (key, changed)
                else:
                    rejected += 1
                    assert (outcome_problem(ruleset, changed) is None) == validator.is_valid(changed)
        assert rejected, key


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=JSON, integers=st.booleans())
def test_arbitrary_json_against_every_schema_keyword_in_use(data, integers):
    schema = {"type": "object", "required": ["x"], "additionalProperties": False, "minProperties": 1,
              "properties": {"x": {"type": ["integer", "null"], "minimum": -2, "maximum": 2},
                             "y": {"type": "array", "items": {"enum": [1, "x", None]}, "minItems": 1,
                                   "maxItems": 3, "uniqueItems": True},
                             "kind": {"type": "string", "minLength": 1, "pattern": "^p"},
                             "id": {"if": {"type": "number"}, "then": {"const": 2}, "else": {"type": "string"}}}}
    check = compile_schema(schema, strict_integers=integers)
    validator = _validator(schema) if integers else jsonschema.Draft202012Validator(schema)
    assert fits(check, data) == validator.is_valid(data)
