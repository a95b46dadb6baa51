#!/usr/bin/env bash
# Search benchmarks (issue 14) on this machine: how long `trainsim search` takes before replay on
# large spaces, how long its top-10 replay takes, and, on spaces small enough to replay every
# strategy, whether the formulas' pick is the replay's best and how well the two rankings agree
# (Spearman's rho over every distinct strategy of the space).
# Usage: scripts/bench_search.sh [--quick | --agreement]
#   --quick      no top-10 replay, agreement studies only on 8 devices (minutes)
#   --agreement  only the agreement studies, all of them
#   (default)    everything; the top-10 replay of GPT-3 175B on 1,024 A100 takes the longest
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/trainsim ] || scripts/setup.sh >/dev/null
bin=build/trainsim
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cores=$(nproc 2>/dev/null || echo 2)

# label, then search arguments; prints wall and CPU seconds and the search's own counts line.
timed() {
  local label=$1; shift
  /usr/bin/time -f "%e %U %M" -o "$out/time" $bin search "$@" >"$out/stdout" 2>"$out/stderr" || {
    echo "FAILED: $label"; tail -5 "$out/stderr"; return 1; }
  read -r wall cpu rss <"$out/time"
  printf "%-58s %8.2f s %8.2f s %6d MB  %s\n" "$label" "$wall" "$cpu" "$((rss / 1024))" \
    "$(grep -m1 '^strategies' "$out/stdout" | sed 's/^strategies *//')"
}

mode=${1:-}
if [ "$mode" != "--agreement" ]; then
echo "== speed: search before replay (--no-replay), then the top-10 replay"
echo "case                                                           wall        CPU    RSS   strategies"
timed "GPT-3 175B, 1,024 A100, batch 1536, seq 2048" --model gpt3-175b --platform dgx-a100-superpod \
  --devices 1024 --global-batch 1536 --seq 2048 --precision fp16 --framework-overhead 3GiB --no-replay
timed "Llama 3 405B, 16,384 H100, batch 2048, seq 8192" --model llama3-405b --platform dgx-h100-superpod \
  --devices 16384 --global-batch 2048 --seq 8192 --framework-overhead 3GiB --no-replay
if [ "$mode" != "--quick" ]; then
  timed "GPT-3 175B, 1,024 A100: search + top-10 replay ($cores at once)" --model gpt3-175b \
    --platform dgx-a100-superpod --devices 1024 --global-batch 1536 --seq 2048 --precision fp16 \
    --framework-overhead 3GiB --parallel "$cores"
fi
fi

# Every strategy of a small space replayed: the formulas' pick in the replay's order, and rho.
agreement() {
  local label=$1; shift
  $bin search "$@" --top 100000 --parallel "$cores" --json >"$out/json" 2>"$out/stderr" || {
    echo "FAILED: $label"; tail -5 "$out/stderr"; return 1; }
  local n rho rank slower
  n=$(grep -c '"formula_rank"' "$out/json")
  rho=$(grep -m1 '"spearman"' "$out/json" | sed 's/.*: //; s/,//')
  rank=$(grep -m1 '"pick_replay_rank"' "$out/json" | sed 's/.*: //; s/,//')
  slower=$(grep -m1 '"pick_slower_than_best"' "$out/json" | sed 's/.*: //; s/,//')
  printf "%-58s %6d   %6.3f   %4d   %6.2f%%\n" "$label" "$n" "$rho" "$rank" "$(awk "BEGIN{print 100*$slower}")"
}

# The spaces: every tp x pp x dp x cp split, micro-batch, schedule and virtual stages, SP and
# recompute policy; ZeRO-1, overlap and mesh order at the Megatron defaults so that every strategy
# can be replayed in minutes.
fixed=(--fix zero_stage=1 --fix overlap.tp_comm=false --fix overlap.zero_param_gather=true
       --fix overlap.dp_grad_reduce=true --fix overlap.pp_comm=true --fix mesh_order=tp-cp-ep-dp-pp)
echo
echo "== agreement: every distinct strategy of the space replayed"
echo "space                                                      replayed   Spearman  pick's replay rank, slower than best"
agreement "Llama 2 7B, 8 H100, batch 32, seq 4096" --model llama2-7b --platform dgx-h100-superpod \
  --devices 8 --global-batch 32 --seq 4096 --framework-overhead 3GiB --space micro_batch=1,2,4 \
  --space recompute=none,selective "${fixed[@]}"
agreement "Llama 2 7B, 8 Ascend 910B, batch 32, seq 4096" --model llama2-7b --platform ascend-910b-pod \
  --devices 8 --global-batch 32 --seq 4096 --framework-overhead 4GiB --space micro_batch=1,2,4 \
  --space recompute=none,selective "${fixed[@]}"
[ "$mode" = "--quick" ] && exit 0
agreement "Llama 2 7B, 16 H100, batch 64, seq 4096" --model llama2-7b --platform dgx-h100-superpod \
  --devices 16 --global-batch 64 --seq 4096 --framework-overhead 3GiB --space micro_batch=1,2 \
  --space recompute=none,selective "${fixed[@]}"
# The two large spaces keep SP on and the non-interleaved schedules, so that their 34 and 50 strategies
# replay in tens of minutes on 2 cores.
large=(--fix micro_batch=1 --space recompute=selective,full --fix recompute_layers=0 --fix cp=1
       --fix sequence_parallel=true --space schedule=1f1b,zb-h1)
agreement "Qwen1.5 72B, 64 Ascend 910B, batch 64, seq 4096" --model qwen1.5-72b --platform ascend-910b-pod \
  --devices 64 --global-batch 64 --seq 4096 --framework-overhead 4GiB "${large[@]}" "${fixed[@]}"
agreement "GPT-3 175B, 128 A100, batch 256, seq 2048" --model gpt3-175b --platform dgx-a100-superpod \
  --devices 128 --global-batch 256 --seq 2048 --precision fp16 --framework-overhead 3GiB "${large[@]}" "${fixed[@]}"
