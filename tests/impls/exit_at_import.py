"""A hostile in-process implementation that ends the interpreter as it is imported
(--impl python:exit_at_import:handle, for tests/test_adapter_hostile.py)."""

import os

os._exit(0)


def handle(message):  # never reached
    return {}
