"""Checking other implementations: the adapter protocol (docs/protocol.md).

Another implementation of a ruleset (a game client, a wiki bot, a port in another
language) is started once, as a process that reads JSON lines on stdin and answers
JSON lines on stdout:

    verifier -> impl   {"type": "hello", "protocol": "verifier-adapter/1", ...}
    impl -> verifier   {"type": "hello", "protocol": "verifier-adapter/1", "implementation": {...}}
    verifier -> impl   {"type": "case", "id": ..., "ruleset": ..., "readings": ..., "before": ..., "actions": ...}
    impl -> verifier   {"type": "outcome", "id": ..., "outcome": {...}}
                     | {"type": "skipped", "id": ..., "reason": "..."}
                     | {"type": "errored", "id": ..., "message": "..."}

The verifier compares each outcome with the case's expectation, exactly as it does
for the reference resolver. A misbehaving implementation (no answer in time, a
crash, a line that is not JSON, an answer that does not fit the schema, an answer
for another case, a second answer, a line past the length or depth limit) is
reported on the case it happened on, and the run goes on: a crashed, stopped or
out-of-step process is started again for the next case, and no line it printed is
ever taken as another case's answer. Stopping it ends every process it started.

``python:MODULE:FUNCTION`` runs an implementation in-process instead: FUNCTION is
called with each message (as a dict, hello included) and returns the answer.

The package: ``protocol`` (the schema, messages and answers), ``implementation``
(what an implementation is), ``limits`` (bounds on what is read from one),
``process`` (one run as a command), ``reaper`` (ending all of its processes),
``inprocess`` (one called in-process, which cannot end the verifier), ``session``
(opening one from its spec and asking it, with restarts and the start-failure limit, as
``check --impl`` and fuzz both do) and ``run`` (checking cases through one).
"""

from __future__ import annotations

from .implementation import DEFAULT_TIMEOUT, Implementation
from .inprocess import ImplementationExit, InProcessImplementation
from .limits import ReadLimits
from .process import START_ALLOWANCE, SubprocessImplementation, _Process  # _Process: tests track its processes
from .protocol import (
    PROTOCOL,
    SCHEMA_ID,
    Answer,
    ProtocolMismatch,
    adapter_schema,
    answer_problem,
    case_request,
    check_hello_reply,
    hello_message,
    read_answer,
    reported_outcome,
    schema_problem,
    supports_protocol,
    validator,
)
from .run import ImplRun, check_case_with, check_implementation
from .session import MAX_START_FAILURES, Session, open_implementation

__all__ = [
    "DEFAULT_TIMEOUT", "MAX_START_FAILURES", "PROTOCOL", "SCHEMA_ID", "START_ALLOWANCE", "Answer", "ImplRun",
    "Implementation", "ImplementationExit", "InProcessImplementation", "ProtocolMismatch", "ReadLimits",
    "Session", "SubprocessImplementation", "_Process",
    "adapter_schema", "answer_problem", "case_request", "check_case_with", "check_hello_reply",
    "check_implementation", "hello_message", "open_implementation", "read_answer", "reported_outcome", "schema_problem",
    "supports_protocol", "validator",
]
