"""A misbehaving in-process implementation (--impl python:bad_python:handle): each
case below gets a different kind of bad answer; every other case gets the
reference resolver's answer."""

import time

from verifier.adapters.reference import handle as reference


def handle(message):
    if message["type"] == "hello":
        return reference(message)
    case_id = message["id"]
    answer = reference(message)
    if case_id == "ypp-move-1a-forward":
        return 1 / 0
    if case_id == "ypp-move-2a-turn":
        return {"type": "outcome", "outcome": {1, 2}}
    if case_id == "ypp-move-2a-no-collision":
        return {"type": "outcome"}
    if case_id == "ypp-edge-forward":
        answer["outcome"]["ships"].clear()
    if case_id == "ypp-rock-forward":
        answer["id"] = "ypp-some-other-case"
    if case_id == "ypp-move-1c-direct-conflict":
        for ship in answer["outcome"]["ships"].values():
            ship["heading"] = "X"
    if case_id == "ypp-move-1b-equal-class-bump":
        time.sleep(3)
    return answer
