"""A toy implementation for ``verifier fuzz`` tests, run as a command: the reference
resolver behind the adapter protocol, but the process ends without answering when a
scene's number ends in 4, so the verifier must restart it and go on."""

import json
import sys

from verifier.adapters.reference import handle


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "case" and message["id"].split("-")[2].endswith("4"):
            sys.exit(3)
        sys.stdout.write(json.dumps(handle(message)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
