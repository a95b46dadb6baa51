"""Expert GEMMs of the MoE rows at several tokens per expert: one GEMM per local expert, as Transformer
Engine's GroupedLinear launches them on Hopper (one cuBLAS call per expert, here on one stream), in bf16 and
FP8 (per-tensor scales, TN layouts as in measuring/fp8.py), and PyTorch's single-kernel grouped GEMM
(torch._grouped_mm, bf16) for comparison. Balanced routing: every local expert gets the same tokens, as the
rows force-balance them.
"""
import torch

from measuring.common import bench_us, randn
from measuring.fp8 import F8, one, to_fp8

LOCAL_EXPERTS = 16  # 128 experts over EP 8, both rows
# (model, hidden, expert ffn width of fc1's output (SwiGLU: gate and up), fc2's input): the experts' Linears.
# gpt-oss-120b: hidden 2880, intermediate 2880 (openai/gpt-oss-120b config.json); qwen3-30b-a3b: hidden 2048,
# moe_intermediate_size 768 (Qwen/Qwen3-30B-A3B config.json), as workloads/models/ give them.
MODELS = [("gpt-oss-120b", 2880, 5760, 2880), ("qwen3-30b-a3b", 2048, 1536, 768)]
TOKENS_PER_EXPERT = [256, 512, 1024, 2048, 4096, 8192]  # the rows: 4096 (8 ranks x tokens x top-k / 128)


def passes(t, fin, fout):
    """(pass, m, n, k) of one expert Linear: fwd X·W^T, dgrad dY·W, wgrad dY^T·X."""
    return [("fwd", t, fout, fin), ("dgrad", t, fin, fout), ("wgrad", fin, fout, t)]


def loop_bf16(e, m, n, k):
    a = [randn(m, k) for _ in range(e)]
    b = [randn(n, k).t() for _ in range(e)]
    return lambda: [x @ y for x, y in zip(a, b)]


def loop_fp8(e, m, n, k, fast):
    a = [to_fp8(randn(m, k)) for _ in range(e)]
    b = [to_fp8(randn(n, k)) for _ in range(e)]
    s = one()
    return lambda: [torch._scaled_mm(x, y.t(), s, s, out_dtype=torch.bfloat16, use_fast_accum=fast)
                    for x, y in zip(a, b)]


def grouped_bf16(e, m, n, k):
    """torch._grouped_mm of e (m×k)·(k×n) products: a 2-D stack of the tokens times a 3-D stack of weights."""
    a = randn(e * m, k)
    b = randn(e, n, k).transpose(1, 2)
    offs = torch.arange(m, e * m + 1, m, device=a.device, dtype=torch.int32)
    return lambda: torch._grouped_mm(a, b, offs=offs, out_dtype=torch.bfloat16)


def moe_rows(quick):
    out = []
    e = LOCAL_EXPERTS
    for model, h, fc1, fc2_in in MODELS:
        for t in TOKENS_PER_EXPERT:
            for lin, fin, fout in (("fc1", h, fc1), ("fc2", fc2_in, h)):
                for pas, m, n, k in passes(t, fin, fout):
                    flops = 2.0 * e * m * n * k
                    row = dict(row=model, name=f"moe_expert_{lin}.{pas}", tokens=t, batch=e, m=m, n=n, k=k)
                    for kind, make in (("bf16", lambda: loop_bf16(e, m, n, k)),
                                       ("fp8", lambda: loop_fp8(e, m, n, k, pas == "fwd")),
                                       ("grouped", lambda: grouped_bf16(e, m, n, k))):
                        try:
                            row[kind] = flops / bench_us(make(), quick=quick) / 1e6
                        except Exception as err:  # noqa: BLE001 - a kernel this torch lacks is reported, not fatal
                            print(f"{model} {lin}.{pas} t={t} {kind}: {err}")
                            row[kind] = None
                        torch.cuda.empty_cache()
                    out.append(row)
    return out
