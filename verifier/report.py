"""Machine-readable results: JSON and JUnit XML."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Mapping, Sequence
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
        if r.snapshot is not None:
            entry["snapshot"] = {"status": r.snapshot.status, "path": str(r.snapshot.path),
                                 "artifacts": [str(a) for a in r.snapshot.artifacts]}
        cases.append(entry)
    counts = {s: sum(r.status == s for r in results) for s in STATUS_WORDS}
    return {**(meta or {}), "summary": {**counts, "total": len(results), "line": summary_line(results)},
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


def junit_bytes(results: list[CaseResult]) -> bytes:
    root = results_junit(results)
    for element in root.iter():
        element.attrib = {k: xml_safe(v) for k, v in element.attrib.items()}
        if element.text:
            element.text = xml_safe(element.text)
    tree = ET.ElementTree(root)
    ET.indent(tree)
    body = ET.tostring(root, encoding="unicode")
    return f"<?xml version='1.0' encoding='utf-8'?>\n<!-- {text_mark('check')} -->\n{body}\n".encode()


def write_junit(results: list[CaseResult], path: str | Path, *, force: bool = False) -> None:
    from .output import write_bytes
    write_bytes(path, junit_bytes(results), "--junit report", force)


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


def github_annotations(results: list[CaseResult]) -> list[str]:
    """One workflow command per problem of a failing case (``::error file=..,line=..::``),
    and a notice per case that needs a ruling. Drawings are named in the message they
    belong to, not annotated."""
    out = []
    for r in results:
        if r.failing:
            notes = [p.message for p in r.problems if p.kind is ProblemKind.ARTIFACTS]
            for problem in r.problems:
                if problem.kind is ProblemKind.ARTIFACTS:
                    continue
                loc = problem.location
                props = [f"file={_escape_property(_relative(loc.file or r.file))}"]
                line = loc.line if loc.line is not None else (r.case.line if r.case else None)
                if line is not None:
                    props.append(f"line={line}")
                    if loc.column is not None:
                        props.append(f"col={loc.column}")
                props.append(f"title={_escape_property(f'{r.id} ({r.status})')}")
                message = problem.message + (f" [{loc.field}]" if loc.field else "")
                if notes:
                    message += "\n" + "\n".join(notes)
                out.append(f"::error {','.join(props)}::{_escape_data(message)}")
        elif r.status == Status.OPEN:
            at_line = f",line={r.case.line}" if r.case else ""
            first = r.problems[0].message if r.problems else "see verifier explore"
            out.append(f"::notice file={_escape_property(_relative(r.file))}{at_line},"
                       f"title={_escape_property(r.id + ' (needs a ruling)')}::"
                       f"{_escape_data('this case needs a ruling: ' + first)}")
    return out
