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
