"""``python:MODULE:FUNCTION``: an implementation called in-process, in a worker
thread so that a timeout can be reported."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from typing import Any

from ..errors import ImplementationError
from .implementation import DEFAULT_TIMEOUT, Implementation
from .protocol import Answer, _excerpt, check_hello_reply, hello_message, read_answer


class InProcessImplementation(Implementation):
    """``python:MODULE:FUNCTION``: FUNCTION(message: dict[str, Any]) -> dict[str, Any], called for hello and
    every case, in a worker thread so that a timeout can be reported. (A Python thread
    cannot be stopped: one that hangs is left behind, and the run goes on.)"""

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT, rulesets: Iterable[str] | None = None) -> None:
        self.label = spec
        self.timeout = timeout
        self.hello_rulesets = rulesets
        _, _, target = spec.partition(":")
        module_name, sep, function_name = target.rpartition(":")
        if not sep or not module_name or not function_name:
            raise ImplementationError(f"--impl {spec!r}: write python:MODULE:FUNCTION, such as "
                                      "python:verifier.adapters.reference:handle")
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # like 'python -m': modules in the current folder can be found
        try:
            module = import_module(module_name)
        except Exception as exc:
            raise ImplementationError(f"--impl {spec!r}: cannot import {module_name!r}: "
                                      f"{type(exc).__name__}: {exc}") from None
        function = getattr(module, function_name, None)
        if not callable(function):
            raise ImplementationError(f"--impl {spec!r}: module {module_name!r} has no function {function_name!r}")
        self.function: Callable[[dict[str, Any]], Any] = function
        self.info = {}
        self.started = False

    def _call(self, message: dict[str, Any]) -> tuple[str, Any]:
        """("ok", decoded answer) | ("timeout", None) | ("raised", text) | ("not-json", text)"""
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["value"] = self.function(json.loads(json.dumps(message)))
            except BaseException as exc:  # reported, never raised into the run
                box["error"] = exc

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            return "timeout", None
        if "error" in box:
            exc = box["error"]
            frames = traceback.extract_tb(exc.__traceback__)
            where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
            return "raised", f"{type(exc).__name__}: {exc}{where}"
        value = box.get("value")
        try:
            return "ok", json.loads(value) if isinstance(value, (str, bytes)) else json.loads(json.dumps(value))
        except (TypeError, ValueError) as exc:
            return "not-json", f"{exc}: {_excerpt(repr(value))}"

    def start(self) -> str | None:
        if self.started:
            return None
        state, value = self._call(hello_message(self.hello_rulesets))
        if state == "timeout":
            return f"no answer to hello within {self.timeout:g} s"
        if state == "raised":
            return f"hello raised {value}"
        if state == "not-json":
            return f"the answer to hello is not JSON ({value})"
        info, problem = check_hello_reply(value)
        if problem:
            return problem
        self.info = info
        self.started = True
        return None

    def ask(self, request: dict[str, Any]) -> Answer:
        start = time.perf_counter()
        state, value = self._call(request)
        seconds = time.perf_counter() - start
        if state == "timeout":
            return Answer("errored", message=f"no answer within {self.timeout:g} s (--impl-timeout); an "
                                             "in-process implementation cannot be stopped, so it was left "
                                             "running", protocol=True, seconds=seconds)
        if state == "raised":
            return Answer("errored", message=f"the implementation raised {value}", protocol=True, seconds=seconds)
        if state == "not-json":
            return Answer("errored", message=f"the answer is not JSON ({value})", protocol=True, seconds=seconds)
        return replace(read_answer(request, value), seconds=seconds)
