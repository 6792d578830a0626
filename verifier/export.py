"""``verifier export``: every case as JSON, for implementations in other languages
that want the cases without running Python (docs/protocol.md, "Export").

The document is ``{"format": "verifier-cases/1", "protocol": ..., "verifier": ...,
"cases": [...]}`` with the cases sorted by ruleset, then id. Each case holds its
header fields, the full reading, the pins and the reading points its outcome depends
on, and its ``before``, ``actions`` and
``expect`` (or, for a case that needs a ruling, ``outcomes``) exactly as the case file
gives them. ``id``, ``ruleset``, ``readings``, ``pinned``, ``depends_on``, ``before`` and
``actions`` are the fields of the request 'verifier check --impl' sends for it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import __version__
from .adapter import PROTOCOL, case_request, supports_protocol
from .case import Case, CaseStatus, collect
from .errors import CaseErrors
from .output import json_mark

FORMAT = "verifier-cases/1"


def _relative(path: str) -> str:
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def case_json(case: Case) -> dict[str, Any]:
    data = case.doc.data
    entry: dict[str, Any] = {
        "id": case.id,
        "ruleset": case.ruleset.key,
        "title": case.title,
        "file": _relative(case.path),
        "line": case.line,
        "status": case.status,
        "source": {k: v for k, v in data["source"].items()},
        "clauses": list(case.clauses),
        "tags": list(case.tags),
        "readings": dict(case.readings),
        "pinned": dict(case.pinned),
        "depends_on": case_request(case)["depends_on"],
        "before": data["before"],
        "actions": data["actions"],
    }
    for optional in ("layout", "note", "finding"):
        if optional in data:
            entry[optional] = data[optional]
    if "expect" in data:
        entry["expect"] = data["expect"]
    if "outcomes" in data:
        entry["outcomes"] = data["outcomes"]
    entry["checkable"] = supports_protocol(case.ruleset) and case.status is not CaseStatus.NEEDS_RULING
    return entry


def export_cases(paths: Iterable[str | Path]) -> dict[str, Any]:
    """Every case under ``paths``. Raises CaseErrors if any case file is broken: a partial
    export would silently drop cases."""
    collection = collect(paths)
    if collection.failures:
        raise CaseErrors([error for failure in collection.failures for error in failure.errors])
    cases = list(collection.cases)
    cases.sort(key=lambda c: (c.ruleset.key, c.id))
    return {"generator": json_mark("export"), "format": FORMAT, "protocol": PROTOCOL, "verifier": __version__,
            "cases": [case_json(c) for c in cases]}


def export_text(paths: Iterable[str | Path], fmt: str = "json") -> str:
    data = export_cases(paths)
    if fmt == "jsonl":
        return "".join(json.dumps({"generator": data["generator"], **c}, ensure_ascii=False) + "\n"
                       for c in data["cases"])
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
