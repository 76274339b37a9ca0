#!/usr/bin/env bash
# The test command of the README and of CI: installs what is missing (Debian packages, the
# differential test's npm packages), builds everything, runs the whole suite through CTest,
# then fuzzes the SQL parser for a bounded time (scripts/fuzz.sh: clang + libFuzzer, 60 s by
# default; EDDY_FUZZ_SECONDS=0 skips it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
# The npm packages of the differential test (tests/differential: DuckDB's Node API), from its
# package-lock.json, when node_modules is missing or older than the lock file.
differential="$root/tests/differential"
if command -v npm >/dev/null 2>&1; then
  if [ ! -f "$differential/node_modules/.package-lock.json" ] \
     || [ "$differential/package-lock.json" -nt "$differential/node_modules/.package-lock.json" ]; then
    (cd "$differential" && npm ci --no-audit --no-fund)
  fi
else
  echo "test.sh: npm not found, so the test differential.duckdb will fail (install Node.js and npm; tested with Node 20)" >&2
fi
cd "${EDDY_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)" --timeout 300
if [ "${EDDY_FUZZ_SECONDS:-60}" != "0" ]; then
  bash "$root/scripts/fuzz.sh"
fi
