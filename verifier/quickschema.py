"""A quick yes for JSON data that fits a schema, before jsonschema is asked why not.

Every answer is checked against its ruleset's outcome schema; jsonschema walks the data
through layers of validator objects and is most of the cost of reading an answer. The
schemas the protocol uses are plain (types, properties, items, bounds, const, enum,
if/then/else, references into ``$defs``), so each is compiled once here into nested
closures that say only whether data fits. ``compile_schema`` returns None for a schema
with any keyword it does not know, and a compiled check errs only towards "does not
fit", so callers ask jsonschema for the message whenever it says no: the verdicts and
messages are jsonschema's own, only the common case is quicker."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]

_IGNORED = frozenset({"description", "default", "title", "examples", "$comment", "$schema", "$id", "$defs",
                      "definitions"})


class _Unknown(Exception):
    """A keyword (or a form of one) this module does not check."""


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_integer(value: Any) -> bool:
    return not isinstance(value, bool) and (isinstance(value, int) or isinstance(value, float) and value.is_integer())


_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": _is_number,
    "integer": _is_integer,
}
_STRICT_TYPES = {**_TYPES, "integer": lambda v: isinstance(v, int) and not isinstance(v, bool)}


def _canonical(value: Any) -> Any:
    """A form of JSON data in which equal values (by JSON Schema's equality: 1 == 1.0,
    true != 1, objects by their members) are equal and hashable."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(_canonical(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, _canonical(v)) for k, v in value.items()))
    raise TypeError(type(value).__name__)


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(_canonical(a) == _canonical(b))
    except TypeError:
        return False


def _unique(items: list[Any]) -> bool:
    try:
        canonical = [_canonical(v) for v in items]
    except TypeError:
        return False
    return len(set(canonical)) == len(canonical)


def compile_schema(schema: Any, root: Mapping[str, Any] | None = None, strict_integers: bool = False) -> Check | None:
    """A check that says True only for data that fits ``schema`` (``$ref`` to ``#/$defs/...``
    are looked up in ``root``, by default ``schema``); None where the schema uses a keyword
    this module does not know. ``strict_integers``: 2.0 is not an integer (as for case
    files, see ``verifier.schema``)."""
    try:
        return _compile(schema, schema if root is None else root, {}, _STRICT_TYPES if strict_integers else _TYPES)
    except _Unknown:
        return None


def _compile(schema: Any, root: Mapping[str, Any], refs: dict[str, Check], types: dict[str, Check]) -> Check:
    if schema is True:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if not isinstance(schema, dict):
        raise _Unknown(repr(schema))
    checks: list[Check] = []
    for keyword, value in schema.items():
        if keyword in _IGNORED or keyword in ("then", "else"):
            continue
        checks.append(_keyword(keyword, value, schema, root, refs, types))
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def _keyword(keyword: str, value: Any, schema: dict[str, Any], root: Mapping[str, Any],
             refs: dict[str, Check], types: dict[str, Check]) -> Check:
    if keyword == "type":
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or any(n not in types for n in names):
            raise _Unknown(keyword)
        tests = [types[n] for n in names]
        return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))
    if keyword == "properties":
        compiled = {name: _compile(sub, root, refs, types) for name, sub in value.items()}
        return lambda v: not isinstance(v, dict) or all(c(v[k]) for k, c in compiled.items() if k in v)
    if keyword == "additionalProperties":
        if "patternProperties" in schema:
            raise _Unknown(keyword)
        known = frozenset(schema.get("properties", {}))
        extra = _compile(value, root, refs, types)
        return lambda v: not isinstance(v, dict) or all(extra(v[k]) for k in v if k not in known)
    if keyword == "required":
        names = tuple(value)
        return lambda v: not isinstance(v, dict) or all(n in v for n in names)
    if keyword == "items":
        if "prefixItems" in schema:
            raise _Unknown(keyword)
        each = _compile(value, root, refs, types)
        return lambda v: not isinstance(v, list) or all(each(x) for x in v)
    if keyword == "minProperties":
        return lambda v: not isinstance(v, dict) or len(v) >= value
    if keyword == "maxProperties":
        return lambda v: not isinstance(v, dict) or len(v) <= value
    if keyword == "minItems":
        return lambda v: not isinstance(v, list) or len(v) >= value
    if keyword == "maxItems":
        return lambda v: not isinstance(v, list) or len(v) <= value
    if keyword == "uniqueItems":
        return (lambda v: not isinstance(v, list) or _unique(v)) if value else (lambda v: True)
    if keyword == "minLength":
        return lambda v: not isinstance(v, str) or len(v) >= value
    if keyword == "maxLength":
        return lambda v: not isinstance(v, str) or len(v) <= value
    if keyword == "pattern":
        pattern = re.compile(value)
        return lambda v: not isinstance(v, str) or pattern.search(v) is not None
    if keyword == "minimum":
        return lambda v: not _is_number(v) or not v < value
    if keyword == "maximum":
        return lambda v: not _is_number(v) or not v > value
    if keyword == "exclusiveMinimum":
        return lambda v: not _is_number(v) or v > value
    if keyword == "exclusiveMaximum":
        return lambda v: not _is_number(v) or v < value
    if keyword == "const":
        return lambda v: _equal(v, value)
    if keyword == "enum":
        options = list(value)
        return lambda v: any(_equal(v, o) for o in options)
    if keyword == "allOf":
        parts = [_compile(sub, root, refs, types) for sub in value]
        return lambda v: all(p(v) for p in parts)
    if keyword == "anyOf":
        parts = [_compile(sub, root, refs, types) for sub in value]
        return lambda v: any(p(v) for p in parts)
    if keyword == "oneOf":
        parts = [_compile(sub, root, refs, types) for sub in value]
        return lambda v: sum(1 for p in parts if p(v)) == 1
    if keyword == "not":
        part = _compile(value, root, refs, types)
        return lambda v: not part(v)
    if keyword == "if":
        test = _compile(value, root, refs, types)
        then = _compile(schema.get("then", True), root, refs, types)
        otherwise = _compile(schema.get("else", True), root, refs, types)
        return lambda v: then(v) if test(v) else otherwise(v)
    if keyword == "$ref":
        return _reference(value, root, refs, types)
    raise _Unknown(keyword)


def _reference(ref: Any, root: Mapping[str, Any], refs: dict[str, Check], types: dict[str, Check]) -> Check:
    if not isinstance(ref, str) or not ref.startswith("#/$defs/") or "/" in ref[len("#/$defs/"):]:
        raise _Unknown(f"$ref {ref!r}")
    name = ref[len("#/$defs/"):]
    target = root.get("$defs", {}).get(name) if isinstance(root.get("$defs"), dict) else None
    if target is None:
        raise _Unknown(f"$ref {ref!r}")
    if ref not in refs:  # compiled once, and a schema that refers to itself sees its own check
        holder: list[Check] = []
        refs[ref] = lambda v: holder[0](v)
        holder.append(_compile(target, root, refs, types))
    return refs[ref]


def fits(check: Check | None, data: Any) -> bool:
    """Whether ``check`` says ``data`` fits (False when there is no check, or it cannot tell)."""
    if check is None:
        return False
    try:
        return check(data)
    except (TypeError, ValueError, RecursionError):
        return False
