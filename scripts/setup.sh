#!/usr/bin/env bash
# Installs the Debian 12 packages trainsim needs (only those missing) and builds build/trainsim.
# Usage: scripts/setup.sh [--sanitize]   (--sanitize also builds build-asan/ with ASan + UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libsimgrid-dev libyaml-cpp-dev libboost-graph-dev catch2 gnuplot-nox time parallel
          slurmctld slurmd slurm-client)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTRAINSIM_UNITY_BUILD=ON >/dev/null
cmake --build build -j"$jobs"
if [ "${1:-}" = "--sanitize" ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTRAINSIM_SANITIZE=ON -DTRAINSIM_UNITY_BUILD=ON >/dev/null
  cmake --build build-asan -j"$jobs"
fi
