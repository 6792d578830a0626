"""``python:MODULE:FUNCTION``: an implementation called in-process, on a worker
thread (one for the run, replaced after a timeout) so that a timeout can be reported.

An implementation that ends the interpreter would end the run with whatever exit
status it chose (``os._exit(0)`` would look like success). So while a call is in
flight, ``os._exit``, ``os.abort`` and the ``os.exec*`` functions (and their ``posix``
originals) are replaced by stand-ins that raise ``ImplementationExit`` in any thread
but the main one (the verifier's; the implementation never runs there). The guard is
lifted when the last call returns, so a call that hangs past its timeout keeps it.
``sys.exit()`` and other BaseExceptions raised by the implementation are caught the
same way. What cannot be guarded (a signal it sends to its own process, a crash of
the interpreter) ends the run with a non-zero status, never a green one."""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import ImplementationError
from .implementation import DEFAULT_TIMEOUT, START_ALLOWANCE, Implementation
from .limits import ReadLimits, excerpt, oversized_value, plain_copy, text_too_deep
from .protocol import Answer, check_hello_reply, hello_message, read_answer

GUARDED = ("_exit", "abort", "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe")


class ImplementationExit(BaseException):
    """Raised instead of ending the interpreter, in an in-process implementation's thread."""

    def __init__(self, call: str) -> None:
        self.call = call
        super().__init__(call)


