"""A hostile implementation that floods the verifier (tests/test_adapter_hostile.py).
``python flood.py MODE`` answers hello, then every case with:

- ``endless``: one answer line that never ends (1 MiB chunks of JSON text, no newline);
- ``big``: a 100 MB answer line, then a newline;
- ``deep``: an answer nested 100,000 arrays deep;
- ``stderr``: a correct answer, after 50 MB of log lines on stderr;
- ``long-message``: an "errored" answer whose message is 1 MB of text with control characters.
"""

from __future__ import annotations

import json
import sys

from verifier.adapters.reference import handle as reference

MODE = sys.argv[1] if len(sys.argv) > 1 else "endless"
out = sys.stdout.buffer


def answer_case(message: dict) -> None:
    if MODE == "endless":
        out.write(b'{"type": "outcome", "id": "' + message["id"].encode() + b'", "outcome": {"note": "')
        chunk = b"x" * (1 << 20)
        while True:
            out.write(chunk)
            out.flush()
    elif MODE == "big":
        out.write(b'{"type": "errored", "message": "' + b"y" * 100_000_000 + b'"}\n')
    elif MODE == "deep":
        out.write(b'{"type": "outcome", "outcome": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n")
    elif MODE == "stderr":
        line = b"log: " + b"z" * 1000 + b"\n"
        for _ in range(50_000):
            sys.stderr.buffer.write(line)
        sys.stderr.flush()
        out.write(json.dumps(reference(message)).encode() + b"\n")
    elif MODE == "long-message":
        text = ("\x1b[2J\rforged line\n" + "w" * 1_000_000)
        out.write(json.dumps({"type": "errored", "id": message["id"], "message": text}).encode() + b"\n")
    out.flush()


for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    if message["type"] == "hello":
        out.write(json.dumps(reference(message)).encode() + b"\n")
        out.flush()
    else:
        answer_case(message)
