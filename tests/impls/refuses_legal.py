"""A toy implementation that refuses one legal action (python:refuses_legal:handle): a
small ship's three straight steps, which it takes for past the small ship's limit
(move.1c), as an implementation with the wrong step limit would. Every other case is
answered as the reference does. With VERIFIER_TOY_REFUSAL=unnamed its refusals of the
cases that expect one name no clause, and with =wrong they name another clause."""

import os

from verifier.adapters.reference import handle as reference

LEGAL = "armada2k-whole-steps-small-three"


def handle(message):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: refuses a legal move"}}
    if message.get("id") == LEGAL:
        return {"type": "refused", "id": LEGAL, "clause": "move.1c", "reason": "a small ship moves two steps at most"}
    if answer.get("type") == "refused":
        mode = os.environ.get("VERIFIER_TOY_REFUSAL", "")
        if mode == "unnamed":
            return {"type": "refused", "id": answer["id"]}
        if mode == "wrong":
            return {**answer, "clause": "fiddly.1"}
    return answer
