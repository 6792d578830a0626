"""A hostile implementation that prints answers that are not the answer to the case
asked (tests/test_adapter_hostile.py). Run as ``python stray_answers.py MODE``; it
answers every case as the reference resolver does, except:

- ``extra-noid``: the first case's answer (no id) is followed by a second line: the
  reference answer to the case in $STRAY_NEXT (no id). That case itself is always
  answered "errored": only the stray line, reused, could make it pass.
- ``extra-noid-late``: the same, but the stray line comes 0.3 s after the answer.
- ``twice``: every answer is printed twice (with its id), in one write.
- ``ahead``: after the first case's answer (with its id), the reference answer to the
  case in $STRAY_NEXT, with that case's id, before it was asked (in the same write);
  asked, that case is answered "errored".
- ``ahead-late``: the same, the stray line 0.3 s after the first answer.
- ``other-id``: every answer carries the id "some-other-case".
- ``late``: the first case is answered after $STRAY_SLEEP seconds (default 2); later
  cases at once.
- ``noid-after-first``: each process answers its first case as the reference does
  (with the id), and every later one "errored", without an id.
"""

from __future__ import annotations

import json
import os
import sys
import time

from verifier.adapter import case_request
from verifier.adapters.reference import handle as reference
from verifier.case import load_case

MODE = sys.argv[1] if len(sys.argv) > 1 else ""


def say(*answers: dict) -> None:
    sys.stdout.write("".join(json.dumps(answer) + "\n" for answer in answers))
    sys.stdout.flush()


def next_answer(with_id: bool) -> dict:
    answer = reference(case_request(load_case(os.environ["STRAY_NEXT"])))
    if not with_id:
        answer.pop("id", None)
    return answer


def main() -> None:
    asked = 0
    planted = case_request(load_case(os.environ["STRAY_NEXT"]))["id"] if os.environ.get("STRAY_NEXT") else ""
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "hello":
            say(reference(message))
            continue
        asked += 1
        answer = reference(message)
        if MODE == "noid-after-first" and asked > 1:
            say({"type": "errored", "message": "a later answer, without an id"})
            continue
        if message["id"] == planted:
            say({"type": "errored", "id": planted, "message": "the real answer to this case"})
            continue
        if MODE.startswith("extra-noid"):
            answer.pop("id", None)
        if MODE == "other-id":
            answer["id"] = "some-other-case"
        if MODE == "late" and asked == 1:
            time.sleep(float(os.environ.get("STRAY_SLEEP", "2")))
        if MODE == "twice":
            say(answer, answer)
        elif MODE == "ahead" and asked == 1:
            say(answer, next_answer(with_id=True))
        else:
            say(answer)
        if asked == 1 and MODE in ("extra-noid", "extra-noid-late", "ahead-late"):
            if MODE.endswith("-late"):
                time.sleep(0.3)
            say(next_answer(with_id=MODE.startswith("ahead")))


if __name__ == "__main__":
    main()
