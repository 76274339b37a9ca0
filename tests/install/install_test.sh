#!/usr/bin/env bash
# Installs eddy from the build tree into a scratch prefix and checks what a user gets:
#   - the installed headers include only installed headers, and no Abseil;
#   - a separate project (consumer/) builds against the prefix with find_package(eddy): its own
#     program, whose output is checked here, the seed examples (examples/word_count.cpp and
#     examples/acceptance/*.cpp) and every installed header compiled on its own;
#   - the acceptance examples built there print their rows' expected outputs (the CTest cases
#     of examples/acceptance/CMakeLists.txt, run in that project), and word_count runs.
# The scratch directory is under the build tree at a fixed path, so ccache serves a rerun.
set -euo pipefail
build_dir="$(cd "$1" && pwd)"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
eddy_source_dir="$(cd "$source_dir/../.." && pwd)"
scratch="$build_dir/install_test"
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/prefix" >/dev/null
include_dir="$scratch/prefix/include"

# Every quoted include of an installed header names an installed header.
missing=0
while IFS= read -r -d '' header; do
  while IFS= read -r included; do
    if [ ! -f "$include_dir/$included" ]; then
      echo "${header#"$include_dir/"} includes \"$included\", which is not installed"
      missing=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$header")
done < <(find "$include_dir/eddy" -name '*.h' -print0)
if grep -rln 'absl' "$include_dir/eddy"; then
  echo "the installed headers above use Abseil"
  missing=1
fi
[ "$missing" -eq 0 ] || exit 1

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# No optimization: the examples' own code is small (the library is built optimized), and ~80
# translation units compile several times faster at -O0.
cmake -S "$source_dir/consumer" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE= \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DEDDY_SOURCE_DIR="$eddy_source_dir" "${launcher[@]}" \
  >/dev/null
cmake --build "$scratch/build" >/dev/null
output="$("$scratch/build/consumer")"
expected=$'+I[Alice, 5]\n+I[Bob, 3]\nDECIMAL(12, 2)\n+---+---+\n| w | c |\n+---+---+\n| A | 2 |\n| B | 1 |\n+---+---+\n2 rows in set'
if [ "$output" != "$expected" ]; then
  echo "unexpected output of the installed-package consumer:"
  echo "$output"
  exit 1
fi
"$scratch/build/word_count" --batch >/dev/null
ctest --test-dir "$scratch/build" -R '^acceptance\.' --output-on-failure -j 2 >"$scratch/ctest.log" ||
  { cat "$scratch/ctest.log"; exit 1; }
echo "find_package(eddy) consumer, examples and headers built and ran" \
  "($(grep -c 'Test *#' "$scratch/ctest.log") acceptance cases)"
