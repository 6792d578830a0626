"""Running cases: load, resolve, compare, draw, check snapshots."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any

from .case import (
    Case,
    CaseIds,
    CaseStatus,
    LoadFailure,
    collect,
    crash_message,
    load_entry,
    load_failure,
    scan_case_files,
)
from .errors import CaseError, Location, VerifierError, one_line
from .execute import IN_PROCESS, Deadline, Execution, Progress, TimeLimitExceeded, map_ordered, time_limit
from .refusal import draw_outcome
from .ruleset import Capability, Mismatch, Outcome, Ruleset, compare_outcome
from .snapshots import SnapshotResult, SnapshotStore
from .source import format_path


class ProblemKind(StrEnum):
    MISMATCH = "mismatch"  # the outcome differs from the expectation
    ERROR = "error"  # the case could not be loaded, resolved or drawn
    SNAPSHOT = "snapshot"  # the diagram differs from its snapshot, or has none
    CLAUSE = "clause"  # a listed clause played no part
    NOTE = "note"  # not a failure: a stale finding in a needs-ruling case
    PROTOCOL = "protocol"  # an implementation broke the adapter protocol
    ERRORED = "errored"  # an implementation said it could not resolve the case
    ARTIFACTS = "artifacts"  # not a problem: where the failure's drawings were written
    XPASS = "xpass"  # a known failure that passes now
    CHANGED = "changed"  # a known failure that fails differently from the way the list records
    DETAIL = "detail"  # not a problem: more about a failure (the provenance of the pieces that differ)


class Status(StrEnum):
    """What became of one case. Through another implementation also skipped and
    errored; with a known-failure list also xfail (listed and failing) and xpass
    (listed but passing)."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    XPASS = "xpass"
    XFAIL = "xfail"
    SKIPPED = "skipped"
    OPEN = "open"  # a needs-ruling case: nothing to compare yet


@dataclass(frozen=True)
class Problem:
    """One reason a case did not pass, with the place in the case file it concerns."""

    message: str
    location: Location
    kind: ProblemKind = ProblemKind.MISMATCH
    key: str = ""  # what differs, in words that do not change with the wrong value (see mismatch_key)

    def __post_init__(self) -> None:
        # Messages quote values from case files and implementations: one bounded, printable line.
        object.__setattr__(self, "message", one_line(self.message))

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass(frozen=True)
class CaseResult:
    file: str
    case: Case | None
    status: Status
    problems: tuple[Problem, ...] = ()
    outcome: Outcome | None = None
    snapshot: SnapshotResult | None = None
    seconds: float = 0.0
    reason: str = ""  # why skipped, errored or expected to fail
    not_compared: tuple[str, ...] = ()  # outcome parts the implementation does not report
    compared_under: str = ""  # where the expectation came from, when not the case's own (another reading)

    @property
    def fingerprint(self) -> tuple[str, ...]:
        """How the case fails: what differs (pieces, fields, rounds), without the wrong values."""
        keys = {p.key for p in self.problems if p.key}
        if self.status == Status.ERRORED or any(p.kind in (ProblemKind.PROTOCOL, ProblemKind.ERRORED)
                                                for p in self.problems):
            keys.add("errored")
        return tuple(sorted(keys))

    @property
    def failing(self) -> bool:
        """Whether this result fails the run."""
        return self.status in FAILING

    @property
    def id(self) -> str:
        return self.case.id if self.case else Path(self.file).stem

    @property
    def ruleset(self) -> str:
        return self.case.ruleset.key if self.case else "?"


@dataclass
class RunOptions:
    snapshots: SnapshotStore = field(default_factory=SnapshotStore)
    draw: bool = True
    update_snapshots: bool = False
    case_timeout: float | None = None  # seconds one case may take (resolve, compare, draw); None: no limit


DEFAULT_CASE_TIMEOUT = 60.0  # seconds: what 'verifier check' allows one case unless --case-timeout says more


def timeout_message(seconds: float) -> str:
    return (f"checking the case took longer than its time limit of {seconds:g} s and was stopped; if it is "
            "meant to be this slow, raise the limit (verifier check --case-timeout SECONDS)")


def timed_out(case: Case, seconds: float) -> CaseResult:
    """The failed result of a case stopped at its time limit."""
    return CaseResult(case.path, None, Status.FAILED,
                      (Problem(timeout_message(seconds), case.where(()), ProblemKind.ERROR),), seconds=seconds)


_TRAILING_CLAUSE = re.compile(r" \[[^\]]*\]$")


def mismatch_key(mismatch: Mismatch) -> str:
    """What a mismatch is about, as a known-failure fingerprint keeps it: its field path
    and the value that came out there; where the path names a whole collection (an
    unlisted piece, an unexpected event), its message without the trailing clause."""
    path = format_path(mismatch.path)
    if len(mismatch.path) > 1:
        if mismatch.actual is None:
            return f"{path} missing" + (f": {mismatch.expected}" if isinstance(mismatch.expected, str) else "")
        return f"{path} = {json.dumps(mismatch.actual)}"
    return f"{path}: {_TRAILING_CLAUSE.sub('', mismatch.message)}"


