"""Checking other implementations: the adapter protocol (docs/protocol.md).

Another implementation of a ruleset (a game client, a wiki bot, a port in another
language) is started once, as a process that reads JSON lines on stdin and answers
JSON lines on stdout:

    verifier -> impl   {"type": "hello", "protocol": "verifier-adapter/1", ...}
    impl -> verifier   {"type": "hello", "protocol": "verifier-adapter/1", "implementation": {...}}
    verifier -> impl   {"type": "case", "id": ..., "ruleset": ..., "readings": ..., "before": ..., "actions": ...}
    impl -> verifier   {"type": "outcome", "id": ..., "outcome": {...}}
                     | {"type": "skipped", "id": ..., "reason": "..."}
                     | {"type": "errored", "id": ..., "message": "..."}

The verifier compares each outcome with the case's expectation, exactly as it does
for the reference resolver. A misbehaving implementation (no answer in time, a
crash, a line that is not JSON, an answer that does not fit the schema) is reported
on the case it happened on, and the run goes on: a crashed or stopped process is
started again for the next case.

``python:MODULE:FUNCTION`` runs an implementation in-process instead: FUNCTION is
called with each message (as a dict, hello included) and returns the answer.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, Iterable

import jsonschema

from . import __version__, registry
from .case import Case, find_case_files, load_case
from .errors import ImplementationError, Location, VerifierError
from .ruleset import Capability, Ruleset
from .runner import CaseResult, Problem, ProblemKind, Status, _error_result, check_open_case

PROTOCOL = "verifier-adapter/1"
DEFAULT_TIMEOUT = 10.0
START_ALLOWANCE = 10.0  # the hello answer may take max(timeout, this): start-up can be slow
MAX_START_FAILURES = 3  # in a row; after that the remaining cases are not tried
SCHEMA_ID = "https://example.invalid/verifier/adapter.schema.json"


# --- the schema -----------------------------------------------------------------

def supports_protocol(ruleset: Ruleset) -> bool:
    """Whether answers for this ruleset can be read back and compared."""
    return ruleset.supports(Capability.INTERCHANGE)


def _ruleset_names() -> list[str]:
    return registry.names()


def adapter_schema() -> dict:
    """The JSON Schema of every message of the protocol, as published in
    docs/schema/adapter.schema.json. ``$defs`` holds one schema per message, and
    one per ruleset for the ``outcome`` field (``outcome_ypp``, ...)."""
    readings = {"type": "object", "additionalProperties": {"type": "string"}}
    defs: dict[str, Any] = {
        "hello": {
            "description": "verifier -> implementation, once, first. Answer with hello_reply.",
            "type": "object", "required": ["type", "protocol"],
            "properties": {
                "type": {"const": "hello"},
                "protocol": {"const": PROTOCOL},
                "verifier": {"type": "string", "description": "the verifier's version"},
                "rulesets": {"type": "array", "items": {"type": "string"},
                             "description": "rulesets whose cases may follow"},
            },
        },
        "hello_reply": {
            "description": "implementation -> verifier: the answer to hello. 'protocol' must be the "
                           "verifier's; 'rulesets', if given, limits the cases sent (others are skipped).",
            "type": "object", "required": ["type", "protocol"],
            "properties": {
                "type": {"const": "hello"},
                "protocol": {"type": "string", "pattern": "^verifier-adapter/[0-9]+$"},
                "implementation": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string", "minLength": 1}, "version": {"type": "string"},
                                   "language": {"type": "string"}, "homepage": {"type": "string"}},
                },
                "rulesets": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            },
        },
        "case": {
            "description": "verifier -> implementation: one case to resolve. The expectation is not sent. "
                           "Later versions of this protocol may add optional fields; ignore those you do not know.",
            "type": "object",
            "required": ["type", "id", "ruleset", "readings", "pinned", "before", "actions"],
            "properties": {
                "type": {"const": "case"},
                "id": {"type": "string", "description": "the case's stable id; echo it in the answer"},
                "ruleset": {"enum": _ruleset_names()},
                "readings": {**readings, "description": "the full reading: every reading point of the "
                                                        "ruleset and the option to resolve under"},
                "pinned": {**readings, "description": "the part of 'readings' that the case pins; the "
                                                      "rest are the ruleset's defaults"},
                "before": {"type": "object", "description": "as in the case file (docs/schema/case.schema.json)"},
                "actions": {"description": "as in the case file"},
            },
        },
        "response": {
            "description": "implementation -> verifier: the answer to one case, on one line.",
            "type": "object", "required": ["type"],
            "properties": {"type": {"enum": ["outcome", "skipped", "errored"]}},
            "oneOf": [{"$ref": "#/$defs/outcome"}, {"$ref": "#/$defs/skipped"}, {"$ref": "#/$defs/errored"}],
        },
        "outcome": {
            "description": "the implementation's outcome, in the ruleset's outcome form (outcome_<ruleset>)",
            "type": "object", "required": ["type", "outcome"],
            "properties": {"type": {"const": "outcome"}, "id": {"type": "string"}, "outcome": {"type": "object"}},
        },
        "skipped": {
            "description": "the implementation does not handle this case (an unsupported ruleset, reading "
                           "or feature); not a failure",
            "type": "object", "required": ["type", "reason"],
            "properties": {"type": {"const": "skipped"}, "id": {"type": "string"},
                           "reason": {"type": "string", "minLength": 1}},
        },
        "errored": {
            "description": "the implementation tried and failed (an exception, an internal error); "
                           "counts against it",
            "type": "object", "required": ["type", "message"],
            "properties": {"type": {"const": "errored"}, "id": {"type": "string"},
                           "message": {"type": "string", "minLength": 1},
                           "detail": {"type": "string", "description": "a traceback or log excerpt"}},
        },
    }
    for key in _ruleset_names():
        ruleset = registry.get(key)
        if supports_protocol(ruleset) and ruleset.outcome_schema:
            defs[f"outcome_{key}"] = {"description": f"the 'outcome' field of an answer to a {key} case",
                                      **ruleset.outcome_schema}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"verifier adapter protocol ({PROTOCOL})",
        "description": "JSON lines between the verifier and another implementation of a ruleset. "
                       "See docs/protocol.md.",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in ("hello", "hello_reply", "case", "response")],
        "$defs": defs,
    }


_validators: dict[str, jsonschema.Draft202012Validator] = {}


def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator of one message kind (a key of ``$defs``)."""
    if name not in _validators:
        schema = adapter_schema()
        _validators[name] = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})
    return _validators[name]


