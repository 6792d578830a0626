"""Hostile input against the core (issue 29): the overwrite guard trusts only the verifier's
own record, pytest collects by parsing, results files survive a crash or a full disk, every
case is bounded in time, and no command prints a traceback or a forged line."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from conftest import CASES

from verifier import registry
from verifier.cli import main
from verifier.execute import Execution
from verifier.shards import exhaustive

pytest_plugins = ["pytester"]

GOOD = CASES / "ypp" / "move-1a-forward.yaml"
CIV = registry.get("civ")


# --- only the verifier's record decides what it may overwrite --------------------------------

def test_a_case_file_holding_the_mark_is_not_replaced_by_a_report(tmp_path, capsys):
    forged = tmp_path / "forged.yaml"
    forged.write_text("# generator: verifier check\n" + GOOD.read_text())
    (tmp_path / "forged.json").write_text('{"generator": "verifier check"}\n')
    before = forged.read_bytes()
    assert main(["check", "--no-draw", str(GOOD), "--json", str(forged)]) == 2
    assert "was not written by the verifier" in capsys.readouterr().err
    assert forged.read_bytes() == before
    assert main(["check", "--no-draw", str(GOOD), "--json", str(tmp_path / "forged.json")]) == 2
    assert "was not written by the verifier" in capsys.readouterr().err


def test_a_report_the_verifier_wrote_is_replaced_until_someone_edits_it(tmp_path, capsys):
    report = tmp_path / "out.json"
    assert main(["check", "--no-draw", str(GOOD), "--json", str(report)]) == 0
    assert main(["check", "--no-draw", str(GOOD), "--json", str(report)]) == 0
    report.write_text(report.read_text() + " ")  # edited since: no longer what the verifier wrote
    capsys.readouterr()
    assert main(["check", "--no-draw", str(GOOD), "--json", str(report)]) == 2
    assert "was not written by the verifier" in capsys.readouterr().err


# --- pytest collects by parsing ------------------------------------------------------------

def test_pytest_collects_a_case_whose_ruleset_line_lies_past_64_kib(pytester):
    cases = pytester.path / "cases"
    cases.mkdir()
    lines = GOOD.read_text().splitlines(keepends=True)
    padding = "".join(f"# {'x' * 1000}\n" for _ in range(70))
    late = lines[0] + lines[1] + padding + "".join(lines[2:])
    assert late.index("\nruleset:") > 1 << 16
    (cases / "late.yaml").write_text(late)
    (cases / "other.yaml").write_text("# not a case\nname: a\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--verifier-no-draw", str(cases))
    result.assert_outcomes(passed=1)


# --- results files after a crash or a full disk ----------------------------------------------

def test_a_results_file_torn_twice_still_resumes(tmp_path):
    results = tmp_path / "civ.jsonl"
    whole = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=6, results=results)
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:3]) + "\n" + lines[3][:15])  # a crash mid-write
    first = exhaustive(CIV, space="two-sides", execution=Execution(1), results=results)
    assert first.resumed == 2 and first.counts == whole.counts
    text = results.read_text()
    assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())
    results.write_text(text + lines[2][:10])  # a second crash, then a second resume
    second = exhaustive(CIV, space="two-sides", execution=Execution(1), results=results)
    assert second.resumed == 6 and second.counts == whole.counts


def test_a_results_file_whose_header_was_torn_starts_afresh(tmp_path):
    results = tmp_path / "civ.jsonl"
    results.write_text('{"results": "veri')
    run = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=3, results=results)
    assert run.resumed == 0 and len(results.read_text().splitlines()) == 4


class _FillingDisk:
    """A file handle whose writes fail with ENOSPC once ``room`` of them have gone through."""

    def __init__(self, handle, room: list[int]) -> None:
        self.handle, self.room = handle, room

    def write(self, data):
        if self.room[0] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room[0] -= 1
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def _full_disk_after(monkeypatch, path: Path, writes: int) -> None:
    """Writes to ``path`` fail with ENOSPC after ``writes`` of them succeeded."""
    room = [writes]
    real_open = Path.open

    def opening(self, *args, **kwargs):
        handle = real_open(self, *args, **kwargs)
        return _FillingDisk(handle, room) if self == path and args and args[0] == "a" else handle

    monkeypatch.setattr(Path, "open", opening)


def test_a_full_disk_under_explore_results_is_one_line_and_the_file_resumes(tmp_path, monkeypatch, capsys):
    results = tmp_path / "civ.jsonl"
    whole = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=6, progress=False)
    _full_disk_after(monkeypatch, results, 3)  # the header and two shards fit
    run = exhaustive(CIV, space="two-sides", execution=Execution(1), shards=6, results=results, progress=False)
    monkeypatch.undo()
    assert run.counts == whole.counts  # the run went on
    err = [line for line in capsys.readouterr().err.splitlines() if line]
    assert len(err) == 1 and "the disk is full" in err[0] and str(results) in err[0]
    assert results.read_text().count("\n") == 3
    again = exhaustive(CIV, space="two-sides", execution=Execution(1), results=results, progress=False)
    assert again.resumed == 2 and again.counts == whole.counts


@pytest.mark.parametrize("flag", ["--json", "--junit"])
def test_a_full_disk_under_a_report_is_one_line_and_the_summary_prints(tmp_path, monkeypatch, capsys, flag):
    import os
    real_fdopen = os.fdopen

    def full(fd, *args, **kwargs):
        handle = real_fdopen(fd, *args, **kwargs)

        def refuse(data):
            raise OSError(errno.ENOSPC, "No space left on device")
        handle.write = refuse
        return handle

    monkeypatch.setattr(os, "fdopen", full)
    out_file = tmp_path / "report.out"
    assert main(["check", "--no-draw", "--no-table", str(GOOD), flag, str(out_file)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == "1 passed, 0 failed"
    assert err.splitlines() == [f"error: {out_file}: the disk is full: the {flag} report was not written "
                                "(free some space and run again)"]
    assert not out_file.exists() and not list(tmp_path.glob(".report.out.*"))


# --- every case has a time limit --------------------------------------------------------------

def _discs_that_hang(monkeypatch, tmp_path: Path) -> Path:
    """Four discs cases; the resolver loops forever on the one holding a disc named 'looper',
    and stops the process it runs in (SIGSTOP) on the one holding 'stopper' in a worker."""
    import os
    import signal
    ruleset = registry.get("discs")
    real = type(ruleset).resolve
    test_process = os.getpid()

    def resolve(self, before, actions, reading):
        names = str(before)
        if "looper" in names:
            while True:
                pass
        if "stopper" in names and os.getpid() != test_process:
            os.kill(os.getpid(), signal.SIGSTOP)
        return real(self, before, actions, reading)

    monkeypatch.setattr(type(ruleset), "resolve", resolve)
    cases = tmp_path / "cases"
    cases.mkdir()
    source = Path(__file__).parent / "plugins" / "cases" / "discs"
    clash = (source / "clash.yaml").read_text()
    for name in ("looper", "stopper"):
        (cases / f"{name}.yaml").write_text(clash.replace("discs-clash", f"discs-{name}").replace("east", name))
    for good in ("brush-past", "edge"):
        (cases / f"{good}.yaml").write_text((source / f"{good}.yaml").read_text())
    return cases


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_case_that_loops_is_one_failed_case_with_any_workers(plugin_rulesets, monkeypatch, tmp_path, capsys,
                                                                workers):
    cases = _discs_that_hang(monkeypatch, tmp_path)
    (cases / "stopper.yaml").unlink()
    assert main(["check", "--no-draw", "--no-table", "--case-timeout", "1", "--workers", workers, str(cases)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "2 passed, 1 failed"
    assert f"{cases / 'looper.yaml'}" in out and "longer than its time limit of 1 s" in out
    assert "--case-timeout" in out


def test_a_stopped_worker_does_not_stall_the_run(plugin_rulesets, monkeypatch, tmp_path, capsys):
    import time
    cases = _discs_that_hang(monkeypatch, tmp_path)
    (cases / "looper.yaml").unlink()
    start = time.monotonic()
    code = main(["check", "--no-draw", "--no-table", "--case-timeout", "1", "--workers", "2", str(cases)])
    out = capsys.readouterr().out
    assert time.monotonic() - start < 60
    # Stopped in every worker it is sent to, the case fails alone; the others pass.
    assert code == 1 and out.splitlines()[-1] == "2 passed, 1 failed", out
    assert "stopper.yaml" in out and "time limit of 1 s" in out


def test_the_case_timeout_must_be_a_positive_number(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["check", "--case-timeout", "nan"])
    assert stop.value.code == 2
    assert "expected a positive number of seconds, got 'nan'" in capsys.readouterr().err


# --- no traceback, one located line -------------------------------------------------------------

def _raw_control_case(tmp_path: Path) -> Path:
    case = tmp_path / "raw.yaml"
    case.write_text(GOOD.read_text().replace("title: A plain", "title: A \x01plain"))
    return case


@pytest.mark.parametrize("command", ["show", "render"])
def test_a_raw_control_character_is_located_by_show_and_render(tmp_path, capsys, command):
    case = _raw_control_case(tmp_path)
    argv = [command, str(case)] + (["-o", str(tmp_path / "x.png")] if command == "render" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"error: {case}:2:10: a raw control character (U+0001) that YAML does not allow; write it "
                   "escaped in a double-quoted string (such as \\x01) or remove it"]


def test_check_reports_a_raw_control_character_as_the_case_s_fault(tmp_path, capsys):
    case = _raw_control_case(tmp_path)
    assert main(["check", "--no-draw", "--no-table", str(case)]) == 1
    out = capsys.readouterr().out
    assert f"{case}:2:10: a raw control character (U+0001)" in out and "bug of the ruleset" not in out


@pytest.mark.parametrize("argv", [["check", "--impl", '"unbalanced', str(GOOD)],
                                  ["fuzz", "ypp", "--impl", "python3 'x", "--examples", "1"]])
def test_an_impl_with_an_unbalanced_quote_is_one_line(tmp_path, capsys, argv, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: --impl: cannot split") and "No closing quotation" in err[0]


def test_a_deeply_nested_known_failure_list_is_one_line(tmp_path, capsys):
    known = tmp_path / "known.json"
    known.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["check", "--no-draw", "--known-failures", str(known), str(GOOD)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {known}:1:1: not a known-failure list: its JSON nests arrays and objects too deeply (a list is one "
        "object of case id -> reason)"]


def test_ctrl_c_says_interrupted_and_exits_130(monkeypatch, capsys):
    import verifier.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "cmd_show", interrupted)
    assert main(["show", str(GOOD)]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_an_unexpected_exception_or_os_error_is_one_line(monkeypatch, capsys):
    import verifier.cli as cli

    def broken(args):
        raise ZeroDivisionError("division by zero\nFAKE: 999 passed")
    monkeypatch.setattr(cli, "cmd_show", broken)
    assert main(["show", str(GOOD)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "internal error while running 'verifier show': ZeroDivisionError" in err[0]

    def too_long(args):
        raise OSError(36, "File name too long", "m" * 300)
    monkeypatch.setattr(cli, "cmd_show", too_long)
    assert main(["show", str(GOOD)]) == 2
    assert capsys.readouterr().err == f"error: {'m' * 300}: File name too long\n"


def test_a_misspelt_command_gets_did_you_mean(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["chekc"])
    assert stop.value.code == 2
    assert "invalid choice: 'chekc'; did you mean 'check'?" in capsys.readouterr().err


def test_render_refuses_a_format_it_does_not_write(tmp_path, capsys):
    target = tmp_path / "x.svg"
    assert main(["render", str(GOOD), "-o", str(target)]) == 2
    assert "render writes PNG pictures only; give a file name ending in .png, not .svg" in capsys.readouterr().err
    assert not target.exists()


def test_a_message_is_bounded_and_escaped():
    from verifier.errors import Location
    from verifier.runner import Problem
    problem = Problem("x" * 1_000_000 + "\nFAKE: 999 passed", Location("a.yaml", 3))
    assert len(problem.message) < 4100 and problem.message.endswith("... (996,020 more characters)")
    assert "\n" not in Problem("a\nFAKE: 999 passed\r\x1b[2J", Location()).message


_FORGER = """\
from verifier.adapters.reference import handle as reference

