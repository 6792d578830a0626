"""A toy implementation that reports the state after every phase and step (the
``states`` part), with a planted bug (python:round_states:handle): from round 2 on,
the ship listed first drifts one tile east, in every state of those rounds and at
the end. The verifier must name round 2 as where it first differs."""

from verifier.adapters.reference import handle as reference


def _east(ships, name):
    spec = ships[name]
    return {**ships, name: {**spec, "at": [spec["at"][0] + 1, spec["at"][1]]}}


def handle(message):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: states, drifts east from round 2"}, "rulesets": ["ypp"],
                "capabilities": {"ypp": {"reports": ["ships", "events", "states"]}}}
    if answer.get("type") == "outcome" and len(message["actions"]) > 1:
        first = next(iter(message["before"]["ships"]))
        outcome = answer["outcome"]
        states = [{**s, "ships": _east(s["ships"], first)} if s["round"] >= 2 else s for s in outcome["states"]]
        answer = {**answer, "outcome": {**outcome, "ships": _east(outcome["ships"], first), "states": states}}
    return answer
