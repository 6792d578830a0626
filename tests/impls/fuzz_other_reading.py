"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_other_reading:handle):
the reference resolver, but always under a reading other than the default (for ypp
bump=motion-first and vacate=blocked, for civ advantage=phantom), whatever reading
it is told. The fuzz report must name that reading."""

from verifier.adapters.reference import handle as reference

READINGS = {"ypp": {"bump": "motion-first", "vacate": "blocked"}, "civ": {"advantage": "phantom"}}


def _answer(message):
    if isinstance(message, dict) and message.get("type") == "case":
        message = {**message, "readings": {**message["readings"], **READINGS.get(message["ruleset"], {})}}
    return reference(message)


def handle(message):
    answer = _answer(message)
    if isinstance(answer, dict) and answer.get("type") == "hello":
        answer = {**answer, "implementation": {"name": "fuzz toy: other reading"}}
    return answer