class _ExitGuard:
    """The stand-ins for the functions that end or replace the interpreter, installed
    while at least one call is in flight."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.everywhere = 0  # while importing an implementation: the main thread is guarded too
        self.originals: dict[tuple[ModuleType, str], Any] = {}
        self.stand_ins: dict[tuple[ModuleType, str], tuple[Any, Callable[..., Any]]] = {}  # made once per original

    def _stand_in(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def stand_in(*args: Any, **kwargs: Any) -> Any:
            if not self.everywhere and threading.current_thread() is threading.main_thread():
                return original(*args, **kwargs)
            shown = ", ".join([excerpt(a, 40) if isinstance(a, str) else repr(a)[:40] for a in args[:2]])
            raise ImplementationExit(f"os.{name}({shown})")
        stand_in.__wrapped__ = original  # type: ignore[attr-defined]
        return stand_in

    def enter(self, everywhere: bool = False) -> None:
        with self.lock:
            self.everywhere += everywhere
            self.users += 1
            if self.users > 1:
                return
            for module in _MODULES:
                for name in GUARDED:
                    original = getattr(module, name, None)
                    if original is not None:
                        self.originals[(module, name)] = original
                        made = self.stand_ins.get((module, name))
                        if made is None or made[0] is not original:
                            made = self.stand_ins[(module, name)] = (original, self._stand_in(name, original))
                        setattr(module, name, made[1])

    def leave(self, everywhere: bool = False) -> None:
        with self.lock:
            self.everywhere -= everywhere
            self.users -= 1
            if self.users:
                return
            for (module, name), original in self.originals.items():
                setattr(module, name, original)
            self.originals.clear()


EXIT_GUARD = _ExitGuard()
_MODULES = tuple(m for m in (os, sys.modules.get("posix"), sys.modules.get("nt")) if m is not None)


class _Worker:
    """The thread an in-process implementation is called on, kept from call to call (a
    thread started per call costs more than many an answer). Each request is the message's
    JSON text, decoded on the worker, so the implementation gets data of its own. A worker
    whose call outlives its timeout is abandoned: it ends when that call returns, and its
    answer, put where nobody reads any more, is dropped."""

    def __init__(self, function: Callable[[dict[str, Any]], Any], name: str) -> None:
        self.function = function
        self.requests: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.answers: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self.abandoned = False
        threading.Thread(target=self._serve, daemon=True, name=name).start()

    def _serve(self) -> None:
        while True:
            text = self.requests.get()
            if text is None:
                return
            try:
                answer: tuple[bool, Any] = (True, self.function(json.loads(text)))
            except BaseException as exc:  # reported, never raised into the run
                answer = (False, exc)
            finally:
                EXIT_GUARD.leave()
            self.answers.put(answer)
            del answer
            if self.abandoned:
                return

    def abandon(self) -> None:
        self.abandoned = True
        self.requests.put(None)


class InProcessImplementation(Implementation):
    """``python:MODULE:FUNCTION``: FUNCTION(message: dict[str, Any]) -> dict[str, Any], called for hello and
    every case, on a worker thread so that a timeout can be reported. (A Python thread
    cannot be stopped: one that hangs is left behind, and the run goes on.)"""

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT, rulesets: Iterable[str] | None = None,
                 limits: ReadLimits | None = None) -> None:
        self.limits = limits or ReadLimits.from_env()
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
        EXIT_GUARD.enter(everywhere=True)
        try:
            module = import_module(module_name)
        except ImplementationExit as exc:
            raise ImplementationError(f"--impl {spec!r}: importing {module_name!r} tried to end the verifier "
                                      f"({exc.call})") from None
        except (Exception, SystemExit) as exc:  # SystemExit: an import that tries to end the verifier
            raise ImplementationError(f"--impl {spec!r}: cannot import {module_name!r}: "
                                      f"{type(exc).__name__}: {excerpt(_safe_str(exc), 300)[1:-1]}") from None
        finally:
            EXIT_GUARD.leave(everywhere=True)
        function = getattr(module, function_name, None)
        if not callable(function):
            raise ImplementationError(f"--impl {spec!r}: module {module_name!r} has no function {function_name!r}")
        self.function: Callable[[dict[str, Any]], Any] = function
        self.info = {}
        self.started = False
        self._worker: _Worker | None = None

    def _call(self, message: dict[str, Any], timeout: float | None = None) -> tuple[str, Any]:
        """("ok", decoded answer) | ("timeout", None) | ("raised", text) | ("exit", text) | ("not-json", text)
        | ("too-big", text)"""
        EXIT_GUARD.enter()
        try:
            if self._worker is None:
                self._worker = _Worker(self.function, f"verifier impl {self.label}")
            worker = self._worker
            worker.requests.put(json.dumps(message))
        except BaseException:
            EXIT_GUARD.leave()
            raise
        try:
            ok, value = worker.answers.get(timeout=self.timeout if timeout is None else timeout)
        except queue.Empty:
            worker.abandon()  # it hangs: left behind, and the next call gets a worker of its own
            self._worker = None
            return "timeout", None
        if not ok:
            exc = value
            frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]  # not the guard
            where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
            if isinstance(exc, ImplementationExit):
                return "exit", f"called {exc.call}{where}"
            if not isinstance(exc, Exception):  # SystemExit, KeyboardInterrupt, GeneratorExit and the like
                shown = ", ".join(_safe_repr(arg)[:60] for arg in exc.args[:2])
                return "exit", f"raised {type(exc).__name__}({shown}){where}"
            return "raised", f"{type(exc).__name__}: {excerpt(_safe_str(exc), 300)[1:-1]}{where}"
        return self._decode(value)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.abandon()
            self._worker = None

    def _decode(self, value: Any) -> tuple[str, Any]:
        """The answer as JSON data, within the limits an answer line has."""
        limits = self.limits
        try:
            if isinstance(value, (str, bytes, bytearray)):
                if len(value) > limits.max_line:
                    return "too-big", limits.line_too_long()
                text = value.decode("utf-8", "replace") if isinstance(value, (bytes, bytearray)) else value
                if text_too_deep(text, limits.max_depth):
                    return "too-big", limits.too_deep()
                return "ok", json.loads(text)
            quick = plain_copy(value, limits.max_depth, limits.max_line // 2, limits.max_line)
            if quick is not None:  # the common case: one walk, no text
                return "ok", quick[0]
            shape = oversized_value(value, limits.max_depth, limits.max_line // 2)
            if shape == "deep":
                return "too-big", limits.too_deep()
            if shape == "large":
                return "too-big", limits.line_too_long()
            text = json.dumps(value)
            if len(text) > limits.max_line:
                return "too-big", limits.line_too_long()
            return "ok", json.loads(text)
        except RecursionError:
            return "too-big", limits.too_deep()
        except (TypeError, ValueError) as exc:
            return "not-json", f"{excerpt(_safe_str(exc), 120)[1:-1]}: {excerpt(_safe_repr(value))}"

    def start(self) -> str | None:
        if self.started:
            return None
        allowance = max(self.timeout, START_ALLOWANCE)
        state, value = self._call(hello_message(self.hello_rulesets), allowance)
        if state == "timeout":
            return f"no answer to hello within {allowance:g} s"
        if state == "raised":
            return f"hello raised {value}"
        if state == "exit":
            return f"hello tried to end the verifier: it {value}"
        if state == "too-big":
            return f"hello: {value}"
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
        if state == "exit":
            return Answer("errored", message=f"the implementation tried to end the verifier: it {value}; an "
                                             "in-process implementation must return an answer", protocol=True,
                          seconds=seconds)
        if state == "not-json":
            return Answer("errored", message=f"the answer is not JSON ({value})", protocol=True, seconds=seconds)
        if state == "too-big":
            return Answer("errored", message=value, protocol=True, seconds=seconds)
        return replace(read_answer(request, value), seconds=seconds)


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)[:1000]
    except Exception as exc:  # a hostile __repr__
        return f"<{type(value).__name__}: repr raised {type(exc).__name__}>"


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception as error:  # a hostile __str__
        return f"<str() raised {type(error).__name__}>"
