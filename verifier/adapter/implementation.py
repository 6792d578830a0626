"""What an implementation is, to the verifier: something that says hello, then
answers protocol messages (``process`` runs one as a command, ``inprocess`` calls a
Python function)."""

from __future__ import annotations

from typing import Any

from ..ruleset import Ruleset
from .declare import EVERYTHING, Declaration, read_capabilities
from .limits import clip_message
from .protocol import Answer

DEFAULT_TIMEOUT = 10.0
START_ALLOWANCE = 10.0  # the hello answer may take max(timeout, this): start-up can be slow


class Implementation:
    """Something that answers protocol messages."""

    label: str = ""
    info: dict[str, Any] = {}  # the hello reply
    _declared: tuple[dict[str, Any], dict[str, Declaration]] | None = None  # (hello, what it declares)

    def start(self) -> str | None:
        """Say hello, if not running. Returns why it could not start, or None."""
        raise NotImplementedError

    def ask(self, request: dict[str, Any]) -> Answer:
        raise NotImplementedError

    def close(self) -> None:
        pass

    @property
    def rulesets(self) -> set[str] | None:
        listed = self.info.get("rulesets")
        return set(listed) if isinstance(listed, list) else None

    def declarations(self) -> dict[str, Declaration]:
        """What the hello declares, per ruleset (checked when it arrived); read once per
        hello, not once per case."""
        if self._declared is None or self._declared[0] is not self.info:
            self._declared = (self.info, read_capabilities(self.info)[0])
        return self._declared[1]

    def declaration(self, ruleset: Ruleset) -> Declaration:
        return self.declarations().get(ruleset.key, EVERYTHING)

    def describe(self) -> str:
        impl = self.info.get("implementation") or {}
        name = clip_message(str(impl.get("name") or self.label), 80)
        extra = ", ".join(clip_message(str(impl[k]), 40) for k in ("version", "language") if impl.get(k))
        return f"{name} ({extra})" if extra else name
