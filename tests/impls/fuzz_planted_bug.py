"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_planted_bug:handle):
the reference resolver under the default reading, with one planted bug in a narrow
situation: a ship that bumps another also turns a quarter clockwise. No reading
turns a ship for a bump, so the fuzz report must find this and shrink it."""

from verifier.adapters.reference import handle as reference

CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _answer(message):
    answer = reference(message)
    if answer.get("type") == "outcome":
        outcome = answer["outcome"]
        for event in outcome["events"]:
            if event["kind"] == "bump":
                ship = outcome["ships"][event["ships"][0]]
                ship["heading"] = CLOCKWISE[ship["heading"]]
    return answer


def handle(message):
    answer = _answer(message)
    if isinstance(answer, dict) and answer.get("type") == "hello":
        answer = {**answer, "implementation": {"name": "fuzz toy: planted bug"}}
    return answer
