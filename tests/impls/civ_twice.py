"""A hostile civ implementation (python:civ_twice:handle): the reference resolver's answer
with a wrong copy of its first branch (no tokens left on land, nothing removed) listed
before the right one. A comparison that indexed branches by their decisions and kept the
last would pass it."""

from verifier.adapters.reference import handle as reference


def handle(message):
    answer = reference(message)
    if answer.get("type") != "outcome" or message.get("ruleset") != "civ":
        return answer
    branches = answer["outcome"]["branches"]
    wrong = {**branches[0], "land": {}, "removals": {}}
    return {**answer, "outcome": {**answer["outcome"], "branches": [wrong, *branches]}}
