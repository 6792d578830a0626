"""The execution layer: ordered results whatever the workers, a lost worker retried,
progress only on stderr and only for long runs, and the same work on a Dask cluster."""

from __future__ import annotations

import io
import os
import sys

import pytest

from verifier.errors import CaseError
from verifier.execute import Execution, Progress, close_clients, execution_from_options, map_as_completed, map_ordered

forked = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="local workers are forked on Linux")


def square(n: int) -> int:
    return n * n


@forked
def test_results_come_in_item_order_whatever_the_workers():
    offset = 3  # a closure: forked workers inherit it
    expected = [n * n + offset for n in range(40)]
    for workers in (1, 2, 3):
        for chunksize in (1, 4):
            assert list(map_ordered(lambda n: n * n + offset, range(40), Execution(workers),
                                    chunksize=chunksize)) == expected
    # Items that are not a sequence are sent to the workers instead of inherited.
    assert list(map_ordered(square, iter(range(9)), Execution(2), chunksize=2)) == [n * n for n in range(9)]
    assert sorted(map_as_completed(square, list(range(9)), Execution(2))) == [(n, n * n) for n in range(9)]


@forked
def test_a_lost_worker_costs_only_its_chunks(tmp_path):
    flag = tmp_path / "died"

    def die_once(n: int) -> int:
        if n == 5 and not flag.exists():
            flag.write_text("")
            os._exit(1)  # the worker process dies mid-run
        return n

    assert list(map_ordered(die_once, list(range(12)), Execution(2), chunksize=2)) == list(range(12))
    assert flag.exists()


@forked
def test_a_worker_lost_every_time_ends_the_run_with_a_clear_error():
    from verifier.execute import ExecutionError

    def always_die(n: int) -> int:
        if n == 3:
            os._exit(1)
        return n

    with pytest.raises(ExecutionError, match="lost 2 times while running items 2 to 3"):
        list(map_ordered(always_die, list(range(6)), Execution(2), chunksize=2, retries=1))


@forked
def test_an_exception_in_the_work_reaches_the_caller():
    def fail(n: int) -> int:
        if n == 4:
            raise ValueError("bad item 4")
        return n

    with pytest.raises(ValueError, match="bad item 4"):
        list(map_ordered(fail, list(range(8)), Execution(2)))


def test_workers_and_scheduler_options_are_checked():
    with pytest.raises(CaseError) as error:
        execution_from_options(0, None)
    assert "--workers" in str(error.value)
    with pytest.raises(CaseError) as error:
        execution_from_options(None, "  ")
    assert "--scheduler" in str(error.value)
    assert execution_from_options(None, None) == Execution()
    assert execution_from_options(1, None).in_process


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_silent_for_quick_runs_and_plain_in_logs():
    clock, log = Clock(), io.StringIO()
    quick = Progress("checking", 10, unit="cases", stream=log, clock=clock)
    for _ in range(10):
        clock.now += 0.1
        quick.advance()
    quick.close()
    assert log.getvalue() == ""

    clock, log = Clock(), io.StringIO()
    with Progress("checking", 100, unit="cases", noted="failing", stream=log, clock=clock, every=10) as slow:
        for n in range(100):
            clock.now += 0.5
            slow.advance(1, noted=n // 10)
    lines = log.getvalue().splitlines()
    # One line every 10 s after the first 3 s, and the last figures at the end.
    assert 4 <= len(lines) <= 7 and all("\r" not in line for line in lines)
    assert lines[0].startswith("checking: ") and "/100 cases" in lines[0] and "2.0/s" in lines[0]
    assert "left" in lines[0] and "failing" in lines[0]
    assert lines[-1] == "checking: 100/100 cases, 2.0/s, 0:50 elapsed, 9 failing"


def test_progress_time_left_is_the_budgets_when_the_budget_binds():
    # 20,000 scenes at 100/s would take 3:20, but a 20 s budget ends the run first.
    clock = Clock()
    meter = Progress("searching", 20000, unit="scenes", stream=io.StringIO(), clock=clock, limit=20.0)
    clock.now += 5
    meter.advance(500)
    assert "0:15 left" in meter.line()
    # Where the count ends the run first, the count's estimate stands.
    meter = Progress("searching", 1000, unit="scenes", stream=io.StringIO(), clock=clock, limit=60.0)
    clock.now += 5
    meter.advance(500)
    assert "0:05 left" in meter.line()


def test_a_note_shows_the_step_at_once_even_in_the_quiet_start():
    clock, stream = Clock(), io.StringIO()
    meter = Progress("benchmarking", 3, unit="suites", stream=stream, clock=clock)
    meter.note("resolving 1,000 ships ...")
    assert stream.getvalue() == "benchmarking: 0/3 suites, 0.0/s, 0:00 elapsed, resolving 1,000 ships ...\n"


def test_progress_on_a_terminal_redraws_one_line_with_a_bar():
    clock, screen = Clock(), Terminal()
    with Progress("drawing", 4, unit="pictures", stream=screen, clock=clock, quiet_for=0) as bar:
        for _ in range(4):
            clock.now += 1
            bar.advance()
    text = screen.getvalue()
    assert text.count("\r\x1b[K") >= 2 and text.endswith("\n")
    assert "[########################] drawing: 4/4 pictures" in text


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  silence_logs=40) as local:
        yield local.scheduler_address
        close_clients()


def test_the_same_work_runs_on_a_dask_cluster(cluster):
    offset = 5  # a closure goes to the workers by value
    execution = Execution(scheduler=cluster)
    assert execution.worker_count == 2 and "cluster" in execution.describe()
    assert list(map_ordered(lambda n: n + offset, range(30), execution, chunksize=4)) == list(range(5, 35))


def test_an_address_with_no_scheduler_is_a_clear_error(monkeypatch):
    pytest.importorskip("distributed")
    from verifier import execute
    from verifier.execute import ExecutionError
    monkeypatch.setattr(execute, "CONNECT_SECONDS", 1)
    with pytest.raises(ExecutionError, match="cannot reach a Dask scheduler at tcp://127.0.0.1:9"):
        print(Execution(scheduler="tcp://127.0.0.1:9").worker_count)
