#!/usr/bin/env bash
# Study (b) of issue 14: Llama 2 7B on 8 devices of an Ascend 910B pod and of a CloudMatrix384 (910C),
# every tp x pp x dp split (the rest at Megatron/MindSpeed defaults: micro-batch 1, 1F1B, SP, ZeRO-1,
# selective recompute, overlap on), each timed by the formulas and replayed. Prints the README table.
# Usage: workloads/studies/llama2-7b-8-ascend/run.sh   (from anywhere; about a minute)
set -euo pipefail
cd "$(dirname "$0")/../../.."
[ -x build/trainsim ] || scripts/setup.sh >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fixed=(--fix cp=1 --fix micro_batch=1 --fix schedule=1f1b --fix sequence_parallel=true --fix zero_stage=1
       --fix recompute=selective --fix overlap.tp_comm=false --fix overlap.zero_param_gather=true
       --fix overlap.dp_grad_reduce=true --fix overlap.pp_comm=true --fix mesh_order=tp-cp-ep-dp-pp)
for platform in ascend-910b-pod cloudmatrix384; do
  build/trainsim search --model llama2-7b --platform "$platform" --devices 8 --global-batch 32 --seq 4096 \
    --framework-overhead 4GiB "${fixed[@]}" --top 100 --json >"$out/$platform.json" 2>/dev/null
  # One line per split: "tp pp dp formula replay" from the ranked entries.
  awk '/"strategy"/ { match($0, /tp[0-9]+ pp[0-9]+ dp[0-9]+/); split(substr($0, RSTART, RLENGTH), d, " ");
                      key = substr(d[1], 3) " " substr(d[2], 3) " " substr(d[3], 3) }
       /"formula_s"/ { f = $2 } /"replay_s"/ { gsub(",", "", $2); print key, f, $2 }' \
    "$out/$platform.json" | tr -d ',' | sort -n -k1,1 -k2,2 >"$out/$platform.txt"
done
echo "| tp | pp | dp | 910B formula s | 910B replay s | diff | 910C formula s | 910C replay s | diff |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# A split that does not fit in one platform's memory shows "does not fit" there.
join -a 1 -a 2 -e none -o 0,1.2,1.3,2.2,2.3 <(awk '{print $1"-"$2"-"$3, $4, $5}' "$out/ascend-910b-pod.txt" | sort) \
  <(awk '{print $1"-"$2"-"$3, $4, $5}' "$out/cloudmatrix384.txt" | sort) |
  awk 'function cell(f, r) { return f == "none" ? "does not fit | - | -" : sprintf("%.3f | %.3f | %+.1f%%", f, r, 100 * (f - r) / r) }
       { split($1, d, "-"); printf "| %s | %s | %s | %s | %s |\n", d[1], d[2], d[3], cell($2, $3), cell($4, $5) }' |
  sort -t'|' -k2,2n -k3,3n
for platform in ascend-910b-pod cloudmatrix384; do
  best=$(sort -g -k5,5 "$out/$platform.txt" | head -1)
  pick=$(sort -g -k4,4 "$out/$platform.txt" | head -1)
  echo "$platform: replay's best split tp/pp/dp $(echo "$best" | awk '{print $1"/"$2"/"$3}'), formulas' pick $(echo "$pick" | awk '{print $1"/"$2"/"$3}')"
done
