#!/usr/bin/env bash
# Study (c) of issue 14: the search's pick against Megatron-LM's default layout for Llama 2 13B, Mixtral
# 8x7B and a 7B-class model (Llama 2 7B) on 8-16 H100, batch 8 and 32 sequences of 4096 tokens. The default
# layout is what Megatron-LM does when a launch sets only the sizes (megatron/training/arguments.py:
# --tensor-model-parallel-size, --pipeline-model-parallel-size, --context-parallel-size and
# --expert-model-parallel-size default to 1; --sequence-parallel, --use-distributed-optimizer are off
# unless given; no recompute unless --recompute-granularity; micro-batch 1 as in its examples): pure data
# parallelism. Prints the README table (both replayed); a default that does not fit says by how much.
# Usage: workloads/studies/megatron-defaults-h100/run.sh   (several minutes)
set -euo pipefail
cd "$(dirname "$0")/../../.."
[ -x build/trainsim ] || scripts/setup.sh >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| model | H100 | batch | Megatron default (tp 1, pp 1, dp N) | search's pick | its replay s | speedup |"
echo "|---|---:|---:|---|---|---:|---:|"
while read -r model devices batch; do
  cat >"$out/default.yaml" <<YAML
name: megatron-default
model: $model
platform: dgx-h100-superpod
devices: $devices
precision: bf16
seq_len: 4096
global_batch: $batch
micro_batch: 1
strategy: {tp: 1, pp: 1, dp: $devices}
framework_overhead: 3GiB
YAML
  search=(build/trainsim search --model "$model" --platform dgx-h100-superpod --devices "$devices"
          --global-batch "$batch" --seq 4096 --framework-overhead 3GiB --top 1 --json)
  # A batch smaller than the device count leaves the default's dp without a whole sequence each:
  # Megatron-LM refuses that launch; the search still runs, without a baseline.
  invalid=""
  if [ "$batch" -lt "$devices" ]; then
    invalid="invalid: dp $devices does not divide batch $batch"
    "${search[@]}" >"$out/json" 2>"$out/err"
  else
    "${search[@]}" --baseline "$out/default.yaml" >"$out/json" 2>"$out/err"
  fi
  awk -v model="$model" -v devices="$devices" -v batch="$batch" -v invalid="$invalid" '
    /"ranked"/ { section = "ranked" } /"baseline"/ { section = "baseline" }
    /"strategy"/ { s = $0; sub(/.*"strategy": "/, "", s); sub(/",?$/, "", s); label[section] = s }
    /"replay_s"/ { v = $2; sub(/,/, "", v); replay[section] = v }
    /"memory_bytes"/ { v = $2; sub(/,/, "", v); memory[section] = v }
    /"fits"/ { fits = ($2 ~ /true/) }
    /"speedup"/ { v = $2; sub(/,/, "", v); speedup = v }
    END {
      base = fits ? sprintf("%.3f s", replay["baseline"]) : sprintf("does not fit: %.0f GiB of 80", memory["baseline"] / 1073741824)
      if (invalid != "") base = invalid
      printf "| %s | %s | %s | %s | %s | %.3f | %s |\n", model, devices, batch, base, label["ranked"], replay["ranked"],
             fits ? sprintf("%.2fx", speedup) : "runs vs cannot" }' "$out/json"
done <<'CASES'
llama2-7b 8 8
llama2-7b 8 32
llama2-13b 8 8
llama2-13b 8 32
mixtral-8x7b 16 8
mixtral-8x7b 16 32
CASES
