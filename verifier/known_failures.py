"""Known-failure lists: the cases an implementation is known to get wrong, each with
a reason. A listed case that fails is reported as an expected failure (xfail); a
listed case that passes fails the run (xpass), so that the list only ever shrinks.

The file is plain text, one case per line::

    # comments and blank lines are ignored
    ypp-move-1b-equal-class-bump: bumps are not implemented yet
    ypp-wind-2a-whirl: whirlpools turn the wrong way (issue 12)

A YAML mapping of the same shape works too (it is read by the same rule: the id,
a colon, the reason), and so does a ``.json`` file holding one object of id -> reason.

An entry may record how the case fails, one indented ``differs:`` line per thing that
differs (``verifier check --write-known-failures`` writes them)::

    ypp-move-1b-equal-class-bump: Haughty Sawfish should end at [2, 3] but ends at [2, 4]
      differs: ships.Haughty Sawfish.at
      differs: events: unexpected event: Haughty Sawfish bumps Self-Centered Blowfish (round 1)

Such a case is an expected failure only while it fails in exactly that way; failing
differently fails the run, saying what changed. (In JSON: id -> {"reason", "differs"}.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from .case import ID_FORM, valid_id
from .errors import CaseError, Location, did_you_mean
from .output import text_mark, write_text
from .runner import CaseResult, Problem, ProblemKind, Status
from .source import file_problem

MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class KnownFailures:
    file: str
    reasons: dict[str, str]  # case id -> reason, in file order
    lines: dict[str, int]  # case id -> line in the file (1 for JSON)
    differs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # case id -> its fingerprint, if recorded

    def __contains__(self, case_id: str) -> bool:
        return case_id in self.reasons

    def where(self, case_id: str) -> Location:
        return Location(self.file, self.lines.get(case_id), None, None)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def load_known_failures(path: str | Path) -> KnownFailures:
    path = Path(path)
    problem = file_problem(path)
    if problem:
        raise CaseError(f"the known-failure list: {problem}", Location(str(path)))
    try:
        with path.open("rb") as handle:
            content = handle.read(MAX_BYTES + 1)
        text = content.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(f"cannot read the known-failure file: {exc}", Location(str(path))) from None
    if len(content) > MAX_BYTES:
        raise CaseError(f"the known-failure list is larger than {MAX_BYTES:,} bytes", Location(str(path)))
    reasons: dict[str, str] = {}
    lines: dict[str, int] = {}
    differs: dict[str, tuple[str, ...]] = {}
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise CaseError(f"not valid JSON: {exc}", Location(str(path))) from None
        except RecursionError:
            raise CaseError("not a known-failure list: its JSON nests arrays and objects too deeply (a list is one "
                            "object of case id -> reason)", Location(str(path), 1, 1)) from None
        if not isinstance(data, dict):
            raise CaseError("expected one JSON object of case id -> reason", Location(str(path)))
        entries = []
        for k, v in data.items():
            if isinstance(v, dict):
                found = v.get("differs")
                if found is not None and (not isinstance(found, list) or not all(isinstance(d, str) for d in found)):
                    raise CaseError("'differs' must be a list of strings", Location(str(path), 1, 1, f"{k}.differs"))
                differs[str(k)] = tuple(found or ())
                v = v.get("reason")
            entries.append((1, 1, str(k), v))
    else:
        entries = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#") or line == "---":
                continue
            if raw[:1].isspace() and line.startswith("differs:"):
                if not entries:
                    raise CaseError("a 'differs:' line belongs under a 'CASE-ID: reason' line",
                                    Location(str(path), number, 1, "differs"))
                what = line.partition(":")[2].strip()
                if not what:
                    raise CaseError("say what differs after 'differs:'", Location(str(path), number, 1, "differs"))
                owner = entries[-1][2]
                differs[_unquote(owner)] = differs.get(_unquote(owner), ()) + (what,)
                continue
            case_id, sep, reason = line.partition(":")
            entries.append((number, raw.index(line[0]) + 1, case_id.strip(), _unquote(reason.strip()) if sep else None))
    for number, column, case_id, reason in entries:
        where = Location(str(path), number, column, case_id)
        case_id = _unquote(case_id)
        if not valid_id(case_id):
            raise CaseError(f"{case_id!r} is not a case id ({ID_FORM}); write 'CASE-ID: reason'", where)
        if not isinstance(reason, str) or not reason.strip():
            raise CaseError(f"give a reason after the id, such as '{case_id}: bumps are not implemented yet'",
                            where)
        if case_id in reasons:
            raise CaseError(f"{case_id!r} is listed twice (first on line {lines[case_id]})", where)
        reasons[case_id] = reason.strip()
        lines[case_id] = number
    if not reasons:
        raise CaseError("the known-failure list names no case; list 'CASE-ID: reason' lines, or leave out "
                        "--known-failures", Location(str(path)))
    return KnownFailures(str(path), reasons, lines, {k: tuple(sorted(set(v))) for k, v in differs.items()})


def mark_known_failure(result: CaseResult, known: KnownFailures) -> CaseResult:
    """A listed failure becomes xfail, a listed pass xpass; anything else is unchanged
    (the list says nothing about skipped or open cases)."""
    case_id = result.id
    if case_id not in known or result.case is None:
        # A file that does not load is not a case that fails: it cannot be an expected failure.
        return result
    reason = known.reasons[case_id]
    if result.status in (Status.FAILED, Status.ERRORED):
        recorded = known.differs.get(case_id)
        if recorded is not None and recorded != result.fingerprint:
            return replace(result, status=Status.FAILED, problems=result.problems + (
                Problem(_changed(recorded, result.fingerprint, known, case_id), known.where(case_id),
                        ProblemKind.CHANGED),))
        return replace(result, status=Status.XFAIL, reason=reason)
    if result.status == Status.PASSED:
        place = known.where(case_id)
        return replace(result, status=Status.XPASS, reason=reason, problems=(Problem(
            f"passes now, but the known-failure list says it fails ({reason}); delete line {place.line} of "
            f"{known.file}", place, ProblemKind.XPASS),))
    return result


def _changed(recorded: tuple[str, ...], now: tuple[str, ...], known: KnownFailures, case_id: str) -> str:
    new = [d for d in now if d not in recorded]
    gone = [d for d in recorded if d not in now]
    parts = ([f"now also differs at: {'; '.join(new)}"] if new else []) + \
            ([f"no longer differs at: {'; '.join(gone)}"] if gone else [])
    return (f"fails differently from the way line {known.where(case_id).line} of {known.file} records: "
            + "; ".join(parts) + " (if the new failure is expected, write the list again with "
            "--write-known-failures)")


def unused_known_failures(case_ids: Iterable[str], known: KnownFailures) -> list[str]:
    """Notes about listed ids that no case in the run has."""
    ids = list(case_ids)
    present = set(ids)
    notes = []
    for case_id in known.reasons:
        if case_id not in present:
            hint = did_you_mean(case_id, ids) if ids else ""
            notes.append(f"{known.where(case_id)}: no case with id {case_id!r} was run"
                         + (f"; {hint}" if hint.startswith("did you mean") else
                            " (if the case is gone or renamed, update the list)"))
    return notes


def apply_known_failures(results: Iterable[CaseResult], known: KnownFailures) -> tuple[list[CaseResult], list[str]]:
    """Every result marked; and the notes about listed ids that no case in the run has."""
    marked = [mark_known_failure(r, known) for r in results]
    return marked, unused_known_failures((r.id for r in marked), known)


FAILED_STATUSES = (Status.FAILED, Status.ERRORED, Status.XFAIL)


def known_failures_text(results: Iterable[CaseResult]) -> tuple[str, int]:
    """A known-failure list of every case that failed, errored or was an expected failure,
    each with its fingerprint; and how many it lists."""
    lines = [f"# {text_mark('check --write-known-failures')}",
             "# One 'CASE-ID: reason' a line; the 'differs:' lines under it record how the case fails. A listed",
             "# case that fails in another way fails the run. Edit the reasons freely."]
    count = 0
    for r in results:
        if r.case is None or r.status not in FAILED_STATUSES:
            continue
        real = [p for p in r.problems if p.kind not in (ProblemKind.DETAIL, ProblemKind.ARTIFACTS,
                                                          ProblemKind.CHANGED)]
        reason = r.reason if r.status == Status.XFAIL else (real[0].message if real else r.reason)
        reason = " ".join((reason or "fails").split())
        lines.append(f"{r.id}: {reason[:200] + ('...' if len(reason) > 200 else '')}")
        lines += [f"  differs: {' '.join(d.split())}" for d in r.fingerprint]
        count += 1
    return "\n".join(lines) + "\n", count


def write_known_failures(results: Iterable[CaseResult], path: str | Path, force: bool = False) -> int:
    """Write the list (refusing to replace a file the verifier did not write, unless ``force``)."""
    text, count = known_failures_text(results)
    write_text(path, text, "known-failure list", force)
    return count
