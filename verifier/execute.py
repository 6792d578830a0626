"""One way to run work over many items: in this process, over local cores, or on a Dask
distributed cluster. Results come back in the order of the items (``map_ordered``) or as
they finish, each with its index (``map_as_completed``), so a command's output is the same
whatever the number of workers.

Local workers are forked on Linux: they inherit the function and, for a sequence of items,
the items themselves, so only indices go out and only results come back, and closures are
fine. A worker that dies costs only the chunks it held: they are run again on a new pool, up
to ``retries`` times. On a cluster the function and items are pickled (closures too, by
value); Dask itself moves the tasks of a lost worker to the others.
"""
from __future__ import annotations

import copyreg
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import IO, Any, TypeVar

from .errors import CaseError, Location, VerifierError

Item = TypeVar("Item")
Result = TypeVar("Result")


def _mapping_proxy(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


def _reduce_mapping_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return _mapping_proxy, (dict(proxy),)


# Read-only mappings are all over the value types (readings, provenance); results that carry
# them must cross to and from workers.
copyreg.pickle(MappingProxyType, _reduce_mapping_proxy)


class ExecutionError(VerifierError):
    """The work could not be run: no cluster at the address, or a worker lost too often."""


@dataclass(frozen=True)
class Execution:
    """Where work runs. ``workers=None`` uses every local core; ``workers=1`` runs in this
    process, which is the easy one to debug. ``scheduler`` is the address of a running Dask
    scheduler (such as ``tcp://10.0.0.5:8786``); then the work runs on its workers instead."""
    workers: int | None = None
    scheduler: str | None = None

    @property
    def worker_count(self) -> int:
        """Local processes (on a cluster: as the cluster says, see ``cluster_workers``)."""
        if self.scheduler:
            return cluster_workers(self.scheduler)
        return self.workers if self.workers else (os.cpu_count() or 1)

    @property
    def in_process(self) -> bool:
        return not self.scheduler and (self.worker_count <= 1 or _IN_WORKER or not sys.platform.startswith("linux"))

    def describe(self) -> str:
        if self.scheduler:
            return f"{self.worker_count} workers of the cluster at {self.scheduler}"
        count = self.worker_count
        return "this process" if self.in_process else f"{count} local processes"


IN_PROCESS = Execution(workers=1)


def execution_from_options(workers: int | None, scheduler: str | None) -> Execution:
    """The execution that ``--workers`` and ``--scheduler`` ask for, or a located error."""
    if workers is not None and workers < 1:
        raise CaseError("--workers must be 1 or more", Location(None, None, None, "--workers"))
    if scheduler is not None and not scheduler.strip():
        raise CaseError("--scheduler takes the address of a Dask scheduler, such as tcp://host:8786",
                        Location(None, None, None, "--scheduler"))
    return Execution(workers, scheduler.strip() if scheduler else None)


# --- progress ----------------------------------------------------------------------------

class Progress:
    """Items done, rate, time left and findings so far, on stderr, for runs longer than
    ``quiet_for`` seconds: a bar redrawn in place on a terminal, a plain line every
    ``every`` seconds otherwise (CI logs). Never touches stdout."""

    def __init__(self, what: str, total: int | None, *, unit: str = "items", noted: str = "findings",
                 stream: IO[str] | None = None, quiet_for: float = 3.0, every: float = 15.0,
                 clock: Callable[[], float] = time.monotonic, limit: float | None = None) -> None:
        self.what, self.total, self.unit, self.noted_word = what, total, unit, noted
        self.limit = limit  # seconds the run may take at most (a time budget): time left is never more
        self.detail = ""  # more figures, after the findings
        self.stream = stream if stream is not None else sys.stderr
        self.quiet_for, self.every, self.clock = quiet_for, every, clock
        self.done = 0
        self.resumed = 0  # counted as done from the start, so not in the rate
        self.noted: int | None = None
        self.start = clock()
        self.last_shown = 0.0
        self.shown = False
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def advance(self, count: int = 1, noted: int | None = None, detail: str | None = None) -> None:
        self.done += count
        if noted is not None:
            self.noted = noted
        if detail is not None:
            self.detail = detail
        now = self.clock()
        if now - self.start < self.quiet_for:
            return
        if now - self.last_shown >= (0.2 if self.tty else self.every):
            self.last_shown = now
            self._show(now, final=False)

    def note(self, detail: str) -> None:
        """Say what runs now (a step of a long run): the line is shown at once with ``detail``,
        in place on a terminal, as a line of its own otherwise."""
        self.detail = detail
        now = self.last_shown = self.clock()
        self._show(now, final=False)

    def line(self, now: float | None = None) -> str:
        now = self.clock() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        rate = (self.done - self.resumed) / elapsed
        parts = [f"{self.done:,}" + (f"/{self.total:,}" if self.total else "") + f" {self.unit}",
                 f"{rate:,.1f}/s" if rate < 100 else f"{rate:,.0f}/s"]
        left = None
        if not (self.total and self.done >= self.total):
            if self.total and rate > 0:
                left = (self.total - self.done) / rate
            if self.limit is not None:
                left = max(0.0, min(self.limit - elapsed, left if left is not None else self.limit))
        parts.append(f"{_clock_text(left)} left" if left is not None else f"{_clock_text(elapsed)} elapsed")
        if self.noted is not None:
            parts.append(f"{self.noted} {self.noted_word}")
        if self.detail:
            parts.append(self.detail)
        return f"{self.what}: " + ", ".join(parts)

    def _show(self, now: float, final: bool) -> None:
        text = self.line(now)
        if self.tty:
            bar = ""
            if self.total:
                filled = int(24 * min(self.done / self.total, 1.0))
                bar = "[" + "#" * filled + "." * (24 - filled) + "] "
            self.stream.write("\r\x1b[K" + bar + text + ("\n" if final else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """The last figures, if anything was shown at all."""
        if self.shown:
            self._show(self.clock(), final=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _clock_text(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


# --- time limits ---------------------------------------------------------------------------

class TimeLimitExceeded(Exception):
    """Raised inside work that ran past its ``time_limit``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"took longer than {seconds:g} s")


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise TimeLimitExceeded in the block once it has run ``seconds`` (wall clock). Where no
    alarm can be set (not the main thread, another alarm already running, not POSIX) the
    block runs unbounded here; work in local workers is still bounded by ``map_as_completed``."""
    usable = (seconds is not None and seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread()
              and signal.getitimer(signal.ITIMER_REAL)[0] == 0)
    if not usable:
        yield
        return
    assert seconds is not None

    def expired(signum: int, frame: object) -> None:
        raise TimeLimitExceeded(seconds)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Deadline:
    """How long one item may take in a local worker, and the result that stands for an item
    whose worker did not answer in time (stuck in C code, or stopped): that worker is killed,
    and the item counts as that result."""
    seconds: float
    overdue: Callable[[Any], Any]

    def of_chunk(self, items: int) -> float:
        # Twice the chunk's share, and some slack: a chunk may wait behind another in its worker,
        # and the item's own limit (time_limit, inside the worker) should fire first.
        return 2 * items * self.seconds + 5.0


# --- mapping -------------------------------------------------------------------------------

def map_ordered(function: Callable[[Item], Result], items: Iterable[Item], execution: Execution = IN_PROCESS,
                *, chunksize: int = 1, retries: int = 2, progress: Progress | None = None,
                deadline: Deadline | None = None) -> Iterator[Result]:
    """``function`` over ``items``, results yielded in item order as they become available."""
    waiting: dict[int, Result] = {}
    following = 0
    for index, result in map_as_completed(function, items, execution, chunksize=chunksize, retries=retries,
                                          progress=progress, deadline=deadline):
        waiting[index] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1


def map_as_completed(function: Callable[[Item], Result], items: Iterable[Item], execution: Execution = IN_PROCESS,
                     *, chunksize: int = 1, retries: int = 2, progress: Progress | None = None,
                     deadline: Deadline | None = None) -> Iterator[tuple[int, Result]]:
    """(index, ``function(item)``) for every item, in the order they finish (item order in
    this process). An exception raised by ``function`` ends the run with that exception.
    With a ``deadline``, an item whose local worker does not answer in time is killed with its
    worker and counts as ``deadline.overdue(item)``."""
    chunksize = max(1, chunksize)
    if execution.scheduler:
        yield from _on_cluster(function, items, execution.scheduler, chunksize, progress)
    elif execution.in_process or (isinstance(items, Sequence) and len(items) <= 1):
        for index, item in enumerate(items):
            result = function(item)
            if progress is not None:
                progress.advance()
            yield index, result
    else:
        yield from _on_local_pool(function, items, execution.worker_count, chunksize, retries, progress, deadline)


# What forked workers inherit, by call: the function and, for a sequence, the items.
_INHERITED: dict[int, tuple[Callable[[Any], Any], Sequence[Any] | None]] = {}
_IN_WORKER = False  # set in forked workers, whose own maps then run in process
_calls = itertools.count()


def _mark_worker() -> None:
    global _IN_WORKER
    _IN_WORKER = True


def _run_inherited(call: int, start: int, chunk: list[Any] | None, stop: int) -> list[Any]:
    function, sequence = _INHERITED[call]
    if chunk is None:
        assert sequence is not None
        return [function(sequence[i]) for i in range(start, stop)]
    return [function(item) for item in chunk]


def _chunks(items: Iterable[Any], chunksize: int, by_index: bool) -> Iterator[tuple[int, list[Any] | None, int]]:
    """(first index, items or None when the worker has them, index after the last)."""
    if by_index:
        total = len(items)  # type: ignore[arg-type]
        for start in range(0, total, chunksize):
            yield start, None, min(start + chunksize, total)
        return
    iterator = iter(items)
    start = 0
    while chunk := list(itertools.islice(iterator, chunksize)):
        yield start, chunk, start + len(chunk)
        start += len(chunk)


def _on_local_pool(function: Callable[[Any], Any], items: Iterable[Any], workers: int, chunksize: int,
                   retries: int, progress: Progress | None,
                   deadline: Deadline | None = None) -> Iterator[tuple[int, Any]]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    by_index = isinstance(items, Sequence)
    call = next(_calls)
    _INHERITED[call] = (function, items if by_index else None)  # type: ignore[assignment]
    chunks = _chunks(items, chunksize, by_index)
    failures: dict[int, int] = {}  # first index of a chunk -> times its worker was lost
    again: list[tuple[int, list[Any] | None, int]] = []
    pool: ProcessPoolExecutor | None = None
    running: dict[Future[list[Any]], tuple[int, list[Any] | None, int]] = {}
    sent: dict[Future[list[Any]], float] = {}  # when each chunk went out
    window = 2 * workers
    try:
        while True:
            if pool is None:
                pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                           initializer=_mark_worker)
            while len(running) < window:
                chunk = again.pop() if again else next(chunks, None)
                if chunk is None:
                    break
                future = pool.submit(_run_inherited, call, *chunk)
                running[future], sent[future] = chunk, time.monotonic()
            if not running:
                return
            done, _ = wait(running, return_when=FIRST_COMPLETED, timeout=1.0 if deadline else None)
            broken = False
            if deadline is not None:
                now = time.monotonic()
                late = [f for f in running if f not in done
                        and now - sent[f] > deadline.of_chunk(running[f][2] - running[f][0])]
                if late:
                    _kill_workers(pool)  # first: the caller may stop reading at the results below
                    broken = True
                    for future in late:
                        first, chunk_items, stop = running.pop(future)
                        sent.pop(future)
                        if stop - first > 1:  # which item is stuck is not known: each goes again alone
                            for index in range(first, stop):
                                again.append((index, None if chunk_items is None else [chunk_items[index - first]],
                                              index + 1))
                        else:
                            item = chunk_items[0] if chunk_items is not None else _INHERITED[call][1][first]  # type: ignore[index]
                            yield first, deadline.overdue(item)
                            if progress is not None:
                                progress.advance(1)
            for future in done:
                chunk = running.pop(future)
                sent.pop(future, None)
                try:
                    results = future.result()
                except BrokenProcessPool:
                    broken = True
                    failures[chunk[0]] = failures.get(chunk[0], 0) + 1
                    if failures[chunk[0]] > retries:
                        raise ExecutionError(f"a worker process was lost {failures[chunk[0]]} times while running "
                                             f"items {chunk[0]} to {chunk[2] - 1}; giving up") from None
                    again.append(chunk)
                    continue
                for offset, result in enumerate(results):
                    yield chunk[0] + offset, result
                if progress is not None:
                    progress.advance(len(results))
            if broken:
                # Every chunk still out was on the broken pool: run them again on a new one.
                for future, chunk in running.items():
                    future.cancel()
                    again.append(chunk)
                running.clear()
                sent.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = None
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        del _INHERITED[call]


def _kill_workers(pool: Any) -> None:
    """Kill every process of ``pool`` (a stopped one too: SIGKILL needs no cooperation)."""
    for process in list(getattr(pool, "_processes", {}).values()):
        try:
            process.kill()
        except (OSError, ValueError):
            pass


# --- a Dask cluster ------------------------------------------------------------------------

_clients: dict[str, Any] = {}
CONNECT_SECONDS = 30  # how long to wait for a scheduler to answer


def _client(address: str) -> Any:
    if address not in _clients:
        try:
            from distributed import Client
        except ImportError as error:
            raise ExecutionError("--scheduler needs the 'distributed' package (pip install distributed)") from error
        try:
            _clients[address] = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as error:
            raise ExecutionError(f"cannot reach a Dask scheduler at {address} ({error}); start one with "
                                 "'dask scheduler' and workers with 'dask worker ADDRESS'") from None
    return _clients[address]


def close_clients() -> None:
    """Disconnect from every cluster this process reached (the clusters keep running)."""
    while _clients:
        _, client = _clients.popitem()
        client.close()


def cluster_workers(address: str) -> int:
    return max(1, len(_client(address).scheduler_info().get("workers", {})))


def _run_chunk(function: Callable[[Any], Any], chunk: list[Any]) -> list[Any]:
    return [function(item) for item in chunk]


def _on_cluster(function: Callable[[Any], Any], items: Iterable[Any], address: str, chunksize: int,
                progress: Progress | None) -> Iterator[tuple[int, Any]]:
    from distributed import as_completed

    client = _client(address)
    window = 4 * cluster_workers(address)
    chunks = _chunks(items, chunksize, by_index=False)
    starts: dict[Any, int] = {}

    def submit(chunk: tuple[int, list[Any] | None, int]) -> Any:
        future = client.submit(_run_chunk, function, chunk[1], pure=False)
        starts[future] = chunk[0]
        return future

    pending = as_completed([submit(c) for c in itertools.islice(chunks, window)],  # type: ignore[no-untyped-call]
                           loop=client.loop)
    try:
        for future in pending:
            results = future.result()
            start = starts.pop(future)
            future.release()
            for offset, result in enumerate(results):
                yield start + offset, result
            if progress is not None:
                progress.advance(len(results))
            following = next(chunks, None)
            if following is not None:
                pending.add(submit(following))  # type: ignore[no-untyped-call]
    finally:
        if starts:  # stopped early (an error, or the caller stopped reading): free the cluster
            client.cancel(list(starts))
