"""A scatter implementation that is the reference resolver with one thing wrong, for
the conformance tests: MODE (a module variable in-process, or $SCATTER_TAMPER as a
subprocess) says what. It speaks the adapter protocol (docs/protocol.md)."""

from __future__ import annotations

import json
import os
import sys

from verifier.adapters.reference import handle as reference

MODE = os.environ.get("SCATTER_TAMPER", "")


def tamper(outcome: dict) -> dict:
    mode = MODE
    if "probability" in outcome:
        if mode == "one-hit-fewer" and outcome["hit_rolls"]:
            outcome["hit_rolls"] = outcome["hit_rolls"][1:]
            outcome["hits"] -= 1
            outcome["probability"] = f"{outcome['hits']}/36"
        elif mode == "inconsistent":
            outcome["probability"] = f"{outcome['hits'] + 1}/36"
            del outcome["hits"]
        elif mode == "reduced":
            chance = outcome["probability"]
            top, bottom = chance.split("/") if "/" in chance else (chance, "1")
            outcome["probability"] = f"{int(top) * 36 // int(bottom)}/36"  # n/36, never reduced
        return outcome
    if mode == "flip":
        outcome["result"] = "miss" if outcome["result"] == "hit" else "hit"
    elif mode == "floats-only":
        for key in ("landing_exact", "touching", "roll", "events", "provenance"):
            outcome.pop(key, None)
    elif mode == "nudge-small":
        outcome["landing"][0] += 0.004
        outcome.pop("landing_exact")
    elif mode == "nudge-large":
        outcome["landing"][0] += 0.006
        outcome.pop("landing_exact")
    elif mode == "exact-disagrees":
        outcome["landing"][1] += 0.01
    elif mode == "no-clearance":
        del outcome["clearance"]
    elif mode == "odds-form":
        return {"probability": "0/36", "hit_rolls": [], "start_clearance": outcome["start_clearance"]}
    return outcome


def handle(message: dict) -> dict:
    answer = reference(message)
    if answer.get("type") == "outcome":
        answer["outcome"] = tamper(answer["outcome"])
    return answer


if __name__ == "__main__":
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(handle(json.loads(line))) + "\n")
            sys.stdout.flush()
