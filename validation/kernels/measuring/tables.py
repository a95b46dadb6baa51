"""The measurements as YAML tables of `trainsim kernels` (and the layer / step files beside them)."""
import os
import time

import torch

from measuring.attention import attention_batch_rows, attention_grid_rows, attention_rows
from measuring.expert_epilogue import expert_epilogue_rows
from measuring.yarn_rope import yarn_rope_rows
from measuring.fp8 import cast_rows, fp8_gemm_rows
from measuring.gemms import LLAMA, gemm_rows, llama_linear_shapes
from measuring.host import cpu_model, host_rows
from measuring.interference import interference_rows
from measuring.model import layer_rows, step_rows
from measuring.moe import moe_rows
from measuring.moe_layer import moe_layer_rows
from measuring.moe_profile import moe_profile_text
from measuring.passes import cpu_sync_us, guard
from measuring.router import PRECISIONS, router_cast_rows, router_gemm_rows
from measuring.streams import stream_rows


def header(title, inputs="bf16"):
    p = torch.cuda.get_device_properties(0)
    return [f"# {title}",
            f"# Measured by validation/kernels/measure.py on {p.name} ({p.multi_processor_count} SMs,",
            f"# {p.total_memory / 2**30:.1f} GiB), torch {torch.__version__}, CUDA {torch.version.cuda},",
            f"# cuDNN {torch.backends.cudnn.version()}, on {time.strftime('%Y-%m-%d')}. Median of triton do_bench",
            f"# repetitions with L2 flushed before each; random normal {inputs} inputs; clocks as found."]


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {path}")


