"""The published JSON Schema is the one the loader uses, and every case obeys it."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from conftest import ROOT, case_files, case_param

from verifier.case import published_schema

PUBLISHED = ROOT / "docs" / "schema" / "case.schema.json"


def test_published_schema_is_current():
    published = json.loads(PUBLISHED.read_text())
    published.pop("$comment", None)  # the mark of the command that wrote it
    assert published == published_schema(), \
        "docs/schema/case.schema.json is stale: run 'verifier schema -o docs/schema/case.schema.json'"


@pytest.mark.parametrize("path", [case_param(p) for p in case_files()])
def test_case_obeys_published_schema(path):
    jsonschema.Draft202012Validator(json.loads(PUBLISHED.read_text())).validate(yaml.safe_load(path.read_text()))


def test_published_schema_rejects_unknown_fields():
    schema = json.loads(PUBLISHED.read_text())
    case = yaml.safe_load(case_files()[0].read_text())
    case["before"]["rokcs"] = []  # every ruleset's before section is closed to unknown keys
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(case, schema)


# --- the quick verdict agrees with jsonschema -------------------------------------------------------

def _mutations(data, rng, count):
    """``count`` copies of ``data``, each with one random change: a key dropped or added, a value
    of another type or sign, an item repeated or removed, a string emptied."""
    import copy

    def spots(node, path=()):
        yield path, node
        if isinstance(node, dict):
            for k, v in node.items():
                yield from spots(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from spots(v, path + (i,))

    every = list(spots(data))
    for _ in range(count):
        doc = copy.deepcopy(data)
        path, _ = rng.choice(every)
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        node = parent[path[-1]] if path else doc
        change = rng.randrange(7)
        if isinstance(node, dict) and change < 2 and node:
            if change == 0:
                del node[rng.choice(sorted(node, key=str))]
            else:
                node["unknown_field"] = 1
        elif isinstance(node, list) and change < 2 and node:
            if change == 0:
                node.append(copy.deepcopy(node[0]))
            else:
                node.pop()
        elif path:
            parent[path[-1]] = rng.choice([None, True, 1, -1, 0, 2.5, -0.5, "", "x", [], {}, [1, 1], 10 ** 6,
                                           "motion-first", float("nan")])
        yield doc


def test_the_quick_verdict_is_jsonschemas_on_every_case_and_thousands_of_broken_ones():
    import random

    import jsonschema

    from verifier import registry
    from verifier.case import case_schema
    from verifier.rulesets.civ.parse import MAP_SCHEMA
    from verifier.schema import _is_integer, quickly_valid
    from verifier.source import load_file

    kind = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))
    rng = random.Random(30)
    compared = broken = 0
    for path in case_files():
        data = load_file(path).data
        schema = case_schema(registry.get(data["ruleset"]))
        assert quickly_valid(data, schema) is True, path
        for doc in _mutations(data, rng, 12):
            quick = quickly_valid(doc, schema)
            if quick is not None:
                assert quick == kind(schema).is_valid(doc), (path, doc)
                compared += 1
                broken += not quick
    assert compared > 2000 and broken > 500, (compared, broken)
    civ_maps = sorted((ROOT / "cases" / "civ" / "maps").glob("*.json"))
    assert civ_maps
    for path in civ_maps:
        data = load_file(path).data
        for doc in [data, *_mutations(data, rng, 12)]:
            quick = quickly_valid(doc, MAP_SCHEMA)
            assert quick is None or quick == kind(MAP_SCHEMA).is_valid(doc), path
