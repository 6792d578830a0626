"""A toy implementation for ``verifier fuzz`` (python:fuzz_refuses:handle): the reference
resolver, except that it refuses every scene in which some ship plays a left token, as
an implementation that never learnt left turns might. Fuzz reads those refusals as
outcomes that no reading gives."""

from verifier.adapters.reference import handle as reference


def handle(message):
    answer = reference(message)
    if answer.get("type") == "hello":
        return {**answer, "implementation": {"name": "fuzz toy: refuses left turns"}}
    tokens = [t for entry in message.get("actions") or () for t in entry.values()]
    if message.get("type") == "case" and "left" in tokens:
        return {"type": "refused", "id": message["id"], "reason": "left turns are not implemented"}
    return answer