def table_header(args, title, name, source, precision="bf16", inputs="bf16"):
    return header(title, inputs) + [f'description: "{title} on one {name}"', f"accelerator: {args.accelerator}", f"precision: {precision}",
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
    return [f"  - {{pass: {r['pas']}, batch: {r.get('batch', 1)}, heads: {r['heads']}, seq: {r['seq']}, head_dim: {r['head_dim']},"
            f" causal: true,{p} us: {r['us']:.1f}}}   # {r['row']}" for r in rows]


def cudnn_attention_table(args, name, what, file_part, rows):
    """A table of cuDNN attention passes beyond the rows' shapes (grid, batch): the same header and lines."""
    drop = f", dropout {args.dropout:g}" if args.dropout > 0 else ""
    lines = table_header(args, f"causal bf16 cuDNN fused attention{drop} {what}", name,
                         "torch scaled_dot_product_attention, cudnn backend") + ["attention:"]
    lines += attention_lines(args, rows)
    write(os.path.join(args.out, f"{args.prefix}-attention-cudnn-{file_part}{suffix(args)}.yaml"), lines)


def run_attention_grid(args, name):
    cudnn_attention_table(args, name, "at shapes beyond the rows'", "grid", attention_grid_rows(args.quick, args.dropout))


def run_attention_batch(args, name):
    cudnn_attention_table(args, name, "over several sequences and few heads", "batch",
                          attention_batch_rows(args.quick, args.dropout))


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



def num(v, spec=".1f"):
    """A YAML number, or null for a measurement that failed."""
    return "null" if v is None else format(v, spec)


def moe_layer_line(r):
    per = r["host_us"] / r["kernels"] if r["host_us"] is not None and r["kernels"] else None
    return (f"  - {{row: {r['row']}, pass: {r['pas']}, tokens: {r['tokens']}, local_experts: {r['local_experts']},"
            f" rows_per_expert: {r['rows_per_expert']}, device_us: {num(r['device_us'])}, host_us: {num(r['host_us'])},"
            f" kernels: {num(r['kernels'], 'd')}, host_us_per_kernel: {num(per, '.2f')},"
            f" host_syncs: {num(r['host_syncs'], 'd')}}}   # {r['routed_rows']} routed rows, GQA {r['gqa']}")


def run_moe_layer(args, name):
    rows = moe_layer_rows(args.quick)
    sync = guard("moe-layer host_sync_us", lambda: cpu_sync_us(50 if args.quick else 200))
    lines = header(f"one MoE layer of the mb-* MoE rows on one {name}: one EP rank's work, all-to-all omitted")
    lines += ["# measuring/moe_layer.py: Megatron-Core MoELayer (alltoall dispatcher, balanced routing, 16 local",
              "# experts, one GEMM each as TE GroupedLinear on Hopper), bf16, cuDNN attention, RoPE omitted.",
              "# device_us: do_bench of the pass, the forward with its host sync (split sizes .cpu()); kernels: CUDA",
              "# kernels of one pass (torch profiler, memcpy not counted); host_us: median wall time of the host",
              "# issuing the pass on an idle device with the split sizes known on the host (no sync; host_syncs:",
              "# the synchronising calls torch saw in it, 0 expected), the backward's until backward() returns;",
              "# host_sync_us: median 1-element .cpu() round trip with the device idle."]
    lines += [f"host_sync_us: {num(sync)}", "moe_layers:"] + [moe_layer_line(r) for r in rows]
    write(os.path.join(args.out, args.prefix + "-moe-layer.yaml"), lines)


def run_moe_profile(args, name):
    lines = header(f"kernels of one MoE layer pass (measuring/moe_layer.py) on one {name}, by own device time")
    write(os.path.join(args.out, args.prefix + "-moe-layer-profile.txt"), lines + [moe_profile_text()])


def run_host(args, name):
    rows = host_rows(args.quick)
    lines = header(f"host cost per launch of eager PyTorch on the host of one {name}")
    lines += [f"# CPU: {cpu_model()}. (measuring/host.py; do_bench is not used here.) us: wall time per op of",
              "# calls in a row, synchronised before and after; device_us: the same calls queued behind a sleeping",
              "# kernel so that the device runs them back to back (device_queued: all were queued before the first",
              "# ran); us > device_us: the host is the limit."]
    lines += ["host:"]
    for r in rows:
        dev, bound = "", ""
        if "device_us" in r:
            dev = f", device_us: {num(r['device_us'], '.2f')}, device_queued: {str(r['device_queued']).lower()}"
            bound = "; host-bound" if r["us"] > r["device_us"] else "; device-bound"
            bound = bound if r["device_queued"] else "; device_us not queued (a wall time, not the device's)"
        lines.append(f"  - {{op: {r['op']}, us: {num(r['us'], '.2f')}{dev}}}   # {r['what']}{bound}")
    write(os.path.join(args.out, args.prefix + "-host.yaml"), lines)


def interference_line(r):
    ended = "" if r["outlasted"] else "; the copy ended first"
    return (f"  - {{ctas: {r['ctas']}, m: {r['m']}, n: {r['n']}, k: {r['k']}, alone_us: {r['alone_us']:.1f},"
            f" with_us: {r['with_us']:.1f}, slowdown: {r['slowdown']:.3f}, copy_gbps_alone: {r['copy_gbps_alone']:.1f}}}"
            f"   # do_bench {r['bench_us']:.1f} us; copy alone {r['copy_ms']:.0f} ms{ended}")


def run_interference(args, name):
    rows = interference_rows(args.quick)
    lines = header(f"GEMM slowdown beside a communication-like copy kernel on one {name}")
    lines += ["# measuring/interference.py: a Triton persistent copy of `ctas` CTAs x 512 threads (NCCL channels)",
              "# over a 1 GiB bf16 buffer on a side stream; 20 bf16 torch.matmul back to back between CUDA events,",
              "# alone and beside the copy (no L2 flush in either; medians of 3 tries, 1 with --quick);",
              "# slowdown = with_us / alone_us - 1; do_bench (L2 flushed) of the GEMM alone in the comment;",
              "# copy_gbps_alone: bytes copied per second by the copy alone (HBM traffic is twice that)."]
    lines += ["interference:"] + [interference_line(r) for r in rows]
    write(os.path.join(args.out, args.prefix + "-interference.yaml"), lines)


def op_line(r):
    per = r["host_us"] / r["kernels"] if r["host_us"] is not None and r["kernels"] else None
    return (f"  - {{op: {r['op']}, pass: {r['pas']}, device_us: {num(r['device_us'])}, kernels: {num(r['kernels'], 'd')},"
            f" host_us: {num(r['host_us'])}, host_us_per_kernel: {num(per, '.2f')}, host_syncs: {num(r['host_syncs'], 'd')}}}")


def write_op_table(args, title, notes, key, rows):
    """A table of eager-operation passes (measuring/passes.py op_metrics rows) as DIR/PREFIX-KEY.yaml."""
    lines = header(title) + notes + [key.replace("-", "_") + ":"] + [op_line(r) for r in rows]
    write(os.path.join(args.out, f"{args.prefix}-{key}.yaml"), lines)


def run_expert_epilogue(args, name):
    write_op_table(args, f"GPT-OSS's eager expert operations in Megatron-Core 0.15 on one {name}",
                   ["# measuring/expert_epilogue.py: clamp_cat (the clamped GLU's clamps, concatenation and offset tensor",
                    "# before the fused quick-GeGLU) and expert_bias (the fc2 bias times the routing probability added per",
                    "# local expert, concatenated, cast) at mb-gpt-oss-120b's 16384 routed rows, 16 local experts, 2880",
                    "# wide. device_us: do_bench of the pass; kernels: CUDA kernels in it (torch profiler, memcpy not",
                    "# counted); host_us: median wall time of the host issuing it on an idle device; host_syncs: the",
                    "# synchronising calls torch saw in it (set_sync_debug_mode)."],
                   "expert-epilogue", expert_epilogue_rows(args.quick))


def run_yarn_rope(args, name):
    write_op_table(args, f"GPT-OSS's YaRN rotary embedding applied by eager ops (Megatron-Core 0.15) on one {name}",
                   ["# measuring/yarn_rope.py: q (4096 x 64 heads x 64) and k (4096 x 8 x 64), each: cos, sin of fp32 freqs",
                    "# times mscale, cast; t * cos + rotate_half(t) * sin; cat with the empty pass-through part; and the",
                    "# backward by autograd. Columns as in h100-sxm-expert-epilogue.yaml."],
                   "yarn-rope", yarn_rope_rows(args.quick))



def run_router(args, name):
    rows = router_gemm_rows(args.quick)
    casts = router_cast_rows(args.quick)
    for precision in PRECISIONS:
        what = {"bf16": "bf16", "fp32": "fp32 on the FP32 units (allow_tf32 off)", "tf32": "fp32 as TF32 (allow_tf32 on)"}[precision]
        inputs = "bf16" if precision == "bf16" else "fp32"
        lines = table_header(args, f"MoE router GEMMs in {what}", name, "torch.matmul, cuBLAS", precision, inputs) + ["gemms:"]
        lines += [f"  - {{batch: 1, m: {r['m']}, n: {r['n']}, k: {r['k']}, tflops: {r['tflops']:.2f}}}"
                  f"   # {r['row']} {r['name']}, {r['us']:.1f} us" for r in rows if r["precision"] == precision]
        if precision == "fp32":
            lines += ["streams:"]
            lines += [f"  - {{op: {r['op']}, bytes: {r['bytes']}, us: {r['us']:.1f}, kernels: 1}}"
                      f"   # {r['row']}, {r['elements']} elements, {r['bytes'] / r['us'] / 1e6:.2f} TB/s" for r in casts]
        write(os.path.join(args.out, f"{args.prefix}-router-{precision}.yaml"), lines)

PARTS = {"fp8-gemm": run_fp8_gemm, "fp8-casts": run_fp8_casts, "moe": run_moe, "gemm": run_gemm, "gemm-llama": run_gemm_llama, "attention": run_attention, "attention-grid": run_attention_grid, "attention-batch": run_attention_batch, "streams": run_streams, "layers": run_layers, "step": run_step,
         "moe-layer": run_moe_layer, "moe-profile": run_moe_profile, "host": run_host, "interference": run_interference,
         "expert-epilogue": run_expert_epilogue, "yarn-rope": run_yarn_rope, "router": run_router}
