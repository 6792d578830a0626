"""Checking cases through an implementation (asked through its ``Session``): the
protocol checks, then the comparison the reference resolver gets, with the two
outcomes drawn side by side on a mismatch."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..case import Case, LoadFailure, collect, crash_message
from ..errors import Location
from ..refusal import draw_outcome
from ..ruleset import Capability, Frame, Outcome, compare_outcome
from ..runner import (
    CaseResult,
    Problem,
    ProblemKind,
    Status,
    case_state_problems,
    case_states,
    check_open_case,
    failure_result,
    mismatch_problem,
)
from .declare import STATES, described, feature_words, left_out, parts, unreported_fields, without_fields
from .implementation import Implementation
from .protocol import answer_text, case_request, reference_frames_at, restated_expectation, supports_protocol
from .session import MAX_START_FAILURES, Session, open_implementation

__all__ = ["MAX_START_FAILURES", "ImplRun", "check_case_with", "check_implementation", "open_implementation"]


# --- checking cases through an implementation -----------------------------------

@dataclass
class ImplRun:
    """The options of one run of cases through an implementation, and its session.
    ``check_order``: send each case a second time with its pieces listed in reverse order,
    and fail a case whose answer changes."""

    impl: Implementation
    draw: bool = True
    failures: Path = Path(".verifier-failures")
    check_order: bool = False
    session: Session = field(init=False)

    def __post_init__(self) -> None:
        self.session = Session(self.impl)


def _case_location(case: Case) -> Location:
    return Location(case.path, case.line, None, None)


def _skip(case: Case, reason: str) -> CaseResult:
    return CaseResult(case.path, case, Status.SKIPPED, (), reason=reason)


def _errored(case: Case, message: str, seconds: float = 0.0, kind: ProblemKind = ProblemKind.PROTOCOL) -> CaseResult:
    return CaseResult(case.path, case, Status.ERRORED, (Problem(message, _case_location(case), kind),),
                      seconds=seconds, reason=message)


def _options(reading: Mapping[str, str], points: Iterable[str]) -> str:
    return ", ".join(f"{p}={reading[p]}" for p in points)


def _expectation(case: Case, outcome: Outcome) -> Any:
    """An expectation that ``outcome`` (the reference's, under another reading) satisfies."""
    return restated_expectation(case.ruleset, case.path, case.before, case.doc.data["before"],
                                case.doc.data["actions"], outcome)


def _changes_compared_parts(case: Case, options: Mapping[str, str], unreported: frozenset[str]) -> bool:
    """Whether resolving ``case`` with ``options`` instead of its own changes what is
    compared with its expectation, outside the fields in ``left_out``."""
    ruleset = case.ruleset
    other = ruleset.resolve(case.before, case.actions, ruleset.reading({**case.readings, **options}))
    return any(not left_out(m.path, unreported) for m in compare_outcome(ruleset, case.before, case.expect, other))


def check_case_with(case: Case, run: ImplRun) -> CaseResult:
    """One case through another implementation: the protocol checks, then the same
    comparison the reference resolver gets, on the parts of the outcome the
    implementation reports, under the reading it follows. Snapshots are not compared
    (they draw the reference outcome); on a mismatch, the expected and the
    implementation's outcome are drawn the same way in the failure folder."""
    if case.status == "needs-ruling":
        return check_open_case(case)
    ruleset = case.ruleset
    if not supports_protocol(ruleset):
        return _skip(case, f"ruleset {ruleset.key!r} does not define its outcome as JSON yet "
                           "(Ruleset.outcome_from_json), so other implementations cannot be checked on it")
    session = run.session
    if session.given_up:
        return _errored(case, f"not tried: {session.given_up}")
    why = session.start()
    if why:
        return _errored(case, why)
    unsupported = session.unsupported(ruleset)
    if unsupported:
        return _skip(case, unsupported)
    declaration = session.declaration(ruleset)
    lacking = declaration.lacking(ruleset, case.before, case.actions)
    if lacking:
        return _skip(case, f"the case needs {feature_words(ruleset, lacking)}, which the implementation's hello "
                           "does not list in 'supports'")
    try:
        reference = ruleset.resolve(case.before, case.actions, case.readings)
    except Exception as exc:  # a bug of the ruleset is this case's failure, not the end of the run
        return CaseResult(case.path, case, Status.FAILED, (Problem(
            crash_message("resolving the case with the reference resolver", exc), _case_location(case),
            ProblemKind.ERROR),))
    depends_on = reference.consulted
    follows = declaration.reading(ruleset, case.readings)
    differing = [p.name for p in ruleset.reading_points
                 if p.name in depends_on and follows[p.name] != case.readings[p.name]]
    declared_out = unreported_fields(ruleset, frozenset(p.name for p in declaration.unreported(ruleset)))
    pinned = [p for p in differing if p in case.pinned]
    if pinned:
        # A pinned point that changes only parts the implementation does not report (say the
        # unit of damage, for one that reports positions) is no reason to skip the case.
        try:
            changed = _changes_compared_parts(case, {p: follows[p] for p in pinned}, declared_out)
        except Exception as exc:
            return CaseResult(case.path, case, Status.FAILED, (Problem(
                crash_message(f"resolving the case under {_options(follows, pinned)}", exc), _case_location(case),
                ProblemKind.ERROR),))
        if not changed:
            differing = [p for p in differing if p not in pinned]
            pinned = []
    if pinned:
        return _skip(case, f"the case pins {_options(case.readings, pinned)}, which its outcome depends on; the "
                           f"implementation follows {_options(follows, pinned)}")
    if differing:
        # Another reading that changes only parts the implementation does not report leaves the
        # case's own expectation standing: it is compared with that, not with the reference.
        try:
            changed = _changes_compared_parts(case, {p: follows[p] for p in differing}, declared_out)
        except Exception as exc:
            return CaseResult(case.path, case, Status.FAILED, (Problem(
                crash_message(f"resolving the case under {_options(follows, differing)}", exc),
                _case_location(case), ProblemKind.ERROR),))
        states_compared = ruleset.supports(Capability.STATES) and STATES in {
            p.name for p in declaration.reported(ruleset)}
        if not changed and not states_compared:  # the reading's states would differ all the same
            differing = []
    expect, compared_under = case.expect, ""
    if differing:
        if not ruleset.supports(Capability.FINDINGS):
            return _skip(case, f"the outcome depends on {_options(case.readings, differing)}, the implementation "
                               f"follows {_options(follows, differing)}, and ruleset {ruleset.key!r} cannot write "
                               "an expectation under another reading (Capability.FINDINGS)")
        try:
            reference = ruleset.resolve(case.before, case.actions, follows)
            expect = _expectation(case, reference)
        except Exception as exc:
            return CaseResult(case.path, case, Status.FAILED, (Problem(
                crash_message(f"resolving the case under {_options(follows, differing)}", exc),
                _case_location(case), ProblemKind.ERROR),))
        compared_under = (f"compared with the reference resolver under {_options(follows, differing)} (the "
                          f"implementation's reading); the case expects {_options(case.readings, differing)}")
    request = case_request(case, depends_on)
    answer = session.ask(request)
    if answer.kind == "skipped":
        return replace(_skip(case, answer.message), seconds=answer.seconds)
    if answer.kind == "errored":
        text = answer.message if answer.protocol else f"the implementation reports an error: {answer.message}"
        if answer.detail:
            text += " | " + " | ".join(answer.detail.strip().splitlines()[-3:])
        return _errored(case, text, answer.seconds, ProblemKind.PROTOCOL if answer.protocol else ProblemKind.ERRORED)
    outcome = session.outcome(ruleset, case.before, answer.data)
    if isinstance(outcome, str):
        return _errored(case, outcome, answer.seconds)
    not_compared = tuple(p.name for p in parts(ruleset) if p.name in outcome.unreported)
    unreported = unreported_fields(ruleset, outcome.unreported)
    problems = [mismatch_problem(case, m) for m in compare_outcome(ruleset, case.before, expect, outcome)
                if not left_out(m.path, unreported)]
    matched: list[tuple[Frame, dict[str, Any]]] = []
    if ruleset.supports(Capability.STATES) and STATES not in not_compared:
        if outcome.refusal is None and reference.refusal is None:
            matched = _matched_states(reference, answer.data["states"])
            if case_states(case) and not compared_under:  # the case's own states, where it gives them
                problems += case_state_problems(case, case_states(case), answer.data["states"], "the implementation's")
            else:
                problems += _state_problems(case, reference, matched)
        elif outcome.refusal is None:  # a refused action carried out: its states are drawn, not compared
            matched = [(Frame(e["round"], e.get("phase") or "", e.get("step", 0), None), e)
                       for e in answer.data.get("states") or ()]
    if run.check_order:
        problems += _order_problems(case, run, request, answer.data, set(unreported) | {"provenance"})
    if problems:
        problems += _provenance_details(case, reference, outcome, problems)
        if run.draw:
            problems += _draw_difference(case, reference, outcome, run.failures, matched)
    failed = any(p.kind not in (ProblemKind.DETAIL, ProblemKind.ARTIFACTS, ProblemKind.NOTE) for p in problems)
    return CaseResult(case.path, case, Status.FAILED if failed else Status.PASSED, tuple(problems), outcome,
                      seconds=answer.seconds, not_compared=not_compared, compared_under=compared_under)


# --- states ---------------------------------------------------------------------

def _leaves(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every leaf of nested mappings, by its path (lists are leaves)."""
    if isinstance(value, Mapping):
        found: dict[tuple[str, ...], Any] = {}
        for key, item in value.items():
            found.update(_leaves(item, path + (str(key),)))
        return found
    return {path: value}


def _matched_states(reference: Outcome, states: list[Any]) -> list[tuple[Frame, dict[str, Any]]]:
    """The reported states paired with the reference's state at the same moment, in the
    order the reference went through them (``reference_frames_at``)."""
    moments = [(entry["round"], entry.get("phase"), entry.get("step", 0)) for entry in states]
    return [(frame, states[place]) for place, frame in reference_frames_at(reference, moments)]


def _state_problems(case: Case, reference: Outcome, matched: list[tuple[Frame, dict[str, Any]]]) -> list[Problem]:
    """The first reported state that differs from the reference's at the same moment, with
    the clauses the reference applied to the pieces that differ in that round."""
    ruleset = case.ruleset
    for frame, entry in matched:
        expected = _leaves(ruleset.state_json(frame.state))
        actual = _leaves({k: v for k, v in entry.items() if k not in ("round", "phase", "step")})
        differing = sorted(p for p in expected.keys() | actual.keys() if expected.get(p) != actual.get(p))
        if not differing:
            continue
        moment = f"after round {frame.round}" if entry.get("phase") is None else f"at {frame}"
        words = [f"{'.'.join(p[1:]) or p[0]} is {actual.get(p, 'missing')}, the reference has "
                 f"{expected.get(p, 'nothing')}" for p in differing[:6]]
        pieces = sorted({p[1] for p in differing if len(p) > 1})
        applied = [f"{piece}: " + ", ".join(c.clause or f"reading {c.point}={c.option}"
                                            for c in reference.provenance.get(piece, ()) if c.round == frame.round)
                   for piece in pieces if any(c.round == frame.round for c in reference.provenance.get(piece, ()))]
        message = (f"the states first differ {moment}: " + "; ".join(words)
                   + (f" (and {len(differing) - 6} more)" if len(differing) > 6 else "")
                   + (f". The reference applied in round {frame.round}: " + "; ".join(applied) if applied else ""))
        return [Problem(message, case.where(("actions",)), ProblemKind.MISMATCH,
                        f"states {frame}: " + ", ".join(f"{'.'.join(p[1:])} = {json.dumps(actual.get(p))}"
                                                        for p in differing))]
    return []


# --- listing order ----------------------------------------------------------------

def _reversed_listing(value: Any) -> Any:
    """The same data with every mapping's keys in reverse order; lists keep theirs (their
    order may mean something, such as rounds)."""
    if isinstance(value, dict):
        return {k: _reversed_listing(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_listing(v) for v in value]
    return value




def _order_problems(case: Case, run: ImplRun, request: dict[str, Any], first: Any,
                    ignored: set[str]) -> list[Problem]:
    """Ask again with the pieces listed in reverse order; the answer must not change."""
    again = {**request, "id": f"{request['id']}~reversed", "before": _reversed_listing(request["before"]),
             "actions": _reversed_listing(request["actions"])}
    if json.dumps([again["before"], again["actions"]]) == json.dumps([request["before"], request["actions"]]):
        return []  # one piece: nothing to reorder
    answer = run.session.ask(again)
    where = case.where(("before",))
    if answer.kind not in ("outcome", "refused"):
        return [Problem(f"with the pieces listed in reverse order the implementation answered {answer.kind}"
                        + (f": {answer.message}" if answer.message else ""), where, ProblemKind.MISMATCH,
                        "listing order")]
    if not isinstance(answer.data, dict):
        return []
    # Only what the protocol describes and compares, of the parts the implementation reports:
    # an informative extra field may change with the order.
    schema = case.ruleset.outcome_schema or {}
    one = described(without_fields(first, ignored), schema)
    two = described(without_fields(answer.data, ignored), schema)
    if answer_text(one) == answer_text(two):
        return []
    changed = sorted(k for k in one.keys() | two.keys() if answer_text(one.get(k)) != answer_text(two.get(k)))
    return [Problem(f"the answer depends on the order the pieces are listed in: with them listed in reverse "
                    f"order, {', '.join(changed)} change{'s' if len(changed) == 1 else ''}; the order of a "
                    "request carries no meaning", where, ProblemKind.MISMATCH, "listing order")]


# --- what a failure shows ----------------------------------------------------------

def _provenance_details(case: Case, reference: Outcome, outcome: Outcome, problems: list[Problem]) -> list[Problem]:
    """The provenance of the pieces the differences name, the reference's and the implementation's."""
    said = " ".join(p.message for p in problems if p.kind is ProblemKind.MISMATCH)
    pieces = [piece for piece in sorted(set(reference.provenance) | set(outcome.provenance)) if piece in said]
    details = []
    for piece in pieces:
        ours = ", ".join(map(str, reference.provenance.get(piece, ()))) or "nothing"
        theirs = ", ".join(map(str, outcome.provenance.get(piece, ()))) or "not reported"
        theirs = "the same" if theirs == ours else theirs
        details.append(Problem(f"provenance of {piece}: reference {ours}; implementation {theirs}",
                               _case_location(case), ProblemKind.DETAIL))
    return details


def _draw_difference(case: Case, reference: Outcome, outcome: Outcome, failures: Path,
                     matched: list[tuple[Frame, dict[str, Any]]]) -> list[Problem]:
    """The reference outcome the implementation's was compared with, and the
    implementation's, drawn with the same title and reading line (their tracks through
    the states the implementation reported, or straight to the end), with a diff image
    that marks what differs, and both side by side in one frame (``.compare.png``). Parts the implementation does not
    report are drawn as such, not as nothing happening."""
    from ..snapshots import SnapshotStore, png_bytes
    from .protocol import as_answered, with_places
    ruleset = case.ruleset
    try:
        # The reference is drawn as an answer would carry it (as_answered), with the parts the
        # implementation reports, so that both pictures come from the same footing and the diff
        # shows only what was compared. Tracks pass through the moments the implementation
        # reported states for, on both sides.
        first = tuple(f for f in reference.frames if f.is_start)[:1]
        start = first if matched else ()
        theirs = tuple(replace(f, state=ruleset.state_from_json(entry)) for f, entry in matched)
        actual = replace(with_places(outcome, reference), frames=start + theirs, reading=reference.reading,
                         consulted=reference.consulted)
        # A refusal is drawn as the scene where it stands (its start), under a band that names it.
        if reference.refusal is not None:
            expected = replace(reference, frames=first, unreported=outcome.unreported)
        else:
            expected = replace(as_answered(ruleset, case.before, reference),
                               frames=start + tuple(f for f, _ in matched), unreported=outcome.unreported)
        if outcome.refusal is not None:
            actual = replace(actual, frames=first, after=ruleset.unchanged(case.before, case.actions))
        title = case.title + (f" ({', '.join(sorted(outcome.unreported))}: not reported, not compared)"
                              if outcome.unreported else "")
        expected_image = draw_outcome(ruleset, case.before, case.actions, expected, title)
        actual_image = draw_outcome(ruleset, case.before, case.actions, actual, title)
        store = SnapshotStore(failure_dir=failures / "impl")
        paths = store.write_failure(ruleset.key, case.id, expected_image, actual_image)
        # Both outcomes side by side in one picture: one frame and extent, where a drawing that fits
        # its view to what it draws (armada) gives the two pictures alone different extents.
        compare_path = store.failure_dir / ruleset.key / f"{case.id}.compare.png"
        try:
            compare_path.write_bytes(png_bytes(ruleset.draw_readings(
                case.before, case.actions, [("before", None), ("reference", expected), (
                    "implementation" + (f" ({', '.join(sorted(outcome.unreported))}: not reported)"
                                        if outcome.unreported else ""), actual)], title=case.title)))
            paths = (*paths, compare_path)
        except Exception:  # the side-by-side picture is extra: the three above are written already
            pass
    except Exception as exc:  # drawing an odd outcome must not end the run
        return [Problem(f"could not draw the implementation's outcome ({type(exc).__name__}: {exc})",
                        _case_location(case), ProblemKind.ARTIFACTS)]
    return [Problem("expected, actual and diff drawings: " + ", ".join(str(p) for p in paths),
                    _case_location(case), ProblemKind.ARTIFACTS)]


def check_implementation(paths: Iterable[str | Path], impl: Implementation, draw: bool = True,
                         failures: str | Path = ".verifier-failures",
                         progress: Callable[[CaseResult], None] | None = None,
                         check_order: bool = False) -> list[CaseResult]:
    """Every case under ``paths`` through ``impl``, in the order 'verifier check' uses."""
    run = ImplRun(impl, draw, Path(failures), check_order=check_order)
    results: list[CaseResult] = []
    try:
        for entry in collect(paths).entries:
            result = failure_result(entry) if isinstance(entry, LoadFailure) else check_case_with(entry, run)
            results.append(result)
            if progress:
                progress(result)
    finally:
        run.session.close()
    return results
