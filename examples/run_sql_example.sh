#!/usr/bin/env bash
# Runs one SQL example the way the README does (`eddy sql -f examples/NAME.sql` from the
# repository root) and compares its stdout with examples/expected/NAME.stdout; stderr must stay
# empty and the exit status 0. The examples compute every field from a datagen sequence, so
# their output is the same on every run.
# Usage: run_sql_example.sh EDDY_BINARY REPOSITORY_ROOT NAME
set -uo pipefail
eddy="$1"
cd "$2" || exit 1
name="$3"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$eddy" sql -f "examples/$name.sql" >"$scratch/stdout" 2>"$scratch/stderr" </dev/null
status=$?
failed=0
if ! diff -u "examples/expected/$name.stdout" "$scratch/stdout"; then
  echo "^^^ stdout of examples/$name.sql differs (expected examples/expected/$name.stdout)"
  failed=1
fi
if [ -s "$scratch/stderr" ]; then
  echo "stderr of examples/$name.sql is not empty:"
  cat "$scratch/stderr"
  failed=1
fi
if [ "$status" != 0 ]; then
  echo "exit status of examples/$name.sql: $status, expected 0"
  failed=1
fi
exit $failed
