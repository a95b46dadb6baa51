"""YaRN rotary embedding applied with eager PyTorch ops, as Megatron-Core ~0.15 applies it when the YaRN
attention scale (mscale) is not 1 (rope_utils.apply_rotary_pos_emb falls back from Transformer Engine's fused
RoPE; Megatron-Bridge also turns apply_rope_fusion off for position_embedding_type "yarn"), re-written here
with the same tensor operations and timed on the device and on the host.

Per tensor (q, then k), with freqs [s, 1, 1, head_dim] in fp32: cos and sin of freqs times mscale, cast to
the activations' dtype; t * cos + rotate_half(t) * sin, rotate_half = cat(-second half, first half); a cat
with the (empty) part beyond the rotary dimension. The backward is autograd's.
Shapes: mb-gpt-oss-120b, 4096 tokens, 64 query heads and 8 key/value heads of 64, mscale 0.1 ln(32) + 1.
"""
import math

import torch

from measuring.common import DEV, randn
from measuring.passes import op_metrics

SEQ, HEADS, KV_HEADS, HEAD_DIM = 4096, 64, 8, 64
MSCALE = 0.1 * math.log(32) + 1


def rotate_half(x):
    first, second = torch.chunk(x, 2, dim=-1)
    return torch.cat((-second, first), dim=-1)


def apply_rope(t, freqs):
    rotary, rest = t[..., :HEAD_DIM], t[..., HEAD_DIM:]
    cos = (torch.cos(freqs) * MSCALE).to(t.dtype)
    sin = (torch.sin(freqs) * MSCALE).to(t.dtype)
    return torch.cat((rotary * cos + rotate_half(rotary) * sin, rest), dim=-1)


def yarn_rope_rows(quick):
    q = randn(SEQ, 1, HEADS, HEAD_DIM, requires_grad=True)
    k = randn(SEQ, 1, KV_HEADS, HEAD_DIM, requires_grad=True)
    freqs = torch.rand(SEQ, 1, 1, HEAD_DIM, device=DEV, dtype=torch.float32) * 100
    leaves = [q, k]

    def clear():
        for leaf in leaves:
            leaf.grad = None

    out = [op_metrics("yarn_rope_qk", "fwd", lambda: (apply_rope(q, freqs), apply_rope(k, freqs)), None, leaves, quick)]
    rq, rk = apply_rope(q, freqs), apply_rope(k, freqs)
    dq, dk = torch.randn_like(rq), torch.randn_like(rk)
    backward = lambda: torch.autograd.backward((rq, rk), (dq, dk), retain_graph=True)  # noqa: E731
    out.append(op_metrics("yarn_rope_qk", "bwd", backward, clear, leaves, quick))
    return out
