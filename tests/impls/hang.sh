#!/bin/sh
# Answers hello, then hangs on every case whose board has wind, prints a line that
# is not JSON for cases with a rock, and skips the rest.
read -r hello
echo '{"type": "hello", "protocol": "verifier-adapter/1", "implementation": {"name": "hanging toy", "language": "sh"}}'
while read -r line; do
  case "$line" in
    *'"wind"'*) sleep 60 ;;
    *'"rocks"'*) echo 'this is not JSON' ;;
    *) echo '{"type": "skipped", "reason": "the hanging toy only hangs"}' ;;
  esac
done
