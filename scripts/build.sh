#!/usr/bin/env bash
# Configures and builds eddy in build/ (Release with assertions, Ninja, ccache when present).
# Usage: scripts/build.sh [ninja targets...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
build_dir="${EDDY_BUILD_DIR:-$root/build}"
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${EDDY_BUILD_TYPE:-RelWithDebInfo}"
fi
jobs="${EDDY_BUILD_JOBS:-$(nproc)}"
cmake --build "$build_dir" -j "$jobs" ${1:+--target "$@"}
