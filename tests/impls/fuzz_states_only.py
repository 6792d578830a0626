"""A toy implementation whose intermediate states depart and nothing else
(python:fuzz_states_only:handle): in a turn of more than one round, the ship listed first
is reported one tile east in every state of round 1, while its final place, the events
and the damage are the reference's. ``handle_unreported`` gives the same answers under a
hello that does not report the states part, so that they are not compared."""

from verifier.adapters.reference import handle as reference


def _east(ships, name):
    spec = ships[name]
    return {**ships, name: {**spec, "at": [spec["at"][0] + 1, spec["at"][1]]}}


def _answer(message, reports):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: round 1's states drift east"}, "rulesets": ["ypp"],
                "capabilities": {"ypp": {"reports": reports}}}
    if answer.get("type") == "outcome" and len(message["actions"]) > 1:
        first = next(iter(message["before"]["ships"]))
        outcome = answer["outcome"]
        states = [{**s, "ships": _east(s["ships"], first)} if s["round"] == 1 else s for s in outcome["states"]]
        answer = {**answer, "outcome": {**outcome, "states": states}}
    return answer


def handle(message):
    return _answer(message, ["ships", "events", "damage", "states"])


def handle_unreported(message):
    return _answer(message, ["ships", "events", "damage"])
