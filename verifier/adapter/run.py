"""Opening an implementation from its spec, and checking cases through it: the
protocol checks, then the comparison the reference resolver gets, with the two
outcomes drawn side by side on a mismatch."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..case import Case, find_case_files, load_case
from ..errors import ImplementationError, Location, VerifierError
from ..ruleset import Outcome
from ..runner import CaseResult, Problem, ProblemKind, Status, _error_result, check_open_case
from .implementation import DEFAULT_TIMEOUT, Implementation
from .inprocess import InProcessImplementation
from .limits import ReadLimits
from .process import SubprocessImplementation
from .protocol import case_request, schema_problem, supports_protocol

MAX_START_FAILURES = 3  # in a row; after that the remaining cases are not tried


def open_implementation(spec: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                        rulesets: Iterable[str] | None = None, limits: ReadLimits | None = None) -> Implementation:
    """``python:MODULE:FUNCTION`` in-process, anything else as a command. ``limits``:
    the bounds on what is read from it (default: ReadLimits.from_env())."""
    if not timeout > 0 or timeout == float("inf"):
        raise ImplementationError("--impl-timeout must be a positive number of seconds")
    limits = limits or ReadLimits.from_env()
    if spec.startswith("python:"):
        return InProcessImplementation(spec, timeout, rulesets, limits)
    return SubprocessImplementation(spec, timeout, cwd, rulesets, limits)


# --- checking cases through an implementation -----------------------------------

@dataclass
class ImplRun:
    """State shared across the cases of one run."""

    impl: Implementation
    draw: bool = True
    failures: Path = Path(".verifier-failures")
    start_failures: int = 0
    given_up: str = ""


def _case_location(case: Case) -> Location:
    return Location(case.path, case.line, None, None)


def _skip(case: Case, reason: str) -> CaseResult:
    return CaseResult(case.path, case, Status.SKIPPED, (), reason=reason)


def _errored(case: Case, message: str, seconds: float = 0.0, kind: ProblemKind = ProblemKind.PROTOCOL) -> CaseResult:
    return CaseResult(case.path, case, Status.ERRORED, (Problem(message, _case_location(case), kind),),
                      seconds=seconds, reason=message)


def check_case_with(case: Case, run: ImplRun) -> CaseResult:
    """One case through another implementation: the protocol checks, then the same
    comparison the reference resolver gets. Snapshots are not compared (they draw the
    reference outcome); on a mismatch, the expected and the implementation's outcome
    are drawn side by side in the failure folder."""
    if case.status == "needs-ruling":
        return check_open_case(case)
    ruleset = case.ruleset
    if not supports_protocol(ruleset):
        return _skip(case, f"ruleset {ruleset.key!r} does not define its outcome as JSON yet "
                           "(Ruleset.outcome_from_json), so other implementations cannot be checked on it")
    if run.given_up:
        return _errored(case, run.given_up)
    why = run.impl.start()
    if why:
        run.start_failures += 1
        message = f"the implementation could not be started: {why}"
        if run.start_failures >= MAX_START_FAILURES:
            run.given_up = f"not tried: the implementation failed to start {run.start_failures} times in a row " \
                           f"(last: {why})"
        return _errored(case, message)
    run.start_failures = 0
    supported = run.impl.rulesets
    if supported is not None and ruleset.key not in supported:
        return _skip(case, f"the implementation's hello lists only {', '.join(sorted(supported)) or 'no rulesets'}")
    request = case_request(case)
    answer = run.impl.ask(request)
    if answer.kind == "skipped":
        return replace(_skip(case, answer.message), seconds=answer.seconds)
    if answer.kind == "errored":
        text = answer.message if answer.protocol else f"the implementation reports an error: {answer.message}"
        if answer.detail:
            text += " | " + " | ".join(answer.detail.strip().splitlines()[-3:])
        return _errored(case, text, answer.seconds, ProblemKind.PROTOCOL if answer.protocol else ProblemKind.ERRORED)
    if ruleset.outcome_schema:
        problem = schema_problem(f"outcome_{ruleset.key}", answer.data)
        if problem:
            return _errored(case, f"the outcome does not fit the {ruleset.key} outcome schema "
                                  f"(docs/schema/adapter.schema.json#/$defs/outcome_{ruleset.key}): {problem}",
                            answer.seconds)
    try:
        outcome = ruleset.outcome_from_json(case.before, answer.data)
    except ImplementationError as exc:
        return _errored(case, f"the outcome cannot be read: {exc}", answer.seconds)
    except Exception as exc:  # a gap in a ruleset's reader must not end the run
        return _errored(case, f"the outcome cannot be read ({type(exc).__name__}: {exc})", answer.seconds)
    problems = [Problem(m.message, case.where(("expect",) + tuple(m.path)))
                for m in ruleset.compare(case.before, case.expect, outcome)]
    if problems and run.draw:
        problems.extend(_draw_difference(case, outcome, run.failures))
    return CaseResult(case.path, case, Status.FAILED if problems else Status.PASSED, tuple(problems), outcome,
                      seconds=answer.seconds)


def _draw_difference(case: Case, outcome: Outcome, failures: Path) -> list[Problem]:
    """The reference outcome and the implementation's, drawn the same way (end states,
    no intermediate frames), with a diff image."""
    from ..snapshots import SnapshotStore
    ruleset = case.ruleset
    try:
        expected = ruleset.resolve(case.before, case.actions, case.readings)
        expected = replace(expected, frames=())
        before_image = ruleset.draw(case.before, case.actions, expected, title=f"{case.title} (expected)")
        actual_image = ruleset.draw(case.before, case.actions, outcome, title=f"{case.title} (implementation)")
        paths = SnapshotStore(failure_dir=failures / "impl").write_failure(ruleset.key, case.id, before_image,
                                                                         actual_image)
    except Exception as exc:  # drawing an odd outcome must not end the run
        return [Problem(f"could not draw the implementation's outcome ({type(exc).__name__}: {exc})",
                        _case_location(case), ProblemKind.ARTIFACTS)]
    return [Problem("expected, actual and diff drawings: " + ", ".join(str(p) for p in paths),
                    _case_location(case), ProblemKind.ARTIFACTS)]


def check_implementation(paths: Iterable[str | Path], impl: Implementation, draw: bool = True,
                         failures: str | Path = ".verifier-failures",
                         progress: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    """Every case under ``paths`` through ``impl``, in the order 'verifier check' uses."""
    run = ImplRun(impl, draw, Path(failures))
    results: list[CaseResult] = []
    seen: dict[tuple[str, str], str] = {}
    try:
        for path in find_case_files(paths):
            try:
                case = load_case(path)
            except VerifierError as error:
                result = _error_result(str(path), error)
            else:
                key = (case.ruleset.key, case.id)
                if key in seen:
                    result = CaseResult(case.path, None, Status.FAILED, (Problem(
                        f"case id {case.id!r} is already used by {seen[key]}; ids must be unique",
                        case.where(("id",)), ProblemKind.ERROR),))
                else:
                    seen[key] = case.path
                    result = check_case_with(case, run)
            results.append(result)
            if progress:
                progress(result)
    finally:
        impl.close()
    return results
