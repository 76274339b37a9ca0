#!/usr/bin/env bash
# Runs one script-mode case: `eddy sql [ARGS] -f NAME.sql` in the scripts folder, and compares
# its stdout, stderr and exit status with NAME.stdout, NAME.stderr and NAME.status. ARGS come
# from NAME.args (one argument per line) when it exists. The environment is fixed: JOB_NAME is
# set (the production configuration references it), EDDY_TEST_UNSET_VARIABLE is not.
# Usage: run_script_test.sh EDDY_BINARY SCRIPTS_DIR NAME
set -uo pipefail
eddy="$1"
cd "$2" || exit 1
name="$3"
arguments=()
if [ -f "$name.args" ]; then
  mapfile -t arguments < "$name.args"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export JOB_NAME=order-analytics
unset EDDY_TEST_UNSET_VARIABLE
"$eddy" sql "${arguments[@]}" -f "$name.sql" >"$scratch/stdout" 2>"$scratch/stderr" </dev/null
status=$?
failed=0
if ! diff -u "$name.stdout" "$scratch/stdout"; then
  echo "^^^ stdout of $name.sql differs (expected $name.stdout)"
  failed=1
fi
if ! diff -u "$name.stderr" "$scratch/stderr"; then
  echo "^^^ stderr of $name.sql differs (expected $name.stderr)"
  failed=1
fi
expected_status="$(cat "$name.status")"
if [ "$status" != "$expected_status" ]; then
  echo "exit status of $name.sql: $status, expected $expected_status"
  failed=1
fi
exit $failed
