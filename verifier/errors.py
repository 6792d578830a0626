"""Exact exception types. Every error a user can cause is one of these, and
``str(error)`` is a single line that says where the problem is and what to do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class VerifierError(Exception):
    """Base class of every error the tool reports to a user."""


@dataclass(frozen=True)
class Location:
    file: str | None = None
    line: int | None = None
    column: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        parts = [self.file] if self.file else []
        if self.file and self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        if self.field:
            parts = [":".join(parts), self.field] if parts else [self.field]
            return ": ".join(parts)
        return ":".join(parts) or "<input>"


class CaseError(VerifierError):
    """A case file is malformed. Names the file, line, column and field path."""

    def __init__(self, message: str, location: Location | None = None):
        self.message = message
        self.location = location or Location()
        super().__init__(f"{self.location}: {message}")


class SceneError(CaseError):
    """The case parses, but describes a scene that cannot exist (two ships on one
    tile, a ship on a rock, ...)."""


class UnknownRulesetError(CaseError):
    """A ruleset key that no installed ruleset provides."""


class UnknownReadingError(CaseError):
    """A reading point or option that the ruleset does not define."""


class CaseErrors(VerifierError):
    """Several problems found in one file; each is reported on its own line."""

    def __init__(self, errors: Sequence[CaseError]):
        self.errors = tuple(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class ImplementationError(VerifierError):
    """An implementation under test misbehaved."""


class UnsupportedError(VerifierError):
    """A command asked a ruleset for an optional part it does not declare."""


# Control characters (line breaks too) would let text from a case file or an implementation
# forge output lines or move the cursor; one_line shows each as \xNN.
_CONTROL = {code: f"\\x{code:02x}" for code in [*range(0x00, 0x20), *range(0x7f, 0xa0)]}
MESSAGE_LIMIT = 4000  # characters of one message: a mismatch quoting a huge value is cut here


def one_line(text: object, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as one printable line of at most about ``limit`` characters: every control
    character (line feed and tab included) escaped, and a longer text cut with
    '... (N more characters)'."""
    line = str(text).translate(_CONTROL)
    if len(line) > limit:
        return f"{line[:limit]}... ({len(line) - limit:,} more characters)"
    return line


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """A hint for a near miss, or the list of valid choices when nothing is near."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    shown = ", ".join(repr(c) for c in sorted(map(str, choices)))
    return f"expected one of {shown}"
