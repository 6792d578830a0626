"""One implementation for the length of a run, as every caller uses it (``check --impl``,
the pytest plugin and fuzz): started from its spec, started again after a crash or a
timeout, given up after repeated start failures, its hello read once for what it
declares, and its answers read back into outcomes the one way."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import ImplementationError
from ..ruleset import Outcome, Ruleset
from .declare import Declaration
from .implementation import DEFAULT_TIMEOUT, Implementation
from .inprocess import InProcessImplementation
from .limits import ReadLimits
from .process import SubprocessImplementation
from .protocol import Answer, reported_outcome

MAX_START_FAILURES = 3  # in a row; after that nothing more is asked


def open_implementation(spec: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                        rulesets: Iterable[str] | None = None, limits: ReadLimits | None = None) -> Implementation:
    """``python:MODULE:FUNCTION`` in-process, anything else as a command. ``limits``:
    the bounds on what is read from it (default: ReadLimits.from_env())."""
    if not timeout > 0 or timeout == float("inf"):
        raise ImplementationError("--impl-timeout must be a positive number of seconds")
    limits = limits or ReadLimits.from_env()
    if spec.startswith("python:"):
        return InProcessImplementation(spec, timeout, rulesets, limits)
    return SubprocessImplementation(spec, timeout, cwd, rulesets, limits)


@dataclass
class Session:
    """An implementation asked one request after another. The implementation owns its
    processes and their reaper; the session decides when it is (re)started and when to
    stop trying, and closing the session ends every process it started."""

    impl: Implementation
    start_failures: int = 0  # in a row
    given_up: str = ""  # why nothing more is asked, once the start failures reach the limit
    calls: int = 0
    seconds: float = 0.0  # spent in the implementation's answers

    def start(self) -> str | None:
        """Start the implementation unless it is running (so after a crash or a timeout it
        is started again). Returns why it could not be, as a sentence, or None."""
        if self.given_up:
            return self.given_up
        why = self.impl.start()
        if not why:
            self.start_failures = 0
            return None
        self.start_failures += 1
        if self.start_failures >= MAX_START_FAILURES:
            self.given_up = (f"the implementation failed to start {self.start_failures} times in a row "
                             f"(last: {why})")
        return f"the implementation could not be started: {why}"

    def ask(self, request: dict[str, Any]) -> Answer:
        """One request to the running implementation (``start`` first)."""
        answer = self.impl.ask(request)
        self.calls += 1
        self.seconds += answer.seconds
        return answer

    def unsupported(self, ruleset: Ruleset) -> str | None:
        """Why the hello rules out the ruleset's cases, or None."""
        supported = self.impl.rulesets
        if supported is not None and ruleset.key not in supported:
            return f"the implementation's hello lists only {', '.join(sorted(supported)) or 'no rulesets'}"
        return None

    def declaration(self, ruleset: Ruleset) -> Declaration:
        """What the hello declares for ``ruleset``: the parts reported, the readings followed."""
        return self.impl.declaration(ruleset)

    def outcome(self, ruleset: Ruleset, before: Any, data: Any) -> Outcome | str:
        """An answer's outcome read under the hello's declaration (see ``reported_outcome``)."""
        return reported_outcome(ruleset, self.declaration(ruleset), before, data)

    def describe(self) -> str:
        return self.impl.describe()

    def close(self) -> None:
        self.impl.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
