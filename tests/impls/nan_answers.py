"""A hostile implementation (python:nan_answers:handle): the reference resolver's answer
with every number that says where a ship is or which way it faces replaced by NaN
(python:nan_answers:infinite gives infinity instead). A NaN compares false with every
tolerance, so a comparison written ``gap > tolerance`` would let it pass."""

from verifier.adapters.reference import handle as reference

POSITION_FIELDS = {"at", "heading", "end", "tool"}


def _spoilt(value, number):
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return number
    if isinstance(value, list):
        return [_spoilt(item, number) for item in value]
    return value


def _answer(message, number):
    answer = reference(message)
    if answer.get("type") != "outcome":
        return answer
    outcome = dict(answer["outcome"])
    outcome["ships"] = {name: {key: _spoilt(value, number) if key in POSITION_FIELDS else value
                               for key, value in spec.items()} for name, spec in outcome["ships"].items()}
    return {**answer, "outcome": outcome}


def handle(message):
    return _answer(message, float("nan"))


def infinite(message):
    return _answer(message, float("inf"))
