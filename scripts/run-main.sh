#!/usr/bin/env bash
# The main job of the README: builds the `eddy` examples and runs the streaming word count.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" word_count
"${EDDY_BUILD_DIR:-$root/build}/examples/word_count" "$@"
