"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_slow:handle): the
reference resolver, but scene 5 takes two seconds, longer than the tests allow."""

import time

from verifier.adapters.reference import handle as reference


def handle(message):
    if isinstance(message, dict) and message.get("id") == "fuzz-0-5":
        time.sleep(2)
    return reference(message)
