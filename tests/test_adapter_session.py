"""The implementation session: implementations that crash, hang, answer badly, speak
another protocol version or cannot be started are reported per case, restarted or
given up on, with one start-failure limit for check and fuzz alike."""

from __future__ import annotations

import os
import textwrap
import time

import pytest
from conftest import BUMP, CASES, IMPLS, case_files, run

from verifier import adapter, registry
from verifier.adapter import SubprocessImplementation, check_implementation

pytestmark = pytest.mark.usefixtures("in_repo")


def by_id(results):
    return {r.id: r for r in results}


# --- crashing, hanging and badly answering implementations -------------------------

def _track_processes(monkeypatch) -> list[int]:
    pids = []
    original = adapter._Process.__init__

    def init(self, argv, cwd):
        original(self, argv, cwd)
        pids.append(self.popen.pid)

    monkeypatch.setattr(adapter._Process, "__init__", init)
    return pids


def _gone(pgid: int) -> bool:
    """Whether a process group has ended (allowing a moment for the system to reap it)."""
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_crashing_implementation_is_reported_per_case_and_restarted(monkeypatch):
    pids = _track_processes(monkeypatch)
    impl = SubprocessImplementation(f"sh {IMPLS / 'crash.sh'}", timeout=5)
    results = check_implementation([CASES], impl, draw=False)
    assert len(results) == len(case_files())
    rocky = {r.id for r in results if r.case is not None and r.case.doc.data["before"].get("board", {}).get("rocks")}
    assert rocky
    errored = {r.id: r for r in results if r.status == "errored"}
    assert set(errored) == rocky
    for r in errored.values():
        assert r.problems[0].message == ("the implementation exited with code 3 while resolving this case; its last "
                                         "words on stderr: crash.sh: segmentation fault (pretend) on a rock; it "
                                         "will be restarted")
    assert {r.status for r in results if r.id not in rocky} <= {"skipped", "open"}
    # The toy answers without an id, so each answer ends its process (a stray line could not be told from the
    # next case's answer): one start per case sent, crashed or answered.
    sent = [r for r in results if r.status == "errored" or r.reason == "the crashing toy only crashes"]
    assert impl.starts == len(sent) > len(rocky)
    assert all(_gone(pid) for pid in pids)


def test_hanging_implementation_is_stopped_reported_and_the_run_goes_on(monkeypatch, capsys):
    pids = _track_processes(monkeypatch)
    paths = [CASES / "ypp" / n for n in ("rock-forward.yaml", "move-1a-forward.yaml", "wind-1a-wind-tile.yaml",
                                         "wind-1c-direct-conflict.yaml", "move-2a-turn.yaml")]
    start = time.monotonic()
    code, out, _ = run(capsys, "check", "--impl", f"sh {IMPLS / 'hang.sh'}", "--impl-timeout", "0.4", *paths)
    assert time.monotonic() - start < 45  # each case with wind hangs for 60 s; the run waits for none of them
    assert code == 1
    assert "ERROR ypp-wind-1a-wind-tile" in out and "ERROR ypp-wind-1c-direct-conflict" in out
    assert out.count("no answer within 0.4 s (--impl-timeout); the implementation was stopped and will be "
                     "restarted") == 2
    assert "ERROR ypp-rock-forward" in out
    assert "the answer is not valid JSON (Expecting value: line 1 column 1 (char 0)): 'this is not JSON'" in out
    assert "skipped 2 cases: the hanging toy only hangs" in out  # the cases after a hang are still answered
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed, 3 errored, 2 skipped"
    assert len(pids) == 5  # once per case: after the bad line, each hang and each answer without an id
    assert all(_gone(pid) for pid in pids)  # the hung 'sleep' went with its shell


def test_badly_answering_implementation_in_process(monkeypatch):
    monkeypatch.syspath_prepend(str(IMPLS))
    names = ["move-1a-forward", "move-2a-turn", "move-2a-no-collision", "edge-forward", "rock-forward",
             "move-1c-direct-conflict", "move-1b-equal-class-bump", "move-2b-forward-versus-turn"]
    impl = adapter.open_implementation("python:bad_python:handle", timeout=0.5)
    results = by_id(check_implementation([CASES / "ypp" / f"{n}.yaml" for n in names], impl, draw=False))
    message = {i: r.problems[0].message if r.problems else "" for i, r in results.items()}
    assert message["ypp-move-1a-forward"].startswith("the implementation raised ZeroDivisionError: division by zero at "
                                                     "bad_python.py:")
    assert message["ypp-move-2a-turn"].startswith("the answer is not JSON (Object of type set is not JSON serializable")
    assert message["ypp-move-2a-no-collision"].startswith("the answer does not fit the protocol ((top level): "
                                                          "'outcome' is a required property)")
    assert message["ypp-edge-forward"] == ("the outcome cannot be read: the outcome does not say where "
                                           "'Haughty Sawfish' ends; list every ship, moved or not")
    assert message["ypp-rock-forward"] == ("the answer is for case 'ypp-some-other-case', not 'ypp-rock-forward'; "
                                           "the implementation is out of step")
    assert message["ypp-move-1c-direct-conflict"].startswith("the outcome does not fit the ypp outcome schema")
    assert "heading: 'X' is not one of" in message["ypp-move-1c-direct-conflict"]
    assert message["ypp-move-1b-equal-class-bump"].startswith("no answer within 0.5 s (--impl-timeout)")
    assert all(results[f"ypp-{n}"].status == "errored" for n in names[:-1])
    assert results["ypp-move-2b-forward-versus-turn"].status == "passed"  # the run went on


def test_another_protocol_version_stops_the_run(capsys, tmp_path, monkeypatch):
    (tmp_path / "future_impl.py").write_text(textwrap.dedent("""
        def handle(message):
            return {"type": "hello", "protocol": "verifier-adapter/2"}
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "check", "--impl", "python:future_impl:handle", BUMP)
    assert code == 2
    assert "the implementation speaks verifier-adapter/2, but this verifier speaks verifier-adapter/1" in err


def test_one_session_counts_start_failures_for_check_and_fuzz_alike():
    # check --impl and fuzz both ask through adapter.Session: the same limit, the same words.
    from verifier.fuzz import run as fuzz
    session = adapter.Session(adapter.open_implementation("no-such-program-xyz"))
    words = [session.start() for _ in range(adapter.MAX_START_FAILURES)]
    assert all(w and w.startswith("the implementation could not be started: cannot start") for w in words)
    assert session.given_up.startswith(f"the implementation failed to start {adapter.MAX_START_FAILURES} times")
    assert session.start() == session.given_up  # nothing more is tried
    result = fuzz(registry.get("ypp"), adapter.open_implementation("no-such-program-xyz"), examples=10)
    assert result.given_up == session.given_up
    assert len(result.problems) == adapter.MAX_START_FAILURES and result.exit_code == 2


def test_a_missing_program_is_reported_per_case_then_given_up(capsys):
    code, out, _ = run(capsys, "check", "--impl", "no-such-program-xyz --flag", "--no-table")
    assert code == 1
    assert out.count("could not be started: cannot start 'no-such-program-xyz --flag': there is no program "
                     "'no-such-program-xyz'") == adapter.MAX_START_FAILURES
    assert "not tried: the implementation failed to start 3 times in a row" in out
    assert out.strip().splitlines()[-1].startswith("0 passed, 0 failed, ")
