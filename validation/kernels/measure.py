#!/usr/bin/env python3
"""Measure, on one NVIDIA GPU, the kernels trainsim's catalogue simulates for the H100 validation rows.

Needs PyTorch with CUDA and Triton (for do_bench); nothing of trainsim. Usage:

    python3 validation/kernels/measure.py --out DIR [--quick] [--dropout 0.1] [--accelerator NAME --prefix P]

The shapes are the H100 rows' (ROWS below); on another GPU, --accelerator names the preset's accelerator.

It writes into DIR, as tables of `trainsim kernels` (validation/kernels/*.yaml):
  h100-sxm-training-gemm.yaml      bf16 GEMMs at the training shapes of the rows; m, n, k as the catalogue
                                   names them: fwd {t, out, in}, dgrad {t, in, out}, wgrad {in, out, t}
  h100-sxm-llama-gemm.yaml         the same for Llama 3 8B / 70B layers (shapes outside the fit: a check)
  h100-sxm-attention-cudnn.yaml    fused causal attention, forward and backward, cuDNN backend (what
                                   Transformer Engine selects on Hopper) and FlashAttention-2
  h100-sxm-attention-flash.yaml
  h100-sxm-attention-cudnn-grid.yaml  cuDNN attention at other sequence lengths, head counts and head dims
                                   (a check of how far the fitted efficiency carries; --only attention-grid)
  h100-sxm-streams.yaml            memory-bound kernels with the bytes each moves
and, for reading beside `trainsim simulate`:
  h100-sxm-layers.yaml             one transformer layer per row shape, forward and backward, run back to
                                   back as in training (no communication: one tensor-parallel rank's share)
  h100-sxm-step.yaml               a whole 1.7B training step on one GPU (mlm-h100-1.7b's work without data
                                   parallelism) with its peak memory
Timing: triton.testing.do_bench, median of the repetitions, L2 flushed before each (cold cache, as in a
training step where the previous kernel's output rarely stays in L2 for large tensors). Random normal
inputs (never zeros). Nothing is changed on the GPU (clocks, power) - it is measured as found.
"""
import argparse
import os
import sys
import time
import traceback

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from triton.testing import do_bench

SEQ = 4096  # every H100 row runs seq 4096, micro-batch 1 (validation/runs/mlm-h100-*.yaml)
VOCAB = 131072
HEAD_DIM = 128
# (row, hidden, heads, tp) of validation/runs/mlm-h100-*.yaml with workloads/models/mcore-*.yaml; ffn = 4h.
ROWS = [("1.7b", 2048, 16, 1), ("7.1b", 4096, 32, 2), ("16b", 6144, 48, 4), ("32b", 7168, 56, 8),
        ("70b", 8192, 64, 8), ("119b", 10240, 80, 8), ("177b", 12288, 96, 8), ("314b", 16384, 128, 8),
        ("462b", 18432, 144, 8)]
DT = torch.bfloat16
DEV = "cuda"


def bench_us(fn, grad_to_none=None, quick=False):
    """Median microseconds of fn over do_bench's repetitions (L2 flushed before each)."""
    ms = do_bench(fn, warmup=10 if quick else 25, rep=30 if quick else 100,
                  grad_to_none=grad_to_none, return_mode="median")
    return ms * 1000.0


def randn(*shape, dtype=DT, requires_grad=False):
    return torch.randn(*shape, device=DEV, dtype=dtype, requires_grad=requires_grad)


# ---------------------------------------------------------------- GEMMs
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


def gemm_rows(quick, models=None):
    """Each linear's fwd (X·W^T), dgrad (dY·W) and wgrad (dY^T·X) in PyTorch's layouts."""
    out, seen = [], set()
    if models is None:
        models = [(row, SEQ, linear_shapes(h, heads, tp)) for row, h, heads, tp in ROWS]
    for row, t, shapes in models:
        for name, fin, fout in shapes:
            x, w, dy = randn(t, fin), randn(fout, fin), randn(t, fout)
            passes = [("fwd", (t, fout, fin), lambda: x @ w.t()),
                      ("dgrad", (t, fin, fout), lambda: dy @ w),
                      ("wgrad", (fin, fout, t), lambda: dy.t() @ x)]
            for pas, (m, n, k), fn in passes:
                if (m, n, k, pas) in seen:
                    continue
                seen.add((m, n, k, pas))
                us = bench_us(fn, quick=quick)
                out.append(dict(row=row, name=f"{name}.{pas}", m=m, n=n, k=k, us=us,
                                tflops=2.0 * m * n * k / us / 1e6))
            del x, w, dy
    return out


