"""One Megatron-Core MoE transformer layer on one GPU: one expert-parallel rank's work with the all-to-all
omitted, as the MoE rows run it (bf16, balanced routing), timed on the device and on the host.

Forward, after megatron/core/transformer/moe/{router.py, token_dispatcher.py (alltoall), moe_utils.py,
experts.py (TEGroupedMLP)}: RMSNorm, fused QKV, causal GQA attention (cuDNN), proj, residual; RMSNorm, router
(fp32 logits, softmax, top-k), routing map and tokens per expert, the dropless dispatcher's host sync (split
sizes to the host before the all-to-all), permute (argsort + index_select: Megatron's unfused permute uses
masked_select, a second sync, TE's fused permute one kernel), sort_chunks_by_idxs (one index_select here),
experts as TE's GroupedLinear launches them on Hopper (one GEMM per local expert; torch.cat adds one copy TE
avoids), SwiGLU, unpermute (chunk unsort, routing probabilities, scatter_add as moe_utils.unpermute
without --moe-permute-fusion, Megatron-Core's default), residual. The permute's backward (index_select's)
is an index_add, as in Megatron-Core's unfused permute.
Omitted: RoPE (one fused kernel on q and k each way), the aux loss, all communication, and GPT-OSS's biases,
attention sinks, sliding window (its full-attention layers are timed) and clamped GLU (timed as SwiGLU).
The EP receive: 8 ranks send this rank 8 x tokens x top-k / 128 rows per local expert in balanced routing,
i.e. as many rows as its own tokens make; so the rank's own permuted rows (128 experts x R rows) stand in
for what it receives (8 ranks x 16 local experts x R rows): same volume, same layout.
Routing: --moe-router-force-load-balancing replaces the logits by random ones (moe_utils.RandomSTE), balanced
on average; here the top-k experts are replaced by an exactly balanced assignment (expert = slot mod 128),
the softmax top-k probabilities kept as weights.
"""
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from measuring.common import DEV, DT, randn
from measuring.model import fast_attention
from measuring.passes import pass_metrics


@dataclass(frozen=True)
class MoeConfig:
    row: str
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    experts: int
    top_k: int
    ffn: int  # expert width: fc1 out 2 x ffn (SwiGLU gate and up), fc2 in ffn
    batch: int
    qk_norm: bool  # Qwen3 normalises q and k per head (qk_layernorm)
    seq: int = 4096
    ep: int = 8


# Shapes: workloads/models/{qwen3-30b-a3b, gpt-oss-120b}.yaml; ep, micro-batch: validation/runs/mb-*.yaml.
# mb-gpt-oss-120b publishes micro-batch 4, its later recipe 1 (see the row's header): 1 is timed.
CONFIGS = [MoeConfig("mb-qwen3-30b-a3b", 2048, 32, 4, 128, 128, 8, 768, 2, True),
           MoeConfig("mb-gpt-oss-120b", 2880, 64, 8, 64, 128, 4, 2880, 1, False)]


def rms_norm(x, weight, eps=1e-6):
    if hasattr(F, "rms_norm"):
        return F.rms_norm(x, (x.shape[-1],), weight, eps)
    return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps).to(x.dtype) * weight


def weight(out_features, in_features):
    return torch.nn.Parameter(randn(out_features, in_features) * in_features ** -0.5)


def grouped_linear(x, splits, weights):
    """TE GroupedLinear on Hopper: one GEMM per expert over its rows (the split sizes are host integers)."""
    return torch.cat([F.linear(part, w) for part, w in zip(torch.split(x, splits), weights)])


def native_gqa(c):
    """Whether this torch runs GQA inside the fused attention (enable_gqa) forward and backward."""
    try:
        q = randn(1, c.heads, 256, c.head_dim, requires_grad=True)
        kv = randn(1, c.kv_heads, 256, c.head_dim, requires_grad=True)
        with fast_attention():
            F.scaled_dot_product_attention(q, kv, kv, is_causal=True, enable_gqa=True).sum().backward()
        torch.cuda.synchronize()
        return True
    except Exception as err:  # noqa: BLE001 - k and v are expanded instead
        print(f"{c.row}: enable_gqa unavailable ({err!r}); k, v expanded to the query heads")
        return False


