"""bf16 GEMMs of the rows' linears, in PyTorch's layouts, named as trainsim's catalogue names them."""
from measuring.common import HEAD_DIM, ROWS, SEQ, VOCAB, bench_us, randn


def linear_shapes(h, heads, tp):
    """(name, in, out) of a GPT layer's linears on one TP rank, plus the vocab-parallel logits."""
    q = heads // tp * HEAD_DIM
    ffn = 4 * h // tp
    return [("qkv_proj", h, 3 * q), ("out_proj", q, h), ("mlp_fc1", h, ffn), ("mlp_fc2", ffn, h),
            ("logits", h, VOCAB // tp)]


# Llama-style shapes outside the fit (workloads/llama3-8b-*, llama3-70b-h100): (name, hidden, heads, kv heads,
# ffn, vocab, tp, seq); SwiGLU fc1 holds gate and up.
LLAMA = [("llama3-8b", 4096, 32, 8, 14336, 128256, 1, 8192), ("llama3-70b", 8192, 64, 8, 28672, 128256, 8, 8192)]


def llama_linear_shapes(h, heads, kv_heads, ffn, vocab, tp):
    q, kv = heads // tp * HEAD_DIM, kv_heads // tp * HEAD_DIM
    return [("qkv_proj", h, q + 2 * kv), ("out_proj", q, h), ("mlp_fc1", h, 2 * ffn // tp), ("mlp_fc2", ffn // tp, h),
            ("logits", h, vocab // tp)]


def gemm_rows_shapes(models=None):
    """(row, linear, pass, (m, n, k)) of each linear's fwd (X·W^T), dgrad (dY·W) and wgrad (dY^T·X), once each."""
    if models is None:
        models = [(row, SEQ, linear_shapes(h, heads, tp)) for row, h, heads, tp in ROWS]
    seen = set()
    for row, t, shapes in models:
        for name, fin, fout in shapes:
            for pas, mnk in (("fwd", (t, fout, fin)), ("dgrad", (t, fin, fout)), ("wgrad", (fin, fout, t))):
                if (mnk, pas) not in seen:
                    seen.add((mnk, pas))
                    yield row, name, pas, mnk


def gemm_rows(quick, models=None):
    """Each linear's fwd, dgrad and wgrad in PyTorch's layouts (X·W^T, dY·W, dY^T·X)."""
    out = []
    for row, name, pas, (m, n, k) in gemm_rows_shapes(models):
        t, fin, fout = {"fwd": (m, k, n), "dgrad": (m, n, k), "wgrad": (k, m, n)}[pas]
        x, w, dy = randn(t, fin), randn(fout, fin), randn(t, fout)
        fn = {"fwd": lambda: x @ w.t(), "dgrad": lambda: dy @ w, "wgrad": lambda: dy.t() @ x}[pas]
        us = bench_us(fn, quick=quick)
        out.append(dict(row=row, name=f"{name}.{pas}", m=m, n=n, k=k, us=us, tflops=2.0 * m * n * k / us / 1e6))
        del x, w, dy
    return out
