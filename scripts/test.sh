#!/usr/bin/env bash
# The test command of the README and of CI: installs what is missing, builds everything,
# runs the whole suite through CTest, then fuzzes the SQL parser for a bounded time
# (scripts/fuzz.sh: clang + libFuzzer, 60 s by default; EDDY_FUZZ_SECONDS=0 skips it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
cd "${EDDY_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)" --timeout 300
if [ "${EDDY_FUZZ_SECONDS:-60}" != "0" ]; then
  bash "$root/scripts/fuzz.sh"
fi
