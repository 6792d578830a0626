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

    def declaration(self, ruleset: Ruleset) -> Declaration:
        """What the hello declares for ``ruleset`` (checked when it arrived)."""
        declared, _ = read_capabilities(self.info)
        return declared.get(ruleset.key, EVERYTHING)

    def describe(self) -> str:
        impl = self.info.get("implementation") or {}
        name = clip_message(str(impl.get("name") or self.label), 80)
        extra = ", ".join(clip_message(str(impl[k]), 40) for k in ("version", "language") if impl.get(k))
        return f"{name} ({extra})" if extra else name
