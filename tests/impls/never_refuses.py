"""A toy implementation that carries out every action, forbidden or not
(python:never_refuses:handle): where the reference refuses, it answers with what the
action would do if the rules allowed it (each ruleset's ``resolver.carry_out``), and
otherwise as the reference does. It fails exactly the cases that expect a refusal."""

from importlib import import_module

from verifier import registry
from verifier.adapter.protocol import outcome_problem
from verifier.adapters.reference import handle as reference
from verifier.ruleset import Capability
from verifier.source import Located


def handle(message):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: never refuses"}}
    if answer.get("type") != "refused":
        return answer
    ruleset = registry.get(message["ruleset"])
    doc = Located("<request>", {"before": message["before"], "actions": message["actions"]}, {}, {})
    before, actions, _ = ruleset.parse(doc, ("before",), ("actions",), None)
    carry_out = import_module(f"verifier.rulesets.{ruleset.key}.resolver").carry_out
    outcome = carry_out(before, actions, ruleset.reading(message["readings"]))
    data = ruleset.outcome_json(outcome)
    if ruleset.supports(Capability.STATES):
        data["states"] = [{"round": f.round, "phase": f.phase, "step": f.step, **ruleset.state_json(f.state)}
                          for f in outcome.frames if not f.is_start]
        if outcome_problem(ruleset, data):  # states the protocol has no room for (a ypp turn's fifth round)
            del data["states"]
    return {"type": "outcome", "id": message["id"], "outcome": data}
