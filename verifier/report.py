"""Machine-readable results: JSON and JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from .runner import CaseResult, summary_line


def _problem_json(problem) -> dict:
    loc = problem.location
    return {"message": problem.message, "kind": problem.kind, "file": loc.file, "line": loc.line,
            "column": loc.column, "field": loc.field}


def results_json(results: list[CaseResult]) -> dict:
    cases = []
    for r in results:
        entry = {"id": r.id, "ruleset": r.ruleset, "file": r.file, "status": r.status,
                 "seconds": round(r.seconds, 4), "problems": [_problem_json(p) for p in r.problems]}
        if r.case is not None:
            entry["line"] = r.case.line
            entry["title"] = r.case.title
            entry["clauses"] = list(r.case.clauses)
            entry["readings"] = dict(r.case.readings)
        if r.outcome is not None and r.case is not None:
            entry["outcome"] = r.case.ruleset.outcome_json(r.outcome)
        if r.snapshot is not None:
            entry["snapshot"] = {"status": r.snapshot.status, "path": str(r.snapshot.path),
                                 "artifacts": [str(a) for a in r.snapshot.artifacts]}
        cases.append(entry)
    counts = {s: sum(r.status == s for r in results) for s in ("passed", "failed", "open")}
    return {"summary": {**counts, "total": len(results), "line": summary_line(results)}, "cases": cases}


def write_json(results: list[CaseResult], path: str | Path) -> None:
    Path(path).write_text(json.dumps(results_json(results), indent=2) + "\n", encoding="utf-8")


def results_junit(results: list[CaseResult]) -> ET.Element:
    by_ruleset: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_ruleset[r.ruleset].append(r)
    root = ET.Element("testsuites", name="verifier", tests=str(len(results)),
                      failures=str(sum(r.status == "failed" for r in results)))
    for ruleset, group in sorted(by_ruleset.items()):
        suite = ET.SubElement(root, "testsuite", name=ruleset, tests=str(len(group)),
                              failures=str(sum(r.status == "failed" for r in group)),
                              skipped=str(sum(r.status == "open" for r in group)),
                              time=f"{sum(r.seconds for r in group):.3f}")
        for r in group:
            attrs = {"classname": f"cases.{ruleset}", "name": r.id, "file": r.file, "time": f"{r.seconds:.4f}"}
            if r.case is not None:
                attrs["line"] = str(r.case.line)
            testcase = ET.SubElement(suite, "testcase", attrs)
            if r.status == "failed":
                failure = ET.SubElement(testcase, "failure", message=r.problems[0].message if r.problems else "")
                failure.text = "\n".join(str(p) for p in r.problems)
            elif r.status == "open":
                ET.SubElement(testcase, "skipped", message="needs a ruling")
    return root


def write_junit(results: list[CaseResult], path: str | Path) -> None:
    tree = ET.ElementTree(results_junit(results))
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
