"""Where the device time of the MoE layer (measuring/moe_layer.py) goes: torch.profiler's table of one
forward and one backward pass per config, the kernels sorted by their own device time. Read beside a
trainsim trace of the same layer (validation/kernels/h100-sxm-moe-layer.md)."""
import torch

from measuring.common import randn
from measuring.model import fast_attention
from measuring.moe_layer import CONFIGS, MoeLayer
from measuring.passes import profiled

WARMUP = 3
ROWS = 28  # kernels listed per pass


def table(prof):
    """The profiler's table by own device time (the sort key's name changed across torch versions)."""
    err = None
    for key in ("self_device_time_total", "self_cuda_time_total"):
        try:
            return prof.key_averages().table(sort_by=key, row_limit=ROWS, max_name_column_width=60)
        except Exception as e:  # noqa: BLE001 - try the older key
            err = e
    return f"profiler table unavailable: {err!r}"


def config_text(c):
    layer = MoeLayer(c)
    x = randn(c.batch, c.seq, c.hidden, requires_grad=True)
    with fast_attention():
        for _ in range(WARMUP):
            y = layer(x)
            y.backward(torch.randn_like(y))
        torch.cuda.synchronize()
        fwd, y = profiled(lambda: layer(x))
    dy = torch.randn_like(y)
    bwd, _ = profiled(lambda: y.backward(dy))
    return f"== {c.row} forward\n{table(fwd)}\n== {c.row} backward\n{table(bwd)}\n"


def moe_profile_text():
    parts = []
    for c in CONFIGS:
        try:
            parts.append(config_text(c))
        except Exception as err:  # noqa: BLE001 - the other config still runs
            parts.append(f"== {c.row}: {err!r}\n")
        torch.cuda.empty_cache()
    return "\n".join(parts)
