"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_listing_order:handle):
the reference resolver, but it picks the bump reading from the order the ships are
listed in (class-first when the first listed ship lies before the last one on the
board, motion-first otherwise), so listing the same ships in another order can
change its answer."""

from verifier.adapters.reference import handle as reference


def _answer(message):
    if isinstance(message, dict) and message.get("type") == "case":
        ships = list(message["before"]["ships"].values())
        option = "class-first" if ships[0]["at"] < ships[-1]["at"] else "motion-first"
        message = {**message, "readings": {**message["readings"], "bump": option}}
    return reference(message)


def handle(message):
    answer = _answer(message)
    if isinstance(answer, dict) and answer.get("type") == "hello":
        answer = {**answer, "implementation": {"name": "fuzz toy: listing order"}}
    return answer
