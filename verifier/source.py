"""Safe YAML loading that remembers where every value came from.

The loader composes the YAML node graph with PyYAML's *safe* loader, rejects
duplicate keys, and builds plain Python values plus a table from field path to
(line, column). Every later check - JSON Schema, scene validation, expectation
mismatches - uses that table to point at the exact spot in the file.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import CaseError, Location
from .kept import Kept

FieldPath = tuple[str | int, ...]


def format_path(path: Iterable[Any]) -> str:
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            part = str(part)
            if not part.isprintable() or not part.strip():
                part = repr(part)  # keep the message on one line, and visible
            text += ("." if text else "") + part
    return text or "(top level)"


@dataclass(frozen=True)
class Located:
    """A loaded document: its plain data and where each field sits in the file."""

    file: str
    data: Any
    value_marks: Mapping[FieldPath, tuple[int, int]] = field(repr=False)
    key_marks: Mapping[FieldPath, tuple[int, int]] = field(repr=False)

    def where(self, path: Iterable[Any], key: bool = False) -> Location:
        """The location of a field, or of its nearest ancestor that has one."""
        path = tuple(path)
        marks = self.key_marks if key else self.value_marks
        probe = path
        while True:
            mark = marks.get(probe) or self.value_marks.get(probe)
            if mark is not None:
                return Location(self.file, mark[0], mark[1], format_path(path))
            if not probe:
                return Location(self.file, None, None, format_path(path))
            probe = probe[:-1]

    def at(self, path: Iterable[Any]) -> Any:
        """The value at a field path (every part of which is known to exist)."""
        value = self.data
        for part in path:
            value = value[part]
        return value

    def error(self, path: Iterable[Any], message: str, cls: type[CaseError] = CaseError,
              key: bool = False) -> CaseError:
        return cls(message, self.where(path, key=key))

    def line_of(self, path: Iterable[Any]) -> int | None:
        return self.where(path).line


_STR = "tag:yaml.org,2002:str"


def _mark(node: yaml.Node | yaml.Event) -> tuple[int, int]:
    mark = node.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _limit(name: str, default: int) -> int:
    """A bound on what is read from disk, raised with the environment variable ``name``."""
    raw = os.environ.get(name, "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


MAX_FILE_BYTES = 1 << 20  # VERIFIER_MAX_CASE_BYTES
MAX_DEPTH = 64  # VERIFIER_MAX_CASE_DEPTH: mappings and lists inside each other
MAX_VALUES = 100_000  # VERIFIER_MAX_CASE_VALUES: values after aliases are expanded
MAX_INTEGER = 10 ** 15  # numbers beyond this are refused, not rounded or overflowed later


def limits() -> tuple[int, int, int]:
    """(bytes, depth, values) in force now."""
    return (_limit("VERIFIER_MAX_CASE_BYTES", MAX_FILE_BYTES), _limit("VERIFIER_MAX_CASE_DEPTH", MAX_DEPTH),
            _limit("VERIFIER_MAX_CASE_VALUES", MAX_VALUES))


class _Builder:
    def __init__(self, file: str, max_depth: int, max_values: int):
        self.file = file
        self.values: dict[FieldPath, tuple[int, int]] = {}
        self.keys: dict[FieldPath, tuple[int, int]] = {}
        self.constructor = yaml.SafeLoader("")
        self.max_depth = max_depth
        self.max_values = max_values
        self.built = 0
        self.open: set[int] = set()  # ids of the collection nodes being built: an alias back into one is a loop

    def fail(self, node: yaml.Node, path: FieldPath, message: str) -> CaseError:
        line, col = _mark(node)
        return CaseError(message, Location(self.file, line, col, format_path(path)))

    def scalar(self, node: yaml.Node, path: FieldPath) -> Any:
        if node.tag == _STR:  # most values: the text as written (what the constructor would give)
            return node.value
        try:
            value = self.constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError:
            raise self.fail(node, path, f"not valid YAML for a case file: the tag {node.tag!r} is not "
                                        "allowed (only plain YAML values are)") from None
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise self.fail(node, path, f"not valid YAML: {problem}") from None
        except (ValueError, OverflowError):  # e.g. an integer of thousands of digits
            raise self.fail(node, path, "a number too large to read; case files take integers of at most 15 "
                                        "digits") from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
            raise self.fail(node, path, f"the integer {str(value)[:20]}... has {len(str(abs(value)))} digits; case "
                                        "files take integers of at most 15 digits")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(node, path, f"{node.value!r} is not a finite number; case files take finite numbers only")
        if isinstance(value, float) and abs(value) > MAX_INTEGER:
            raise self.fail(node, path, f"{node.value!r} is too large; case files take numbers up to 10^15 only")
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            # Timestamps, binary and sets are YAML values, but nothing in a case file is one of them.
            raise self.fail(node, path, f"a {type(value).__name__} value is not allowed in a case file; quote it "
                                        "to make it text")
        return value

    def build(self, node: yaml.Node, path: FieldPath) -> Any:
        self.built += 1
        if self.built > self.max_values:
            raise self.fail(node, path, f"the file expands to more than {self.max_values:,} values (aliases "
                                        "included); raise VERIFIER_MAX_CASE_VALUES if it is meant to")
        if len(path) > self.max_depth:
            raise self.fail(node, path, f"values are nested more than {self.max_depth} deep; raise "
                                        "VERIFIER_MAX_CASE_DEPTH if that is meant")
        self.values[path] = _mark(node)
        if not isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            return self.scalar(node, path)
        if node.tag not in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
            raise self.fail(node, path, f"not valid YAML for a case file: the tag {node.tag!r} is not allowed "
                                        "(only plain YAML values are)")
        if id(node) in self.open:
            raise self.fail(node, path, "an alias refers to a value that contains it, which never ends")
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, path, "YAML merge keys (<<) are not allowed in case files")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "mapping keys must be plain scalars")
                key = self.scalar(key_node, path)
                if not isinstance(key, str):
                    raise self.fail(key_node, path, f"keys must be text, not {'null' if key is None else repr(key)}; "
                                                    f"quote it: '{key_node.value}'")
                if not key.isprintable():
                    raise self.fail(key_node, path + (key,), "keys must be printable text, without control "
                                                             "characters or line breaks")
                if key in result:
                    first = self.keys[path + (key,)]
                    raise self.fail(key_node, path + (key,),
                                    f"duplicate key {key!r} (first given on line {first[0]})")
                self.keys[path + (key,)] = _mark(key_node)
                result[key] = self.build(value_node, path + (key,))
            return result
        finally:
            self.open.discard(id(node))


class _BoundedComposer(yaml.SafeLoader):
    """PyYAML's safe loader with a bound on nesting, checked as it composes: its composer
    recurses once per level, so deep nesting must be refused before it recurses."""

    def __init__(self, text: str, file: str, max_depth: int) -> None:
        super().__init__(text)
        self.file, self.max_depth, self.depth = file, max_depth, 0

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            line, column = _mark(self.peek_event())  # type: ignore[no-untyped-call]  # untyped in the stubs
            raise CaseError(f"values are nested more than {self.max_depth} deep; raise VERIFIER_MAX_CASE_DEPTH if "
                            "that is meant", Location(self.file, line, column))

    def compose_sequence_node(self, anchor: Any) -> yaml.SequenceNode:
        self._enter()
        try:
            return super().compose_sequence_node(anchor)
        finally:
            self.depth -= 1

    def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
        self._enter()
        try:
            return super().compose_mapping_node(anchor)
        finally:
            self.depth -= 1


def _c_loader() -> Any:
    """libyaml's loader, which composes the whole node tree in C (scanning, parsing and
    composing in Python were most of the time loading a case took), or None for a PyYAML
    built without libyaml. libyaml refuses nesting past 1,000 levels itself, so its
    composing cannot run out of stack. Only files it reads and the builder takes without
    complaint take this path: any complaint (a file nested too deep among them) is made
    again by the bounded composer, whose words and order the error messages keep."""
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None or loader.yaml_path_resolvers:
        return loader
    scalar, plain = yaml.ScalarNode, loader.resolve
    tags: Kept[str, str] = Kept(20_000)

    def resolve(self: Any, kind: Any, value: Any, implicit: tuple[bool, bool]) -> str:
        # The safe loader's tag of a plain scalar depends on its text alone, and case files
        # repeat the same keys and values: each text is resolved once, not at every node.
        if kind is not scalar or not implicit[0]:
            return plain(self, kind, value, implicit)  # type: ignore[no-any-return]
        return tags.get(value, lambda: plain(self, kind, value, (True, False)))

    return type("_CaseLoader", (loader,), {"resolve": resolve})


_CLoader = _c_loader()


def _fast_node(text: str) -> Any:
    """The YAML node of ``text`` composed by libyaml, or None where it complains (or is missing)."""
    if _CLoader is None:
        return None
    loader = _CLoader(text)
    try:
        return loader.get_single_node()
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()


def load_text(text: str, file: str = "<string>") -> Located:
    max_bytes, max_depth, max_values = limits()
    if len(text) > max_bytes:
        raise CaseError(f"the file is larger than {max_bytes:,} bytes; raise VERIFIER_MAX_CASE_BYTES if it is "
                        "meant to be", Location(file))
    text = text.removeprefix("\ufeff")
    try:
        composer = _BoundedComposer(text, file, max_depth)
    except yaml.reader.ReaderError as exc:  # the reader refuses some characters before parsing anything
        line, column = _line_and_column(text, exc.position)
        raise CaseError(f"a raw control character (U+{int(exc.character):04X}) that YAML does not allow; write it "
                        "escaped in a double-quoted string (such as \\x01) or remove it",
                        Location(file, line, column)) from None
    fast = _fast_node(text)
    if fast is not None:
        builder = _Builder(file, max_depth, max_values)
        try:
            data = builder.build(fast, ())
        except CaseError:
            pass  # said again below, after the bounded composer's own checks, as it always was
        else:
            composer.dispose()
            return Located(file, data, builder.values, builder.keys)
    try:
        node = composer.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        location = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        raise CaseError(f"not valid YAML: {exc.problem or exc}", location) from None
    except yaml.YAMLError as exc:
        raise CaseError(f"not valid YAML: {exc}", Location(file)) from None
    finally:
        composer.dispose()
    if node is None:
        raise CaseError("the file is empty", Location(file, 1, 1))
    builder = _Builder(file, max_depth, max_values)
    data = builder.build(node, ())
    return Located(file, data, builder.values, builder.keys)


def _line_and_column(text: str, position: int) -> tuple[int, int]:
    line = text.count("\n", 0, position) + 1
    return line, position - (text.rfind("\n", 0, position) + 1) + 1


def file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as a case file (not a regular file), or None."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file" + (" (a link whose target is missing)" if path.is_symlink() else "")
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISFIFO(mode):
        return "a named pipe, not a file; case files must be regular files"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file; case files must be regular files"
    if not stat.S_ISREG(mode):
        return "not a regular file; case files must be regular files"
    return None


def load_file(path: str | Path) -> Located:
    path = Path(path)
    problem = file_problem(path)
    if problem:
        raise CaseError(problem, Location(str(path)))
    max_bytes = limits()[0]
    try:
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise CaseError(f"cannot read: {exc.strerror}", Location(str(path))) from None
    if len(raw) > max_bytes:
        raise CaseError(f"the file is larger than {max_bytes:,} bytes; raise VERIFIER_MAX_CASE_BYTES if it is "
                        "meant to be", Location(str(path)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CaseError(f"not UTF-8 text ({exc.reason})", Location(str(path))) from None
    return load_text(text, str(path))
