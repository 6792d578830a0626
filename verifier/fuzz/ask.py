"""Asking the implementation about scenes, through the one implementation session that
``check --impl`` uses too (starts, restarts, the start-failure limit, the hello's
declarations, reading an answer)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from ..adapter import Session
from ..ruleset import Outcome, Ruleset
from .result import ProblemKind, SceneProblem
from .scenes import SceneData, scene_request


class GivenUp(Exception):
    """The implementation failed to start too many times in a row: nothing more is asked."""


@dataclass
class SceneAsker:
    """Sends scenes to the implementation and keeps what went wrong, per scene."""

    ruleset: Ruleset
    session: Session
    problems: list[SceneProblem] = field(default_factory=list)
    deadline: float | None = None  # past this time (time.perf_counter), ``outcome`` asks nothing more
    _cache: dict[str, Outcome | None] = field(default_factory=dict)
    _used: dict[str, int] = field(default_factory=dict)

    def _request_id(self, scene_id: str) -> str:
        """Every request gets an id of its own (the adapter layer takes a second answer
        under one id as an implementation out of step)."""
        seen = self._used.get(scene_id, 0)
        self._used[scene_id] = seen + 1
        return f"{scene_id}~{seen}" if seen else scene_id

    def answer(self, scene_id: str, data: SceneData) -> Any | None:
        """The outcome field of the implementation's answer, not read yet; None (and a
        problem recorded) when there is none. Raises GivenUp past the start-failure limit."""
        if self.session.given_up:
            raise GivenUp(self.session.given_up)
        why = self.session.start()
        if why:
            self._problem(scene_id, ProblemKind.PROTOCOL, why)
            if self.session.given_up:
                raise GivenUp(self.session.given_up)
            return None
        unsupported = self.session.unsupported(self.ruleset)
        if unsupported:
            self._problem(scene_id, ProblemKind.SKIPPED, unsupported)
            return None
        answer = self.session.ask(scene_request(self.ruleset, self._request_id(scene_id), data))
        if answer.kind == "skipped":
            self._problem(scene_id, ProblemKind.SKIPPED, answer.message)
            return None
        if answer.kind == "errored":
            self._problem(scene_id, ProblemKind.PROTOCOL if answer.protocol else ProblemKind.ERRORED, answer.message)
            return None
        return answer.data

    def outcome(self, scene_id: str, before: Any, actions: Any) -> Outcome | None:
        """The implementation's outcome, read under its hello, or None (and a problem
        recorded) when there is none, or, past the ``deadline``, None; a scene asked again
        gets the first answer (shrinking meets the same scene more than once)."""
        data = SceneData.of(self.ruleset, before, actions)
        memo = json.dumps([data.before, data.actions], sort_keys=True)
        if memo in self._cache:
            return self._cache[memo]
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return None
        result = None
        answered = self.answer(scene_id, data)
        if answered is not None:
            read = self.session.outcome(self.ruleset, before, answered)
            if isinstance(read, str):
                self._problem(scene_id, ProblemKind.UNREADABLE, read)
            else:
                result = read
        self._cache[memo] = result
        return result

    def _problem(self, scene_id: str, kind: ProblemKind, message: str) -> None:
        self.problems.append(SceneProblem(scene_id, kind, message))
