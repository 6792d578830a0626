"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_random:handle): every
ship ends on a random tile of the board facing a random way, with no events; the
answer changes from call to call. The fuzz report must say no reading explains it."""

import random

from verifier.adapters.reference import handle as reference

_draw = random.Random()  # unseeded on purpose: the answers are meant to be random


def _answer(message):
    answer = reference(message)
    if answer.get("type") == "outcome":
        width, height = message["before"]["board"]["size"]
        answer["outcome"] = {
            "ships": {name: {"at": [_draw.randrange(width), _draw.randrange(height)],
                             "heading": _draw.choice("NESW")}
                      for name in answer["outcome"]["ships"]},
            "events": [], "provenance": {}}
    return answer


def handle(message):
    answer = _answer(message)
    if isinstance(answer, dict) and answer.get("type") == "hello":
        answer = {**answer, "implementation": {"name": "fuzz toy: random"}}
    return answer
