"""Bounds on what the verifier reads from an implementation: the length of one
answer line, how deeply its JSON may nest, how much of its stderr is kept and how
much of anything it sent is quoted back. Each limit has a default, an environment
variable to raise it, and an error that names both."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ImplementationError

MIB = 1024 * 1024
MAX_LINE_ENV = "VERIFIER_IMPL_MAX_LINE"
MAX_DEPTH_ENV = "VERIFIER_IMPL_MAX_DEPTH"
DEFAULT_MAX_LINE = 8 * MIB
DEFAULT_MAX_DEPTH = 64
STDERR_TAIL = 4096  # bytes of stderr kept (the last ones)
EXCERPT = 160  # characters of an answer quoted in a message
MESSAGE = 1000  # characters of an implementation's own reason, message or detail shown


@dataclass(frozen=True)
class ReadLimits:
    """``max_line``: bytes in one answer line, newline excluded; ``max_depth``: nesting
    of arrays and objects in one answer (the answer object itself is depth 1)."""

    max_line: int = DEFAULT_MAX_LINE
    max_depth: int = DEFAULT_MAX_DEPTH

    def __post_init__(self) -> None:
        if self.max_line < 1024:
            raise ImplementationError(f"the answer line limit must be at least 1024 bytes, not {self.max_line}")
        if self.max_depth < 4:
            raise ImplementationError(f"the JSON depth limit must be at least 4, not {self.max_depth}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ReadLimits:
        """The defaults, raised or lowered by $VERIFIER_IMPL_MAX_LINE (bytes; a K or M
        suffix is allowed) and $VERIFIER_IMPL_MAX_DEPTH."""
        env = os.environ if environ is None else environ
        return cls(max_line=_size(env, MAX_LINE_ENV, DEFAULT_MAX_LINE),
                   max_depth=_size(env, MAX_DEPTH_ENV, DEFAULT_MAX_DEPTH, suffixes=False))

    def line_too_long(self) -> str:
        return (f"the answer line is longer than {_bytes(self.max_line)}, the limit on one answer; the line was "
                f"not read (raise the limit with {MAX_LINE_ENV}=BYTES, such as {MAX_LINE_ENV}=64M)")

    def too_deep(self) -> str:
        return (f"the answer nests arrays and objects more than {self.max_depth} deep, the limit on one answer "
                f"(raise it with {MAX_DEPTH_ENV}=N)")


def _size(env: Mapping[str, str], name: str, default: int, suffixes: bool = True) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    match = re.fullmatch(r"([0-9]{1,12})([kKmMgG]?)" if suffixes else r"([0-9]{1,6})()", text)
    if not match:
        form = "a number of bytes, such as 8388608 or 8M" if suffixes else "a whole number, such as 64"
        raise ImplementationError(f"${name} is {_clip(text, 40)!r}; write {form}")
    scale = {"": 1, "k": 1024, "m": MIB, "g": 1024 * MIB}[match.group(2).lower()]
    return int(match.group(1)) * scale


def _bytes(count: int) -> str:
    if count % MIB == 0:
        return f"{count // MIB} MiB"
    return f"{count} bytes"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"


def clip_message(text: str, limit: int = MESSAGE) -> str:
    """An implementation's own words, shortened to what a report line can hold."""
    return _clip(text, limit)


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """A short quote of something an implementation sent, safe to print (repr escapes
    control characters), whatever its size."""
    if isinstance(value, bytes):
        value = value[:limit * 4].decode("utf-8", "replace") + ("" if len(value) <= limit * 4 else "...")
    if not isinstance(value, str):
        try:
            value = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            value = f"<{type(value).__name__}>"
    text = value.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def text_too_deep(text: str, max_depth: int) -> bool:
    """Whether JSON text nests arrays and objects more than ``max_depth`` deep, found
    without parsing it (the parser would recurse). Brackets inside strings do not count."""
    if text.count("[") + text.count("{") <= max_depth:
        return False  # too few openers to go that deep: the common case, decided in C
    depth = 0
    for token in _TOKEN.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif char in "]}":
            depth -= 1
    return False


