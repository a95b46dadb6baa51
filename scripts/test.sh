#!/usr/bin/env bash
# Sets up, builds and runs every test: once on the normal build, once under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --sanitize
jobs=$(nproc 2>/dev/null || echo 2)
scripts/check_test_count.sh build
scripts/check_test_count.sh build-asan
echo "== tests (release build)"
ctest --test-dir build --output-on-failure -j"$jobs"
echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer build)"
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan --output-on-failure -j"$jobs"
echo "== fuzz (20 s per mode: run, model, platform; skipped without clang)"
scripts/fuzz.sh 20
