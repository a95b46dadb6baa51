#!/usr/bin/env bash
# Fuzzes the path of `trainsim check` (fuzz/check_fuzzer.cpp) in its three modes, run, model and
# platform, under ASan + UBSan, seeded with the project's own YAML and structure-aware seeds
# (fuzz/make_seeds.py), with the dictionary fuzz/trainsim.dict. Fails on any crash, sanitizer
# report, exception other than a UserError, input slower than 10 s or over 2 GB.
# usage: scripts/fuzz.sh [SECONDS_PER_MODE [RUNS_PER_MODE]]   (default 20 s, no cap on runs).
#   Each mode stops at whichever limit comes first, e.g. `scripts/fuzz.sh 3600 1000000` for 10^6
#   executions per mode. Skipped, saying so, without clang.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
runs=${2:--1}
cxx=""
for c in clang++-14 clang++; do
  if command -v "$c" >/dev/null 2>&1; then cxx=$c; break; fi
done
if [ -z "$cxx" ]; then
  echo "== fuzz: skipped: no clang++ found (libFuzzer needs clang; on Debian: apt-get install clang-14)"
  exit 0
fi
jobs=$(nproc 2>/dev/null || echo 2)
echo "== fuzz: building the fuzz targets with $cxx (build-fuzz)"
CXX=$cxx cmake -S . -B build-fuzz -DTRAINSIM_FUZZ=ON -DTRAINSIM_UNITY_BUILD=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$jobs" --target trainsim_fuzz_run trainsim_fuzz_model trainsim_fuzz_platform >/dev/null
declare -A seeds=([run]="workloads" [model]="workloads/models" [platform]="platforms")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mode in run model platform; do
  mkdir -p "$work/$mode/new"
  if command -v python3 >/dev/null 2>&1; then python3 fuzz/make_seeds.py "$work/$mode/edges" "$mode"; fi
  mkdir -p "$work/$mode/edges"
  echo "== fuzz: $mode, ${seconds} s$([ "$runs" -ge 0 ] && echo " or $runs executions")"
  rc=0
  ASAN_OPTIONS=detect_leaks=0 build-fuzz/fuzz/trainsim_fuzz_$mode -dict=fuzz/trainsim.dict \
    -max_total_time="$seconds" -runs="$runs" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/crash-$mode-" "$work/$mode/new" "$work/$mode/edges" "${seeds[$mode]}" \
    >"$work/$mode.log" 2>&1 || rc=$?
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|INFO: seed corpus)" "$work/$mode.log" || true
  if [ "$rc" -ne 0 ]; then
    tail -n 60 "$work/$mode.log"
    mkdir -p build-fuzz/failures && cp "$work"/crash-$mode-* build-fuzz/failures/ 2>/dev/null || true
    echo "== fuzz: $mode failed (exit $rc); the input is kept in build-fuzz/failures/"
    exit 1
  fi
done
echo "== fuzz: no failures"
