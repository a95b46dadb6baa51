#!/usr/bin/env bash
# Sets up, builds and runs every test: once on the normal build, once under ASan + UBSan.
# Usage: scripts/test.sh [--full]
#   --full  also run the tests labelled `heavy` (example runs whose replay takes minutes, e.g.
#           deepseek-v3-cloudmatrix: ~9 min on 2 cores); CI leaves them out to stay under 20 min.
set -euo pipefail
cd "$(dirname "$0")/.."
exclude=(-LE heavy)
case "${1:-}" in
  --full) exclude=() ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
esac
scripts/setup.sh --sanitize
jobs=$(nproc 2>/dev/null || echo 2)
scripts/check_test_count.sh build
scripts/check_test_count.sh build-asan
echo "== tests (release build)"
ctest --test-dir build --output-on-failure -j"$jobs" "${exclude[@]}"
echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer build)"
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan --output-on-failure -j"$jobs" "${exclude[@]}"
echo "== fuzz (20 s per mode: run, model, platform; skipped without clang)"
scripts/fuzz.sh 20
