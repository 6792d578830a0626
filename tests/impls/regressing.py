"""A toy implementation for known-failure lists (python:regressing:handle): the
reference resolver under bump=motion-first whatever it is told, and without saying
so in its hello, so that the cases whose outcome hangs on the bump reading fail.
With VERIFIER_TOY_EAST=1 in the environment it also regresses: every ship ends one
tile further east, so the cases already failing fail in another way."""

import os

from verifier.adapters.reference import handle as reference


def handle(message):
    if isinstance(message, dict) and message.get("type") == "case":
        message = {**message, "readings": {**message["readings"], "bump": "motion-first"}}
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: regressing"}, "rulesets": ["ypp"]}
    if answer.get("type") == "outcome" and os.environ.get("VERIFIER_TOY_EAST") == "1":
        ships = {name: {**spec, "at": [spec["at"][0] + 1, spec["at"][1]]}
                 for name, spec in answer["outcome"]["ships"].items()}
        answer = {**answer, "outcome": {**answer["outcome"], "ships": ships}}
    return answer
