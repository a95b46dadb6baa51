"""Shapes of the H100 validation rows, the timer and the input maker shared by every measurement."""
import torch
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