def handle(message):
    if message['type'] == 'hello':
        hello = reference(message)
        hello['implementation'] = {'name': 'forger\\nFAKE: 999 passed'}
        return hello
    if 'forward' in message['id']:
        return {'type': 'skipped', 'id': message['id'], 'reason': 'later\\nFAKE: 999 passed'}
    return reference(message)
"""


def test_a_line_feed_in_an_implementation_s_name_or_skip_reason_forges_no_line(tmp_path, capsys, monkeypatch):
    (tmp_path / "forger.py").write_text(_FORGER)
    monkeypatch.syspath_prepend(str(tmp_path))
    turn = CASES / "ypp" / "move-2a-turn.yaml"
    argv = ["check", "--no-draw", "-v", "--impl", "python:forger:handle", str(GOOD), str(turn)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert not any(line.startswith("FAKE") for line in out.splitlines())
    assert "forger\\x0aFAKE: 999 passed" in out and "later\\x0aFAKE: 999 passed" in out
    # A partly skipped run says so in its last line, and --require-all fails it.
    assert out.splitlines()[-1] == "1 passed, 0 failed, 1 skipped"
    assert main([*argv, "--require-all"]) == 1
    assert "1 of 2 cases skipped, and --require-all asks for every case to be checked" in capsys.readouterr().err
