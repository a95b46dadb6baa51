#!/usr/bin/env bash
# Study (a) of issue 14: Qwen1.5 72B on 64 Ascend 910B (batch 64 x 8192 tokens). `trainsim search` over
# every strategy the run admits, its top 3 and MindSpeed-LLM's example layout (mindspeed-expert.yaml)
# replayed; prints the search's table with the baseline's speedup. Usage: run.sh (a few minutes).
set -euo pipefail
cd "$(dirname "$0")/../../.."
[ -x build/trainsim ] || scripts/setup.sh >/dev/null
build/trainsim search --model qwen1.5-72b --platform ascend-910b-pod --devices 64 --global-batch 64 --seq 8192 \
  --baseline workloads/studies/qwen15-72b-64-910b/mindspeed-expert.yaml --top 3 "$@"
