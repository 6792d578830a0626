"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_two_bugs:handle): the
planted bug of ``fuzz_planted_bug`` (a ship that bumps another also turns a quarter
clockwise) and a second one in another situation: a ship that hits a rock turns a
quarter anticlockwise. Both change a ship's heading only, so only where they happen
tells them apart; the fuzz report must give two groups."""

from fuzz_planted_bug import CLOCKWISE

from verifier.adapters.reference import handle as reference

ANTICLOCKWISE = {after: before for before, after in CLOCKWISE.items()}


def _answer(message):
    answer = reference(message)
    if answer.get("type") == "outcome":
        outcome = answer["outcome"]
        for event in outcome["events"]:
            ship = outcome["ships"][event["ships"][0]]
            if event["kind"] == "bump":
                ship["heading"] = CLOCKWISE[ship["heading"]]
            elif event["kind"] == "rock":
                ship["heading"] = ANTICLOCKWISE[ship["heading"]]
    return answer


def handle(message):
    answer = _answer(message)
    if isinstance(answer, dict) and answer.get("type") == "hello":
        answer = {**answer, "implementation": {"name": "fuzz toy: two planted bugs"}}
    return answer
