"""Causal fused attention (cuDNN, FlashAttention-2) at the rows' head counts and beyond."""
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from measuring.common import HEAD_DIM, ROWS, SEQ, bench_us, randn

BACKENDS = (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION))
# Shapes beyond the rows' (seq 4096, head_dim 128), to see how far one attention efficiency carries:
# (heads, seq, head_dim).
GRID = [(8, 2048, 128), (32, 2048, 128), (8, 8192, 128), (32, 8192, 128), (8, 16384, 128), (16, 4096, 64)]
# (batch, heads, seq, head_dim): several sequences at once, as micro-batches above 1 and the MoE rows run
# (mb-qwen3-30b-a3b: 2 x 32 heads of 128; mb-gpt-oss-120b: 64 heads of 64), and very few heads: how the
# kernel's time follows the number of query tiles in flight against the 132 SMs.
GRID_BATCH = [(2, 32, 4096, 128), (4, 32, 4096, 128), (2, 16, 4096, 128), (4, 8, 4096, 128), (1, 64, 4096, 128),
              (1, 64, 4096, 64), (4, 64, 4096, 64), (8, 8, 2048, 128), (1, 4, 4096, 128), (1, 2, 4096, 128),
              (1, 1, 8192, 128), (2, 8, 8192, 128)]


def attention_pass_us(backend, heads, seq, head_dim, dropout, quick, batch=1):
    """(forward, backward) microseconds of causal attention on one backend."""
    q, k, v = (randn(batch, heads, seq, head_dim, requires_grad=True) for _ in range(3))
    with sdpa_kernel([backend]):
        fwd = bench_us(lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True), quick=quick)
        o = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)
    do = torch.randn_like(o)
    bwd = bench_us(lambda: o.backward(do, retain_graph=True), grad_to_none=[q, k, v], quick=quick)
    return fwd, bwd


def attention_rows(quick, dropout):
    out, seen = [], set()
    for row, h, heads, tp in ROWS:
        hl = heads // tp
        if hl in seen:
            continue
        seen.add(hl)
        for backend, sdp in BACKENDS:
            try:
                fwd, bwd = attention_pass_us(sdp, hl, SEQ, HEAD_DIM, dropout, quick)
                for pas, us in (("fwd", fwd), ("bwd", bwd)):
                    out.append(dict(row=row, backend=backend, heads=hl, seq=SEQ, head_dim=HEAD_DIM, pas=pas, us=us))
            except Exception as e:  # a backend missing on this build: recorded, not fatal
                print(f"attention {backend} heads {hl}: {e!r}", file=sys.stderr)
    return out


def attention_grid_rows(quick, dropout):
    out = []
    for heads, seq, head_dim in GRID:
        fwd, bwd = attention_pass_us(SDPBackend.CUDNN_ATTENTION, heads, seq, head_dim, dropout, quick)
        for pas, us in (("fwd", fwd), ("bwd", bwd)):
            out.append(dict(row="grid", backend="cudnn", heads=heads, seq=seq, head_dim=head_dim, pas=pas, us=us))
    return out


def attention_batch_rows(quick, dropout):
    out = []
    for batch, heads, seq, head_dim in GRID_BATCH:
        try:
            fwd, bwd = attention_pass_us(SDPBackend.CUDNN_ATTENTION, heads, seq, head_dim, dropout, quick, batch)
        except Exception as e:  # noqa: BLE001 - a shape this build refuses: recorded, not fatal
            print(f"attention batch {batch} heads {heads} seq {seq}: {e!r}", file=sys.stderr)
            continue
        for pas, us in (("fwd", fwd), ("bwd", bwd)):
            out.append(dict(row="batch", backend="cudnn", batch=batch, heads=heads, seq=seq, head_dim=head_dim,
                            pas=pas, us=us))
    return out
