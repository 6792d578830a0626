#!/bin/sh
# Answers hello, then crashes on every case that has a rock, and skips the rest.
# Each crash ends the process; the verifier restarts it for the next case.
read -r hello
echo '{"type": "hello", "protocol": "verifier-adapter/1", "implementation": {"name": "crashing toy", "language": "sh"}}'
while read -r line; do
  case "$line" in
    *'"rocks"'*) echo "crash.sh: segmentation fault (pretend) on a rock" >&2; exit 3 ;;
    *) echo '{"type": "skipped", "reason": "the crashing toy only crashes"}' ;;
  esac
done