def oversized_value(value: Any, max_depth: int, max_items: int) -> str | None:
    """The same for a Python value (an in-process answer), without recursion: "deep",
    "large" (more than ``max_items`` arrays, objects and values in all, counting shared
    ones each time they occur), or None. A value that contains itself is too deep."""
    # Scalars are counted with their container, in bulk; a container's child containers go on
    # the stack together, with their depth (one entry per container would cost a tuple each).
    containers = (dict, list, tuple)
    if not isinstance(value, containers):
        return None
    stack: list[tuple[list[Any], int]] = [([value], 1)]
    seen = 1
    while stack:
        items, depth = stack.pop()
        if depth > max_depth:
            return "deep"
        for item in items:
            children = item.values() if isinstance(item, dict) else item
            seen += len(children)
            if seen > max_items:
                return "large"
            inner = [child for child in children if isinstance(child, containers)]
            if inner:
                stack.append((inner, depth + 1))
    return None


_INT_BOUND = 1 << 63  # an int within it is written in at most 20 characters
_NODE_CHARS = 32  # at most, per value besides its strings' characters: a float's 24, separators, a key's quotes
_ESCAPED_CHAR = 12  # at most, per character of a string: a character past U+FFFF as two \uXXXX escapes


class _NotQuick(Exception):
    """A value ``plain_copy`` leaves to the full way (a type, a key or a size it does not take)."""


_SCALAR = frozenset({float, bool, type(None)})  # copied as they are (a string's length is counted, an int's checked)
_CONTAINER = frozenset({dict, list, tuple})


class _Walk:
    """``plain_copy``'s walk, counting what it copies. (A method, not an inner function: one
    that calls itself refers to itself through its cell, a cycle left to the collector.)"""

    __slots__ = ("max_depth", "max_items", "nodes", "chars")

    def __init__(self, max_depth: int, max_items: int) -> None:
        self.max_depth, self.max_items = max_depth, max_items
        self.nodes, self.chars = 1, 0

    def copied(self, item: Any, depth: int) -> Any:
        # Each child's type is looked at once, inline (a call per string or number would cost
        # more than the copy), and only containers are walked into.
        if depth > self.max_depth:
            raise _NotQuick
        self.nodes += len(item)
        if self.nodes > self.max_items:
            raise _NotQuick
        chars = 0  # of this container's own keys and strings
        if type(item) is dict:
            out = {}
            for key, child in item.items():
                if type(key) is not str:
                    raise _NotQuick
                chars += len(key)
                kind = type(child)
                if kind is str:
                    chars += len(child)
                elif kind is int:
                    if not -_INT_BOUND < child < _INT_BOUND:
                        raise _NotQuick
                elif kind in _CONTAINER:
                    child = self.copied(child, depth + 1)
                elif kind not in _SCALAR:
                    raise _NotQuick
                out[key] = child
            self.chars += chars
            return out
        listed = []
        for child in item:
            kind = type(child)
            if kind is str:
                chars += len(child)
            elif kind is int:
                if not -_INT_BOUND < child < _INT_BOUND:
                    raise _NotQuick
            elif kind in _CONTAINER:
                child = self.copied(child, depth + 1)
            elif kind not in _SCALAR:
                raise _NotQuick
            listed.append(child)
        self.chars += chars
        return listed


def plain_copy(value: Any, max_depth: int, max_items: int, max_line: int) -> tuple[Any] | None:
    """An in-process answer read in one walk: ``(copy,)`` where ``value`` is a dict or list of
    plain JSON values (exact types, string keys, tuples taken as lists, ints that any JSON
    writer can write) within the limits, the copy equal to ``json.loads(json.dumps(value))``
    and of its own (the implementation may change its value afterwards); None where the walk
    cannot tell (another type or key, a value near a limit, one that contains itself), for
    ``oversized_value`` and the encoder to decide. The length of the text is bounded from
    above, never computed: at most ``max_line`` characters whatever each string's escapes."""
    if type(value) is not dict and type(value) is not list:
        return None
    walk = _Walk(max_depth, max_items)
    try:
        copy = walk.copied(value, 1)
    except (_NotQuick, RecursionError):
        return None
    nodes, chars = walk.nodes, walk.chars
    if _NODE_CHARS * nodes + _ESCAPED_CHAR * chars + 2 > max_line:
        return None
    return (copy,)