# ---------------------------------------------------------------- attention
BACKENDS = (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION))
# Shapes beyond the rows' (seq 4096, head_dim 128), to see how far one attention efficiency carries:
# (heads, seq, head_dim).
GRID = [(8, 2048, 128), (32, 2048, 128), (8, 8192, 128), (32, 8192, 128), (8, 16384, 128), (16, 4096, 64)]


def attention_pass_us(backend, heads, seq, head_dim, dropout, quick):
    """(forward, backward) microseconds of causal attention on one backend."""
    q, k, v = (randn(1, heads, seq, head_dim, requires_grad=True) for _ in range(3))
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


# ---------------------------------------------------------------- memory-bound kernels
class MegatronCrossEntropy(torch.autograd.Function):
    """megatron/core/tensor_parallel/cross_entropy.py on one rank: the same chain of PyTorch ops."""

    @staticmethod
    def forward(ctx, logits, target):
        x = logits.float()
        x_max = x.max(dim=-1)[0]
        x.sub_(x_max.unsqueeze(-1))
        predicted = x.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        torch.exp(x, out=x)
        sum_exp = x.sum(dim=-1)
        loss = torch.log(sum_exp) - predicted
        x.div_(sum_exp.unsqueeze(-1))
        ctx.save_for_backward(x, target)
        return loss

    @staticmethod
    def backward(ctx, grad_loss):
        softmax, target = ctx.saved_tensors
        grad = softmax
        grad.scatter_add_(-1, target.unsqueeze(-1), -torch.ones_like(target, dtype=grad.dtype).unsqueeze(-1))
        grad.mul_(grad_loss.unsqueeze(-1))
        return grad.to(DT), None


