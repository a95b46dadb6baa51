"""8-bit GEMMs and the quantization kernels around them, as Transformer Engine runs them on Hopper.

GEMMs: torch._scaled_mm (cuBLASLt FP8, the library TE calls) with per-tensor scales, E4M3 operands (TE's
"hybrid" format uses E5M2 only for gradients; the tensor-core rate is the same), bf16 output. Hopper's FP8
tensor cores take both operands K-major (TN), so each pass reads the copies TE keeps for it: fwd X·W^T from
X and W, dgrad dY·W from dY and W^T, wgrad dY^T·X from dY^T and X^T. Accumulation as TE's defaults
(transformer_engine/pytorch/module/base.py: _2X_ACC_FPROP False, _2X_ACC_DGRAD and _2X_ACC_WGRAD True):
fast accumulation in the forward only. The bf16 GEMM of the same shape is timed beside each (same run,
same clocks) so the ratio carries to a card with the same tensor cores.

Casts: Triton kernels doing what TE's fused kernels do, so that their bytes are the modelled ones
(sim/model/fp8_quantize.hpp): amax (reads 2 B/element), cast (2 B in, 1 B out), cast+transpose (2 B in,
1 B row-wise + 1 B column-wise out) and the FP8 transpose (1 B in, 1 B out).
"""
import torch
import triton
import triton.language as tl

from measuring.common import DEV, bench_us, randn
from measuring.gemms import gemm_rows_shapes

F8 = torch.float8_e4m3fn


def to_fp8(x):
    return (x * 0.5).to(F8)


def one():
    return torch.ones((), device=DEV, dtype=torch.float32)


def scaled(a, b_t, fast):
    """a (m×k) row-major times b_t (n×k) row-major, transposed: the TN layout of FP8 GEMMs."""
    s = one()
    return lambda: torch._scaled_mm(a, b_t.t(), s, s, out_dtype=torch.bfloat16, use_fast_accum=fast)


def fp8_gemm_rows(quick, models=None):
    """Each linear's fwd, dgrad, wgrad in FP8 and, beside it, in bf16."""
    out = []
    for row, name, pas, (m, n, k) in gemm_rows_shapes(models):
        a, b_t = randn(m, k), randn(n, k)
        fp8_us = bench_us(scaled(to_fp8(a), to_fp8(b_t), pas == "fwd"), quick=quick)
        b = b_t.t()
        bf16_us = bench_us(lambda: a @ b, quick=quick)
        flops = 2.0 * m * n * k
        out.append(dict(row=row, name=f"{name}.{pas}", m=m, n=n, k=k, us=fp8_us, tflops=flops / fp8_us / 1e6,
                        bf16_tflops=flops / bf16_us / 1e6))
        del a, b_t, b
    return out


@triton.jit
def _cast(x_ptr, q_ptr, qt_ptr, scale_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, TRANSPOSE: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0.0)
    q = (x.to(tl.float32) * tl.load(scale_ptr)).to(tl.float8e4nv)
    tl.store(q_ptr + rm[:, None] * N + rn[None, :], q, mask=mask)
    if TRANSPOSE:
        tl.store(qt_ptr + rn[None, :] * M + rm[:, None], q, mask=mask)


@triton.jit
def _transpose(q_ptr, qt_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    q = tl.load(q_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(qt_ptr + rn[None, :] * M + rm[:, None], q, mask=mask)


BLOCK = 64


def cast_fn(x, transpose):
    m, n = x.shape
    q = torch.empty(m, n, device=DEV, dtype=F8)
    qt = torch.empty(n, m, device=DEV, dtype=F8)
    s = one()
    grid = (triton.cdiv(m, BLOCK), triton.cdiv(n, BLOCK))
    return lambda: _cast[grid](x, q, qt, s, m, n, BM=BLOCK, BN=BLOCK, TRANSPOSE=transpose)


def transpose_fn(q):
    m, n = q.shape
    qt = torch.empty(n, m, device=DEV, dtype=F8)
    grid = (triton.cdiv(m, BLOCK), triton.cdiv(n, BLOCK))
    return lambda: _transpose[grid](q, qt, m, n, BM=BLOCK, BN=BLOCK)


def check_cast(x):
    """The Triton kernels must agree with PyTorch's cast and transpose before they are timed."""
    m, n = x.shape
    q = torch.empty(m, n, device=DEV, dtype=F8)
    qt = torch.empty(n, m, device=DEV, dtype=F8)
    grid = (triton.cdiv(m, BLOCK), triton.cdiv(n, BLOCK))
    _cast[grid](x, q, qt, one(), m, n, BM=BLOCK, BN=BLOCK, TRANSPOSE=True)
    ref = x.to(F8).view(torch.uint8)
    rows = (q.view(torch.uint8) != ref).sum().item()
    cols = (qt.view(torch.uint8) != ref.t().contiguous()).sum().item()
    print(f"cast check: {rows} row-wise and {cols} column-wise bytes differ from PyTorch's cast of {m * n}")


# (what, tokens, width): activations and output gradients of the FP8 rows' Linears, one TP rank's share.
CAST_SHAPES = [("llama3-8b fc1 input", 8192, 4096), ("llama3-8b fc2 input", 8192, 14336),
               ("llama3-70b tp4 fc2 input", 8192, 7168), ("gpt3-5b mbs4 input", 8192, 4096),
               ("nemotron-340b tp8 qkv grad", 4096, 3072), ("qwen3-30b expert fc1 input", 65536, 2048)]


def cast_rows(quick):
    out = []
    check_cast(randn(1000, 3000))
    for what, t, w in CAST_SHAPES:
        x = randn(t, w)
        e = t * w
        q = to_fp8(x)
        amax = lambda: torch.linalg.vector_norm(x, float("inf"))
        for op, nbytes, fn in (("fp8_amax", 2 * e, amax), ("fp8_cast", 3 * e, cast_fn(x, False)),
                               ("fp8_cast_transpose", 4 * e, cast_fn(x, True)), ("fp8_transpose", 2 * e, transpose_fn(q))):
            out.append(dict(row=what, op=op, elements=e, bytes=nbytes, kernels=1, us=bench_us(fn, quick=quick)))
        del x, q
    return out
