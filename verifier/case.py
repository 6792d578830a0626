"""Case files: one scenario per YAML file, strictly checked.

The common header (id, title, source, clauses, readings, status, ...) is defined
here; each ruleset supplies the schemas and parsers of ``before``, ``actions``
and ``expect``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml

from . import registry
from .errors import CaseError, CaseErrors, Location, VerifierError, did_you_mean
from .execute import IN_PROCESS, Execution, map_ordered
from .ruleset import Citation, Refusal, Ruleset
from .schema import validate
from .source import Located, file_problem, load_file, load_text


class CaseStatus(StrEnum):
    DOCUMENTED = "documented"  # transcribed from the rule text
    DERIVED = "derived"  # made up to exercise a clause or pin a reading
    NEEDS_RULING = "needs-ruling"  # a finding of the explorer: the text does not decide it
    RULED = "ruled"  # a finding a rule writer has decided


STATUSES = tuple(CaseStatus)

ID_PATTERN = "^[a-z0-9][a-z0-9.-]*$"
ID_MAX_LENGTH = 120
ID_FORM = (f"lower-case letters, digits, dots and dashes, starting with a letter or digit, at most {ID_MAX_LENGTH} "
           "characters; also names the snapshot")

HEADER_PROPERTIES: dict[str, Any] = {
    "id": {"type": "string", "pattern": ID_PATTERN, "maxLength": ID_MAX_LENGTH, "description": ID_FORM},
    "title": {"type": "string", "minLength": 1},
    "ruleset": {"type": "string"},
    "status": {"enum": [str(s) for s in STATUSES]},
    "source": {
        "type": "object", "additionalProperties": False, "required": ["seed", "section"],
        "properties": {"seed": {"type": "string", "minLength": 1}, "section": {"type": "string", "minLength": 1},
                       "example": {"type": "string"}},
    },
    "clauses": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
    "readings": {"type": "object", "additionalProperties": {"type": "string"}},
    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "layout": {"type": "string", "description": "how the layout was chosen where the source gives none"},
    "note": {"type": "string"},
    "finding": {
        "type": "object", "additionalProperties": False, "required": ["fingerprint", "kind"],
        "description": "set by 'verifier explore' on cases that need a ruling",
        "properties": {"fingerprint": {"type": "string"}, "kind": {"type": "string"},
                       "summary": {"type": "string"}, "question": {"type": "string"}},
    },
}
REQUIRED = ["id", "title", "ruleset", "source", "clauses", "before", "actions"]
# A case that needs a ruling lists the outcome under each reading instead of one expectation.
STATUS_RULE = {
    "if": {"properties": {"status": {"const": "needs-ruling"}}, "required": ["status"]},
    "then": {"required": ["outcomes", "finding"]},
    "else": {"required": ["expect"]},
}


REFUSED_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["refused"],
    "description": "the action is one the rules forbid: it is refused, by the clause named, and not carried out",
    "properties": {"refused": {
        "type": "object", "additionalProperties": False, "required": ["clause"],
        "properties": {
            "clause": {"type": "string", "minLength": 1, "description": "the id of the clause that forbids it"},
            "piece": {"type": "string", "description": "the piece whose action is refused"},
            "pieces": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True,
                       "description": "the pieces whose actions are refused"},
        },
        "not": {"required": ["piece", "pieces"]},
    }},
}


def expect_schema(ruleset_expect: Mapping[str, Any]) -> dict[str, Any]:
    """A case's ``expect``: a refusal (the same form in every ruleset), or the ruleset's own outcome."""
    return {"if": {"type": "object", "required": ["refused"]}, "then": REFUSED_SCHEMA, "else": dict(ruleset_expect)}


_CASE_SCHEMAS: dict[int, tuple[Ruleset, dict[str, Any]]] = {}


def case_schema(ruleset: Ruleset) -> dict[str, Any]:
    """The JSON Schema of a case file for one ruleset (the same object each time, so that its
    validator is built once: see ``schema.validate``). Treat it as read-only."""
    known = _CASE_SCHEMAS.get(id(ruleset))
    if known is None or known[0] is not ruleset:
        known = _CASE_SCHEMAS[id(ruleset)] = (ruleset, _build_case_schema(ruleset))
    return known[1]


def _build_case_schema(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"verifier case ({ruleset.key})",
        "type": "object",
        "additionalProperties": False,
        "required": REQUIRED,
        "properties": {
            **HEADER_PROPERTIES,
            "ruleset": {"const": ruleset.key},
            "before": ruleset.before_schema,
            "actions": ruleset.actions_schema,
            "expect": expect_schema(ruleset.expect_schema),
            "outcomes": _outcomes_schema(ruleset.expect_schema),
        },
        "allOf": [STATUS_RULE],
    }


def _outcomes_schema(ruleset_expect: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "type": "array", "minItems": 1,
        "description": "the outcome under each named reading (cases that need a ruling)",
        "items": {"type": "object", "additionalProperties": False, "required": ["reading", "expect"],
                  "properties": {"reading": {"type": "object", "additionalProperties": {"type": "string"}},
                                 "expect": expect_schema(ruleset_expect)}},
    }


def published_schema() -> dict[str, Any]:
    """One schema for every registered ruleset, as published in docs/schema/."""
    branches = []
    for key in registry.names():
        ruleset = registry.get(key)
        branches.append({
            "if": {"properties": {"ruleset": {"const": key}}},
            "then": {"properties": {"before": ruleset.before_schema, "actions": ruleset.actions_schema,
                                    "expect": expect_schema(ruleset.expect_schema),
                                    "outcomes": _outcomes_schema(ruleset.expect_schema)}},
        })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.invalid/verifier/case.schema.json",
        "title": "verifier case file",
        "description": "One scenario of a spatial game rule: a before state, actions, and the expected outcome.",
        "type": "object",
        "additionalProperties": False,
        "required": REQUIRED,
        "properties": {**HEADER_PROPERTIES, "ruleset": {"enum": registry.names()},
                       "before": {"type": "object"}, "actions": {}, "expect": {"type": "object"},
                       "outcomes": {"type": "array"}},
        "allOf": [STATUS_RULE] + branches,
    }


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    ruleset: Ruleset
    status: CaseStatus
    source: Citation
    clauses: tuple[str, ...]
    readings: Mapping[str, str]  # the full reading: defaults with the case's pins applied
    pinned: Mapping[str, str]  # only what the case pinned
    tags: tuple[str, ...]
    layout: str | None
    note: str | None
    before: Any
    actions: Any
    expect: Any  # None for a case that needs a ruling
    doc: Located  # the loaded file, for locating mismatches
    finding: Mapping[str, str] | None = None
    outcomes: tuple[tuple[Mapping[str, str], Any], ...] = ()  # (reading, expectation) pairs

    @property
    def path(self) -> str:
        return self.doc.file

    @property
    def line(self) -> int:
        return self.doc.line_of(()) or 1

    def where(self, path: Iterable[Any]) -> Location:
        return self.doc.where(path)


def parse_case(doc: Located) -> Case:
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error((), "a case file must be a mapping of fields (id, title, ruleset, ...)")
    key = data.get("ruleset")
    if key is None:
        raise doc.error((), "missing required field 'ruleset'")
    if not isinstance(key, str):
        raise doc.error(("ruleset",), "expected a ruleset name, such as 'ypp'")
    ruleset = registry.get(key, doc.where(("ruleset",)))
    problems = validate(doc, case_schema(ruleset))
    if problems:
        raise problems[0] if len(problems) == 1 else CaseErrors(problems)
    if not valid_id(data["id"]):  # Python's "$" also matches before a final line break
        raise doc.error(("id",), f"{data['id']!r} does not have the expected form ({ID_FORM})")

    pins = data.get("readings") or {}
    reading = ruleset.reading(pins, {k: doc.where(("readings", k), key=True) for k in pins})
    known = set(ruleset.clause_ids)
    for i, clause in enumerate(data["clauses"]):
        if clause not in known:
            raise doc.error(("clauses", i), f"ruleset {key!r} has no clause {clause!r}; "
                                            f"{did_you_mean(clause, sorted(known))}")
    before, actions, expect = _parse_scene(ruleset, doc, ("expect",) if "expect" in data else None)
    outcomes = []
    for i, item in enumerate(data.get("outcomes", [])):
        pins_i = item["reading"]
        full = ruleset.reading(pins_i, {k: doc.where(("outcomes", i, "reading", k), key=True) for k in pins_i})
        _, _, expected = _parse_scene(ruleset, doc, ("outcomes", i, "expect"), breaches_allowed=True)
        outcomes.append((full, expected))
    source = data["source"]
    return Case(
        id=data["id"], title=data["title"], ruleset=ruleset, status=CaseStatus(data.get("status", "documented")),
        source=Citation(source["seed"], source["section"], source.get("example")),
        clauses=tuple(data["clauses"]), readings=reading, pinned=dict(pins),
        tags=tuple(data.get("tags", ())), layout=data.get("layout"), note=data.get("note"),
        before=before, actions=actions, expect=expect, doc=doc,
        finding=data.get("finding"), outcomes=tuple(outcomes),
    )


def _parse_scene(ruleset: Ruleset, doc: Located, expect_path: tuple[Any, ...] | None, *,
                 breaches_allowed: bool = False) -> tuple[Any, Any, Any]:
    """The ruleset's (before, actions, expect); an expected refusal is read here, the same for
    every ruleset, after the ruleset has checked that the scene is possible."""
    refused = _expected_refusal(ruleset, doc, expect_path)
    if refused is None:
        return ruleset.parse(doc, ("before",), ("actions",), expect_path, breaches_allowed=breaches_allowed)
    before, actions, _ = ruleset.parse(doc, ("before",), ("actions",), None, breaches_allowed=breaches_allowed)
    return before, actions, refused


def _expected_refusal(ruleset: Ruleset, doc: Located, expect_path: tuple[Any, ...] | None) -> Refusal | None:
    if expect_path is None:
        return None
    expect: Any = doc.data
    for key in expect_path:
        expect = expect[key]
    if not (isinstance(expect, dict) and "refused" in expect):
        return None
    refused = expect["refused"]
    if refused["clause"] not in ruleset.clause_ids:
        raise doc.error(expect_path + ("refused", "clause"), f"ruleset {ruleset.key!r} has no clause "
                        f"{refused['clause']!r}; {did_you_mean(refused['clause'], list(ruleset.clause_ids))}")
    pieces = refused.get("pieces") or ([refused["piece"]] if "piece" in refused else [])
    return Refusal(refused["clause"], tuple(pieces))


def valid_id(text: str) -> bool:
    return len(text) <= ID_MAX_LENGTH and re.fullmatch(ID_PATTERN.strip("^$"), text) is not None


def load_case(path: str | Path) -> Case:
    return parse_case(load_file(path))


def load_case_text(text: str, file: str = "<string>") -> Case:
    return parse_case(load_text(text, file))


def case_file_problem(path: Path, root: Path | None = None) -> str | None:
    """Why ``path`` is not read as a case file, or None: it is not a regular file, or it
    was found under the folder ``root`` but is a link that leads out of it."""
    problem = file_problem(path)
    if problem or root is None:
        return problem
    target, inside = path.resolve(), root.resolve()
    if not target.is_relative_to(inside):
        return (f"a link to {target}, outside {root}; case files must sit inside the folder being checked "
                "(copy the file in instead)")
    return None


def scan_case_files(paths: Iterable[str | Path]) -> list[tuple[Path, str | None]]:
    """Every .yaml/.yml file under the given files and folders, in a stable order, each with
    the reason it cannot be read as a case (or None). Links to folders are not followed, so
    a link loop cannot make the scan endless; a file named explicitly is taken as it is."""
    found: list[tuple[Path, str | None]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = []
            for folder, dirs, names in os.walk(path, followlinks=False):
                dirs.sort()
                files += [Path(folder) / n for n in names if n.endswith((".yaml", ".yml"))]
            found += [(f, case_file_problem(f, path)) for f in sorted(files)]
        elif path.exists() or path.is_symlink():
            found.append((path, case_file_problem(path)))
        else:
            raise CaseError("no such file or folder", Location(str(path)))
    return found


def find_case_files(paths: Iterable[str | Path]) -> list[Path]:
    """The readable case files of ``scan_case_files``; the others are left out."""
    return [path for path, problem in scan_case_files(paths) if problem is None]


# --- collecting cases ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LoadFailure:
    """A file that was collected but gives no case, with every reason, each located."""

    file: str
    errors: tuple[CaseError, ...]


@dataclass(frozen=True)
class Collection:
    """What ``collect`` found: a case or a load failure per file, in file order."""

    entries: tuple[Case | LoadFailure, ...]

    @property
    def cases(self) -> tuple[Case, ...]:
        return tuple(entry for entry in self.entries if isinstance(entry, Case))

    @property
    def failures(self) -> tuple[LoadFailure, ...]:
        return tuple(entry for entry in self.entries if isinstance(entry, LoadFailure))


def crash_message(doing: str, error: BaseException) -> str:
    """A sentence for an exception that is not one of ours: a bug of the ruleset or the verifier."""
    text = " ".join(str(error).split())
    text = text if len(text) <= 300 else text[:300] + "..."
    return (f"{doing} raised {type(error).__name__}" + (f" ({text})" if text else "") +
            "; this is a bug of the ruleset or the verifier, not of the case: please report it with this file")


def load_failure(file: str, error: VerifierError) -> LoadFailure:
    """``error`` as the load failure of ``file``; an error without a place is placed at the file."""
    errors = error.errors if isinstance(error, CaseErrors) else (error,)
    return LoadFailure(file, tuple(e if isinstance(e, CaseError) else CaseError(str(e), Location(file))
                                   for e in errors))


def load_entry(path: Path, problem: str | None = None) -> Case | LoadFailure:
    """The case in ``path``, or why there is none: ``problem`` (from ``case_file_problem``),
    a malformed file, or a crash of the loader. Never raises, so one bad file never stops
    the others."""
    file = str(path)
    if problem:
        return LoadFailure(file, (CaseError(problem, Location(file)),))
    try:
        return load_case(path)
    except VerifierError as error:
        return load_failure(file, error)
    except Exception as error:  # whatever went wrong, it is this file's failure
        return LoadFailure(file, (CaseError(crash_message("loading the case", error), Location(file)),))


class CaseIds:
    """The case ids taken so far in one collection; a later case with a taken id is refused,
    since an id names the case's snapshot."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str], str] = {}

    def admit(self, entry: Case | LoadFailure) -> Case | LoadFailure:
        """``entry``, or the load failure of a case whose id another file took first."""
        if isinstance(entry, LoadFailure):
            return entry
        key = (entry.ruleset.key, entry.id)
        first = self._first.setdefault(key, entry.path)
        if first == entry.path:
            return entry
        return LoadFailure(entry.path, (CaseError(
            f"case id {entry.id!r} is already used by {first}; ids name snapshots and must be unique",
            entry.where(("id",))),))

    @property
    def taken(self) -> list[tuple[str, str]]:
        """(ruleset, id) of every case admitted, in the order admitted."""
        return list(self._first)