def schema_problem(name: str, data: Any) -> str | None:
    """The first way ``data`` breaks ``$defs/name``, as one sentence, or None."""
    errors = sorted(validator(name).iter_errors(data), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if not errors:
        return None
    error = errors[0]
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{path.lstrip('.') or '(top level)'}: {error.message}"


def answer_problem(raw: Any) -> str | None:
    """Why a decoded answer to a case does not fit the protocol, or None. (Checked
    against the branch its "type" names, which gives a plainer message than oneOf.)"""
    if not isinstance(raw, dict):
        return f"expected a JSON object, got {type(raw).__name__}"
    kind = raw.get("type")
    if kind not in ("outcome", "skipped", "errored"):
        return f"type: expected 'outcome', 'skipped' or 'errored', got {kind!r}"
    return schema_problem(kind, raw)


# --- messages -------------------------------------------------------------------

def hello_message(rulesets: Iterable[str] | None = None) -> dict:
    return {"type": "hello", "protocol": PROTOCOL, "verifier": __version__,
            "rulesets": sorted(rulesets) if rulesets is not None else _ruleset_names()}


def case_request(case: Case) -> dict:
    """What an implementation is told about a case: everything but the expectation."""
    data = case.doc.data
    return {"type": "case", "id": case.id, "ruleset": case.ruleset.key, "readings": dict(case.readings),
            "pinned": dict(case.pinned), "before": data["before"], "actions": data["actions"]}


@dataclass(frozen=True)
class Answer:
    """An implementation's answer to one case, after the protocol checks.

    ``kind`` is outcome, skipped or errored. An errored answer is either the
    implementation's own (``protocol`` False) or a protocol failure the verifier saw:
    a timeout, a crash, a line that is not JSON, a wrong shape (``protocol`` True)."""

    kind: str
    data: Any = None  # the outcome (kind "outcome")
    message: str = ""  # the reason (skipped) or what went wrong (errored)
    detail: str = ""
    protocol: bool = False
    seconds: float = 0.0


def read_answer(request: dict, raw: Any) -> Answer:
    """Check one decoded answer against the protocol."""
    problem = answer_problem(raw)
    if problem:
        return Answer("errored", message=f"the answer does not fit the protocol ({problem}): {_excerpt(raw)}",
                      protocol=True)
    if "id" in raw and raw["id"] != request["id"]:
        return Answer("errored", message=f"the answer is for case {raw['id']!r}, not {request['id']!r}; the "
                                         "implementation is out of step", protocol=True)
    if raw["type"] == "skipped":
        return Answer("skipped", message=raw["reason"])
    if raw["type"] == "errored":
        return Answer("errored", message=raw["message"], detail=raw.get("detail", ""))
    return Answer("outcome", data=raw["outcome"])


def _excerpt(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


class ProtocolMismatch(VerifierError):
    """The implementation speaks another version of the protocol: nothing can be checked."""


def check_hello_reply(raw: Any) -> tuple[dict, str | None]:
    """(reply, problem): the hello answer, and why it is unusable (or None)."""
    if not isinstance(raw, dict) or raw.get("type") != "hello":
        return {}, f"the first answer must be a hello, got {_excerpt(raw)}"
    if isinstance(raw.get("protocol"), str) and raw["protocol"] != PROTOCOL:
        raise ProtocolMismatch(f"the implementation speaks {raw['protocol']}, but this verifier speaks "
                               f"{PROTOCOL}; see docs/protocol.md")
    problem = schema_problem("hello_reply", raw)
    if problem:
        return {}, f"the hello answer does not fit the protocol ({problem})"
    return raw, None


# --- implementations ------------------------------------------------------------

class Implementation:
    """Something that answers protocol messages."""

    label: str = ""
    info: dict = {}  # the hello reply

    def start(self) -> str | None:
        """Say hello, if not running. Returns why it could not start, or None."""
        raise NotImplementedError

    def ask(self, request: dict) -> Answer:
        raise NotImplementedError

    def close(self) -> None:
        pass

    @property
    def rulesets(self) -> set[str] | None:
        listed = self.info.get("rulesets")
        return set(listed) if isinstance(listed, list) else None

    def describe(self) -> str:
        impl = self.info.get("implementation") or {}
        name = impl.get("name") or self.label
        extra = ", ".join(str(impl[k]) for k in ("version", "language") if impl.get(k))
        return f"{name} ({extra})" if extra else name


class _Process:
    """One running generation of a subprocess implementation, with reader threads."""

    def __init__(self, argv: list[str], cwd: str | None):
        self.popen = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            start_new_session=True)
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=12)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        try:
            for line in iter(stream.readline, b""):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _read_stderr(self) -> None:
        try:
            for line in iter(self.popen.stderr.readline, b""):
                self.stderr.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def send(self, message: dict) -> bool:
        try:
            self.popen.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
            self.popen.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def receive(self, timeout: float) -> tuple[str, bytes | None]:
        """("line", data) | ("eof", None) | ("timeout", None); blank lines are passed over."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout", None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return "timeout", None
            if line is None:
                return "eof", None
            if line.strip():
                return "line", line

    def exit_text(self) -> str:
        try:
            code = self.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def stderr_text(self) -> str:
        time.sleep(0.05)  # let the reader catch the last words
        lines = [l for l in self.stderr if l.strip()]
        return ("; its last words on stderr: " + " | ".join(lines[-4:])) if lines else ""

    def stop(self, grace: float = 0.0) -> None:
        """Close its input; after ``grace`` seconds, kill its process group (it and its children)."""
        try:
            self.popen.stdin.close()
        except OSError:
            pass
        if grace:
            try:
                self.popen.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except OSError:
                pass


class SubprocessImplementation(Implementation):
    """An implementation run as a command (split like a shell would, but without one)."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                 rulesets: Iterable[str] | None = None):
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ImplementationError("--impl needs a command, such as \"node my-impl.js\"")
        self.label = command
        self.timeout = timeout
        self.cwd = cwd
        self.hello_rulesets = rulesets
        self.process: _Process | None = None
        self.info = {}
        self.starts = 0

    def start(self) -> str | None:
        if self.process is not None:
            return None
        try:
            process = _Process(self.argv, self.cwd)
        except FileNotFoundError:
            return f"cannot start {self.command!r}: there is no program {self.argv[0]!r}"
        except OSError as exc:
            return f"cannot start {self.command!r}: {exc.strerror or exc}"
        self.starts += 1
        allowance = max(self.timeout, START_ALLOWANCE)
        if not process.send(hello_message(self.hello_rulesets)):
            why = f"it {process.exit_text()} before hello{process.stderr_text()}"
            process.stop()
            return why
        state, line = process.receive(allowance)
        problem = None
        if state == "timeout":
            problem = f"no answer to hello within {allowance:g} s"
        elif state == "eof":
            problem = f"it {process.exit_text()} without answering hello{process.stderr_text()}"
        else:
            try:
                raw = json.loads(line)
            except ValueError as exc:
                problem = f"the answer to hello is not valid JSON ({exc}): {_excerpt(line.decode('utf-8', 'replace'))}"
            else:
                try:
                    info, problem = check_hello_reply(raw)
                except ProtocolMismatch:
                    process.stop()
                    raise
                if not problem:
                    self.info = info
        if problem:
            process.stop()
            return problem
        self.process = process
        return None

    def _restart_later(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None

    def ask(self, request: dict) -> Answer:
        start = time.perf_counter()
        answer = self._ask(request)
        return replace(answer, seconds=time.perf_counter() - start)

    def _ask(self, request: dict) -> Answer:
        process = self.process
        if process is None:
            raise RuntimeError("start() first")
        if not process.send(request):
            text = f"the implementation {process.exit_text()} before it was sent this case{process.stderr_text()}; " \
                   "it will be restarted"
            self._restart_later()
            return Answer("errored", message=text, protocol=True)
        state, line = process.receive(self.timeout)
        if state == "timeout":
            self._restart_later()
            return Answer("errored", message=f"no answer within {self.timeout:g} s (--impl-timeout); the "
                                             "implementation was stopped and will be restarted", protocol=True)
        if state == "eof":
            text = f"the implementation {process.exit_text()} while resolving this case{process.stderr_text()}; " \
                   "it will be restarted"
            self._restart_later()
            return Answer("errored", message=text, protocol=True)
        text = line.decode("utf-8", "replace")
        try:
            raw = json.loads(text)
        except ValueError as exc:
            self._restart_later()  # whatever it printed, it is out of step now
            return Answer("errored", message=f"the answer is not valid JSON ({exc}): {_excerpt(text)}; the "
                                             "implementation will be restarted", protocol=True)
        answer = read_answer(request, raw)
        if answer.protocol:
            self._restart_later()
        return answer

    def close(self) -> None:
        if self.process is not None:
            self.process.stop(grace=2.0)
            self.process = None


class InProcessImplementation(Implementation):
    """``python:MODULE:FUNCTION``: FUNCTION(message: dict) -> dict, called for hello and
    every case, in a worker thread so that a timeout can be reported. (A Python thread
    cannot be stopped: one that hangs is left behind, and the run goes on.)"""

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT, rulesets: Iterable[str] | None = None):
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
        self.function: Callable[[dict], Any] = function
        self.info = {}
        self.started = False

    def _call(self, message: dict) -> tuple[str, Any]:
        """("ok", decoded answer) | ("timeout", None) | ("raised", text) | ("not-json", text)"""
        box: dict[str, Any] = {}

        def work():
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

    def ask(self, request: dict) -> Answer:
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


