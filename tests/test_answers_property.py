"""Every answer that fits a ruleset's outcome schema is read, compared, reported and
drawn without a traceback, in ``check --impl`` and in fuzz: answers are made from each
ruleset's outcome schema (tests/schema_answers.py, near the reference's answer so that
the scene's names come up) for a Hypothesis-drawn seed, checked against the schema, and
sent as an implementation's answer. A ruleset reader's or comparer's exception would
show as a result's "(SomeError: ...)" text, a drawing's as "could not draw"."""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import CASES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from schema_answers import schema_answer, words_of

from verifier import registry
from verifier.adapter import ImplRun, case_request, check_case_with
from verifier.adapter.implementation import Implementation
from verifier.adapter.protocol import PROTOCOL, Answer, read_answer
from verifier.adapters.reference import handle as reference
from verifier.case import load_case
from verifier.fuzz import run as fuzz_run
from verifier.fuzz import write_report
from verifier.report import comparison_notes, summary_markdown
from verifier.runner import ProblemKind

KEYS = ["armada", "armada2k", "civ", "scatter", "ypp"]
CRASH = re.compile(r"\((?:[A-Z]\w*(?:Error|Exception)|StopIteration)\b")
SAMPLE = 6  # cases per ruleset the answers are made for
COUNTED: Counter[str] = Counter()  # answers sent per ruleset, for the report


def _cases(key: str) -> list:
    files = sorted((CASES / key).glob("*.yaml"))
    step = max(1, math.ceil(len(files) / SAMPLE))
    return [c for c in (load_case(p) for p in files[::step]) if c.expect is not None]


CASES_OF = {key: _cases(key) for key in KEYS}


class Canned(Implementation):
    """Answers every case with ``make(request)``, and says hello first."""

    def __init__(self, make: Any, key: str) -> None:
        self.label = "canned"
        self.make = make
        self.info = {"type": "hello", "protocol": PROTOCOL, "implementation": {"name": "schema answers"},
                     "rulesets": [key]}

    def start(self) -> str | None:
        return None

    def ask(self, request: dict[str, Any]) -> Answer:
        return read_answer(request, {"type": "outcome", "id": request["id"], "outcome": self.make(request)})


def _answer(key: str, request: dict[str, Any], seed: int) -> Any:
    ruleset = registry.get(key)
    like = reference(request)
    return schema_answer(dict(ruleset.outcome_schema or {}), like.get("outcome"), words_of(request["before"]),
                         seed)


def _no_crash(texts: list[str]) -> None:
    for text in texts:
        assert not CRASH.search(text), text
        assert "could not draw" not in text, text
        assert "Traceback" not in text, text


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_check_impl_reads_compares_reports_and_draws_every_schema_valid_answer(key, seed, tmp_path_factory):
    ruleset = registry.get(key)
    case = CASES_OF[key][seed % len(CASES_OF[key])]
    request = case_request(case)
    answer = _answer(key, request, seed)
    assume(jsonschema.Draft202012Validator(ruleset.outcome_schema).is_valid(answer))
    COUNTED[key] += 1
    run = ImplRun(Canned(lambda _: answer, key), draw=seed % 8 == 0, failures=tmp_path_factory.mktemp("failures"),
                  check_order=seed % 7 == 0)
    result = check_case_with(case, run)
    _no_crash([p.message for p in result.problems] + [result.reason or ""])
    assert not any(p.kind == ProblemKind.ERROR for p in result.problems)
    summary_markdown([result])
    comparison_notes([result])


@pytest.mark.parametrize("key", KEYS)
def test_fuzz_reads_compares_reports_and_draws_every_schema_valid_answer(key, tmp_path):
    ruleset = registry.get(key)
    validator = jsonschema.Draft202012Validator(ruleset.outcome_schema)

    def make(request: dict[str, Any]) -> Any:
        seed = zlib.crc32(request["id"].encode())
        for attempt in range(20):  # the first answer made that fits the schema
            answer = _answer(key, request, seed + attempt)
            if validator.is_valid(answer):
                return answer
        raise AssertionError("no answer fits the schema")

    result = fuzz_run(ruleset, Canned(make, key), examples=10, seed=3, budget=120)
    assert result.trials
    texts = [p.message for p in result.problems]
    _no_crash(texts)
    json_path, md_path, *_ = write_report(result, tmp_path)
    _no_crash([md_path.read_text()])
    assert Path(json_path).is_file()
