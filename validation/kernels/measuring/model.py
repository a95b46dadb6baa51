"""One transformer layer per row shape, and a whole 1.7B training step, run back to back as in training."""
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from measuring.common import DEV, DT, HEAD_DIM, ROWS, SEQ, VOCAB, bench_us, randn
from measuring.streams import MegatronCrossEntropy

ATTENTION_ORDER = [SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION]


def fast_attention():
    """cuDNN fused attention first (what Transformer Engine picks on Hopper), flash-attention 2 otherwise."""
    try:
        return sdpa_kernel(ATTENTION_ORDER, set_priority=True)
    except TypeError:  # older torch: no priority argument
        return sdpa_kernel(ATTENTION_ORDER)


class Layer(torch.nn.Module):
    """Megatron GPT layer on one TP rank without communication: LN, QKV, flash attention, proj, residual,
    LN, fc1, GeLU (tanh), fc2, residual. Biases as Megatron (add_bias_linear); `dropout` inside the attention
    and on both branches before their residual add (Megatron's attention_dropout and hidden_dropout)."""

    def __init__(self, h, heads, tp, dropout=0.0):
        super().__init__()
        self.p = dropout
        self.hl = heads // tp
        q = self.hl * HEAD_DIM
        ffn = 4 * h // tp
        self.ln1, self.ln2 = torch.nn.LayerNorm(h), torch.nn.LayerNorm(h)
        self.qkv, self.proj = torch.nn.Linear(h, 3 * q), torch.nn.Linear(q, h)
        self.fc1, self.fc2 = torch.nn.Linear(h, ffn), torch.nn.Linear(ffn, h)

    def forward(self, x):  # x [b, s, h]
        b, s, _ = x.shape
        qkv = self.qkv(self.ln1(x)).view(b, s, 3, self.hl, HEAD_DIM)
        q, k, v = (qkv[:, :, i].transpose(1, 2) for i in range(3))
        o = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p, is_causal=True).transpose(1, 2).reshape(b, s, -1)
        x = x + F.dropout(self.proj(o), self.p)
        return x + F.dropout(self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh")), self.p)


def layer_rows(quick, dropout):
    out = []
    for row, h, heads, tp in ROWS:
        layer = Layer(h, heads, tp, dropout).to(DEV, DT)
        x = randn(1, SEQ, h, requires_grad=True)
        with fast_attention():
            fwd = bench_us(lambda: layer(x), quick=quick)
            y = layer(x)
        dy = torch.randn_like(y)
        params = list(layer.parameters()) + [x]
        bwd = bench_us(lambda: y.backward(dy, retain_graph=True), grad_to_none=params, quick=quick)
        out.append(dict(row=row, hidden=h, heads_local=heads // tp, tp=tp, fwd_us=fwd, bwd_us=bwd))
        del layer, x, y, dy
        torch.cuda.empty_cache()
    return out


class Gpt(torch.nn.Module):
    def __init__(self, layers, h, heads, dropout):
        super().__init__()
        self.tok, self.pos = torch.nn.Embedding(VOCAB, h), torch.nn.Embedding(SEQ, h)
        self.layers = torch.nn.ModuleList(Layer(h, heads, 1, dropout) for _ in range(layers))
        self.ln = torch.nn.LayerNorm(h)
        self.head = torch.nn.Linear(h, VOCAB, bias=False)

    def forward(self, ids, target):
        x = self.tok(ids) + self.pos.weight[: ids.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return MegatronCrossEntropy.apply(self.head(self.ln(x))[0], target[0]).mean()


def step_rows(quick, dropout, layers=24, h=2048, heads=16, micro_batches=4):
    """mlm-h100-1.7b's work on one GPU without data parallelism: 4 micro-batches of 1 x 4096, then Adam on
    fp32 master weights (grads copied to fp32, fused AdamW, weights copied back to bf16)."""
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    model = Gpt(layers, h, heads, dropout).to(DEV, DT)
    master = [p.detach().float().requires_grad_() for p in model.parameters()]
    opt = torch.optim.AdamW(master, lr=1e-5, fused=True)
    ids = torch.randint(0, VOCAB, (1, SEQ), device=DEV)
    target = torch.randint(0, VOCAB, (1, SEQ), device=DEV)

    def step():
        for p in model.parameters():
            p.grad = None
        with fast_attention():
            for _ in range(micro_batches):
                model(ids, target).backward()
        for m, p in zip(master, model.parameters()):
            m.grad = p.grad.float()
        opt.step()
        with torch.no_grad():
            for m, p in zip(master, model.parameters()):
                p.copy_(m)

    def micro():
        with fast_attention():
            model(ids, target).backward()

    step()  # warm: allocates optimizer state
    times = []
    for _ in range(3 if quick else 10):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    micro_us = bench_us(micro, quick=quick)
    n_params = sum(p.numel() for p in model.parameters())
    return [dict(row="1.7b", layers=layers, params=n_params, micro_batches=micro_batches,
                 step_s=sorted(times)[len(times) // 2], micro_batch_fwd_bwd_us=micro_us,
                 peak_memory_bytes=torch.cuda.max_memory_allocated())]
