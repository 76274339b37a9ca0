#!/usr/bin/env bash
# The main job of the README: builds the `eddy` command and runs the quickstart SQL script
# (a streaming GROUP BY over the built-in datagen source). Arguments are passed to `eddy sql`;
# e.g. `bash scripts/run-main.sh -f my.sql` runs another script.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" eddy_command
cd "$root"
if [ $# -eq 0 ]; then
  set -- -f examples/quickstart.sql
fi
exec "${EDDY_BUILD_DIR:-$root/build}/src/client/eddy" sql "$@"
