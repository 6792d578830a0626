"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_other_reading:handle):
the reference resolver, but always under bump=motion-first and vacate=blocked,
whatever reading it is told. The fuzz report must name that reading."""

from verifier.adapters.reference import handle as reference

READING = {"bump": "motion-first", "vacate": "blocked"}


def handle(message):
    if isinstance(message, dict) and message.get("type") == "case":
        message = {**message, "readings": {**message["readings"], **READING}}
    return reference(message)