def stream_rows(quick):
    """Memory-bound kernels with the fewest bytes each must move (inputs read once, outputs written once)."""
    out = []
    e = 2  # bf16 bytes

    def add(row, op, elements, nbytes, fn, grad_to_none=None, kernels=1):
        out.append(dict(row=row, op=op, elements=int(elements), bytes=int(nbytes), kernels=kernels,
                        us=bench_us(fn, grad_to_none=grad_to_none, quick=quick)))

    n = 1 << 30  # 1 GiB copy: the achievable HBM rate
    a = torch.empty(n // 2, device=DEV, dtype=DT).normal_()
    b = torch.empty_like(a)
    add("-", "copy", n // 2, 2 * n, lambda: b.copy_(a))
    del a, b
    for row, h, heads, tp in ROWS:
        sp_tokens = SEQ // tp
        x, dy = randn(sp_tokens, h), randn(sp_tokens, h)
        g, beta = randn(h), randn(h)
        y, mean, rstd = torch.ops.aten.native_layer_norm(x, [h], g, beta, 1e-5)
        n_el = sp_tokens * h
        add(row, "layernorm.fwd", n_el, 2 * n_el * e, lambda: F.layer_norm(x, [h], g, beta))
        add(row, "layernorm.bwd", n_el, 3 * n_el * e,
            lambda: torch.ops.aten.native_layer_norm_backward(dy, x, [h], mean, rstd, g, beta, [True, True, True]))
        add(row, "residual_add", n_el, 3 * n_el * e, lambda: x + dy)
        ffn = 4 * h // tp
        u, du = randn(SEQ, ffn), randn(SEQ, ffn)
        n_ffn = SEQ * ffn
        add(row, "gelu.fwd", n_ffn, 2 * n_ffn * e, lambda: F.gelu(u, approximate="tanh"))
        add(row, "gelu.bwd", n_ffn, 3 * n_ffn * e, lambda: torch.ops.aten.gelu_backward(du, u, approximate="tanh"))
        del x, dy, u, du
        v = VOCAB // tp
        logits = randn(SEQ, v, requires_grad=True)
        target = torch.randint(0, v, (SEQ,), device=DEV)
        n_lg = SEQ * v
        # bytes of the chain as it runs (the catalogue counts the same): forward .float() reads 2 B and writes
        # 4 B per logit; max, sum read 4 B; sub_, exp_, div_ read and write 4 B -> 38 B in 9 launches (gather,
        # log and the loss are per token). Backward mul_ reads and writes 4 B, .to(bf16) reads 4 B, writes 2 B
        # -> 14 B in 4 launches (ones, scatter_add per token). do_bench cannot keep a forward outside the
        # timed region, so the backward is timed with its forward.
        add(row, "cross_entropy.fwd", n_lg, n_lg * 38, lambda: MegatronCrossEntropy.apply(logits, target), kernels=9)
        loss = MegatronCrossEntropy.apply(logits, target)
        gl = torch.ones_like(loss)
        add(row, "cross_entropy.fwd_bwd", n_lg, n_lg * (38 + 14),
            lambda: MegatronCrossEntropy.apply(logits, target).backward(gl), grad_to_none=[logits], kernels=13)
        del logits, loss
    # Adam over a ZeRO-1 shard: fp32 param, grad, exp_avg, exp_avg_sq read; param, exp_avg, exp_avg_sq written
    numel = 64 * 1024 * 1024
    params = [torch.randn(numel // 16, device=DEV, requires_grad=True) for _ in range(16)]
    for p in params:
        p.grad = torch.randn_like(p)
    opt = torch.optim.AdamW(params, lr=1e-4, fused=True)
    opt.step()
    add("-", "adam_fused.step", numel, 28 * numel, opt.step)
    add("-", "grad_norm", numel, 4 * numel, lambda: torch._foreach_norm([p.grad for p in params]), kernels=2)
    return out


# ---------------------------------------------------------------- layers and a whole step
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


# ---------------------------------------------------------------- output
def header(title):
    p = torch.cuda.get_device_properties(0)
    return [f"# {title}",
            f"# Measured by validation/kernels/measure.py on {p.name} ({p.multi_processor_count} SMs,",
            f"# {p.total_memory / 2**30:.1f} GiB), torch {torch.__version__}, CUDA {torch.version.cuda},",
            f"# cuDNN {torch.backends.cudnn.version()}, on {time.strftime('%Y-%m-%d')}. Median of triton do_bench",
            "# repetitions with L2 flushed before each; random normal bf16 inputs; clocks as found."]


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {path}")


def table_header(args, title, name, source):
    return header(title) + [f'description: "{title} on one {name}"', f"accelerator: {args.accelerator}", "precision: bf16",
                            f'source: "validation/kernels/measure.py ({source}), this repository"']


def run_gemm_llama(args, name):
    models = [(row, seq, llama_linear_shapes(h, a, kv, f, v, tp)) for row, h, a, kv, f, v, tp, seq in LLAMA]
    rows = gemm_rows(args.quick, models)
    lines = table_header(args, "bf16 GEMMs of Llama 3 8B (tp 1) and 70B (tp 8) layers at seq 8192", name,
                         "torch.matmul, cuBLAS") + ["gemms:"]
    lines += [f"  - {{batch: 1, m: {r['m']}, n: {r['n']}, k: {r['k']}, tflops: {r['tflops']:.1f}}}"
              f"   # {r['row']} {r['name']}, {r['us']:.1f} us" for r in rows]
    write(os.path.join(args.out, args.prefix + "-llama-gemm.yaml"), lines)


def run_gemm(args, name):
    rows = gemm_rows(args.quick)
    lines = table_header(args, "bf16 GEMMs of the mlm-h100 rows' layers (seq 4096, micro-batch 1)", name,
                         "torch.matmul, cuBLAS") + ["gemms:"]
    lines += [f"  - {{batch: 1, m: {r['m']}, n: {r['n']}, k: {r['k']}, tflops: {r['tflops']:.1f}}}"
              f"   # {r['row']} {r['name']}, {r['us']:.1f} us" for r in rows]
    write(os.path.join(args.out, args.prefix + "-training-gemm.yaml"), lines)


def suffix(args):
    return f"-dropout{args.dropout:g}" if args.dropout > 0 else ""


def run_attention(args, name):
    att = attention_rows(args.quick, args.dropout)
    drop = f", dropout {args.dropout:g}" if args.dropout > 0 else ""
    for backend, what in (("cudnn", "cuDNN fused attention"), ("flash", "FlashAttention-2")):
        lines = table_header(args, f"causal bf16 {what}{drop} at the mlm-h100 rows' head counts", name,
                             f"torch scaled_dot_product_attention, {backend} backend") + ["attention:"]
        lines += attention_lines(args, [r for r in att if r["backend"] == backend])
        write(os.path.join(args.out, f"{args.prefix}-attention-{backend}{suffix(args)}.yaml"), lines)


def attention_lines(args, rows):
    p = f" dropout: {args.dropout:g}," if args.dropout > 0 else ""
    return [f"  - {{pass: {r['pas']}, batch: 1, heads: {r['heads']}, seq: {r['seq']}, head_dim: {r['head_dim']},"
            f" causal: true,{p} us: {r['us']:.1f}}}   # {r['row']}" for r in rows]


def run_attention_grid(args, name):
    drop = f", dropout {args.dropout:g}" if args.dropout > 0 else ""
    lines = table_header(args, f"causal bf16 cuDNN fused attention{drop} at shapes beyond the rows'", name,
                         "torch scaled_dot_product_attention, cudnn backend") + ["attention:"]
    lines += attention_lines(args, attention_grid_rows(args.quick, args.dropout))
    write(os.path.join(args.out, f"{args.prefix}-attention-cudnn-grid{suffix(args)}.yaml"), lines)


def run_streams(args, name):
    lines = table_header(args, "memory-bound kernels of the mlm-h100 rows", name, "aten kernels") + ["streams:"]
    lines += [f"  - {{op: {r['op']}, bytes: {r['bytes']}, us: {r['us']:.1f}, kernels: {r['kernels']}}}"
              f"   # {r['row']}, {r['elements']} elements, {r['bytes'] / r['us'] / 1e6:.2f} TB/s"
              for r in stream_rows(args.quick)]
    write(os.path.join(args.out, args.prefix + "-streams.yaml"), lines)


def run_layers(args, name):
    lines = header(f"transformer layers at the shapes of the mlm-h100-* rows on one {name}")
    lines += ["layers:"]
    lines += [f"  - {{row: {r['row']}, hidden: {r['hidden']}, heads_local: {r['heads_local']}, tp: {r['tp']},"
              f" dropout: {args.dropout:g}, fwd_us: {r['fwd_us']:.1f}, bwd_us: {r['bwd_us']:.1f}}}"
              for r in layer_rows(args.quick, args.dropout)]
    write(os.path.join(args.out, f"{args.prefix}-layers{suffix(args)}.yaml"), lines)


def run_step(args, name):
    lines = header(f"mlm-h100-1.7b's per-GPU work without communication on one {name}")
    lines += ["steps:"]
    lines += [f"  - {{row: {r['row']}, layers: {r['layers']}, params: {r['params']}, micro_batches:"
              f" {r['micro_batches']}, dropout: {args.dropout:g}, step_s: {r['step_s']:.4f}, micro_batch_fwd_bwd_us:"
              f" {r['micro_batch_fwd_bwd_us']:.1f}, peak_memory_bytes: {r['peak_memory_bytes']}}}"
              for r in step_rows(args.quick, args.dropout)]
    write(os.path.join(args.out, f"{args.prefix}-step{suffix(args)}.yaml"), lines)


PARTS = {"gemm": run_gemm, "gemm-llama": run_gemm_llama, "attention": run_attention, "attention-grid": run_attention_grid, "streams": run_streams, "layers": run_layers, "step": run_step}


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
