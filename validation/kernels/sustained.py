#!/usr/bin/env python3
"""Isolated against sustained GEMM throughput, bf16 and FP8, on one NVIDIA GPU.

The kernel tables (measure.py) time each GEMM alone: do_bench's median with the L2 flushed between
repetitions, so the GPU idles a little between kernels. A training step instead runs GEMMs back to back
for seconds at full power, where the SM clock may settle below its boost. This runs each GEMM alone
(do_bench) and then back to back for --seconds, timing the last half with CUDA events and sampling the
SM clock and the board power through NVML meanwhile. FP8: torch._scaled_mm, E4M3, per-tensor scales.

    python3 validation/kernels/sustained.py [--seconds 12] > h100-sxm-sustained-gemm.md
"""
import argparse
import threading
import time

import pynvml
import torch
from triton.testing import do_bench

# (what, m, n, k): forward GEMMs of the FP8 rows' layers.
SHAPES = [("llama3-8b fc1 (gate+up)", 8192, 28672, 4096), ("llama3-8b fc2", 8192, 4096, 14336),
          ("llama3-70b tp4 fc1", 8192, 14336, 8192), ("gpt3-5b qkv, 4 x 2048 tokens", 8192, 12288, 4096)]
F8 = torch.float8_e4m3fn


def gemm_fn(precision, m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    if precision == "bf16":
        bt = b.t()
        return lambda: a @ bt
    a8, b8 = (a * 0.5).to(F8), (b * 0.5).to(F8)
    s = torch.ones((), device="cuda", dtype=torch.float32)
    return lambda: torch._scaled_mm(a8, b8.t(), s, s, out_dtype=torch.bfloat16, use_fast_accum=True)


class Sampler:
    """SM clock (MHz) and board power (W) every 50 ms while running."""

    def __init__(self):
        pynvml.nvmlInit()
        self.h = pynvml.nvmlDeviceGetHandleByIndex(0)
        self.samples, self.on = [], False

    def _loop(self):
        while self.on:
            self.samples.append((pynvml.nvmlDeviceGetClockInfo(self.h, pynvml.NVML_CLOCK_SM),
                                 pynvml.nvmlDeviceGetPowerUsage(self.h) / 1000.0))
            time.sleep(0.05)

    def __enter__(self):
        self.samples, self.on = [], True
        self.t = threading.Thread(target=self._loop)
        self.t.start()
        return self

    def __exit__(self, *exc):
        self.on = False
        self.t.join()

    def mean(self, tail):
        s = self.samples[len(self.samples) // 2:] if tail else self.samples
        return sum(c for c, _ in s) / len(s), sum(p for _, p in s) / len(s)


def sustained(fn, flops, seconds, sampler):
    """TFLOP/s over the second half of `seconds` of back-to-back launches."""
    fn()
    torch.cuda.synchronize()
    with sampler:
        t0 = time.time()
        while time.time() - t0 < seconds / 2:
            for _ in range(20):
                fn()
            torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        n = 0
        start.record()
        while time.time() - t0 < seconds:
            for _ in range(20):
                fn()
            n += 20
            end.record()
            end.synchronize()
    ms = start.elapsed_time(end)
    return flops * n / (ms / 1000) / 1e12


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=12.0, help="back-to-back run per GEMM (timed: its second half)")
    args = ap.parse_args()
    p = torch.cuda.get_device_properties(0)
    sampler = Sampler()
    print(f"# Isolated vs sustained GEMM throughput on one {p.name}\n")
    print(f"validation/kernels/sustained.py --seconds {args.seconds:g}; torch {torch.__version__}, CUDA {torch.version.cuda},"
          f" {time.strftime('%Y-%m-%d')}. Isolated: do_bench median, L2 flushed. Sustained: back to back for"
          f" {args.seconds:g} s, the second half timed; clock and power: NVML means over that half.\n")
    print("| GEMM | m x n x k | precision | isolated TFLOP/s | sustained TFLOP/s | sustained / isolated |"
          " SM clock MHz | power W |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for what, m, n, k in SHAPES:
        for precision in ("bf16", "fp8"):
            fn = gemm_fn(precision, m, n, k)
            flops = 2.0 * m * n * k
            iso = flops / (do_bench(fn, warmup=25, rep=200, return_mode="median") / 1000) / 1e12
            sus = sustained(fn, flops, args.seconds, sampler)
            clock, power = sampler.mean(tail=True)
            print(f"| {what} | {m} x {n} x {k} | {precision} | {iso:.1f} | {sus:.1f} | {sus / iso:.3f} |"
                  f" {clock:.0f} | {power:.0f} |", flush=True)
            del fn
            torch.cuda.empty_cache()
            time.sleep(2)  # let the clock recover between runs


if __name__ == "__main__":
    main()