def mismatch_problem(case: Case, mismatch: Mismatch) -> Problem:
    return Problem(mismatch.message, case.where(("expect",) + tuple(mismatch.path)), ProblemKind.MISMATCH,
                   mismatch_key(mismatch))


def check_open_case(case: Case) -> CaseResult:
    """A case that needs a ruling is reported as open. Its listed outcomes are still
    checked, so a stale finding (the resolver changed since) is pointed out."""
    start = time.perf_counter()
    problems = []
    outcome = None
    for i, (reading, expect) in enumerate(case.outcomes):
        outcome = case.ruleset.resolve(case.before, case.actions, reading)
        for mismatch in compare_outcome(case.ruleset, case.before, expect, outcome):
            problems.append(Problem(f"stale finding: {mismatch.message}",
                                    case.where(("outcomes", i, "expect") + tuple(mismatch.path)), ProblemKind.NOTE))
    return CaseResult(case.path, case, Status.OPEN, tuple(problems), outcome, None, time.perf_counter() - start)


def state_moment(entry: Mapping[str, Any]) -> tuple[int, str | None, int]:
    """When a state entry (a case's ``expect.states``, an answer's ``states``) is taken."""
    return (int(entry["round"]), entry.get("phase"), int(entry.get("step", 0)))


def moment_words(moment: tuple[int, str | None, int]) -> str:
    round_no, phase, step = moment
    return f"after round {round_no}" if phase is None else f"at r{round_no} {phase}" + (f" step {step}" if step else "")


def reference_states(ruleset: Ruleset, outcome: Outcome) -> list[dict[str, Any]]:
    """The reference's states in the form of an answer's ``states`` entries: every moment it
    records, and the end of every round (an entry without a phase)."""
    frames = [f for f in outcome.frames if not f.is_start]
    entries = [{"round": f.round, "phase": f.phase, "step": f.step, **ruleset.state_json(f.state)} for f in frames]
    last = {f.round: f for f in frames}
    return entries + [{"round": r, **ruleset.state_json(f.state)} for r, f in sorted(last.items())]


