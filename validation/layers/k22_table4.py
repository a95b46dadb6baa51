#!/usr/bin/env python3
"""One transformer layer of the 22B model, per pass, against Korthikanti et al. 2022, Table 4.

Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (arXiv 2205.05198),
Table 4: forward and backward milliseconds of one layer of the 22B model (Table 3: hidden 6144, 64 heads,
tp 8, micro-batch 4, seq 2048, A100 80GB on Selene), five configurations. The backward of the recompute
rows includes the recomputed forward.

trainsim side: `trainsim simulate validation/runs/k22-22b-full.yaml --set model.layers=2` with the row's
recompute and sequence-parallel settings, traced on device 0 (`--trace`). The second layer's forward runs
from its first kernel to the final norm; its backward from the end of the final norm's backward (its
recompute, if any, begins there) to the end of its first norm's backward. Exposed TP collectives are
inside both spans, as they are inside the paper's times.

Usage: python3 validation/layers/k22_table4.py [TRAINSIM] [--set KEY=VALUE ...]   (from the project root)
"""
import json
import os
import subprocess
import sys
import tempfile

# (experiment, strategy.recompute, strategy.sequence_parallel, forward ms, backward ms): Table 4.
TABLE4 = [
    ("Baseline no recompute", "none", "false", 7.7, 11.9),
    ("Sequence Parallelism", "none", "true", 7.2, 11.8),
    ("Baseline with recompute", "full", "false", 7.7, 19.5),
    ("Selective Recompute", "selective", "false", 7.7, 13.2),
    ("Selective + Sequence", "selective", "true", 7.2, 13.1),
]


def compute_kernels(trace_path):
    with open(trace_path) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    kernels = [e for e in events if e.get("ph") == "X" and e["tid"] == 0]
    return sorted(kernels, key=lambda e: e["ts"])


def layer_times(kernels):
    """Forward and backward milliseconds of the second (last) layer."""
    names = [k["name"] for k in kernels]
    second_norm = [i for i, n in enumerate(names) if n == "attn_norm.fwd"][1]
    forward = (kernels[names.index("final_norm.fwd")]["ts"] - kernels[second_norm]["ts"]) / 1000
    final_dgrad = names.index("final_norm.dgrad")
    start = kernels[final_dgrad]["ts"] + kernels[final_dgrad]["dur"]
    end_i = next(i for i in range(final_dgrad, len(names)) if names[i] == "attn_norm.dgrad")
    backward = (kernels[end_i]["ts"] + kernels[end_i]["dur"] - start) / 1000
    return forward, backward


def main():
    args = sys.argv[1:]
    trainsim = args.pop(0) if args and not args[0].startswith("--") else "build/trainsim"
    print("| experiment (Table 4) | forward ms | trainsim | error % | backward ms | trainsim | error % |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "layer.json")
        for name, recompute, sp, fwd_ms, bwd_ms in TABLE4:
            subprocess.run([trainsim, "simulate", "validation/runs/k22-22b-full.yaml", "--set", "model.layers=2",
                            "--set", "strategy.recompute=" + recompute, "--set", "strategy.sequence_parallel=" + sp,
                            "--trace", trace, "--trace-devices", "0", "--allow-oom"] + args,
                           stdout=subprocess.DEVNULL, check=True)
            fwd, bwd = layer_times(compute_kernels(trace))
            print(f"| {name} | {fwd_ms} | {fwd:.2f} | {100 * (fwd - fwd_ms) / fwd_ms:+.1f} "
                  f"| {bwd_ms} | {bwd:.2f} | {100 * (bwd - bwd_ms) / bwd_ms:+.1f} |")


if __name__ == "__main__":
    main()
