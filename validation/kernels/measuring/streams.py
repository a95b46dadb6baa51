"""Memory-bound kernels of the rows with the bytes each moves, Megatron's cross-entropy chain included."""
import torch
import torch.nn.functional as F

from measuring.common import DEV, DT, ROWS, SEQ, VOCAB, bench_us, randn


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
