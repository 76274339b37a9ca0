#!/usr/bin/env bash
# Installs eddy from the build tree into a scratch prefix, builds a separate project against
# it with find_package(eddy), runs it and checks its output.
set -euo pipefail
build_dir="$1"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$source_dir/consumer" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" "${launcher[@]}" >/dev/null
cmake --build "$scratch/build" >/dev/null
output="$("$scratch/build/consumer")"
expected=$'+I[Alice, 5]\n+I[Bob, 3]\nDECIMAL(12, 2)\n+---+---+\n| w | c |\n+---+---+\n| A | 2 |\n| B | 1 |\n+---+---+\n2 rows in set'
if [ "$output" != "$expected" ]; then
  echo "unexpected output of the installed-package consumer:"
  echo "$output"
  exit 1
fi
echo "find_package(eddy) consumer built and ran"
