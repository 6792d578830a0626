"""A toy implementation for the optional `damage` part (python:ram_damage:handle): the
reference resolver's answer, under a hello that declares nothing. VERIFIER_TOY_DAMAGE
says what it does with ram damage: `none` leaves it out of events and totals (an
implementation written before damage was in the protocol), `double` doubles it on
events and totals alike (consistent, and wrong), `totals-only` keeps the totals but
drops it from the events (inconsistent)."""

import os

from verifier.adapters.reference import handle as reference


def handle(message):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "toy: ram damage"}, "rulesets": ["ypp"]}
    if answer.get("type") != "outcome":
        return answer
    mode = os.environ.get("VERIFIER_TOY_DAMAGE", "none")
    outcome = dict(answer["outcome"])
    events = [dict(e) for e in outcome.get("events", [])]
    if mode in ("none", "totals-only"):
        for event in events:
            event.pop("damage", None)
        if mode == "none":
            outcome.pop("damage", None)
    elif mode == "double":
        for event in events:
            if "damage" in event:
                event["damage"] = {ship: 2 * d for ship, d in event["damage"].items()}
        outcome["damage"] = {ship: 2 * d for ship, d in outcome.get("damage", {}).items()}
    outcome["events"] = events
    return {**answer, "outcome": outcome}
