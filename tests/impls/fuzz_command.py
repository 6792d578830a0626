"""Runs one of the in-process toy implementations of this folder as a command speaking
the adapter protocol: ``python fuzz_command.py fuzz_planted_bug``."""

import importlib
import json
import sys


def main():
    handle = importlib.import_module(sys.argv[1]).handle
    for line in sys.stdin:
        sys.stdout.write(json.dumps(handle(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
