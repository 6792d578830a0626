"""The check engine: cases in, one result per case file out, against the reference resolver
or another implementation (the adapter protocol). ``verifier check`` and the pytest plugin
are thin callers of it: they parse options and print.

``run_check`` checks every case under some paths at once; a ``CaseChecker`` checks one
collected case at a time, for callers (pytest) that run each case on its own."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .case import Case, LoadFailure, collect
from .execute import IN_PROCESS, Execution, Progress, map_ordered
from .runner import (
    DEFAULT_CASE_TIMEOUT,
    CaseResult,
    RunOptions,
    case_deadline,
    check_cases,
    check_detached,
    check_files,
    failure_result,
    guarded,
    nothing_checked,
    summary_line,
)
from .snapshots import DEFAULT_FAILURE_DIR, SnapshotStore

if TYPE_CHECKING:
    from .adapter import Implementation, ImplRun
    from .known_failures import KnownFailures

DEFAULT_UPDATE_ADVICE = "verifier check --update-snapshots"


@dataclass(frozen=True)
class CheckOptions:
    """How to check. ``impl``: another implementation's spec (a command, or
    python:MODULE:FUNCTION) to check instead of the reference resolver."""

    snapshots: Path = Path("snapshots")
    failures: Path = DEFAULT_FAILURE_DIR
    draw: bool = True
    update_snapshots: bool = False
    update_advice: str = DEFAULT_UPDATE_ADVICE  # the command a missing snapshot's message names
    impl: str | None = None
    impl_timeout: float = 10.0
    impl_cwd: str | None = None
    check_order: bool = False  # with impl: send each case again with its pieces reversed
    known_failures: KnownFailures | None = None
    execution: Execution = IN_PROCESS  # the reference resolver's cases run here (impl: in this process)
    unused_snapshots: bool = False  # list snapshots that no checked case names (for a run over every case)
    case_timeout: float | None = DEFAULT_CASE_TIMEOUT  # seconds one case may take with the reference resolver

    def run_options(self) -> RunOptions:
        return RunOptions(SnapshotStore(self.snapshots, self.failures, self.update_advice), draw=self.draw,
                          update_snapshots=self.update_snapshots, case_timeout=self.case_timeout)


@dataclass(frozen=True)
class CheckRun:
    """What a check gave: a result per case file, in file order."""

    results: tuple[CaseResult, ...]
    unused_snapshots: tuple[Path, ...] = ()  # with CheckOptions.unused_snapshots
    implementation: Mapping[str, Any] | None = None  # command, protocol and hello of a checked implementation
    through_impl: bool = False

    @property
    def failing(self) -> bool:
        return any(r.failing for r in self.results)

    @property
    def summary(self) -> str:
        return summary_line(list(self.results))

    @property
    def nothing_checked(self) -> str | None:
        """Why the run compared nothing (it then fails unless that was meant), or None."""
        return nothing_checked(self.results, open_checked=not self.through_impl)


def _marked(result: CaseResult, known: KnownFailures | None) -> CaseResult:
    if known is None:
        return result
    from .known_failures import mark_known_failure
    return mark_known_failure(result, known)


def run_check(paths: Iterable[str | Path], options: CheckOptions | None = None, *,
              on_result: Callable[[CaseResult], None] | None = None,
              on_implementation: Callable[[Implementation], None] | None = None,
              progress: Progress | None = None) -> CheckRun:
    """Check every case under ``paths``. ``on_result`` sees each result as it is ready (marked
    against the known failures); ``on_implementation`` sees the implementation once, as soon
    as its hello has been read."""
    options = options or CheckOptions()
    results: list[CaseResult] = []
    introduced = False
    impl: Implementation | None = None

    def take(result: CaseResult) -> None:
        nonlocal introduced
        result = _marked(result, options.known_failures)
        results.append(result)
        if impl is not None and impl.info and not introduced:
            introduced = True
            if on_implementation is not None:
                on_implementation(impl)
        if on_result is not None:
            on_result(result)

    if options.impl:
        from .adapter import PROTOCOL, check_implementation, open_implementation
        impl = open_implementation(options.impl, options.impl_timeout, cwd=options.impl_cwd)
        check_implementation(paths, impl, draw=options.draw, failures=options.failures, progress=take,
                             check_order=options.check_order)
        return CheckRun(tuple(results), implementation={"command": options.impl, "protocol": PROTOCOL,
                                                        "hello": impl.info}, through_impl=True)
    run_options = options.run_options()
    if options.update_snapshots:  # a case with a taken id must not write the first one's snapshot
        results_of = check_cases(collect(paths, options.execution).entries, run_options, options.execution, progress)
    else:
        results_of = check_files(paths, run_options, options.execution, progress)
    for result in results_of:
        take(result)
    unused: tuple[Path, ...] = ()
    if options.unused_snapshots and options.draw:
        used = {(r.ruleset, r.id) for r in results if r.case is not None}
        unused = tuple(run_options.snapshots.unused(used))
    return CheckRun(tuple(results), unused)


@dataclass
class CaseChecker:
    """Checks collected cases one at a time with one set of options; an implementation is
    started at the first case that needs it and kept until ``close``."""

    options: CheckOptions
    _run: ImplRun | None = field(default=None, init=False)

    @property
    def through_impl(self) -> bool:
        return bool(self.options.impl)

    def implementation_run(self) -> ImplRun:
        """The implementation session (started now if it is not running yet)."""
        if self._run is None:
            from .adapter import ImplRun, open_implementation
            impl = open_implementation(self.options.impl or "", self.options.impl_timeout, cwd=self.options.impl_cwd)
            self._run = ImplRun(impl, draw=self.options.draw, failures=self.options.failures,
                                check_order=self.options.check_order)
        return self._run

    def check(self, entry: Case | LoadFailure) -> CaseResult:
        """One result, as ``run_check`` would give it for this entry (without the known-failure marks)."""
        if isinstance(entry, LoadFailure):
            return failure_result(entry)
        if self.through_impl:
            from .adapter import check_case_with
            run = self.implementation_run()
            return guarded(entry, lambda c: check_case_with(c, run))
        run_options = self.options.run_options()
        return replace(check_detached(entry, run_options), case=entry)

    def check_ahead(self, cases: Sequence[Case], execution: Execution) -> list[CaseResult]:
        """Every case at once on ``execution`` (the reference resolver only), results in order."""
        run_options = self.options.run_options()
        checked = map_ordered(partial(check_detached, options=run_options), cases, execution,
                              deadline=case_deadline(run_options))
        return [replace(result, case=case) for case, result in zip(cases, checked)]

    def close(self) -> None:
        if self._run is not None:
            self._run.session.close()
            self._run = None
