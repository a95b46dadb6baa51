"""Host cost per launch of eager PyTorch on this machine, with the GPU never the bottleneck (tiny tensors):
a lower bound for the frameworks, which add Python of their own on top (Megatron-Core's modules, hooks).
Host costs depend on the CPU, whose model the table names.
"""
import platform
import statistics
import time

import torch

from measuring.common import DEV, DT, randn
from measuring.passes import cpu_sync_us

SLEEP_CYCLES = 10 ** 8  # ~50 ms at H100 clocks: the host queues the calls behind it


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def wall_us(fn, n):
    """Wall microseconds per call of n calls in a row, synchronised before and after."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e6 / n


def device_us(fn, n):
    """Device microseconds per call: the n calls queued behind a sleeping kernel run back to back, so the host
    is not the limit; queued says whether all were issued before the first started (else this is wall)."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    try:
        torch.cuda._sleep(SLEEP_CYCLES)  # private but long-standing (torch's own tests use it)
        slept = True
    except Exception as err:  # noqa: BLE001 - then timed without the queue
        print(f"host: torch.cuda._sleep unavailable ({err!r})")
        slept = False
    start.record()
    for _ in range(n):
        fn()
    end.record()
    queued = slept and not start.query()
    torch.cuda.synchronize()
    return dict(device_us=start.elapsed_time(end) * 1000.0 / n, device_queued=queued)


def autograd_us(steps):
    """Per op: forward of a chain of steps x = x * 1.0001 + 0.001 (two aten ops, two autograd nodes each),
    and its backward() per node (MulBackward: one kernel; AddBackward of a scalar: none)."""
    x = torch.randn(1024, device=DEV, requires_grad=True)
    g = torch.ones(1024, device=DEV)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        x = x * 1.0001 + 0.001
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    x.backward(g)
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    return (t1 - t0) * 1e6 / (2 * steps), (t2 - t1) * 1e6 / (2 * steps)


def host_rows(quick):
    reps, out = (2 if quick else 5), []

    def add(op, what, fn):
        try:
            out.append(dict(op=op, what=what, **fn()))
        except Exception as err:  # noqa: BLE001 - one measurement failing must not lose the others
            print(f"host {op}: {err!r}")

    def launch(fn, n):
        wall_us(fn, 100)  # warm
        us = statistics.median(wall_us(fn, n) for _ in range(reps))
        try:
            return dict(us=us, **device_us(fn, 256))
        except Exception as err:  # noqa: BLE001 - the wall time still stands
            print(f"host device_us: {err!r}")
            return dict(us=us)

    x = torch.randn(1024, device=DEV)
    add("aten_add", "y = x + 1.0, 1024 fp32 elements, no grad, 2000 in a row", lambda: launch(lambda: x + 1.0, 2000))
    try:
        autograd_us(50)  # warm
        chain = [autograd_us(500) for _ in range(reps)]
    except Exception as err:  # noqa: BLE001 - both rows then report it (median of nothing)
        print(f"host autograd chain: {err!r}")
        chain = []
    add("autograd_fwd", "x = x * 1.0001 + 0.001, 500 steps on 1024 fp32 elements requiring grad, per op",
        lambda: dict(us=statistics.median(f for f, _ in chain)))
    add("autograd_bwd", "backward() of that chain, per autograd node", lambda: dict(us=statistics.median(b for _, b in chain)))
    lin, inp = torch.nn.Linear(64, 64, device=DEV, dtype=DT), randn(16, 64)
    add("linear_module", "nn.Linear(64, 64) forward on [16, 64] bf16, grad mode on, 2000 in a row",
        lambda: launch(lambda: lin(inp), 2000))
    add("cpu_sync", "1-element .cpu() with the device idle, median", lambda: dict(us=cpu_sync_us(50 if quick else 200)))
    return out
