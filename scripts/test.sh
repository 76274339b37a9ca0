#!/usr/bin/env bash
# The test command of the README and of CI: installs what is missing, builds everything,
# runs the whole suite through CTest (the last line is CTest's summary).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh"
cd "${EDDY_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)" --timeout 300