def open_implementation(spec: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                        rulesets: Iterable[str] | None = None) -> Implementation:
    """``python:MODULE:FUNCTION`` in-process, anything else as a command."""
    if timeout <= 0:
        raise ImplementationError("--impl-timeout must be a positive number of seconds")
    if spec.startswith("python:"):
        return InProcessImplementation(spec, timeout, rulesets)
    return SubprocessImplementation(spec, timeout, cwd, rulesets)


# --- checking cases through an implementation -----------------------------------

@dataclass
class ImplRun:
    """State shared across the cases of one run."""

    impl: Implementation
    draw: bool = True
    failures: Path = Path(".verifier-failures")
    start_failures: int = 0
    given_up: str = ""


def _case_location(case: Case) -> Location:
    return Location(case.path, case.line, None, None)


def _skip(case: Case, reason: str) -> CaseResult:
    return CaseResult(case.path, case, Status.SKIPPED, (), reason=reason)


def _errored(case: Case, message: str, seconds: float = 0.0, kind: ProblemKind = ProblemKind.PROTOCOL) -> CaseResult:
    return CaseResult(case.path, case, Status.ERRORED, (Problem(message, _case_location(case), kind),),
                      seconds=seconds, reason=message)


def check_case_with(case: Case, run: ImplRun) -> CaseResult:
    """One case through another implementation: the protocol checks, then the same
    comparison the reference resolver gets. Snapshots are not compared (they draw the
    reference outcome); on a mismatch, the expected and the implementation's outcome
    are drawn side by side in the failure folder."""
    if case.status == "needs-ruling":
        return check_open_case(case)
    ruleset = case.ruleset
    if not supports_protocol(ruleset):
        return _skip(case, f"ruleset {ruleset.key!r} does not define its outcome as JSON yet "
                           "(Ruleset.outcome_from_json), so other implementations cannot be checked on it")
    if run.given_up:
        return _errored(case, run.given_up)
    why = run.impl.start()
    if why:
        run.start_failures += 1
        message = f"the implementation could not be started: {why}"
        if run.start_failures >= MAX_START_FAILURES:
            run.given_up = f"not tried: the implementation failed to start {run.start_failures} times in a row " \
                           f"(last: {why})"
        return _errored(case, message)
    run.start_failures = 0
    supported = run.impl.rulesets
    if supported is not None and ruleset.key not in supported:
        return _skip(case, f"the implementation's hello lists only {', '.join(sorted(supported)) or 'no rulesets'}")
    request = case_request(case)
    answer = run.impl.ask(request)
    if answer.kind == "skipped":
        return replace(_skip(case, answer.message), seconds=answer.seconds)
    if answer.kind == "errored":
        text = answer.message if answer.protocol else f"the implementation reports an error: {answer.message}"
        if answer.detail:
            text += " | " + " | ".join(answer.detail.strip().splitlines()[-3:])
        return _errored(case, text, answer.seconds, ProblemKind.PROTOCOL if answer.protocol else ProblemKind.ERRORED)
    if ruleset.outcome_schema:
        problem = schema_problem(f"outcome_{ruleset.key}", answer.data)
        if problem:
            return _errored(case, f"the outcome does not fit the {ruleset.key} outcome schema "
                                  f"(docs/schema/adapter.schema.json#/$defs/outcome_{ruleset.key}): {problem}",
                            answer.seconds)
    try:
        outcome = ruleset.outcome_from_json(case.before, answer.data)
    except ImplementationError as exc:
        return _errored(case, f"the outcome cannot be read: {exc}", answer.seconds)
    except Exception as exc:  # a gap in a ruleset's reader must not end the run
        return _errored(case, f"the outcome cannot be read ({type(exc).__name__}: {exc})", answer.seconds)
    problems = [Problem(m.message, case.where(("expect",) + tuple(m.path)))
                for m in ruleset.compare(case.before, case.expect, outcome)]
    if problems and run.draw:
        problems.extend(_draw_difference(case, outcome, run.failures))
    return CaseResult(case.path, case, Status.FAILED if problems else Status.PASSED, tuple(problems), outcome,
                      seconds=answer.seconds)


