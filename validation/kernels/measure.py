#!/usr/bin/env python3
"""Measure, on one NVIDIA GPU, the kernels trainsim's catalogue simulates for the H100 validation rows.

Needs PyTorch with CUDA and Triton (for do_bench); nothing of trainsim. Usage:

    python3 validation/kernels/measure.py --out DIR [--quick] [--dropout 0.1] [--accelerator NAME --prefix P]

The shapes are the H100 rows' (ROWS in measuring/common.py), one kind of measurement per module of
measuring/; on another GPU, --accelerator names the preset's accelerator.

It writes into DIR, as tables of `trainsim kernels` (validation/kernels/*.yaml):
  h100-sxm-training-gemm.yaml      bf16 GEMMs at the training shapes of the rows; m, n, k as the catalogue
                                   names them: fwd {t, out, in}, dgrad {t, in, out}, wgrad {in, out, t}
  h100-sxm-llama-gemm.yaml         the same for Llama 3 8B / 70B layers (shapes outside the fit: a check)
  h100-sxm-attention-cudnn.yaml    fused causal attention, forward and backward, cuDNN backend (what
                                   Transformer Engine selects on Hopper) and FlashAttention-2
  h100-sxm-attention-flash.yaml
  h100-sxm-attention-cudnn-grid.yaml  cuDNN attention at other sequence lengths, head counts and head dims
                                   (a check of how far the fitted efficiency carries; --only attention-grid)
  h100-sxm-attention-cudnn-batch.yaml  the same over several sequences (batch 2-8) and very few heads (1-4)
  h100-sxm-streams.yaml            memory-bound kernels with the bytes each moves
  h100-sxm-fp8-gemm.yaml           FP8 GEMMs (torch._scaled_mm, per-tensor scales) at the rows' and Llama 3
                                   shapes, each with the bf16 GEMM of its shape timed beside it
  h100-sxm-fp8-casts.yaml          the quantization kernels Transformer Engine runs around FP8 GEMMs (amax,
                                   cast, cast+transpose, FP8 transpose), with the bytes each moves
  h100-sxm-moe-gemm.yaml           expert GEMMs of the MoE rows (16 local experts, 256-8192 tokens each), one
  h100-sxm-moe-fp8-gemm.yaml       GEMM per expert as TE's GroupedLinear launches them on Hopper, bf16 and
  h100-sxm-moe-grouped-gemm.yaml   FP8; and as one torch._grouped_mm kernel
                                   (MXFP8 needs a Blackwell GPU: not measured on Hopper.)
  h100-sxm-router-{bf16,fp32,tf32}.yaml  the MoE rows' router GEMMs in each precision Megatron-Core's
                                   --moe-router-dtype can give them (fp32 on the FP32 units or as TF32), and
                                   in the fp32 table the casts around an fp32 router
and, for reading beside `trainsim simulate`:
  h100-sxm-layers.yaml             one transformer layer per row shape, forward and backward, run back to
                                   back as in training (no communication: one tensor-parallel rank's share)
  h100-sxm-step.yaml               a whole 1.7B training step on one GPU (mlm-h100-1.7b's work without data
                                   parallelism) with its peak memory
  h100-sxm-moe-layer.yaml          one MoE layer of mb-qwen3-30b-a3b and mb-gpt-oss-120b (one expert-parallel
                                   rank's work, all-to-all omitted), forward and backward: device time, CUDA
                                   kernels and the host's time to issue them, with a host sync's round trip
  h100-sxm-moe-layer-profile.txt   that layer's kernels per pass by own device time (torch.profiler's table)
  h100-sxm-expert-epilogue.yaml    GPT-OSS's eager expert operations in Megatron-Core (the clamped GLU's clamps
                                   and concatenation, the fc2 bias added per expert), forward and backward:
                                   device time, kernels, host time, synchronising calls
  h100-sxm-yarn-rope.yaml          GPT-OSS's YaRN rotary embedding as Megatron-Core applies it (eager ops on q
                                   and k), forward and backward, the same columns
  h100-sxm-host.yaml               host cost per launch of eager PyTorch (aten op, autograd forward and
                                   backward, nn.Linear, .cpu() sync) on tiny tensors, with the CPU model
  h100-sxm-interference.yaml       bf16 GEMMs slowed by a NCCL-like copy kernel of 8-32 CTAs on a side stream
                                   (the physics of comm_interference), with the copy's bandwidth alone
Beside it, validation/kernels/sustained.py times GEMMs alone and back to back at the power limit
(h100-sxm-sustained-gemm.md), the isolated-to-training gap the presets' comments discuss, and
validation/kernels/window_attention.py times cuDNN's sliding-window attention through JAX
(h100-sxm-attention-window.yaml), which PyTorch's SDPA cannot express.
Timing: triton.testing.do_bench, median of the repetitions, L2 flushed before each (cold cache, as in a
training step where the previous kernel's output rarely stays in L2 for large tensors). Random normal
inputs (never zeros). Nothing is changed on the GPU (clocks, power) - it is measured as found.
"""
import argparse
import os
import time
import traceback

import torch

from measuring.tables import PARTS


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="folder for the YAML files")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke test)")
    ap.add_argument("--accelerator", default="H100-SXM5-80GB",
                    help="accelerator name the tables carry: the platform preset's accelerator.name (trainsim kernels"
                         " refuses a table of another accelerator)")
    ap.add_argument("--prefix", default="h100-sxm", help="file name prefix of the tables (default h100-sxm)")
    ap.add_argument("--dropout", type=float, default=0.0,
                    help="attention and hidden dropout probability for attention, layers and step (Megatron's"
                         " default is 0.1; files get a -dropoutP suffix)")
    ap.add_argument("--only", default=",".join(PARTS), help="comma list of parts to run: " + ", ".join(PARTS))
    args = ap.parse_args()
    unknown = [p for p in args.only.split(",") if p not in PARTS]
    if unknown:
        ap.error(f"--only: unknown part(s) {', '.join(unknown)}; valid: {', '.join(PARTS)}")
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    name = torch.cuda.get_device_properties(0).name
    for part in args.only.split(","):
        t0 = time.time()
        try:
            PARTS[part](args, name)
        except Exception:  # one part failing must not lose the others
            traceback.print_exc()
        print(f"{part}: {time.time() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
