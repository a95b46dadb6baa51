"""The eager operations around GPT-OSS's experts in Megatron-Core 0.15 (TEGroupedMLP with bias and a clamped
GLU), re-written here with the same tensor operations, timed on the device and on the host.

Megatron-Core's TEGroupedMLP (megatron/core/transformer/moe/experts.py) and fused_bias_geglu.py
(weighted_bias_quick_geglu_impl), as Megatron-Bridge's GPT-OSS provider configures them (bias_activation_fusion,
activation_func_clamp_value 7, glu_linear_offset 1, add_bias_linear):
  clamp_cat    before the fused (torch.compile'd) quick-GeGLU: the fc1 output's gate half clamped to <= 7,
               its linear half to [-7, 7], the two concatenated again, and the offset made a device tensor
               (torch.tensor(1.0, device=cuda): a host-to-device copy that synchronises the stream);
  expert_bias  after the fc2 grouped GEMM (built with skip_bias_add): per local expert, its rows plus its
               bias times each row's routing probability, then the experts concatenated and cast back.
The routing probabilities are timed in fp32 (the router's softmax output kept in fp32) and in bf16.
Shapes: mb-gpt-oss-120b's rank, micro-batch 1 of 4096 tokens, top-4, EP 8: 16384 routed rows over 16 local
experts, hidden 2880, expert width 2880 (fc1 out 5760).
"""
import torch

from measuring.common import DEV, DT, randn
from measuring.passes import op_metrics

ROWS, LOCAL_EXPERTS, HIDDEN, WIDTH, CLAMP = 16384, 16, 2880, 2880, 7.0


def clamp_cat(x):
    gate, linear = x.chunk(2, -1)
    y = torch.cat((gate.clamp(max=CLAMP), linear.clamp(min=-CLAMP, max=CLAMP)), -1)
    offset = torch.tensor(1.0, dtype=x.dtype, device=x.device)
    return y, offset


def expert_bias(t, biases, probs):
    splits = [t.shape[0] // len(biases)] * len(biases)
    parts = [rows + b * p for rows, b, p in zip(torch.split(t, splits), biases, torch.split(probs, splits))]
    return torch.cat(parts).to(t.dtype)


def op_cases():
    """(name, forward closure making the output, leaves) per operation group."""
    x = randn(ROWS, 2 * WIDTH, requires_grad=True)
    t = randn(ROWS, HIDDEN, requires_grad=True)
    biases = [torch.nn.Parameter(randn(HIDDEN)) for _ in range(LOCAL_EXPERTS)]
    cases = [("clamp_cat", lambda: clamp_cat(x)[0], [x])]
    for dtype in (torch.float32, DT):
        p = torch.rand(ROWS, 1, device=DEV, dtype=dtype, requires_grad=True)
        name = "expert_bias_probs_" + ("fp32" if dtype == torch.float32 else "bf16")
        cases.append((name, lambda p=p: expert_bias(t, biases, p), [t, p] + biases))
    return cases


def expert_epilogue_rows(quick):
    out = []
    for name, forward, leaves in op_cases():
        def clear(leaves=leaves):
            for leaf in leaves:
                leaf.grad = None
        out.append(op_metrics(name, "fwd", forward, None, leaves, quick))
        y = forward()
        dy = torch.randn_like(y)
        out.append(op_metrics(name, "bwd", lambda: y.backward(dy, retain_graph=True), clear, leaves, quick))
        torch.cuda.empty_cache()
    return out
