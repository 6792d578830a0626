"""verifier export: every case as JSON, and broken cases refused."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import BUMP, ROOT, case_files, run

from verifier.adapter import PROTOCOL
from verifier.case import load_case

pytestmark = pytest.mark.usefixtures("in_repo")


# --- export ------------------------------------------------------------------------

def test_export_writes_every_case_as_json(capsys, tmp_path):
    code, out, _ = run(capsys, "export", "--format", "json", "-o", tmp_path / "cases.json")
    assert code == 0
    data = json.loads((tmp_path / "cases.json").read_text())
    assert data["format"] == "verifier-cases/1" and data["protocol"] == PROTOCOL
    files = case_files()
    assert len(data["cases"]) == len(files)
    keys = [(c["ruleset"], c["id"]) for c in data["cases"]]
    assert keys == sorted(keys)
    exported = {c["file"]: c for c in data["cases"]}
    for path in files:
        raw = yaml.safe_load(path.read_text())
        entry = exported[str(path.relative_to(ROOT))]
        for field in ("id", "ruleset", "title", "status", "clauses", "before", "actions", "expect", "source"):
            assert entry.get(field) == raw.get(field, entry.get(field)), (path, field)
        case = load_case(path)
        assert entry["readings"] == dict(case.readings) and entry["pinned"] == dict(case.pinned)
    code, out, _ = run(capsys, "export", "--format", "jsonl")
    assert [json.loads(row)["id"] for row in out.splitlines()] == [c["id"] for c in data["cases"]]


def test_export_refuses_broken_cases(capsys, tmp_path):
    (tmp_path / "bad.yaml").write_text(BUMP.read_text().replace("title:", "titel:"))
    code, out, err = run(capsys, "export", tmp_path, "-o", tmp_path / "out.json")
    assert code == 2 and "titel: unknown field 'titel'; did you mean 'title'?" in err
    assert not (tmp_path / "out.json").exists()