def _state_leaves(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    if isinstance(value, Mapping):
        found: dict[tuple[str, ...], Any] = {}
        for key, item in value.items():
            found.update(_state_leaves(item, path + (str(key),)))
        return found
    return {path: value}


def case_state_problems(case: Case, expected: Sequence[Mapping[str, Any]], actual: Sequence[Mapping[str, Any]],
                        whose: str) -> list[Problem]:
    """The first of the case's own states (``expect.states``) that ``actual`` (states of the
    reference or of an implementation) gives otherwise at the same moment; what the case
    does not list, and moments ``actual`` has no state for, are not compared."""
    ends = {int(entry["round"]): entry for entry in actual}  # a round's last state stands for its end
    given: dict[tuple[int, str | None, int], Mapping[str, Any]] = {(r, None, 0): e for r, e in ends.items()}
    given.update((state_moment(e), e) for e in actual)
    for i, entry in enumerate(expected):
        got = given.get(state_moment(entry))
        if got is None:
            continue
        want = _state_leaves({k: v for k, v in entry.items() if k not in ("round", "phase", "step")})
        have = _state_leaves({k: v for k, v in got.items() if k not in ("round", "phase", "step")})
        differing = [p for p in want if have.get(p) != want[p]]
        if differing:
            words = [f"{'.'.join(p[1:]) or p[0]} is {have.get(p, 'missing')}, the case has {want[p]}"
                     for p in differing[:6]]
            return [Problem(f"the states first differ {moment_words(state_moment(entry))} ({whose}): "
                            + "; ".join(words) + (f" (and {len(differing) - 6} more)" if len(differing) > 6 else ""),
                            case.where(("expect", "states", i)), ProblemKind.MISMATCH, f"states[{i}]")]
    return []


def case_states(case: Case) -> list[Mapping[str, Any]]:
    """The case's own states (``expect.states``), where its ruleset has states and it gives some."""
    expect = case.doc.data.get("expect") if isinstance(case.doc.data, Mapping) else None
    if not case.ruleset.supports(Capability.STATES) or not isinstance(expect, Mapping):
        return []
    return list(expect.get("states") or ())


def check_case(case: Case, options: RunOptions) -> CaseResult:
    if case.status is CaseStatus.NEEDS_RULING:
        return check_open_case(case)
    start = time.perf_counter()
    ruleset = case.ruleset
    problems: list[Problem] = []
    outcome = ruleset.resolve(case.before, case.actions, case.readings)
    for mismatch in compare_outcome(ruleset, case.before, case.expect, outcome):
        problems.append(mismatch_problem(case, mismatch))
    if case_states(case):
        problems += case_state_problems(case, case_states(case), reference_states(ruleset, outcome),
                                        "the reference resolver's")
    used = outcome.clauses_considered()
    for i, clause in enumerate(case.clauses):
        if clause not in used:
            problems.append(Problem(f"the case says it illustrates {clause}, but resolving it never applies "
                                    f"or weighs that clause", case.where(("clauses", i)), ProblemKind.CLAUSE,
                                    f"clauses[{i}]"))
    snapshot = None
    if options.draw:
        image = draw_outcome(ruleset, case.before, case.actions, outcome, case.title)
        snapshot = options.snapshots.check(ruleset.key, case.id, image, update=options.update_snapshots)
        if not snapshot.ok:
            problems.append(Problem(snapshot.message, Location(case.path, case.line, None, "diagram"),
                                    ProblemKind.SNAPSHOT, "diagram"))
    status = Status.PASSED if not problems else Status.FAILED
    return CaseResult(case.path, case, status, tuple(problems), outcome, snapshot,
                      time.perf_counter() - start)


def _error_result(file: str, error: VerifierError) -> CaseResult:
    return failure_result(load_failure(file, error))


def failure_result(failure: LoadFailure) -> CaseResult:
    """A file that gives no case, as the failed result that names each of its problems."""
    return CaseResult(failure.file, None, Status.FAILED,
                      tuple(Problem(e.message, e.location, ProblemKind.ERROR) for e in failure.errors))


def _chunksize(items: int, execution: Execution) -> int:
    """Cases per task: about 24 tasks per worker, and at most 8. A drawn case takes some 40 ms,
    so a task stays well above what sending it costs, while the last tasks, which one worker
    may finish alone as the others go idle, stay short."""
    return max(1, min(8, items // (24 * max(1, execution.worker_count))))


def guarded(case: Case, check: Callable[[Case], CaseResult]) -> CaseResult:
    """``check(case)``, with any exception turned into that case's located failure."""
    start = time.perf_counter()
    try:
        return check(case)
    except VerifierError as error:
        result = _error_result(case.path, error)
    except TimeLimitExceeded as error:
        result = timed_out(case, error.seconds)
    except Exception as error:
        result = CaseResult(case.path, None, Status.FAILED, (Problem(
            crash_message(f"checking case {case.id!r}", error), case.where(()), ProblemKind.ERROR),))
    return replace(result, case=case, seconds=time.perf_counter() - start)


def check_detached(case: Case, options: RunOptions) -> CaseResult:
    """``check_case``, guarded, with the case left out of the result: the caller has it, and a
    worker need not send it back."""
    def limited(c: Case) -> CaseResult:
        with time_limit(options.case_timeout):
            return check_case(c, options)
    return replace(guarded(case, limited), case=None)


def case_deadline(options: RunOptions) -> Deadline | None:
    """The deadline of a case in a local worker (see ``execute.Deadline``), or None."""
    if options.case_timeout is None:
        return None
    return Deadline(options.case_timeout, partial(timed_out, seconds=options.case_timeout))


def check_paths(paths: Iterable[str | Path], options: RunOptions | None = None,
                execution: Execution = IN_PROCESS, progress: Progress | None = None) -> Iterator[CaseResult]:
    """Check every case under ``paths``, one result per case file, in file order, on
    ``execution`` (snapshots are written by the worker that checks the case)."""
    yield from check_cases(collect(paths, execution).entries, options, execution, progress)


def check_cases(entries: Sequence[Case | LoadFailure], options: RunOptions | None = None,
                execution: Execution = IN_PROCESS, progress: Progress | None = None) -> Iterator[CaseResult]:
    """A result per collected entry, in their order: each case checked on ``execution``, each
    load failure as its failed result."""
    run_options = options or RunOptions()
    cases = [entry for entry in entries if isinstance(entry, Case)]
    if progress is not None and progress.total is None:
        progress.total = len(cases)
    checked = map_ordered(partial(check_detached, options=run_options), cases, execution,
                          chunksize=_chunksize(len(cases), execution), deadline=case_deadline(run_options))
    failing = 0
    for item in entries:
        result = failure_result(item) if isinstance(item, LoadFailure) else replace(next(checked), case=item)
        failing += result.failing
        if progress is not None and isinstance(item, Case):
            progress.advance(1, noted=failing)
        yield result


def _load_and_check(scanned: tuple[Path, str | None], options: RunOptions) -> tuple[Case | LoadFailure,
                                                                                   CaseResult | None]:
    entry = load_entry(*scanned)
    return entry, (None if isinstance(entry, LoadFailure) else check_detached(entry, options))


def _load_overdue(scanned: tuple[Path, str | None], seconds: float) -> tuple[LoadFailure, None]:
    file = str(scanned[0])
    return LoadFailure(file, (CaseError(timeout_message(seconds), Location(file)),)), None


def _warm_up(scanned: Sequence[tuple[Path, str | None]], options: RunOptions, execution: Execution) -> None:
    """Before local workers are forked: import here the rulesets the cases will likely name (by
    the folders they are in, cases/<ruleset>/) and, when drawing, the drawing kit, so the
    workers inherit them instead of each importing them again (about 0.8 s of CPU a worker).
    Only a head start: a case names its ruleset itself, and what is not imported here is
    imported where it is needed."""
    if execution.in_process or execution.scheduler or len(scanned) <= 1:
        return
    from . import registry
    from .kit.modular import ModularRuleset
    known = set(registry.names())
    if options.draw:
        from .kit import draw  # noqa: F401  (Pillow and the kit, shared by every ruleset's drawing)
    for key in sorted({path.parent.name for path, problem in scanned if problem is None} & known):
        try:
            ruleset = registry.get(key)
        except VerifierError:  # a broken ruleset is reported by the cases that name it
            continue
        if options.draw and isinstance(ruleset, ModularRuleset):
            try:  # its drawing module too, which each worker would otherwise import (and compile) again
                ruleset._function("drawing", "draw_case")
            except Exception:  # a drawing that cannot be imported fails its cases, as before
                continue


def check_files(paths: Iterable[str | Path], options: RunOptions | None = None, execution: Execution = IN_PROCESS,
                progress: Progress | None = None) -> Iterator[CaseResult]:
    """What ``check_paths`` gives, with each file loaded by the worker that checks it: checking
    begins as soon as the first file is read, and no case travels to a worker. A case whose id
    an earlier file took is its load failure, as ``collect`` makes it (its check, done before
    that was known, is dropped), so this is not for a run that writes snapshots."""
    run_options = options or RunOptions()
    scanned = scan_case_files(paths)
    if progress is not None and progress.total is None:
        progress.total = len(scanned)
    _warm_up(scanned, run_options, execution)
    deadline = None
    if run_options.case_timeout is not None:
        deadline = Deadline(run_options.case_timeout, partial(_load_overdue, seconds=run_options.case_timeout))
    ids = CaseIds()
    failing = 0
    for entry, checked in map_ordered(partial(_load_and_check, options=run_options), scanned, execution,
                                      chunksize=_chunksize(len(scanned), execution), deadline=deadline):
        admitted = ids.admit(entry)
        if isinstance(admitted, LoadFailure):
            result = failure_result(admitted)
        else:
            assert checked is not None  # a case is always checked
            result = replace(checked, case=admitted)
        failing += result.failing
        if progress is not None:
            progress.advance(1, noted=failing)
        yield result


FAILING = (Status.FAILED, Status.ERRORED, Status.XPASS)
# Every status, in the order summaries list them, with its word in the summary line.
STATUS_WORDS = {Status.PASSED: "passed", Status.FAILED: "failed", Status.ERRORED: "errored", Status.XPASS: "xpassed",
                Status.XFAIL: "xfailed", Status.SKIPPED: "skipped", Status.OPEN: "open"}


CHECKED = (Status.PASSED, Status.FAILED, Status.ERRORED, Status.XFAIL, Status.XPASS)


def nothing_checked(results: Iterable[CaseResult], *, open_checked: bool = True) -> str | None:
    """Why a run checked no case at all (every case skipped, or none found), or None when
    something was compared. Such a run fails: a green run must mean something. An open case
    (needing a ruling) counts as checked where its listed outcomes were compared with the
    reference resolver (``open_checked``); through another implementation it does not."""
    results = list(results)
    if any(r.status in CHECKED or (open_checked and r.status == Status.OPEN) for r in results):
        return None
    if not results:
        return "nothing was checked: no case files were found"
    skipped = [r for r in results if r.status == Status.SKIPPED]
    reasons = sorted({one_line(r.reason, 300) for r in skipped if r.reason})
    why = f" ({'; '.join(reasons[:3])})" if reasons else ""
    return (f"nothing was checked: of {len(results)} case{'s' if len(results) != 1 else ''}, {len(skipped)} "
            f"skipped{why} and {len(results) - len(skipped)} open (needing a ruling); pass --allow-empty if a "
            "run that checks nothing is what you meant")


def summary_line(results: list[CaseResult]) -> str:
    """'N passed, N failed', then the other statuses that occur."""
    counts = {s: sum(r.status == s for r in results) for s in STATUS_WORDS}
    line = f"{counts[Status.PASSED]} passed, {counts[Status.FAILED]} failed"
    return line + "".join(f", {counts[s]} {w}" for s, w in STATUS_WORDS.items()
                          if s not in ("passed", "failed") and counts[s])
