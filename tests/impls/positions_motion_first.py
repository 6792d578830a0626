"""A toy implementation that reports where ships end and nothing else, and follows
bump=motion-first whatever it is told (python:positions_motion_first:handle, or run
as a program). Its hello declares both, so the verifier compares positions and
headings only, and compares cases whose outcome hangs on the bump reading with the
reference resolver under motion-first. ``events`` is sent empty, as an adapter
written for a verifier that required the field would send it."""

import json
import sys

from verifier.adapters.reference import handle as reference

FOLLOWS = {"bump": "motion-first"}


def handle(message):
    if isinstance(message, dict) and message.get("type") == "hello":
        answer = reference(message)
        return {**answer, "implementation": {"name": "toy: positions only, bump=motion-first"},
                "rulesets": ["ypp"], "capabilities": {"ypp": {"reports": ["ships"], "follows": FOLLOWS}}}
    if isinstance(message, dict) and message.get("type") == "case":
        answer = reference({**message, "readings": {**message.get("readings", {}), **FOLLOWS}})
        if answer.get("type") == "outcome":
            ships = answer["outcome"]["ships"]
            answer = {**answer, "outcome": {"ships": ships, "events": []}}
        return answer
    return reference(message)


def main():
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(handle(json.loads(line))) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
