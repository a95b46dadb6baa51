"""How much a communication kernel running beside a GEMM slows it: the physics behind trainsim's
comm_interference. A NCCL collective runs one CTA per channel, each holding an SM while it moves data through
HBM; the GEMM beside it loses those SMs and shares the HBM bandwidth.

The NCCL kernel is emulated by a Triton persistent copy: C CTAs (C = 8-32, about NCCL's channel counts) of 512
threads (NCCL_NTHREADS default 512), each copying 32 KiB chunks (16 B x 4 per thread in flight, about NCCL's
unrolled packs) of a 1 GiB bf16 buffer, far beyond the 50 MB L2, to another, wrapping round it until the
chunks asked for are done; sized to run ~200 ms, longer than the GEMMs timed beside it. The copy reads and
writes this GPU's HBM (2 bytes of traffic per byte copied); a collective over NVLink also reads its send
buffer and has its receive buffer written here, so its HBM load per byte moved is of the same order.
Timing: R GEMMs back to back between CUDA events (torch.matmul, bf16), alone and with the copy started just
before on a side stream (checked to have outlasted them; else twice as long and once more); both without L2
flushes, so that they compare (bench_us, do_bench with flushes, beside them).
"""
import statistics

import torch
import triton
import triton.language as tl

from measuring.common import DEV, DT, bench_us, randn

CTAS = [8, 16, 24, 32]
# (m, n, k): a large square GEMM, and the qkv fwd / fc2 fwd shapes of a 2k-6k hidden layer at 4096 tokens
GEMMS = [(8192, 8192, 8192), (4096, 6144, 2048), (4096, 2048, 6144)]
BLOCK = 16384  # bf16 elements per chunk: 32 KiB, 512 threads x 4 x 16 B
WARPS = 16  # 512 threads
ELEMENTS = 1 << 29  # 1 GiB of bf16
GEMM_REPS = 20


@triton.jit
def _copy(src, dst, chunks, total, BLOCK: tl.constexpr):
    """CTA p copies chunks p, p + CTAs, p + 2 CTAs, ... < total, modulo the buffer's chunks."""
    offs = tl.arange(0, BLOCK)
    for i in range(tl.program_id(0), total, tl.num_programs(0)):
        base = (i % chunks).to(tl.int64) * BLOCK
        tl.store(dst + base + offs, tl.load(src + base + offs))


def event():
    return torch.cuda.Event(enable_timing=True)


def launch(src, dst, ctas, total):
    _copy[(ctas,)](src, dst, src.numel() // BLOCK, total, BLOCK=BLOCK, num_warps=WARPS)


def copy_ms(src, dst, ctas, total):
    start, end = event(), event()
    torch.cuda.synchronize()
    start.record()
    launch(src, dst, ctas, total)
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def sized_total(src, dst, ctas, target_ms):
    """Chunks for a copy of about target_ms, from a short timed one (totals multiples of 16 x CTAs)."""
    probe = 1024 * ctas
    ms = copy_ms(src, dst, ctas, probe)
    return max(16 * ctas, min(int(probe * target_ms / ms) // (16 * ctas) * 16 * ctas, 2 ** 31 - 16 * ctas))


def gemm_loop_us(gemm, reps):
    start, end = event(), event()
    torch.cuda.synchronize()
    start.record()
    for _ in range(reps):
        gemm()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / reps


def with_copy_us(gemm, reps, src, dst, ctas, total, side):
    """GEMM microseconds with the copy running on `side` (launched first); whether the copy outlasted them."""
    t0, g0, g1, c1 = event(), event(), event(), event()
    torch.cuda.synchronize()
    t0.record()
    side.wait_event(t0)
    with torch.cuda.stream(side):
        launch(src, dst, ctas, total)
    c1.record(side)
    g0.record()
    for _ in range(reps):
        gemm()
    g1.record()
    torch.cuda.synchronize()
    return g0.elapsed_time(g1) * 1000.0 / reps, t0.elapsed_time(c1) > t0.elapsed_time(g1)


def check_copy(src, dst, ctas):
    """The copy kernel must copy (and is compiled here, before anything is timed)."""
    try:
        launch(src, dst, ctas, 16 * ctas)
        n = 16 * ctas * BLOCK
        print(f"copy check: {'equal' if torch.equal(src[:n], dst[:n]) else 'DIFFERENT'} over {n} elements")
    except Exception as err:  # noqa: BLE001 - each row then reports its own failure
        print(f"copy check: {err!r}")


def matmul(m, n, k):
    a, b = randn(m, k), randn(k, n)
    return lambda: a @ b


def gemm_alone(quick, trials):
    """(m, n, k) -> (the GEMM, its back-to-back microseconds, its do_bench microseconds)."""
    out = {}
    for m, n, k in GEMMS:
        try:
            gemm = matmul(m, n, k)
            gemm_loop_us(gemm, 3)  # warm
            out[(m, n, k)] = (gemm, statistics.median(gemm_loop_us(gemm, GEMM_REPS) for _ in range(trials)),
                              bench_us(gemm, quick=quick))
        except Exception as err:  # noqa: BLE001 - the other shapes still run
            print(f"interference gemm {m}x{n}x{k}: {err!r}")
    return out


def interference_rows(quick):
    trials, target_ms = (1, 50.0) if quick else (3, 200.0)
    src = torch.empty(ELEMENTS, device=DEV, dtype=DT).normal_()
    dst = torch.empty_like(src)
    side = torch.cuda.Stream()
    check_copy(src, dst, CTAS[0])
    gemms, out = gemm_alone(quick, trials), []
    for ctas in CTAS:
        try:
            total = sized_total(src, dst, ctas, target_ms)
            ms = copy_ms(src, dst, ctas, total)
        except Exception as err:  # noqa: BLE001 - the other channel counts still run
            print(f"interference copy ctas={ctas}: {err!r}")
            continue
        for (m, n, k), (gemm, alone, bench) in gemms.items():
            try:
                runs = [with_copy_us(gemm, GEMM_REPS, src, dst, ctas, total, side) for _ in range(trials)]
                if not all(ok for _, ok in runs):
                    runs = [with_copy_us(gemm, GEMM_REPS, src, dst, ctas, 2 * total, side) for _ in range(trials)]
                with_us = statistics.median(us for us, _ in runs)
                out.append(dict(ctas=ctas, m=m, n=n, k=k, alone_us=alone, with_us=with_us, bench_us=bench,
                                slowdown=with_us / alone - 1, copy_gbps_alone=total * BLOCK * 2 / ms / 1e6,
                                copy_ms=ms, outlasted=all(ok for _, ok in runs)))
            except Exception as err:  # noqa: BLE001 - the other rows still run
                print(f"interference ctas={ctas} {m}x{n}x{k}: {err!r}")
    del src, dst
    torch.cuda.empty_cache()
    return out
