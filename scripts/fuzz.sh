#!/usr/bin/env bash
# Fuzzes the SQL parser for a bounded time with libFuzzer (tests/fuzz/sql_parser_fuzzer.cpp):
# builds the fuzzer with clang in build-fuzz/ (ASan + UBSan, see tests/fuzz/CMakeLists.txt),
# seeds it with tests/fuzz/corpus/ and the SQL of tests/sql/**/*.test and examples/*.sql, and
# runs it. Exits non-zero on any finding (crash, sanitizer report, an exception other than
# SqlParseException, a round trip through unparse() that fails, a hang, runaway memory); the
# failing input is saved in build-fuzz/artifacts/ and can be replayed with
# `build-fuzz/sql_parser_fuzzer <file>` (tests/fuzz/README.md).
#
# Usage: scripts/fuzz.sh [seconds]   (default: $EDDY_FUZZ_SECONDS, else 60; the build and the
# deep-nesting inputs below come on top)
# EDDY_FUZZ_ROUND_TRIP=0 checks only crashes and exceptions, not the unparse() round trip.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
seconds="${1:-${EDDY_FUZZ_SECONDS:-60}}"
build_dir="${EDDY_FUZZ_BUILD_DIR:-$root/build-fuzz}"

if [ ! -f "$build_dir/build.ninja" ]; then
  CXX="${EDDY_FUZZ_CXX:-clang++}" cmake -S "$root/tests/fuzz" -B "$build_dir" -G Ninja >/dev/null
fi
cmake --build "$build_dir" -j "${EDDY_BUILD_JOBS:-$(nproc)}"

# Seeds, rebuilt each run: tests/fuzz/corpus/ (one construct family per file, for what the
# .test files rarely use: DDL, window TVFs, statement sets, types), one file per SQL record of
# the .test files (the lines between a `statement`/`query`/`changelog` header and the blank
# line or `----` that ends them), and each example script whole.
seeds="$build_dir/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build_dir/corpus" "$build_dir/artifacts"
find "$root/tests/sql" -name '*.test' -print0 | sort -z | xargs -0 awk -v out="$seeds" '
  function flush() {
    if (sql != "") {
      count++
      file = sprintf("%s/test-%05d.sql", out, count)
      printf "%s", sql > file
      close(file)
    }
    sql = ""
    collecting = 0
  }
  FNR == 1 { flush() }
  !collecting && /^(statement|query|changelog)([ \t]|$)/ { collecting = 1; next }
  collecting && (/^----$/ || /^[ \t]*$/) { flush(); next }
  collecting { sql = sql $0 "\n" }
  END { flush() }'
cp "$root"/examples/*.sql "$root"/tests/fuzz/corpus/*.sql "$seeds/"

# The dictionary: the committed symbols plus every keyword the parsers compare against.
dictionary="$build_dir/sql.dict"
{
  cat "$root/tests/fuzz/sql.dict"
  grep -ho '"[A-Z][A-Z_0-9]*"' "$root/src/sql/parser/parser.cpp" \
    "$root/src/types/logical_type_parser.cpp" | sort -u
} >"$dictionary"

# Deep nesting, each input run once before fuzzing: libFuzzer's inputs stay under -max_len
# (4 KiB), too short to exhaust the stack, so every recursive construct is also tried 20 000
# levels deep here. The parser must reject it cleanly ("Nesting too deep") or parse it, never
# overflow the stack. A construct added to the grammar that can nest belongs in this list.
deep="$build_dir/deep"
rm -rf "$deep"
mkdir -p "$deep"
nest() {  # nest <name> <head> <open> <core> <close> <tail>
  awk -v head="$2" -v opening="$3" -v core="$4" -v closing="$5" -v tail="$6" -v n=20000 'BEGIN {
    printf "%s", head
    for (i = 0; i < n; i++) printf "%s", opening
    printf "%s", core
    for (i = 0; i < n; i++) printf "%s", closing
    printf "%s", tail
  }' >"$deep/$1.sql"
}
nest parentheses 'SELECT ' '(' '1' ')' ''
nest unary_minus 'SELECT ' '- ' '1' '' ''
nest not 'SELECT ' 'NOT ' 'TRUE' '' ''
nest operator_chain 'SELECT ' '1 + ' '1' '' ''
nest function_call 'SELECT ' 'f(' '1' ')' ''
nest cast 'SELECT ' 'CAST(' '1' ' AS INT)' ''
nest case 'SELECT ' 'CASE WHEN TRUE THEN ' '1' ' END' ''
nest array_constructor 'SELECT ' 'ARRAY[' '1' ']' ''
nest row_constructor 'SELECT ' 'ROW(' '1' ')' ''
nest in_list 'SELECT ' '1 IN (' '1' ')' ''
nest element_access 'SELECT a' '[1]' '' '' ''
nest field_access 'SELECT (a)' '.b' '' '' ''
nest scalar_subquery 'SELECT ' '(SELECT ' '1' ')' ''
nest exists 'SELECT ' 'EXISTS (SELECT ' '1' ')' ''
nest derived_table 'SELECT * FROM ' '(SELECT * FROM ' 't' ')' ''
nest parenthesized_join 'SELECT * FROM ' '(' 't' ')' ''
nest join_chain 'SELECT * FROM t' ' JOIN t ON TRUE' '' '' ''
nest union_chain 'SELECT 1' ' UNION SELECT 1' '' '' ''
nest parenthesized_query '' '(' 'SELECT 1' ')' ''
nest array_type 'SELECT CAST(NULL AS ' 'ARRAY<' 'INT' '>' ')'
nest row_type 'SELECT CAST(NULL AS ' 'ROW<a ' 'INT' '>' ')'
nest row_type_parentheses 'SELECT CAST(NULL AS ' 'ROW(a ' 'INT' ')' ')'
nest map_type 'SELECT CAST(NULL AS ' 'MAP<INT, ' 'INT' '>' ')'
nest column_type 'CREATE TABLE t (c ' 'ARRAY<' 'INT' '>' ')'
failed=()
for input in "$deep"/*.sql; do
  name="$(basename "$input" .sql)"
  if ! "$build_dir/sql_parser_fuzzer" -timeout=30 -rss_limit_mb=2048 "$input" \
    >"$deep/$name.log" 2>&1; then
    failed+=("$name")
    grep -m 3 -E '==== eddy|ERROR: |SUMMARY: ' "$deep/$name.log" | sed "s|^|fuzz: $name: |" >&2
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED on deep nesting: ${failed[*]} (inputs and logs in $deep/)" >&2
  exit 1
fi
echo "fuzz: $(ls "$deep"/*.sql | wc -l) deeply nested inputs rejected or parsed cleanly" >&2

echo "fuzz: $(ls "$seeds" | wc -l) seeds, $(ls "$build_dir/corpus" | wc -l) corpus entries," \
  "${seconds}s" >&2
# New inputs go to the first directory (the corpus kept between local runs); the seeds are
# only read. -timeout catches hangs, -rss_limit_mb runaway memory. libFuzzer's progress lines
# go to the log; its summary (or the finding) is printed.
log="$build_dir/fuzz.log"
status=0
"$build_dir/sql_parser_fuzzer" "$build_dir/corpus" "$seeds" \
  -dict="$dictionary" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
  -max_len=4096 -artifact_prefix="$build_dir/artifacts/" -print_final_stats=1 \
  >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 80 "$log" >&2
  echo "fuzz: FAILED (exit $status); the input is in $build_dir/artifacts/, the log in $log" >&2
  exit "$status"
fi
grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" >&2 || true
echo "fuzz: no findings in ${seconds}s" >&2
