#!/usr/bin/env bash
# Sets up, builds and runs every test: once on the normal build, once under ASan + UBSan.
# Usage: scripts/test.sh [--full]
#   --full  also run the tests labelled `heavy` (example runs whose replay takes minutes, e.g.
#           deepseek-v3-cloudmatrix: ~9 min on 2 cores); CI leaves them out to stay under 20 min.
# The sanitizer run also leaves out the tests labelled `release_only` (the README's co-design tables, four
# exhaustive-search comparisons: minutes under ASan, and their code runs sanitized in smaller tests).
set -euo pipefail
cd "$(dirname "$0")/.."
exclude=(-LE heavy)
sanitized_exclude=(-LE "heavy|release_only")  # release_only: long output-equality checks (tests/catch_register.cmake)
case "${1:-}" in
  --full) exclude=(); sanitized_exclude=(-LE release_only) ;;
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
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan --output-on-failure -j"$jobs" "${sanitized_exclude[@]}"
echo "== fuzz (20 s per mode: run, model, platform; skipped without clang)"
scripts/fuzz.sh 20
