"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_sleepy:handle): the
reference resolver, a tenth of a second slow on every scene, so that a time budget must
bind long before the default number of scenes is sent."""

import time

from verifier.adapters.reference import handle as reference


def handle(message):
    if isinstance(message, dict) and message.get("type") == "case":
        time.sleep(0.1)
    return reference(message)
