"""Safe YAML loading that remembers where every value came from.

The loader composes the YAML node graph with PyYAML's *safe* loader, rejects
duplicate keys, and builds plain Python values plus a table from field path to
(line, column). Every later check - JSON Schema, scene validation, expectation
mismatches - uses that table to point at the exact spot in the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import CaseError, Location

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

    def error(self, path: Iterable[Any], message: str, cls: type[CaseError] = CaseError,
              key: bool = False) -> CaseError:
        return cls(message, self.where(path, key=key))

    def line_of(self, path: Iterable[Any]) -> int | None:
        return self.where(path).line


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, file: str):
        self.file = file
        self.values: dict[FieldPath, tuple[int, int]] = {}
        self.keys: dict[FieldPath, tuple[int, int]] = {}
        self.constructor = yaml.SafeLoader("")

    def fail(self, node: yaml.Node, path: FieldPath, message: str) -> CaseError:
        line, col = _mark(node)
        return CaseError(message, Location(self.file, line, col, format_path(path)))

    def build(self, node: yaml.Node, path: FieldPath) -> Any:
        self.values[path] = _mark(node)
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, path, "YAML merge keys (<<) are not allowed in case files")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "mapping keys must be plain scalars")
                key = self.constructor.construct_object(key_node, deep=True)
                if not isinstance(key, (str, int, bool)) or isinstance(key, bool):
                    key = str(key)
                if key in result:
                    first = self.keys[path + (key,)]
                    raise self.fail(key_node, path + (key,),
                                    f"duplicate key {key!r} (first given on line {first[0]})")
                self.keys[path + (key,)] = _mark(key_node)
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError:
            raise self.fail(node, path, f"not valid YAML for a case file: the tag {node.tag!r} is not "
                                        "allowed (only plain YAML values are)") from None
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise self.fail(node, path, f"not valid YAML: {problem}") from None


def load_text(text: str, file: str = "<string>") -> Located:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        location = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        raise CaseError(f"not valid YAML: {exc.problem or exc}", location) from None
    except yaml.YAMLError as exc:
        raise CaseError(f"not valid YAML: {exc}", Location(file)) from None
    if node is None:
        raise CaseError("the file is empty", Location(file, 1, 1))
    builder = _Builder(file)
    data = builder.build(node, ())
    return Located(file, data, builder.values, builder.keys)


def load_file(path: str | Path) -> Located:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CaseError("no such file", Location(str(path))) from None
    except UnicodeDecodeError as exc:
        raise CaseError(f"not UTF-8 text ({exc.reason})", Location(str(path))) from None
    except OSError as exc:
        raise CaseError(f"cannot read: {exc.strerror}", Location(str(path))) from None
    return load_text(text, str(path))
