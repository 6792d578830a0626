"""Hostile in-process implementations (--impl python:ending_python:FUNCTION, for
tests/test_adapter_hostile.py) that try to end the verifier, or answer with values it
cannot take. Each answers hello as the reference resolver does, then:

- ``os_exit``: os._exit(0) (the verifier would exit 0, silently);
- ``posix_exit``: the same through the posix module;
- ``sys_exit``: sys.exit(0);
- ``interrupt``: raises KeyboardInterrupt;
- ``exec_true``: replaces the interpreter with /bin/true (exit 0);
- ``late_exit``: sleeps past the timeout, then os._exit(0);
- ``deep``: returns an answer nested 100,000 lists deep;
- ``cyclic``: returns an answer that contains itself;
- ``hostile_str``: raises an exception whose str() raises.
"""

from __future__ import annotations

import os
import sys
import time

from verifier.adapters.reference import handle as reference


def _hello_or(message, action):
    if message["type"] == "hello":
        return reference(message)
    return action(message)


def os_exit(message):
    return _hello_or(message, lambda m: os._exit(0))


def posix_exit(message):
    import posix
    return _hello_or(message, lambda m: posix._exit(0))


def sys_exit(message):
    return _hello_or(message, lambda m: sys.exit(0))


def interrupt(message):
    def act(m):
        raise KeyboardInterrupt
    return _hello_or(message, act)


def exec_true(message):
    return _hello_or(message, lambda m: os.execv("/bin/true", ["true"]))


def late_exit(message):
    def act(m):
        time.sleep(float(os.environ.get("LATE_EXIT_AFTER", "1.5")))
        os._exit(0)
    return _hello_or(message, act)


def deep(message):
    def act(m):
        value: list = []
        for _ in range(100_000):
            value = [value]
        return {"type": "outcome", "id": m["id"], "outcome": {"ships": value}}
    return _hello_or(message, act)


def cyclic(message):
    def act(m):
        outcome: dict = {}
        outcome["ships"] = outcome
        return {"type": "outcome", "id": m["id"], "outcome": outcome}
    return _hello_or(message, act)


class _Hostile(Exception):
    def __str__(self):
        raise RuntimeError("no")


def hostile_str(message):
    def act(m):
        raise _Hostile()
    return _hello_or(message, act)
