"""Hostile implementations (tests/impls/): answers that are not the answer to the case
asked, floods of output, children that escape the process group and hold the pipes,
and in-process implementations that try to end the verifier. Each gets an exact error
on its case, in bounded time and memory, and leaves no process behind."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import CASES, ROOT

from verifier.adapter import InProcessImplementation, SubprocessImplementation, check_implementation
from verifier.adapter.inprocess import EXIT_GUARD, ImplementationExit
from verifier.adapter.limits import ReadLimits, text_too_deep
from verifier.adapter.reaper import alive, linux_proc
from verifier.errors import ImplementationError

IMPLS = Path(__file__).parent / "impls"
PYTHON = sys.executable
A = CASES / "ypp" / "move-1a-forward.yaml"
B = CASES / "ypp" / "move-1b-equal-class-bump.yaml"
C = CASES / "ypp" / "move-2a-turn.yaml"
A_ID, B_ID, C_ID = "ypp-move-1a-forward", "ypp-move-1b-equal-class-bump", "ypp-move-2a-turn"
STRAY_TAIL = "; every case gets exactly one answer line, and a stray one is never taken as an answer; the " \
             "implementation will be restarted"
linux_only = pytest.mark.skipif(not linux_proc(), reason="finding escaped processes needs Linux /proc")


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def outcomes(results):
    return {r.id: (r.status, r.problems[0].message if r.problems else r.reason) for r in results}


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float
    peak_mb: float | None  # the verifier's own peak resident memory


# The peak is the high-water mark of the verifier's own memory (VmHWM: since its exec). RUSAGE_SELF's
# ru_maxrss is not: Linux carries into it, at exec, the peak of the process that started it, here a pytest
# worker, which past tests (and xdist's choice of them, which varies with load) may have taken past 400 MB.
# Where there is no /proc, ru_maxrss it is (kilobytes on Linux, bytes on macOS).
PEAK_PROGRAM = """\
import resource, sys
from verifier.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
def peak_kb():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak // 1024 if sys.platform == "darwin" else peak
print("PEAK-RSS-KB", peak_kb())
sys.exit(code)
"""


def verifier(*args: object, env: dict[str, str] | None = None, timeout: float = 120) -> Run:
    """'verifier ARGS' in a subprocess, which reports its own peak memory after the run."""
    program = PEAK_PROGRAM
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(IMPLS), os.environ.get("PYTHONPATH", "")]),
               **(env or {})}
    argv = [str(a.relative_to(ROOT)) if isinstance(a, Path) and a.is_relative_to(ROOT) else str(a) for a in args]
    start = time.monotonic()
    done = subprocess.run([PYTHON, "-c", program, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=environ)
    seconds = time.monotonic() - start
    lines = done.stdout.splitlines()
    peak = next((int(line.split()[1]) / 1024 for line in lines if line.startswith("PEAK-RSS-KB")), None)
    out = "\n".join(line for line in lines if not line.startswith("PEAK-RSS-KB"))
    return Run(done.returncode, out, done.stderr, seconds, peak)


def gone(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


# --- every answer is matched to its case ------------------------------------------------

def stray(monkeypatch, mode: str, *paths: Path, timeout: float = 5.0) -> dict:
    monkeypatch.setenv("STRAY_NEXT", str(B))
    monkeypatch.setenv("STRAY_SLEEP", "1.5")
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'stray_answers.py'} {mode}", timeout=timeout,
                                    settle=3.0)  # (the toy exits when its input closes: the settle is a bound only)
    return outcomes(check_implementation(paths or (A, B, C), impl, draw=False))


REAL_B = ("errored", "the implementation reports an error: the real answer to this case")


@pytest.mark.parametrize("mode", ["extra-noid", "extra-noid-late"])
def test_an_extra_line_without_an_id_is_an_error_on_its_case_and_never_the_next_answer(monkeypatch, mode):
    got = stray(monkeypatch, mode)
    # The toy prints, after its first answer (no id), the answer that would make B pass; B itself is answered
    # "errored". Reused as B's answer, that line made B pass before.
    extra = ("errored", "after its answer (which has no id, so its input was then closed), the implementation "
                        "printed another answer without an id: '{\"type\": \"outcome\", \"outcome\": {\"ships\": "
                        "{\"Haughty Sawfish\": {\"at\": [2, 4], \"heading\": \"N\"}, \"Self-Centered Blowfish\": "
                        "{\"at\": [2, 2], \"heading\": \"N\"}}, \"events\"...'" + STRAY_TAIL)
    assert got == {A_ID: extra, B_ID: REAL_B, C_ID: extra}  # C is a fresh process's first case too


def test_a_second_answer_to_a_case_is_an_error_on_that_case(monkeypatch):
    got = stray(monkeypatch, "twice")
    assert got[A_ID][0] == got[C_ID][0] == "errored"
    assert got[A_ID][1].startswith("right after its answer, the implementation printed a second answer to this case: "
                                   "'{\"type\": \"outcome\", \"id\": \"ypp-move-1a-forward\"")
    assert got[A_ID][1].endswith(STRAY_TAIL)
    assert got[B_ID] == REAL_B


def test_an_answer_to_a_case_not_asked_yet_is_never_used(monkeypatch):
    got = stray(monkeypatch, "ahead")
    assert got[A_ID][0] == "errored"
    assert got[A_ID][1].startswith("right after its answer, the implementation printed an answer for case "
                                   "'ypp-move-1b-equal-class-bump', which was not asked: '{\"type\": \"outcome\", "
                                   "\"id\": \"ypp-move-1b-equal-class-bump\"")
    assert got[B_ID] == REAL_B  # asked of the restarted process, which answers it for itself
    assert got[C_ID] == ("passed", "")


BEFORE_SENT = "before this case was sent, the implementation printed an answer to this case: '{\"type\": \"outcome\""


def test_a_line_printed_before_its_case_was_sent_is_never_its_answer(monkeypatch):
    # As below, with the verifier held up for 0.8 s after A (a slow progress report), so that the line for B
    # is there before B is sent.
    monkeypatch.setenv("STRAY_NEXT", str(B))
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'stray_answers.py'} ahead-late", timeout=5)
    got = outcomes(check_implementation([A, B, C], impl, draw=False, progress=lambda result: time.sleep(0.8)))
    assert got[A_ID] == ("passed", "") and got[C_ID] == ("passed", "")
    assert got[B_ID][0] == "errored" and got[B_ID][1].startswith(BEFORE_SENT)
    assert got[B_ID][1].endswith(STRAY_TAIL)


def test_a_late_duplicate_answer_is_reported_on_the_case_it_arrives_in(monkeypatch):
    # A line for B comes 0.3 s after A's answer; B itself is answered "errored". Where the stray line lands
    # depends on timing; each way, it is reported, and C is never answered by it.
    got = stray(monkeypatch, "ahead-late")
    assert got[A_ID] == ("passed", "")
    before_sent = BEFORE_SENT
    second = "right after its answer, the implementation printed a second answer to this case: '{\"type\": \"errored\""
    if got[B_ID][0] == "errored":
        # Before B was sent (B is not asked of that process), or after, with B's real answer right behind it.
        assert got[B_ID][1].startswith(before_sent) or got[B_ID][1].startswith(second), got[B_ID][1]
        assert got[C_ID] == ("passed", "")  # asked of a restarted process
    else:
        # After B was sent, alone: it carries B's id, and nothing tells it from B's answer. B's real answer then
        # comes before C is sent or while it is resolved, and is reported there.
        assert got[B_ID] == ("passed", "")
        assert got[C_ID][0] == "errored"
        when, _, rest = got[C_ID][1].partition(", ")
        assert when in ("while this case was resolved", "before this case was sent")
        assert rest.startswith("the implementation printed another answer to case 'ypp-move-1b-equal-class-bump', "
                               "which was asked earlier: '{\"type\": \"errored\""), rest


def test_an_answer_without_an_id_from_a_process_that_answered_before_is_asked_again(monkeypatch):
    # A line without an id from a process that has answered other cases could be a stray line of theirs: the case
    # is asked again of a fresh process (whose first answer this toy gets right).
    monkeypatch.delenv("STRAY_NEXT", raising=False)
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'stray_answers.py'} noid-after-first", timeout=5)
    got = outcomes(check_implementation([A, B, C], impl, draw=False))
    assert got == {A_ID: ("passed", ""), B_ID: ("passed", ""), C_ID: ("passed", "")}
    assert impl.starts == 3  # A, then B, on the first; B again, then C, on the second; C again on the third


def test_an_answer_with_another_cases_id_is_an_error(monkeypatch):
    got = stray(monkeypatch, "other-id")
    message = "the answer is for case 'some-other-case', not '{}'; the implementation is out of step"
    assert got == {A_ID: ("errored", message.format(A_ID)), B_ID: REAL_B, C_ID: ("errored", message.format(C_ID))}


def test_an_answer_after_the_timeout_never_reaches_the_next_case(monkeypatch):
    got = stray(monkeypatch, "late", timeout=0.5)
    assert got == {A_ID: ("errored", "no answer within 0.5 s (--impl-timeout); the implementation was stopped and "
                                     "will be restarted"),
                   B_ID: REAL_B, C_ID: ("passed", "")}


# --- everything read is bounded ---------------------------------------------------------

def test_an_endless_line_keeps_the_verifier_small():
    run = verifier("check", "--no-table", "--no-draw", "--impl", f"{PYTHON} {IMPLS / 'flood.py'} endless", A, B,
                   timeout=120)
    assert run.code == 1, run.err
    assert run.out.count("the answer line is longer than 8 MiB, the limit on one answer; the line was not read "
                         "(raise the limit with VERIFIER_IMPL_MAX_LINE=BYTES, such as VERIFIER_IMPL_MAX_LINE=64M): "
                         "'{\"type\": \"outcome\", \"id\": \"ypp-move-1") == 2
    assert run.out.splitlines()[-1] == "0 passed, 0 failed, 2 errored"
    assert run.peak_mb is not None and run.peak_mb < 300, f"peak {run.peak_mb} MB"
    assert max(len(line) for line in run.out.splitlines()) < 600  # quoted as an excerpt


def test_an_endless_line_costs_the_line_limit_and_no_copy_of_it():
    """Reading an over-long line holds at most the limit (and a chunk): with the limit raised from
    8 MiB to 64 MiB the verifier's peak grows by those 56 MiB, not by twice that (a copy of the line
    read so far, made to quote its start, once did)."""
    endless = f"{PYTHON} {IMPLS / 'flood.py'} endless"
    peaks = [verifier("check", "--no-table", "--no-draw", "--impl", endless, A,
                      env={"VERIFIER_IMPL_MAX_LINE": limit}).peak_mb for limit in ("8M", "64M")]
    assert peaks[0] is not None and peaks[1] is not None
    assert 56 - 8 < peaks[1] - peaks[0] < 56 + 24, peaks


def test_a_100_mb_line_is_quoted_as_an_excerpt_and_the_limit_can_be_raised(tmp_path):
    impl = f"{PYTHON} {IMPLS / 'flood.py'} big"
    run = verifier("check", "--no-table", "--no-draw", "--impl", impl, A, env={"VERIFIER_IMPL_MAX_LINE": "2M"})
    assert "the answer line is longer than 2 MiB, the limit on one answer" in run.out
    assert "'{\"type\": \"errored\", \"message\": \"yyyy" in run.out
    assert len(run.out) < 1500 and run.peak_mb < 300
    run = verifier("check", "--no-table", "--no-draw", "--impl", impl, A, env={"VERIFIER_IMPL_MAX_LINE": "200M"})
    # raised above the line: it is read, and the implementation's own message is shortened in the report
    assert run.out.splitlines()[-2].startswith(f"  {A.relative_to(ROOT)}:1: the implementation reports an error: yyy")
    assert run.out.splitlines()[-2].endswith("... (99999000 more characters)")
    run = verifier("check", "--no-draw", "--impl", impl, A, env={"VERIFIER_IMPL_MAX_LINE": "lots"})
    assert run.code == 2 and "$VERIFIER_IMPL_MAX_LINE is 'lots'; write a number of bytes, such as 8388608 or 8M" \
        in run.err


def test_deep_json_is_an_error_on_its_case_not_a_traceback():
    run = verifier("check", "--no-table", "--no-draw", "--impl", f"{PYTHON} {IMPLS / 'flood.py'} deep", A, B)
    assert run.code == 1 and "Traceback" not in run.err
    assert run.out.count("the answer nests arrays and objects more than 64 deep, the limit on one answer (raise it "
                         "with VERIFIER_IMPL_MAX_DEPTH=N): '{\"type\": \"outcome\", \"outcome\": [[[[") == 2
    limits = ReadLimits(max_depth=8)
    assert text_too_deep('{"a": [[[[[[[[1]]]]]]]]}', 8) and not text_too_deep('{"a": "[[[[[[[[[[[[[[[[["}', 8)
    impl = SubprocessImplementation(f"{PYTHON} -m verifier.adapters.reference", timeout=10, limits=limits)
    assert outcomes(check_implementation([A], impl, draw=False))[A_ID] == ("passed", "")  # an outcome is shallow


def test_stderr_floods_and_long_messages_are_kept_short():
    run = verifier("check", "--no-table", "--no-draw", "--impl", f"{PYTHON} {IMPLS / 'flood.py'} stderr", A)
    assert run.code == 0 and run.out.splitlines()[-1] == "1 passed, 0 failed" and run.peak_mb < 300
    run = verifier("check", "--no-table", "--no-draw", "--impl", f"{PYTHON} {IMPLS / 'flood.py'} long-message", A)
    assert run.code == 1
    assert run.out.count("the implementation reports an error: ") == 1
    assert "forged line" in run.out  # (how its control characters are shown is the terminal report's business)
    assert "www... (999017 more characters)" in run.out
    assert len(run.out) < 2000


def test_limits_are_parameters_and_named_in_errors():
    with pytest.raises(ImplementationError, match="the answer line limit must be at least 1024 bytes, not 10"):
        ReadLimits(max_line=10)
    assert ReadLimits.from_env({"VERIFIER_IMPL_MAX_LINE": "64k", "VERIFIER_IMPL_MAX_DEPTH": "9"}) == \
        ReadLimits(65536, 9)
    with pytest.raises(ImplementationError, match=r"\$VERIFIER_IMPL_MAX_DEPTH is '1e9'; write a whole number"):
        ReadLimits.from_env({"VERIFIER_IMPL_MAX_DEPTH": "1e9"})
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'flood.py'} big", timeout=10,
                                    limits=ReadLimits(max_line=4096))
    status, message = outcomes(check_implementation([B], impl, draw=False))[B_ID]
    assert (status, message[:89]) == ("errored", "the answer line is longer than 4096 bytes, the limit on one answer; "
                                                 "the line was not read")


# --- no process outlives the run, no pipe hangs it --------------------------------------

@linux_only
@pytest.mark.parametrize("mode", ["holds", "holds-dies", "daemon"])
def test_an_escaped_child_neither_hangs_the_run_nor_outlives_it(tmp_path, mode):
    pidfile = tmp_path / "child.pid"
    # The child holds the pipes for 600 s: a run that waited for it would meet the timeout (TimeoutExpired).
    # A bound of a few times the usual run (2 s) is not one a loaded machine keeps (11 s at a load of 16 on
    # 2 cores); a wait for the impl-timeout instead would show in the outcomes below.
    run = verifier("check", "--no-table", "--no-draw", "--impl-timeout", "5", "--impl",
                   f"{PYTHON} {IMPLS / 'setsid_child.py'} {mode} {pidfile}", A, B, timeout=300)
    child = int(pidfile.read_text())
    assert gone(child), f"pid {child} ({mode}) outlived the run"
    if mode == "holds-dies":
        assert run.out.count("the implementation exited with code 4 while resolving this case; it will be "
                             "restarted") == 2
        assert run.out.splitlines()[-1] == "0 passed, 0 failed, 2 errored"
    else:
        assert run.code == 0 and run.out.splitlines()[-1] == "2 passed, 0 failed"


@linux_only
def test_every_escaped_process_is_killed(tmp_path):
    pidfile = tmp_path / "children.pid"
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'setsid_child.py'} many {pidfile}", timeout=5)
    got = outcomes(check_implementation([A], impl, draw=False))
    assert got == {A_ID: ("passed", "")}
    pids = [int(line) for line in pidfile.read_text().split()]
    assert len(pids) == 40
    assert [pid for pid in pids if not gone(pid)] == []


@linux_only
def test_stopping_never_blocks_on_a_held_pipe(tmp_path):
    pidfile = tmp_path / "child.pid"
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'setsid_child.py'} holds-dies {pidfile}", timeout=5)
    start = time.monotonic()
    got = outcomes(check_implementation([A], impl, draw=False))
    assert time.monotonic() - start < 120  # far less than the 600 s the child holds the pipe, whatever the load
    assert got[A_ID] == ("errored", "the implementation exited with code 4 while resolving this case; it will be "
                                    "restarted")
    assert gone(int(pidfile.read_text()))


@linux_only
def test_other_children_of_the_verifier_are_left_alone(tmp_path):
    impl = SubprocessImplementation(f"{PYTHON} {IMPLS / 'setsid_child.py'} daemon {tmp_path / 'child.pid'}",
                                    timeout=5)
    assert impl.start() is None
    bystander = subprocess.Popen(["sleep", "30"])  # started by other code while the implementation runs
    try:
        impl.close()
        assert gone(int((tmp_path / "child.pid").read_text()))
        assert bystander.poll() is None and alive(bystander.pid)
    finally:
        bystander.kill()
        bystander.wait()


# --- an in-process implementation cannot end the run --------------------------------------

def line_of(text: str) -> int:
    """The line of tests/impls/ending_python.py that holds ``text``."""
    rows = (IMPLS / "ending_python.py").read_text().splitlines()
    return next(i for i, row in enumerate(rows, 1) if text in row)


ENDING = {
    "os_exit": f"called os._exit(0) at ending_python.py:{line_of('lambda m: os._exit(0)')}",
    "posix_exit": f"called os._exit(0) at ending_python.py:{line_of('posix._exit(0)')}",
    "sys_exit": f"raised SystemExit(0) at ending_python.py:{line_of('lambda m: sys.exit(0)')}",
    "interrupt": f"raised KeyboardInterrupt() at ending_python.py:{line_of('raise KeyboardInterrupt')}",
    "exec_true": f"called os.execv('/bin/true', ['true']) at ending_python.py:{line_of('os.execv(')}",
}


@pytest.mark.parametrize("function", sorted(ENDING))
def test_an_in_process_implementation_that_ends_the_interpreter_errs_on_its_case(monkeypatch, function):
    monkeypatch.syspath_prepend(str(IMPLS))
    impl = InProcessImplementation(f"python:ending_python:{function}", timeout=5)
    got = outcomes(check_implementation([A, C], impl, draw=False))
    message = f"the implementation tried to end the verifier: it {ENDING[function]}; an in-process implementation " \
              "must return an answer"
    assert got == {A_ID: ("errored", message), C_ID: ("errored", message)}


def test_os_exit_in_process_does_not_make_the_run_green():
    run = verifier("check", "--no-table", "--no-draw", "--impl", "python:ending_python:os_exit", A)
    assert run.code == 1, (run.out, run.err)
    assert run.out.splitlines()[-1] == "0 passed, 0 failed, 1 errored"
    run = verifier("check", "--no-table", "--no-draw", "--impl", "python:exit_at_import:handle", A)
    assert run.code == 2
    assert "--impl 'python:exit_at_import:handle': importing 'exit_at_import' tried to end the verifier " \
           "(os._exit(0))" in run.err


def test_an_exit_after_the_timeout_is_caught_too():
    # Each call times out after 0.4 s and is left running; the first one calls os._exit(0) at 0.6 s, while
    # the run is still going.
    run = verifier("check", "--no-table", "--no-draw", "--impl-timeout", "0.4", "--impl",
                   "python:ending_python:late_exit", A, B, C, env={"LATE_EXIT_AFTER": "0.6"})
    assert run.code == 1 and run.out.splitlines()[-1] == "0 passed, 0 failed, 3 errored"
    assert run.out.count("no answer within 0.4 s (--impl-timeout); an in-process implementation cannot be "
                         "stopped, so it was left running") == 3


@pytest.mark.parametrize(("function", "message"), [
    ("deep", "the answer nests arrays and objects more than 64 deep, the limit on one answer (raise it with "
             "VERIFIER_IMPL_MAX_DEPTH=N)"),
    ("cyclic", "the answer nests arrays and objects more than 64 deep, the limit on one answer (raise it with "
               "VERIFIER_IMPL_MAX_DEPTH=N)"),
    ("hostile_str", "the implementation raised _Hostile: <str() raised RuntimeError> at ending_python.py:"
                    f"{line_of('raise _Hostile()')}"),
])
def test_in_process_answers_that_cannot_be_taken(monkeypatch, function, message):
    monkeypatch.syspath_prepend(str(IMPLS))
    impl = InProcessImplementation(f"python:ending_python:{function}", timeout=5)
    assert outcomes(check_implementation([A], impl, draw=False)) == {A_ID: ("errored", message)}


def test_the_exit_guard_is_lifted_when_no_call_is_in_flight():
    if EXIT_GUARD.users:
        pytest.skip("a call left running by another test holds the guard")
    original = os._exit
    EXIT_GUARD.enter()
    try:
        assert os._exit is not original and os._exit.__wrapped__ is original
        caught = []

        def worker():
            try:
                os._exit(3)
            except ImplementationExit as exc:
                caught.append(exc.call)

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert caught == ["os._exit(3)"]
    finally:
        EXIT_GUARD.leave()
    assert os._exit is original


# --- the same under pytest ------------------------------------------------------------------

def pytest_cases(*args: object, timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], float]:
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(IMPLS), os.environ.get("PYTHONPATH", "")])}
    start = time.monotonic()
    done = subprocess.run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--verifier-no-draw",
                           *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=environ)
    return done, time.monotonic() - start


@linux_only
def test_under_pytest_an_escaped_child_neither_hangs_the_session_nor_outlives_it(tmp_path):
    pidfile = tmp_path / "child.pid"
    done, seconds = pytest_cases(A.relative_to(ROOT), C.relative_to(ROOT), "--verifier-impl",
                                 f"{PYTHON} {IMPLS / 'setsid_child.py'} holds {pidfile}", timeout=300)
    # A session the child's pipes held would wait out its ten-minute sleep: the 300 s timeout
    # catches that. (No tighter bound on the seconds: on a loaded machine the session alone
    # has taken over 30 s.)
    assert done.returncode == 0 and done.stdout.splitlines()[-1].startswith("2 passed"), done.stdout[-2000:]
    assert gone(int(pidfile.read_text()))


def test_under_pytest_os_exit_in_process_fails_the_case():
    done, _ = pytest_cases(A.relative_to(ROOT), "--verifier-impl", "python:ending_python:os_exit")
    assert done.returncode == 1, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1].startswith("1 failed")
    assert "the implementation tried to end the verifier: it called os._exit(0) at ending_python.py:" in done.stdout


def test_an_in_process_answer_read_in_one_walk_is_what_the_encoder_and_decoder_would_give():
    import enum
    import json
    import math

    from verifier.adapter.limits import oversized_value, plain_copy

    class Small(enum.IntEnum):
        ONE = 1

    def full_way(value, limits):  # what the walk stands in for: sizes, then text and back
        if oversized_value(value, limits.max_depth, limits.max_line // 2):
            return None
        text = json.dumps(value)
        return None if len(text) > limits.max_line else json.loads(text)

    limits = ReadLimits(max_line=4096, max_depth=6)
    plain = [{"a": 1, "b": [2.5, None, True, "é\U0001F600"], "c": (1, (2, 3)), "d": {"e": -0.0, "f": 2 ** 62}},
             [{"x": float("inf")}, []], {"a": "x" * 100}]
    for value in plain:
        copied = plain_copy(value, limits.max_depth, limits.max_line // 2, limits.max_line)
        assert copied is not None and json.dumps(copied[0]) == json.dumps(full_way(value, limits))
    answer = {"outcome": {"ships": [1, 2]}}
    copied = plain_copy(answer, 64, 1 << 20, 1 << 21)
    answer["outcome"]["ships"].append(3)  # the implementation's value, changed afterwards: the copy is its own
    assert copied == ({"outcome": {"ships": [1, 2]}},)
    looped: list = []
    looped.append(looped)
    left = [{1: "a"}, {"a": Small.ONE}, {"a": 10 ** 5000}, {"a": {1, 2}}, "text", {"a": [[[[[[1]]]]]]},
            {"a": "x" * 5000}, {"a": ["é" * 100] * 4}, looped]
    for value in left:  # another type or key, a size near a limit, a loop: left to the full way
        assert plain_copy(value, limits.max_depth, limits.max_line // 2, limits.max_line) is None
    assert math.isnan(plain_copy([float("nan")], 8, 100, 4096)[0][0])  # read as the decoder reads NaN


def test_an_over_long_line_that_comes_whole_in_one_chunk_is_quoted_by_its_start():
    from collections import deque

    from verifier.adapter.process import _Process

    reader = object.__new__(_Process)  # only its line reader: no process is started
    reader.limits, reader.events = ReadLimits(max_line=1024), deque()
    reader.partial, reader.skipping = bytearray(), False
    reader._feed(b'{"type": "errored", "message": "' + b"y" * 5000 + b'"}\n{"type": "skipped"}\n')
    (kind, head), (next_kind, line) = reader.events
    assert kind == "too-long" and head.startswith(b'{"type": "errored", "message": "yyy') and len(head) <= 400
    assert (next_kind, line) == ("line", b'{"type": "skipped"}')  # the line after it is read as it is
    reader._feed(b'{"type": "errored", "message": "' + b"y" * 600)  # over the limit across two chunks
    reader._feed(b"y" * 600 + b'"}\n')
    assert reader.events[-1][0] == "too-long" and reader.events[-1][1].startswith(b'{"type": "errored"')