class MoeLayer(torch.nn.Module):
    """The layer of the module docstring; `sync` False takes the split sizes from the host (no .cpu())."""

    def __init__(self, c):
        super().__init__()
        self.c, self.sync, self.gqa = c, True, native_gqa(c)
        q, kv, h, local = c.heads * c.head_dim, c.kv_heads * c.head_dim, c.hidden, c.experts // c.ep
        self.qkv, self.proj = weight(q + 2 * kv, h), weight(h, q)
        self.ln1, self.ln2 = (torch.nn.Parameter(torch.ones(h, device=DEV, dtype=DT)) for _ in range(2))
        self.q_norm, self.k_norm = (torch.nn.Parameter(torch.ones(c.head_dim, device=DEV, dtype=DT))
                                    for _ in range(2))
        self.router = weight(c.experts, h)
        self.fc1 = torch.nn.ParameterList(weight(2 * c.ffn, h) for _ in range(local))
        self.fc2 = torch.nn.ParameterList(weight(h, c.ffn) for _ in range(local))
        rows = c.batch * c.seq * c.top_k
        self.balanced = [rows // local] * local
        # received rows are [source rank][local expert]; sort_chunks_by_idxs makes them [local expert][rank]
        chunks = torch.arange(rows, device=DEV).view(c.ep, local, rows // c.experts)
        self.chunk_sort = chunks.transpose(0, 1).reshape(-1)
        self.chunk_unsort = torch.argsort(self.chunk_sort)

    def attention(self, x):
        c = self.c
        b, s, _ = x.shape
        widths = [c.heads * c.head_dim, c.kv_heads * c.head_dim, c.kv_heads * c.head_dim]
        qkv = F.linear(rms_norm(x, self.ln1), self.qkv).split(widths, dim=-1)
        q, k, v = (z.reshape(b, s, -1, c.head_dim) for z in qkv)
        if c.qk_norm:
            q, k = rms_norm(q, self.q_norm), rms_norm(k, self.k_norm)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))
        if self.gqa:
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        else:  # each kv head serves heads / kv_heads query heads, as repeat_interleave would give
            rep = c.heads // c.kv_heads
            k, v = (z[:, :, None].expand(b, c.kv_heads, rep, s, c.head_dim).reshape(b, c.heads, s, c.head_dim)
                    for z in (k, v))
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return x + F.linear(o.transpose(1, 2).reshape(b, s, -1), self.proj)

    def route(self, t):
        """fp32 router logits, softmax, top-k; the experts then replaced by the balanced assignment."""
        c, n = self.c, t.shape[0]
        probs = torch.softmax(F.linear(t.float(), self.router.float()), dim=-1).topk(c.top_k, dim=-1)[0]
        experts = (torch.arange(n * c.top_k, device=t.device) % c.experts).view(n, c.top_k)
        return probs, experts

    def dispatch(self, t, experts):
        c = self.c
        routing_map = torch.zeros(t.shape[0], c.experts, dtype=torch.int32, device=t.device)
        routing_map = routing_map.scatter(1, experts, 1).bool()
        tokens_per_expert = routing_map.sum(dim=0)  # (torch.bincount would sync: it reads its max on the host)
        if self.sync:  # cuda_sync_point: split sizes to the host before the all-to-all
            splits = tokens_per_expert.cpu().view(c.ep, -1).sum(dim=0).tolist()
        else:
            splits = self.balanced
        order = torch.argsort(experts.reshape(-1), stable=True)
        token_ids = torch.div(order, c.top_k, rounding_mode="floor")
        return t.index_select(0, token_ids), order, token_ids, splits

    def forward(self, x):  # x [b, s, h]
        x = self.attention(x)
        b, s, h = x.shape
        t = rms_norm(x.reshape(-1, h), self.ln2)
        probs, experts = self.route(t)
        rows, order, token_ids, splits = self.dispatch(t, experts)
        rows = rows.index_select(0, self.chunk_sort)
        gate, up = grouped_linear(rows, splits, self.fc1).chunk(2, dim=-1)
        y = grouped_linear(F.silu(gate) * up, splits, self.fc2).index_select(0, self.chunk_unsort)
        y = y * probs.reshape(-1).index_select(0, order).to(y.dtype).unsqueeze(-1)
        # moe_utils.unpermute (unfused): zeros, then scatter_add_ of each routed row onto its token
        out = torch.zeros_like(t).scatter_add(0, token_ids.unsqueeze(1).expand(-1, h), y)
        return x + out.view(b, s, h)


def config_rows(c, quick, out):
    """Forward then backward of one config; each row holds the metrics of measuring/passes.py."""
    layer = MoeLayer(c)
    x = randn(c.batch, c.seq, c.hidden, requires_grad=True)
    params = list(layer.parameters()) + [x]
    row = dict(row=c.row, tokens=c.batch * c.seq, routed_rows=c.batch * c.seq * c.top_k,
               local_experts=len(layer.balanced), rows_per_expert=layer.balanced[0],
               gqa="native" if layer.gqa else "expanded")

    def clear():
        for p in params:
            p.grad = None

    with fast_attention():
        fwd = pass_metrics(f"moe-layer {c.row} fwd", lambda: layer(x), None, None, quick, layer)
        out.append(dict(row, pas="fwd", **fwd))
        y = layer(x)
    dy = torch.randn_like(y)
    bwd = pass_metrics(f"moe-layer {c.row} bwd", lambda: y.backward(dy, retain_graph=True), clear, params, quick, layer)
    out.append(dict(row, pas="bwd", **bwd))


def moe_layer_rows(quick):
    out = []
    for c in CONFIGS:
        try:
            config_rows(c, quick, out)
        except Exception as err:  # noqa: BLE001 - the other config still runs
            print(f"moe-layer {c.row}: {err!r}")
        torch.cuda.empty_cache()
    return out
