#!/usr/bin/env bash
# Fails when the CTest entries of a build differ in number from the Catch2 test cases of its
# trainsim_tests: a test case that is not registered (or registered as several entries that
# match nothing) would otherwise pass without running. Usage: scripts/check_test_count.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: scripts/check_test_count.sh BUILD_DIR}
# Catch2 v2 exits with the number of tests it listed, so the exit status says nothing here.
names=$("$build/trainsim_tests" --list-test-names-only || true)
cases=$(grep -c . <<<"$names" || true)
entries=$(ctest --test-dir "$build" -N | sed -n 's/^Total Tests: //p')
if [ "$cases" != "$entries" ]; then
  echo "error: $build has $entries CTest entries for $cases Catch2 test cases" >&2
  exit 1
fi
echo "$build: $entries CTest entries = $cases Catch2 test cases"