def _draw_difference(case: Case, outcome, failures: Path) -> list[Problem]:
    """The reference outcome and the implementation's, drawn the same way (end states,
    no intermediate frames), with a diff image."""
    from .snapshots import SnapshotStore
    ruleset = case.ruleset
    try:
        expected = ruleset.resolve(case.before, case.actions, case.readings)
        expected = replace(expected, frames=())
        before_image = ruleset.draw(case.before, case.actions, expected, title=f"{case.title} (expected)")
        actual_image = ruleset.draw(case.before, case.actions, outcome, title=f"{case.title} (implementation)")
        paths = SnapshotStore(failure_dir=failures / "impl").write_failure(ruleset.key, case.id, before_image,
                                                                         actual_image)
    except Exception as exc:  # drawing an odd outcome must not end the run
        return [Problem(f"could not draw the implementation's outcome ({type(exc).__name__}: {exc})",
                        _case_location(case), ProblemKind.ARTIFACTS)]
    return [Problem("expected, actual and diff drawings: " + ", ".join(str(p) for p in paths),
                    _case_location(case), ProblemKind.ARTIFACTS)]


def check_implementation(paths: Iterable[str | Path], impl: Implementation, draw: bool = True,
                         failures: str | Path = ".verifier-failures",
                         progress: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    """Every case under ``paths`` through ``impl``, in the order 'verifier check' uses."""
    run = ImplRun(impl, draw, Path(failures))
    results: list[CaseResult] = []
    seen: dict[tuple[str, str], str] = {}
    try:
        for path in find_case_files(paths):
            try:
                case = load_case(path)
            except VerifierError as error:
                result = _error_result(str(path), error)
            else:
                key = (case.ruleset.key, case.id)
                if key in seen:
                    result = CaseResult(case.path, None, Status.FAILED, (Problem(
                        f"case id {case.id!r} is already used by {seen[key]}; ids must be unique",
                        case.where(("id",)), ProblemKind.ERROR),))
                else:
                    seen[key] = case.path
                    result = check_case_with(case, run)
            results.append(result)
            if progress:
                progress(result)
    finally:
        impl.close()
    return results
