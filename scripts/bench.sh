#!/usr/bin/env bash
# Scale benchmarks (issue 4): wall time and peak RSS of graph building and replay at scale.
# Prints one table; each row says which replay mode it used. Usage: scripts/bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/trainsim ] || scripts/setup.sh >/dev/null
bin=build/trainsim
quick=${1:-}

measure() {  # label, then the command; prints wall seconds and peak RSS
  local label=$1; shift
  local out
  out=$( { /usr/bin/time -f "%e %M" "$@" >/tmp/trainsim_bench.out 2>/tmp/trainsim_bench.err; } 2>&1 | tail -1 ) || {
    echo "FAILED: $label"; cat /tmp/trainsim_bench.err; return 1; }
  read -r wall rss <<<"$(tail -1 /tmp/trainsim_bench.err)"
  local iter
  iter=$(grep -m1 '^iteration time' /tmp/trainsim_bench.out | awk '{print $3}' || true)
  printf "%-58s %9.2f s %9.0f MB   %s\n" "$label" "$wall" "$((rss / 1024))" "${iter:+iteration ${iter} s}"
}

echo "benchmark                                                  wall       peak RSS   simulated"
measure "graph templates, llama3-405b 16384 H100 (t8 p16 d128)" $bin graph workloads/llama3-405b-16k.yaml --all-stages
measure "simulate megatron-145b 1536 A100 (t8 p8 d24), folded" $bin simulate workloads/megatron-145b-1536.yaml --fold on
[ "$quick" = "--quick" ] || \
measure "simulate megatron-145b 1536 A100, full replay" $bin simulate workloads/megatron-145b-1536.yaml --fold off
measure "simulate llama3-405b 16384 H100, folded" $bin simulate workloads/llama3-405b-16k.yaml --fold on

echo
echo "scaling with device count: llama3-405b on H100, t8 p8, dp = devices/64, 16 sequences per replica"
for devices in 64 128 256 512 1024 2048 4096 8192 16384; do
  dp=$((devices / 64))
  args=(simulate workloads/llama3-405b-16k.yaml --allow-oom --set devices=$devices --set strategy.pp=8
        --set strategy.dp=$dp --set global_batch=$((16 * dp)))
  [ "$dp" -gt 1 ] && measure "  $devices devices, folded" $bin "${args[@]}" --fold on
  if [ "$quick" != "--quick" ] && [ "$devices" -le 1024 ]; then
    measure "  $devices devices, full replay" $bin "${args[@]}" --fold off
  fi
done
