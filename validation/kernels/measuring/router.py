"""The MoE router's GEMMs and casts in the precisions Megatron-Core runs them (--moe-router-dtype).

Megatron-Core's router_gating_linear (megatron/core/transformer/moe/moe_utils.py) casts the router input and
weight to the router dtype and multiplies them with torch.mm: with moe_router_dtype fp32 the three GEMMs of
the router (fwd X.W^T, dgrad dY.W, wgrad dY^T.X) run on fp32 operands, on the tensor cores as TF32 only when
PyTorch allows it (torch.backends.cuda.matmul.allow_tf32), else on the FP32 units. Each is timed here in bf16,
fp32 and tf32, with the casts around it as memory-bound streams (bf16 -> fp32 input, fp32 -> bf16 input
gradient). Shapes: the MoE rows' router on one device, tokens x hidden -> experts: Qwen3-30B-A3B (hidden 2048,
128 experts; 4096 tokens per micro-batch of 1, 8192 of 2) and GPT-OSS-120B (hidden 2880, 128 experts, 4096).
"""
import torch

from measuring.common import bench_us, randn

SHAPES = [("qwen3-30b-a3b", 4096, 2048, 128), ("qwen3-30b-a3b", 8192, 2048, 128), ("gpt-oss-120b", 4096, 2880, 128)]
PRECISIONS = ("bf16", "fp32", "tf32")


def _operands(precision, t, h, e):
    dtype = torch.bfloat16 if precision == "bf16" else torch.float32
    return randn(t, h, dtype=dtype), randn(e, h, dtype=dtype), randn(t, e, dtype=dtype)


def router_gemm_rows(quick):
    """(precision, row, pass, m, n, k, us, tflops) with m, n, k as trainsim's catalogue names them."""
    out = []
    saved = torch.backends.cuda.matmul.allow_tf32
    try:
        for precision in PRECISIONS:
            torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
            for row, t, h, e in SHAPES:
                x, w, dy = _operands(precision, t, h, e)
                cases = (("fwd", (t, e, h), lambda: x @ w.t()), ("dgrad", (t, h, e), lambda: dy @ w),
                         ("wgrad", (h, e, t), lambda: dy.t() @ x))
                for pas, (m, n, k), fn in cases:
                    us = bench_us(fn, quick=quick)
                    out.append(dict(precision=precision, row=row, name=f"router.{pas}", m=m, n=n, k=k, us=us,
                                    tflops=2.0 * m * n * k / us / 1e6))
                del x, w, dy
    finally:
        torch.backends.cuda.matmul.allow_tf32 = saved
    return out


def router_cast_rows(quick):
    """The casts around an fp32 router: input bf16 -> fp32 (forward), input gradient fp32 -> bf16 (backward)."""
    out = []
    for row, t, h, _ in SHAPES:
        x16 = randn(t, h)
        x32 = randn(t, h, dtype=torch.float32)
        out.append(dict(row=row, op="router_cast_fp32", elements=t * h, bytes=6 * t * h,
                        us=bench_us(lambda: x16.float(), quick=quick)))
        out.append(dict(row=row, op="router_cast_back", elements=t * h, bytes=6 * t * h,
                        us=bench_us(lambda: x32.to(torch.bfloat16), quick=quick)))
        del x16, x32
    return out
