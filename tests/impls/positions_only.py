"""A toy implementation that reports where ships end and nothing else
(python:positions_only:handle): the reference resolver's answer without its events,
states or provenance, under a hello that declares ``reports: ["ships"]``. With
VERIFIER_TOY_EAST=1 in the environment every ship also ends one tile further east,
so that the pictures of a failure show positions that differ while the events are
not reported."""

import os

from verifier.adapters.reference import handle as reference


def handle(message):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: positions only"}, "rulesets": ["ypp"],
                "capabilities": {"ypp": {"reports": ["ships"]}}}
    if answer.get("type") == "outcome":
        ships = answer["outcome"]["ships"]
        if os.environ.get("VERIFIER_TOY_EAST") == "1":
            ships = {name: {**spec, "at": [spec["at"][0] + 1, spec["at"][1]]} for name, spec in ships.items()}
        answer = {**answer, "outcome": {"ships": ships}}
    return answer