def _import_rulesets() -> None:
    for key in registry.names():
        try:
            registry.get(key)
        except VerifierError:
            pass  # a broken ruleset is reported by the cases that name it


def _chunksize(items: int, execution: Execution) -> int:
    """Files per task: about eight tasks per worker, so the load evens out, and at most 16."""
    return max(1, min(16, items // (8 * max(1, execution.worker_count))))


def collect(paths: Iterable[str | Path], execution: Execution = IN_PROCESS) -> Collection:
    """Every case file under ``paths`` (see ``scan_case_files``), loaded on ``execution``: a
    case, or a load failure that says why the file gives none (unreadable, malformed, an id
    another file took first, a crash of the loader). Raises CaseError only for a path that
    does not exist."""
    scanned = scan_case_files(paths)
    if not execution.in_process and not execution.scheduler:
        _import_rulesets()  # once here, before the workers fork, rather than in each of them
    ids = CaseIds()
    loaded = map_ordered(_load_scanned, scanned, execution, chunksize=_chunksize(len(scanned), execution))
    return Collection(tuple(ids.admit(entry) for entry in loaded))


def _load_scanned(scanned: tuple[Path, str | None]) -> Case | LoadFailure:
    return load_entry(*scanned)


# --- writing cases -----------------------------------------------------------------------------------

# The order fields are written in: the header first, then the scene and what is expected of it.
FIELD_ORDER = ("id", "title", "ruleset", "status", "source", "clauses", "readings", "tags", "layout", "finding", "note",
               "before", "actions", "expect", "outcomes")


class _CaseDumper(yaml.SafeDumper):
    """Short lists of plain values (tiles, sizes, ship pairs) on one line, as people write them."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = len(data) <= 4 and all(isinstance(v, (int, float, str)) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_dict(dumper: yaml.SafeDumper, data: dict[Any, Any]) -> yaml.Node:
    flow = 0 < len(data) <= 3 and all(isinstance(v, (int, float, str)) or
                                      (isinstance(v, list) and len(v) <= 4 and
                                       all(isinstance(x, (int, float, str)) for x in v))
                                      for v in data.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow)


def _represent_tuple(dumper: yaml.SafeDumper, data: tuple[Any, ...]) -> yaml.Node:
    return _represent_list(dumper, list(data))


_CaseDumper.add_representer(list, _represent_list)
_CaseDumper.add_representer(tuple, _represent_tuple)
_CaseDumper.add_representer(dict, _represent_dict)


def dump_yaml(data: Any) -> str:
    """Plain data (mappings, lists, text, numbers) as YAML in the style of the case files."""
    return yaml.dump(data, Dumper=_CaseDumper, sort_keys=False, allow_unicode=True, width=100)


def dump_case(fields: Mapping[str, Any], comment: str = "") -> str:
    """The text of a case file with ``fields`` (the data forms of a case file's fields, as
    ``ruleset.case_data`` and ``expect_data`` give them), in the usual field order, under
    ``comment`` (one line or several, each written as a YAML comment)."""
    unknown = sorted(set(fields) - set(FIELD_ORDER))
    if unknown:
        raise ValueError(f"a case file has no field {unknown[0]!r}; its fields are {', '.join(FIELD_ORDER)}")
    ordered = {name: _plain(fields[name]) for name in FIELD_ORDER if name in fields}
    head = "".join(f"# {line}\n" if line else "#\n" for line in comment.splitlines())
    return head + dump_yaml(ordered)


def _plain(value: Any) -> Any:
    """Mappings as dicts and tuples as lists, all the way down (a reading is a read-only mapping)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, StrEnum):
        return str(value)
    return value


def write_case(path: Path, fields: Mapping[str, Any], comment: str = "") -> Path:
    """Write the case file ``dump_case`` gives to ``path`` (which must not exist yet)."""
    with path.open("x", encoding="utf-8") as handle:
        handle.write(dump_case(fields, comment))
    return path
