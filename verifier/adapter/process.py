"""An implementation run as a command: one process at a time, reader threads for its
output, timeouts, and stopping and restarting it (with its whole process group) when
it crashes, hangs or answers out of step."""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import replace
from typing import IO, Any, Literal

from ..errors import ImplementationError
from .implementation import DEFAULT_TIMEOUT, Implementation
from .protocol import Answer, ProtocolMismatch, _excerpt, check_hello_reply, hello_message, read_answer

START_ALLOWANCE = 10.0  # the hello answer may take max(timeout, this): start-up can be slow


class _Process:
    """One running generation of a subprocess implementation, with reader threads."""

    def __init__(self, argv: list[str], cwd: str | None) -> None:
        self.popen = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            start_new_session=True)
        stdin, stdout, stderr = self.popen.stdin, self.popen.stdout, self.popen.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes
        self.stdin: IO[bytes] = stdin
        self.stdout: IO[bytes] = stdout
        self.stderr_pipe: IO[bytes] = stderr
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=12)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        try:
            for line in iter(self.stdout.readline, b""):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _read_stderr(self) -> None:
        try:
            for line in iter(self.stderr_pipe.readline, b""):
                self.stderr.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def send(self, message: dict[str, Any]) -> bool:
        try:
            self.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
            self.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def receive(self, timeout: float) -> tuple[Literal["line", "eof", "timeout"], bytes]:
        """("line", data) | ("eof", b"") | ("timeout", b""); blank lines are passed over."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout", b""
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return "timeout", b""
            if line is None:
                return "eof", b""
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
        lines = [text for text in self.stderr if text.strip()]
        return ("; its last words on stderr: " + " | ".join(lines[-4:])) if lines else ""

    def stop(self, grace: float = 0.0) -> None:
        """Close its input; after ``grace`` seconds, kill its process group (it and its children)."""
        try:
            self.stdin.close()
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
        for stream in (self.stdout, self.stderr_pipe):
            try:
                stream.close()
            except OSError:
                pass


class SubprocessImplementation(Implementation):
    """An implementation run as a command (split like a shell would, but without one)."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                 rulesets: Iterable[str] | None = None) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ImplementationError("--impl needs a command, such as \"node my-impl.js\"")
        self.label = command
        self.timeout = timeout
        self.cwd = cwd
        self.hello_rulesets = rulesets
        self.process: _Process | None = None
        self.info: dict[str, Any] = {}
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

    def ask(self, request: dict[str, Any]) -> Answer:
        start = time.perf_counter()
        answer = self._ask(request)
        return replace(answer, seconds=time.perf_counter() - start)

    def _ask(self, request: dict[str, Any]) -> Answer:
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
