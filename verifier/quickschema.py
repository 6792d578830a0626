"""A quick yes for JSON data that fits a schema, before jsonschema is asked why not.

Every answer is checked against its ruleset's outcome schema; jsonschema walks the data
through layers of validator objects and is most of the cost of reading an answer. The
schemas the protocol uses are plain (types, properties, items, bounds, const, enum,
if/then/else, references into ``$defs``), so each is compiled once here into plain Python
functions that say only whether data fits. ``compile_schema`` returns None for a schema
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
        return _Compiler(schema if root is None else root, strict_integers).compile(schema)
    except _Unknown:
        return None


# Each schema (and each one a ``$ref`` names) becomes one Python function whose body tests
# the keywords in turn with plain statements and loops, compiled once with ``exec``: a call
# per schema node, not per keyword and item as closures would make, which is most of the cost
# of checking an answer. Constants of the schema are handed in by name, never written as code.

_TYPE_TESTS = {  # the exact types JSON decodes to first, then the general test
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "number": "(type({v}) is int or type({v}) is float or isinstance({v}, (int, float)) and not isinstance({v}, bool))",
    "integer": "(type({v}) is int or not isinstance({v}, bool) and (isinstance({v}, int) or isinstance({v}, float) "
               "and {v}.is_integer()))",
}
_STRICT_INTEGER = "(type({v}) is int or isinstance({v}, int) and not isinstance({v}, bool))"
_LIMITS = {"minimum": "{x} < {c}", "maximum": "{x} > {c}", "exclusiveMinimum": "not {x} > {c}",
           "exclusiveMaximum": "not {x} < {c}"}  # when a number fails the bound
_LENGTHS = {"minLength": ">=", "maxLength": "<="}
_INLINED = frozenset({"type", "enum", "const", *_LIMITS, *_LENGTHS})  # the keywords of a leaf written out in place
_GUARDED = {"dict": "object", "list": "array", "str": "string"}  # a keyword's guard, left out once the type is known


class _Compiler:
    def __init__(self, root: Mapping[str, Any], strict_integers: bool) -> None:
        self.root = root
        self.types = {**_TYPE_TESTS, "integer": _STRICT_INTEGER} if strict_integers else _TYPE_TESTS
        self.names: dict[str, Any] = {"_equal": _equal, "_unique": _unique, "_is_number": _is_number}
        self.sources: list[str] = []
        self.refs: dict[str, str] = {}

    def constant(self, value: Any) -> str:
        name = f"c{len(self.names)}"
        self.names[name] = value
        return name

    def compile(self, schema: Any) -> Check:
        entry = self.function(schema)
        exec("\n".join(self.sources), self.names)  # the source is made here from the schema's shape alone
        check: Check = self.names[entry]
        return check

    def function(self, schema: Any) -> str:
        """The name of a function that checks ``schema`` (its source added to ``sources``)."""
        name = f"f{len(self.sources)}"
        self.sources.append("")  # the place is taken now: a nested schema adds functions of its own
        body = self.body(schema)
        self.sources[int(name[1:])] = f"def {name}(v):\n" + "".join(f"    {line}\n" for line in body + ["return True"])
        return name

    def body(self, schema: Any) -> list[str]:
        if schema is True:
            return []
        if schema is False:
            return ["return False"]
        if not isinstance(schema, dict):
            raise _Unknown(repr(schema))
        lines: list[str] = []
        known = None  # the one type ``v`` has past the type test, which comes first (the order of
        # the tests changes no verdict: each only returns False)
        if "type" in schema:
            lines += self.keyword("type", schema["type"], schema)
            names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
            known = names[0] if len(names) == 1 else None
        for keyword, value in schema.items():
            if keyword in _IGNORED or keyword in ("then", "else", "type"):
                continue
            lines += _unguarded(self.keyword(keyword, value, schema), known)
        return lines

    def keyword(self, keyword: str, value: Any, schema: dict[str, Any]) -> list[str]:
        if keyword == "type":
            names = [value] if isinstance(value, str) else value
            if not isinstance(names, list) or any(n not in self.types for n in names):
                raise _Unknown(keyword)
            return [f"if not ({' or '.join(self.types[n].format(v='v') for n in names)}): return False"]
        if keyword == "properties":
            if not isinstance(value, dict):
                raise _Unknown(keyword)
            lines = []
            for key, sub in value.items():
                if sub is True or sub == {}:
                    continue
                k, inline = self.constant(key), self.inline(sub, "x")
                if inline is not None:  # a leaf's test written out here: no call per value
                    lines += [f"    if {k} in v:", f"        x = v[{k}]", f"        if not ({inline}): return False"]
                else:
                    lines.append(f"    if {k} in v and not {self.function(sub)}(v[{k}]): return False")
            return ["if isinstance(v, dict):", *lines] if lines else []
        if keyword == "additionalProperties":
            if "patternProperties" in schema:
                raise _Unknown(keyword)
            known = self.constant(frozenset(schema.get("properties", {})))
            if value is True or value == {}:
                return []
            check = self.function(value)
            return ["if isinstance(v, dict):", "    for k in v:",
                    f"        if k not in {known} and not {check}(v[k]): return False"]
        if keyword == "required":
            if isinstance(value, list) and 0 < len(value) <= 8:  # a test per name, in one line
                return ["if isinstance(v, dict):",
                        f"    if {' or '.join(f'{self.constant(n)} not in v' for n in value)}: return False"]
            names = self.constant(tuple(value))
            return ["if isinstance(v, dict):", f"    for n in {names}:", "        if n not in v: return False"]
        if keyword == "items":
            if "prefixItems" in schema:
                raise _Unknown(keyword)
            if value is True or value == {}:
                return []
            test = self.inline(value, "x") or f"{self.function(value)}(x)"
            return ["if isinstance(v, list):", "    for x in v:", f"        if not ({test}): return False"]
        bounds = {"minProperties": ("dict", ">="), "maxProperties": ("dict", "<="), "minItems": ("list", ">="),
                  "maxItems": ("list", "<="), "minLength": ("str", ">="), "maxLength": ("str", "<=")}
        if keyword in bounds:
            kind, relation = bounds[keyword]
            return [f"if isinstance(v, {kind}) and not len(v) {relation} {self.constant(value)}: return False"]
        if keyword == "uniqueItems":
            return ["if isinstance(v, list) and not _unique(v): return False"] if value else []
        if keyword == "pattern":
            pattern = self.constant(re.compile(value))
            return [f"if isinstance(v, str) and {pattern}.search(v) is None: return False"]
        limits = {"minimum": "v < {c}", "maximum": "v > {c}", "exclusiveMinimum": "not v > {c}",
                  "exclusiveMaximum": "not v < {c}"}
        if keyword in limits:
            if schema.get("type") in ("integer", "number"):  # tested first: a number past it
                return [f"if {limits[keyword].format(c=self.constant(value))}: return False"]
            return [f"if _is_number(v) and {limits[keyword].format(c=self.constant(value))}: return False"]
        if keyword == "const":
            if isinstance(value, str):  # the common case: a string equals only itself
                return [f"if not (isinstance(v, str) and v == {self.constant(value)}): return False"]
            return [f"if not _equal(v, {self.constant(value)}): return False"]
        if keyword == "enum":
            if isinstance(value, list) and value and all(isinstance(o, str) for o in value):
                return [f"if not (isinstance(v, str) and v in {self.constant(frozenset(value))}): return False"]
            options = self.constant(list(value))
            return [f"if not any(_equal(v, o) for o in {options}): return False"]
        if keyword in ("allOf", "anyOf", "oneOf"):
            checks = [self.function(sub) for sub in value]
            if keyword == "allOf":
                return [f"if not {check}(v): return False" for check in checks]
            if keyword == "anyOf":
                return [f"if not ({' or '.join(f'{c}(v)' for c in checks) or 'False'}): return False"]
            return [f"if [{', '.join(f'{c}(v)' for c in checks)}].count(True) != 1: return False"]
        if keyword == "not":
            return [f"if {self.function(value)}(v): return False"]
        if keyword == "if":
            test = self.function(value)
            then, otherwise = self.function(schema.get("then", True)), self.function(schema.get("else", True))
            return [f"if not ({then}(v) if {test}(v) else {otherwise}(v)): return False"]
        if keyword == "$ref":
            return [f"if not {self.reference(value)}(v): return False"]
        raise _Unknown(keyword)

    def inline(self, schema: Any, var: str) -> str | None:
        """``schema`` as one expression that is true where ``var`` fits it, for a leaf schema
        (one type, string enums and consts, bounds), else None. Its tests come in the order
        ``body`` makes them, joined by ``and``: the type first, so a bound compares a number."""
        if not isinstance(schema, dict):
            return None
        keywords = [k for k in schema if k not in _IGNORED]
        if not keywords or any(k not in _INLINED for k in keywords):
            return None
        kind = schema.get("type")
        parts = []
        if kind is not None:
            if not isinstance(kind, str) or kind not in self.types:
                return None
            parts.append(self.types[kind].format(v=var))
        for keyword in keywords:
            value = schema[keyword]
            if keyword in ("enum", "const"):
                options = value if keyword == "enum" else [value]
                if not (isinstance(options, list) and options and all(isinstance(o, str) for o in options)):
                    return None
                parts.append(f"isinstance({var}, str) and {var} in {self.constant(frozenset(options))}")
            elif keyword in _LIMITS:
                fails = _LIMITS[keyword].format(x=var, c=self.constant(value))
                parts.append(f"not {fails}" if kind in ("integer", "number") else
                             f"not (_is_number({var}) and {fails})")
            elif keyword in _LENGTHS:
                parts.append(f"not (isinstance({var}, str) and not len({var}) {_LENGTHS[keyword]} "
                             f"{self.constant(value)})")
        return " and ".join(f"({part})" for part in parts) or None

    def reference(self, ref: Any) -> str:
        if not isinstance(ref, str) or not ref.startswith("#/$defs/") or "/" in ref[len("#/$defs/"):]:
            raise _Unknown(f"$ref {ref!r}")
        defs = self.root.get("$defs")
        target = defs.get(ref[len("#/$defs/"):]) if isinstance(defs, dict) else None
        if target is None:
            raise _Unknown(f"$ref {ref!r}")
        if ref not in self.refs:  # compiled once; a schema that refers to itself calls its own function
            name = f"f{len(self.sources)}"
            self.refs[ref] = name
            self.function(target)
        return self.refs[ref]


def _unguarded(lines: list[str], known: str | None) -> list[str]:
    """A keyword's lines without their first line's guard ``if isinstance(v, T):`` where the
    type test has already returned for every ``v`` that is not a T."""
    if known is None or not lines or not lines[0].startswith("if isinstance(v, ") or not lines[0].endswith("):"):
        return lines
    guard = lines[0][len("if isinstance(v, "):-len("):")]
    if _GUARDED.get(guard) != known or any(not line.startswith("    ") for line in lines[1:]):
        return lines
    if not lines[1:]:
        return lines
    return [line[4:] for line in lines[1:]]


def fits(check: Check | None, data: Any) -> bool:
    """Whether ``check`` says ``data`` fits (False when there is no check, or it cannot tell)."""
    if check is None:
        return False
    try:
        return check(data)
    except (TypeError, ValueError, RecursionError):
        return False
