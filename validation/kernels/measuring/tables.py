"""The measurements as YAML tables of `trainsim kernels` (and the layer / step files beside them)."""
import os
import time

import torch

from measuring.attention import attention_grid_rows, attention_rows
from measuring.fp8 import cast_rows, fp8_gemm_rows
from measuring.gemms import LLAMA, gemm_rows, llama_linear_shapes
from measuring.model import layer_rows, step_rows
from measuring.moe import moe_rows
from measuring.streams import stream_rows


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


def table_header(args, title, name, source, precision="bf16"):
    return header(title) + [f'description: "{title} on one {name}"', f"accelerator: {args.accelerator}", f"precision: {precision}",
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


def run_fp8_gemm(args, name):
    models = [(row, seq, llama_linear_shapes(h, a, kv, f, v, tp)) for row, h, a, kv, f, v, tp, seq in LLAMA]
    rows = fp8_gemm_rows(args.quick) + fp8_gemm_rows(args.quick, models)
    lines = table_header(args, "FP8 (E4M3, per-tensor scales) GEMMs of the mlm-h100 rows' and Llama 3 layers", name,
                         "torch._scaled_mm, cuBLASLt; bf16 torch.matmul of the same shape beside each", "fp8")
    lines += ["gemms:"]
    lines += [f"  - {{batch: 1, m: {r['m']}, n: {r['n']}, k: {r['k']}, tflops: {r['tflops']:.1f}}}"
              f"   # {r['row']} {r['name']}, {r['us']:.1f} us; bf16 {r['bf16_tflops']:.1f} TFLOP/s,"
              f" fp8/bf16 {r['tflops'] / r['bf16_tflops']:.3f}" for r in rows]
    write(os.path.join(args.out, args.prefix + "-fp8-gemm.yaml"), lines)


def run_fp8_casts(args, name):
    lines = table_header(args, "FP8 quantization kernels (amax, cast, cast+transpose, FP8 transpose)", name,
                         "Triton kernels of measuring/fp8.py with TE's bytes; amax torch.linalg.vector_norm")
    lines += ["streams:"]
    lines += [f"  - {{op: {r['op']}, bytes: {r['bytes']}, us: {r['us']:.1f}, kernels: {r['kernels']}}}"
              f"   # {r['row']}, {r['elements']} elements, {r['bytes'] / r['us'] / 1e6:.2f} TB/s"
              for r in cast_rows(args.quick)]
    write(os.path.join(args.out, args.prefix + "-fp8-casts.yaml"), lines)


def moe_lines(rows, kind, kernels):
    return [f"  - {{batch: {r['batch']}, m: {r['m']}, n: {r['n']}, k: {r['k']}, kernels: {kernels},"
            f" tflops: {r[kind]:.1f}}}   # {r['row']} {r['name']}, {r['tokens']} tokens per expert"
            for r in rows if r[kind] is not None]


def run_moe(args, name):
    rows = moe_rows(args.quick)
    title = "expert GEMMs of the MoE rows, 16 local experts, balanced"
    for suffix_, kind, kernels, source, precision in (
            ("moe-gemm", "bf16", 16, "torch.matmul per expert, cuBLAS", "bf16"),
            ("moe-fp8-gemm", "fp8", 16, "torch._scaled_mm per expert, cuBLASLt", "fp8"),
            ("moe-grouped-gemm", "grouped", 1, "torch._grouped_mm, one kernel", "bf16")):
        lines = table_header(args, f"{kind} {title}", name, source, precision) + ["gemms:"]
        write(os.path.join(args.out, f"{args.prefix}-{suffix_}.yaml"), lines + moe_lines(rows, kind, kernels))


PARTS = {"fp8-gemm": run_fp8_gemm, "fp8-casts": run_fp8_casts, "moe": run_moe, "gemm": run_gemm, "gemm-llama": run_gemm_llama, "attention": run_attention, "attention-grid": run_attention_grid, "streams": run_streams, "layers": run_layers, "step": run_step}
