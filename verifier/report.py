"""Machine-readable results: JSON and JUnit XML."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .output import json_mark, text_mark, write_text
from .ruleset import Capability
from .runner import STATUS_WORDS, CaseResult, Problem, ProblemKind, Status, summary_line


def _problem_json(problem: Problem) -> dict[str, Any]:
    loc = problem.location
    return {"message": problem.message, "kind": problem.kind, "file": loc.file, "line": loc.line,
            "column": loc.column, "field": loc.field}


def results_json(results: list[CaseResult], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    cases = []
    for r in results:
        entry: dict[str, Any] = {"id": r.id, "ruleset": r.ruleset, "file": r.file, "status": r.status,
                 "seconds": round(r.seconds, 4), "problems": [_problem_json(p) for p in r.problems]}
        if r.reason:
            entry["reason"] = r.reason
        if r.case is not None:
            entry["line"] = r.case.line
            entry["title"] = r.case.title
            entry["clauses"] = list(r.case.clauses)
            entry["readings"] = dict(r.case.readings)
        if r.outcome is not None and r.case is not None and r.case.ruleset.supports(Capability.INTERCHANGE):
            try:
                entry["outcome"] = r.case.ruleset.outcome_json(r.outcome)
            except Exception as error:  # the report is still written; the case's own result says what failed
                entry["outcome_error"] = f"{type(error).__name__}: {error}"[:300]
        if r.not_compared:
            entry["not_compared"] = list(r.not_compared)
        if r.compared_under:
            entry["compared_under"] = r.compared_under
        if r.snapshot is not None:
            entry["snapshot"] = {"status": r.snapshot.status, "path": str(r.snapshot.path),
                                 "artifacts": [str(a) for a in r.snapshot.artifacts]}
        cases.append(entry)
    counts = {s: sum(r.status == s for r in results) for s in STATUS_WORDS}
    return {**(meta or {}), "summary": {**counts, "total": len(results), "line": summary_line(results),
                                        "notes": comparison_notes(results)},
            "table": summary_table(results), "cases": cases}


def write_json(results: list[CaseResult], path: str | Path, meta: Mapping[str, Any] | None = None, *,
               force: bool = False) -> None:
    data = {"generator": json_mark("check"), **results_json(results, meta)}
    write_text(path, json.dumps(data, indent=2) + "\n", "--json report", force)


def results_junit(results: list[CaseResult]) -> ET.Element:
    by_ruleset: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_ruleset[r.ruleset].append(r)
    root = ET.Element("testsuites", name="verifier", tests=str(len(results)),
                      failures=str(sum(r.status in (Status.FAILED, Status.XPASS) for r in results)),
                      errors=str(sum(r.status == Status.ERRORED for r in results)))
    for ruleset, group in sorted(by_ruleset.items()):
        suite = ET.SubElement(root, "testsuite", name=ruleset, tests=str(len(group)),
                              failures=str(sum(r.status in (Status.FAILED, Status.XPASS) for r in group)),
                              errors=str(sum(r.status == Status.ERRORED for r in group)),
                              skipped=str(sum(r.status in (Status.OPEN, Status.SKIPPED, Status.XFAIL) for r in group)),
                              time=f"{sum(r.seconds for r in group):.3f}")
        for r in group:
            attrs = {"classname": f"cases.{ruleset}", "name": r.id, "file": r.file, "time": f"{r.seconds:.4f}"}
            if r.case is not None:
                attrs["line"] = str(r.case.line)
            testcase = ET.SubElement(suite, "testcase", attrs)
            if r.status in (Status.FAILED, Status.XPASS):
                failure = ET.SubElement(testcase, "failure", message=r.problems[0].message if r.problems else "")
                failure.text = "\n".join(str(p) for p in r.problems)
            elif r.status == Status.ERRORED:
                error = ET.SubElement(testcase, "error", message=r.problems[0].message if r.problems else r.reason)
                error.text = "\n".join(str(p) for p in r.problems)
            elif r.status == Status.OPEN:
                ET.SubElement(testcase, "skipped", message="needs a ruling")
            elif r.status == Status.SKIPPED:
                ET.SubElement(testcase, "skipped", message=r.reason)
            elif r.status == Status.XFAIL:  # as pytest writes an expected failure
                skipped = ET.SubElement(testcase, "skipped", type="pytest.xfail",
                                        message=f"expected failure: {r.reason}")
                skipped.text = "\n".join(str(p) for p in r.problems)
    return root


# Characters XML 1.0 cannot hold at all, even escaped: they are written as \xNN instead.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def junit_bytes(results: list[CaseResult], command: str = "check") -> bytes:
    root = results_junit(results)
    for element in root.iter():
        element.attrib = {k: xml_safe(v) for k, v in element.attrib.items()}
        if element.text:
            element.text = xml_safe(element.text)
    tree = ET.ElementTree(root)
    ET.indent(tree)
    body = ET.tostring(root, encoding="unicode")
    return f"<?xml version='1.0' encoding='utf-8'?>\n<!-- {text_mark(command)} -->\n{body}\n".encode()


def write_junit(results: list[CaseResult], path: str | Path, *, force: bool = False, command: str = "check") -> None:
    from .output import write_bytes
    write_bytes(path, junit_bytes(results, command), "--junit report", force)


# --- summary table ------------------------------------------------------------

TABLE_STATUSES = tuple(STATUS_WORDS)


def summary_table(results: list[CaseResult]) -> list[dict[str, Any]]:
    """Counts per ruleset (clause "*") and per clause a case lists, one row each:
    {"ruleset", "clause", "passed", "failed", "errored", "xpass", "xfail", "skipped",
    "open", "total"}. Clauses follow the ruleset's clause table."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}

    def count(ruleset: str, clause: str, status: str) -> None:
        row = rows.setdefault((ruleset, clause), {"ruleset": ruleset, "clause": clause,
                                                  **{s: 0 for s in TABLE_STATUSES}, "total": 0})
        row[status] = row.get(status, 0) + 1
        row["total"] += 1

    order: dict[str, list[str]] = {}
    for r in results:
        count(r.ruleset, "*", r.status)
        if r.case is not None:
            order.setdefault(r.ruleset, list(r.case.ruleset.clause_ids))
            for clause in r.case.clauses:
                count(r.ruleset, clause, r.status)

    def key(row: Mapping[str, Any]) -> tuple[str, bool, int, str]:
        table = order.get(row["ruleset"], [])
        clause = row["clause"]
        return (row["ruleset"], clause != "*", table.index(clause) if clause in table else len(table), clause)

    return sorted(rows.values(), key=key)


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The table as text: passed and failed always, other statuses where some case has them.
    Every line starts with the ruleset's key (nothing is indented)."""
    if not rows:
        return ""
    columns = [s for s in TABLE_STATUSES if s in ("passed", "failed") or any(r[s] for r in rows)]
    headers = ["ruleset", "clause"] + [STATUS_WORDS[c] for c in columns]
    body = [[r["ruleset"], "(all cases)" if r["clause"] == "*" else r["clause"]] + [str(r[c]) for c in columns]
            for r in rows]
    widths = [max(len(line[i]) for line in [headers] + body) for i in range(len(headers))]

    def fmt(line: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
    return "\n".join(fmt(line).rstrip() for line in [headers] + body)


def summary_markdown(results: list[CaseResult], title: str = "verifier") -> str:
    """The summary line and table in Markdown (for $GITHUB_STEP_SUMMARY)."""
    rows = summary_table(results)
    columns = [s for s in TABLE_STATUSES if s in ("passed", "failed") or any(r[s] for r in rows)]
    lines = [f"### {title}: {summary_line(results)}", "",
             "| ruleset | clause | " + " | ".join(STATUS_WORDS[c] for c in columns) + " |",
             "|---|---|" + "---:|" * len(columns)]
    for row in rows:
        clause = "**all cases**" if row["clause"] == "*" else f"`{row['clause']}`"
        lines.append(f"| {row['ruleset']} | {clause} | " + " | ".join(str(row[c]) for c in columns) + " |")
    notes = comparison_notes(results)
    if notes:
        lines += [""] + [f"- {note}" for note in notes]
    failing = [r for r in results if r.failing]
    if failing:
        lines += ["", "| case | status | first problem |", "|---|---|---|"]
        for r in failing:
            first = (r.problems[0].message if r.problems else r.reason).replace("|", "\\|")
            lines.append(f"| `{r.id}` | {r.status} | {first} |")
    return "\n".join(lines) + "\n"


# --- GitHub Actions annotations -------------------------------------------------

def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _relative(file: str) -> str:
    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return file


GITHUB_SHOWN = 10  # annotations of one type (error, warning, notice) that GitHub shows per step


@dataclass(frozen=True)
class Annotation:
    """One GitHub Actions workflow command, with what sorts it: real mismatches first."""

    rank: int
    command: str  # error or notice
    properties: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        return f"::{self.command} {','.join(self.properties)}::{_escape_data(self.message)}"


_RANKS = {ProblemKind.MISMATCH: 0, ProblemKind.CHANGED: 0, ProblemKind.XPASS: 0, ProblemKind.CLAUSE: 1,
          ProblemKind.SNAPSHOT: 1, ProblemKind.ERROR: 1, ProblemKind.ERRORED: 2, ProblemKind.PROTOCOL: 2}
_NOT_ANNOTATED = (ProblemKind.ARTIFACTS, ProblemKind.DETAIL, ProblemKind.NOTE)


def _place(r: CaseResult, file: str | None = None, line: int | None = None, column: int | None = None) -> list[str]:
    props = [f"file={_escape_property(_relative(file or r.file))}"]
    line = line if line is not None else (r.case.line if r.case else None)
    if line is not None:
        props.append(f"line={line}")
        if column is not None:
            props.append(f"col={column}")
    return props


def all_annotations(results: list[CaseResult]) -> list[Annotation]:
    """Every annotation, in the order they matter: the differences of failing cases, then
    their errors, then notices (cases compared under another reading, parts not compared,
    cases that need a ruling). Drawings and provenance go with the message they belong to."""
    found = []
    for r in results:
        if r.failing:
            extra = [p.message for p in r.problems if p.kind in (ProblemKind.DETAIL, ProblemKind.ARTIFACTS)]
            if r.compared_under:
                extra.insert(0, r.compared_under)
            for problem in r.problems:
                if problem.kind in _NOT_ANNOTATED:
                    continue
                loc = problem.location
                title = f"title={_escape_property(f'{r.id} ({r.status})')}"
                props = _place(r, loc.file, loc.line, loc.column) + [title]
                message = problem.message + (f" [{loc.field}]" if loc.field else "")
                found.append(Annotation(_RANKS.get(problem.kind, 1), "error", tuple(props),
                                        "\n".join([message, *extra])))
        elif r.compared_under and r.status in (Status.PASSED, Status.XFAIL):
            found.append(Annotation(3, "notice", tuple(_place(r) + [f"title={_escape_property(r.id + ' (reading)')}"]),
                                    r.compared_under))
        elif r.status == Status.OPEN:
            first = r.problems[0].message if r.problems else "see verifier explore"
            found.append(Annotation(5, "notice", tuple(_place(r) + [
                f"title={_escape_property(r.id + ' (needs a ruling)')}"]), "this case needs a ruling: " + first))
    not_compared = _not_compared(results)
    for part, count in not_compared.items():
        found.append(Annotation(4, "notice", (f"title={_escape_property('not compared: ' + part)}",),
                                f"{part} not compared in {count} case{'s' if count != 1 else ''}: the "
                                "implementation's hello says it does not report them"))
    return sorted(found, key=lambda a: a.rank)


def github_annotations(results: list[CaseResult], summary_file: str | None = None) -> list[str]:
    """The annotations as workflow commands, most important first. GitHub shows only the
    first 10 of each type per step; when there are more, a warning first says so, and
    where the full list went (``summary_file``, the step summary)."""
    found = all_annotations(results)
    lines = [str(a) for a in found]
    counts = {kind: sum(a.command == kind for a in found) for kind in ("error", "notice")}
    over = {kind: n for kind, n in counts.items() if n > GITHUB_SHOWN}
    if over:
        where = ("the full list is in the step summary" if summary_file else
                 "run with $GITHUB_STEP_SUMMARY set, or --json, for the full list")
        words = " and ".join(f"{n} {kind}s" for kind, n in over.items())
        lines.insert(0, f"::warning title=more annotations than GitHub shows::{words}: GitHub shows the first "
                        f"{GITHUB_SHOWN} of each per step (differences first, then errors, then notices); {where}")
    return lines


def annotations_markdown(results: list[CaseResult]) -> str:
    """Every annotation as a Markdown table, for $GITHUB_STEP_SUMMARY."""
    found = all_annotations(results)
    if not found:
        return ""
    lines = ["", f"#### every annotation ({len(found)})", "", "| kind | where | message |", "|---|---|---|"]
    for a in found:
        where = " ".join(p.replace("%2C", ",").replace("%3A", ":") for p in a.properties if not p.startswith("title="))
        message = a.message.replace("|", "\\|").replace("\n", "<br>")
        lines.append(f"| {a.command} | {where.replace('|', chr(92) + '|')} | {message} |")
    return "\n".join(lines) + "\n"


def _not_compared(results: list[CaseResult]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        for part in r.not_compared:
            counts[part] = counts.get(part, 0) + 1
    return counts


def comparison_notes(results: list[CaseResult]) -> list[str]:
    """What the run did not compare, and what it compared with something other than the
    cases' own expectations, one sentence each."""
    notes = []
    compared = [r for r in results if r.status in (Status.PASSED, Status.FAILED, Status.XFAIL, Status.XPASS)]
    for part, count in _not_compared(results).items():
        notes.append(f"not compared: {part}, in {count} of {len(compared)} compared case"
                     f"{'s' if len(compared) != 1 else ''} (the implementation does not report it)")
    under: dict[str, list[str]] = {}
    for r in results:
        if r.compared_under:
            under.setdefault(r.compared_under.split(" (")[0], []).append(r.id)
    for words, ids in under.items():
        notes.append(f"{len(ids)} case{'s' if len(ids) != 1 else ''} {words} instead of the case's expectation: "
                     + ", ".join(ids))
    return notes
