#!/usr/bin/env bash
# Installs every Debian package eddy needs to build and test. Idempotent: when all packages
# are already present it only runs `dpkg -s` and returns within a second.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache git libutf8proc-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libfmt-dev libabsl-dev libxxhash-dev libsimdjson-dev libre2-dev libssl-dev
  libyaml-cpp-dev libedit-dev libhowardhinnant-date-dev tzdata
  librdkafka-dev kcat
  clang libclang-rt-14-dev
)

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "eddy setup: installing ${missing[*]}" >&2
sudo_prefix=()
[ "$(id -u)" -ne 0 ] && sudo_prefix=(sudo)
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo_prefix[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo_prefix[@]}" apt-get update
  "${sudo_prefix[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
