"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_faulty:handle): the
reference resolver, except that scenes whose number ends in 3 raise an exception and
those ending in 7 get an answer that does not fit the outcome schema."""

from verifier.adapters.reference import handle as reference


def handle(message):
    if isinstance(message, dict) and message.get("type") == "case":
        number = message["id"].split("-")[2]
        if number.endswith("3"):
            raise RuntimeError("planted failure")
        if number.endswith("7"):
            return {"type": "outcome", "id": message["id"], "outcome": {"ships": 5}}
    return reference(message)
