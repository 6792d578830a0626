"""An implementation run as a command: one process at a time, its output read with
bounds and timeouts, and stopping and restarting it (with every process it started)
when it crashes, hangs or answers out of step.

Reading never blocks: the verifier's ends of the pipes are non-blocking and are read
with ``select`` in the thread that asks, in chunks, so that closing them never waits
on a reader, an endless line costs at most the line limit, and a process that holds
a pipe open cannot hang the run.

Matching answers to cases: an answer that names a case (``"id"``) must name the
case asked. An answer without an id cannot be told apart from a stray line, so
after one the implementation's input is closed, anything else it prints is counted
as an extra answer to that case, and it is stopped: the next case goes to a fresh
process, which nothing printed earlier can reach. (Implementations that echo the id
keep one process for the whole run.)"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import select
import shlex
import signal
import subprocess
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import replace
from typing import IO, Any, Literal

from ..errors import ImplementationError, one_line
from .implementation import DEFAULT_TIMEOUT, START_ALLOWANCE, Implementation
from .limits import STDERR_TAIL, ReadLimits, excerpt, text_too_deep
from .protocol import ANSWER_TYPES, Answer, ProtocolMismatch, check_hello_reply, hello_message, read_answer
from .reaper import become_subreaper, children_of, kill_all

SETTLE = 1.0  # after an answer without an id: how long to watch for more output before stopping it
CHUNK = 65536
LINE_HEAD = 400  # bytes kept of an over-long line, to quote it

Received = Literal["line", "eof", "timeout", "too-long"]


def _readable(streams: list[IO[bytes]], timeout: float) -> list[IO[bytes]]:
    """Those of ``streams`` with something to read (or at end of file) within ``timeout``
    seconds. poll where there is one: select cannot watch descriptors past 1023."""
    timeout = max(0.0, timeout)
    if not hasattr(select, "poll"):
        return select.select(streams, [], [], timeout)[0]
    poller = select.poll()
    by_fd = {stream.fileno(): stream for stream in streams}
    for fd in by_fd:
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    return [by_fd[fd] for fd, _ in poller.poll(timeout * 1000)]


def _writable(stream: IO[bytes], timeout: float) -> None:
    if not hasattr(select, "poll"):
        select.select([], [stream], [], timeout)
        return
    poller = select.poll()
    poller.register(stream.fileno(), select.POLLOUT)
    poller.poll(timeout * 1000)


class _Process:
    """One running generation of a subprocess implementation."""

    def __init__(self, argv: list[str], cwd: str | None, limits: ReadLimits | None = None,
                 reap_orphans: bool = True) -> None:
        self.limits = limits or ReadLimits()
        self.orphans_since = children_of(os.getpid()) if reap_orphans and become_subreaper() else None
        self.popen = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            start_new_session=True, bufsize=0)
        stdin, stdout, stderr = self.popen.stdin, self.popen.stdout, self.popen.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes
        self.stdin: IO[bytes] = stdin
        self.stdout: IO[bytes] = stdout
        self.stderr_pipe: IO[bytes] = stderr
        self.inodes = {os.fstat(stream.fileno()).st_ino for stream in (stdin, stdout, stderr)}
        for stream in (stdin, stdout, stderr):
            os.set_blocking(stream.fileno(), False)
        self.events: deque[tuple[Received, bytes]] = deque()  # complete lines (and over-long ones) not yet taken
        self.partial = bytearray()  # the start of a line whose end has not come yet
        self.skipping = False  # inside an over-long line: dropped up to its newline
        self.stdout_open = True
        self.stderr_open = True
        self.stderr_tail = bytearray()
        self.status: int | None = None  # the leader's exit status, once known (it is reaped only in stop)
        self.answered = 0  # answers taken from this process
        self.asked: list[str] = []  # the ids of the cases sent to it
        self.stopped = False

    # --- reading --------------------------------------------------------------

    def _feed(self, chunk: bytes) -> None:
        # Memory: the partial line (at most the limit) and this chunk, never a copy of the partial line
        # beside it until a complete line within the limit is taken (then it is that line's bytes).
        limit = self.limits.max_line
        *complete, rest = chunk.split(b"\n")
        for piece in complete:
            if self.skipping:
                self.skipping = False
                self.partial.clear()
                continue
            if len(self.partial) + len(piece) > limit:
                head = bytes(self.partial[:LINE_HEAD])
                self.events.append(("too-long", head + piece[:LINE_HEAD - len(head)]))
                self.partial.clear()
                continue
            self.partial += piece
            line = bytes(self.partial)
            self.partial.clear()
            if line.strip():
                self.events.append(("line", line))
        if self.skipping:
            return
        if len(self.partial) + len(rest) > limit:
            head = bytes(self.partial[:LINE_HEAD])
            self.events.append(("too-long", head + rest[:LINE_HEAD - len(head)]))
            self.partial.clear()
            self.skipping = True
        else:
            self.partial += rest

    def _read(self, stream: IO[bytes]) -> bytes | None:
        """Whatever is there now: bytes, b"" at end of file, None if nothing yet."""
        try:
            data = os.read(stream.fileno(), CHUNK)
        except BlockingIOError:
            return None
        except OSError as exc:
            if exc.errno == errno.EAGAIN:
                return None
            return b""
        return data

    def _pump(self, timeout: float) -> None:
        """Wait up to ``timeout`` for output, then take what is there (a bounded amount)."""
        streams = [s for s, is_open in ((self.stdout, self.stdout_open), (self.stderr_pipe, self.stderr_open))
                   if is_open]
        if not streams:
            time.sleep(max(0.0, timeout))
            return
        try:
            ready = _readable(streams, timeout)
        except (OSError, ValueError):
            self.stdout_open = self.stderr_open = False
            return
        for stream in ready:
            for _ in range(16):  # at most 1 MiB a call: the caller looks at what came in between
                data = self._read(stream)
                if data is None:
                    break
                if stream is self.stdout:
                    if not data:
                        self.stdout_open = False
                        break
                    self._feed(data)
                    if self.events:
                        break
                else:
                    if not data:
                        self.stderr_open = False
                        break
                    self.stderr_tail += data
                    del self.stderr_tail[:-STDERR_TAIL]

    def leader_exited(self) -> bool:
        """Whether the implementation's own process has ended (found without reaping it,
        so that its pid stays its own until stop)."""
        if self.status is not None:
            return True
        if not hasattr(os, "waitid"):
            code = self.popen.poll()
            if code is not None:
                self.status = code
            return code is not None
        try:
            info = os.waitid(os.P_PID, self.popen.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            self.status = self.popen.returncode if self.popen.returncode is not None else 0
            return True
        if info is None:
            return False
        self.status = -info.si_status if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else info.si_status
        return True

    def receive(self, timeout: float) -> tuple[Received, bytes]:
        """The next non-blank line ("line", data), ("too-long", its start), ("eof", b"")
        when the output ends or the implementation's process has exited with nothing
        more written, or ("timeout", b"")."""
        deadline = time.monotonic() + timeout
        while True:
            if self.events:
                return self.events.popleft()
            if not self.stdout_open:
                return "eof", b""
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout", b""
            if self.leader_exited():
                # What it wrote before exiting is in the pipe: take that, then stop waiting even if a
                # process it started still holds the pipe open.
                self._pump(0)
                if not self.events and not (self.stdout_open and self._pipe_has_data()):
                    return "eof", b""
                continue
            self._pump(min(left, 0.1))

    def _pipe_has_data(self) -> bool:
        try:
            return bool(_readable([self.stdout], 0))
        except (OSError, ValueError):
            return False

    def extra(self) -> tuple[Received, bytes] | None:
        """An answer line that is already there although nothing was asked."""
        if not self.events and self.stdout_open:
            self._pump(0)
        return self.events.popleft() if self.events else None

    # --- writing --------------------------------------------------------------

    def send(self, message: dict[str, Any], timeout: float) -> bool:
        """Write one request; False if the implementation is gone or does not read it
        within ``timeout``."""
        data = memoryview((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
        deadline = time.monotonic() + timeout
        while data:
            try:
                written = os.write(self.stdin.fileno(), data)
            except BlockingIOError:
                written = 0
            except (OSError, ValueError):
                return False
            data = data[written:]
            if data:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                try:
                    _writable(self.stdin, min(left, 0.1))
                except (OSError, ValueError):
                    return False
        return True

    # --- describing and stopping ---------------------------------------------

    def exit_text(self) -> str:
        deadline = time.monotonic() + 2
        while not self.leader_exited() and time.monotonic() < deadline:
            time.sleep(0.01)
        code = self.status
        if code is None:
            return "closed its output"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def stderr_text(self) -> str:
        deadline = time.monotonic() + 0.05  # let the last words arrive
        while self.stderr_open and time.monotonic() < deadline:
            self._pump(max(0.0, deadline - time.monotonic()))
        text = self.stderr_tail.decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()][-4:]
        if not lines:
            return ""
        return "; its last words on stderr: " + " | ".join(excerpt(line, 200)[1:-1] for line in lines)

    def finish(self, settle: float) -> list[tuple[Received, bytes]]:
        """Close its input and collect what it still prints within ``settle`` seconds
        (until its output ends); then stop it."""
        with contextlib.suppress(OSError):
            self.stdin.close()
        extra: list[tuple[Received, bytes]] = []
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and len(extra) < 3:
            state, line = self.receive(max(0.0, deadline - time.monotonic()))
            if state in ("eof", "timeout"):
                break
            extra.append((state, line))
        self.stop()
        return extra

    def stop(self, grace: float = 0.0) -> None:
        """Close its input; after up to ``grace`` seconds, kill it and every process it
        started (its group, its descendants, anything holding its pipes, its orphans),
        then release the pipes. Never blocks longer than a few seconds."""
        if self.stopped:
            return
        self.stopped = True
        with contextlib.suppress(OSError):
            self.stdin.close()
        deadline = time.monotonic() + grace
        while grace and not self.leader_exited() and time.monotonic() < deadline:
            time.sleep(0.01)
        self._pump(0)  # an end of file seen now spares the search for processes holding that pipe
        held = self.inodes if self.stdout_open or self.stderr_open else ()
        kill_all(self.popen.pid, held, self.orphans_since)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for stream in (self.stdout, self.stderr_pipe):
            with contextlib.suppress(OSError):
                stream.close()


class SubprocessImplementation(Implementation):
    """An implementation run as a command (split like a shell would, but without one)."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                 rulesets: Iterable[str] | None = None, limits: ReadLimits | None = None,
                 settle: float = SETTLE) -> None:
        self.command = command
        try:
            self.argv = shlex.split(command)
        except ValueError as error:  # an unbalanced quote
            raise ImplementationError(f"--impl: cannot split {one_line(command, 200)} into a program and its "
                                      f"arguments ({error}); no shell is run, so quote as a shell would, "
                                      "with balanced quotes") from None
        if not self.argv:
            raise ImplementationError("--impl needs a command, such as \"node my-impl.js\"")
        self.label = command
        self.timeout = timeout
        self.cwd = cwd
        self.hello_rulesets = rulesets
        self.limits = limits or ReadLimits.from_env()
        self.settle = settle
        self.process: _Process | None = None
        self.info: dict[str, Any] = {}
        self.starts = 0

    def _decode(self, line: bytes) -> tuple[Any, str | None]:
        """(value, None) or (None, why the line is not an answer)."""
        text = line.decode("utf-8", "replace")
        if text_too_deep(text, self.limits.max_depth):
            return None, f"{self.limits.too_deep()}: {excerpt(text)}"
        try:
            return json.loads(text), None
        except RecursionError:  # nesting the scan missed; the parser's own limit
            return None, f"{self.limits.too_deep()}: {excerpt(text)}"
        except ValueError as exc:
            return None, f"the answer is not valid JSON ({excerpt(str(exc), 120)[1:-1]}): {excerpt(text)}"

    def start(self) -> str | None:
        if self.process is not None:
            return None
        try:
            process = _Process(self.argv, self.cwd)  # (argv, cwd): the signature tests wrap to track processes
            process.limits = self.limits
        except FileNotFoundError:
            return f"cannot start {self.command!r}: there is no program {self.argv[0]!r}"
        except OSError as exc:
            return f"cannot start {self.command!r}: {exc.strerror or exc}"
        self.starts += 1
        allowance = max(self.timeout, START_ALLOWANCE)
        if not process.send(hello_message(self.hello_rulesets), allowance):
            why = f"it {process.exit_text()} before hello{process.stderr_text()}"
            process.stop()
            return why
        state, line = process.receive(allowance)
        problem: str | None = None
        if state == "timeout":
            problem = f"no answer to hello within {allowance:g} s"
        elif state == "eof":
            problem = f"it {process.exit_text()} without answering hello{process.stderr_text()}"
        elif state == "too-long":
            problem = f"hello: {self.limits.line_too_long()}: {excerpt(line)}"
        else:
            raw, unreadable = self._decode(line)
            if unreadable:
                problem = f"hello: {unreadable}"
            else:
                try:
                    info, problem = check_hello_reply(raw)
                except ProtocolMismatch:
                    process.stop()
                    raise
                if not problem:
                    self.info = info
        if not problem and process.extra() is not None:
            problem = "it printed more than one line in answer to hello"
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

    def _out_of_step(self, text: str, then: str = "; the implementation will be restarted") -> Answer:
        self._restart_later()
        return Answer("errored", message=text + then, protocol=True)

    def _stray(self, event: tuple[Received, bytes], case_id: str, when: str, asked: list[str]) -> Answer:
        """An error for a line that is not this case's answer (it is never used); ``asked``:
        the cases sent to the process that printed it."""
        state, line = event
        if state == "too-long":
            return self._out_of_step(f"{when}, the implementation printed another line, and "
                                     f"{self.limits.line_too_long()}")
        raw, _ = self._decode(line)
        named = raw.get("id") if isinstance(raw, dict) else None
        if named == case_id:
            what = "a second answer to this case" if case_id in asked else "an answer to this case"
        elif isinstance(named, str) and named in asked:
            what = f"another answer to case {excerpt(named, 80)}, which was asked earlier"
        elif isinstance(named, str):
            what = f"an answer for case {excerpt(named, 80)}, which was not asked"
        elif isinstance(raw, dict) and raw.get("type") in ANSWER_TYPES:
            what = "another answer without an id"
        else:
            what = "a line that is not an answer"
        return self._out_of_step(f"{when}, the implementation printed {what}: {excerpt(line)}; every case gets "
                                 "exactly one answer line, and a stray one is never taken as an answer")

    def _ask(self, request: dict[str, Any]) -> Answer:
        process = self.process
        if process is None:
            raise RuntimeError("start() first")
        case_id = request["id"]
        stray = process.extra()
        if stray is not None:  # printed since the last answer, unasked
            return self._stray(stray, case_id, "before this case was sent", process.asked)
        if not process.send(request, self.timeout):
            if process.leader_exited():
                return self._out_of_step(f"the implementation {process.exit_text()} before it was sent this case"
                                         f"{process.stderr_text()}", "; it will be restarted")
            return self._out_of_step(f"the implementation did not read this case within {self.timeout:g} s "
                                     "(--impl-timeout)", "; it was stopped and will be restarted")
        process.asked.append(case_id)
        state, line = process.receive(self.timeout)
        if state == "timeout":
            return self._out_of_step(f"no answer within {self.timeout:g} s (--impl-timeout)",
                                     "; the implementation was stopped and will be restarted")
        if state == "eof":
            return self._out_of_step(f"the implementation {process.exit_text()} while resolving this case"
                                     f"{process.stderr_text()}", "; it will be restarted")
        if state == "too-long":
            return self._out_of_step(f"{self.limits.line_too_long()}: {excerpt(line)}")
        raw, why = self._decode(line)
        if why:
            return self._out_of_step(why)
        if isinstance(raw, dict) and raw.get("id") in process.asked[:-1]:
            return self._stray(("line", line), case_id, "while this case was resolved", process.asked)
        answer = read_answer(request, raw)
        if answer.protocol:
            self._restart_later()
            return answer
        if "id" not in raw:
            # No id: a line it prints later could not be told from the next case's answer, so this
            # process answers nothing more. And an earlier case's stray line could be this one, unless
            # the process is fresh: then the case is asked again, of a fresh one.
            fresh = process.answered == 0
            extra = process.finish(self.settle)
            self.process = None
            if extra:
                return self._stray(extra[0], case_id, "after its answer (which has no id, so its input was then "
                                                      "closed)", process.asked)
            if fresh:
                return answer
            why = self.start()
            if why:
                return Answer("errored", message=f"the answer has no id and the implementation had answered "
                                                 f"other cases, so it was asked again, but it could not be "
                                                 f"restarted: {why}", protocol=True)
            return self._ask(request)
        process.answered += 1
        stray = process.extra()
        if stray is not None:
            return self._stray(stray, case_id, "right after its answer", process.asked)
        return answer

    def close(self) -> None:
        if self.process is not None:
            self.process.stop(grace=2.0)
            self.process = None


__all__ = ["START_ALLOWANCE", "SubprocessImplementation", "_Process"]
