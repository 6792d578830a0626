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
