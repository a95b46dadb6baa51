// What the training framework adds to the model's own kernels, parsed from
// workloads/frameworks/*.yaml (or a run's `framework:` map): time the host spends issuing work,
// how layers are split into pipeline stages, and the memory the process holds besides model
// states and activations. A run without `framework:` gets FrameworkSpec{} — no host time, the
// uniform split, no extra memory — which is what trainsim modelled before frameworks existed.
//
//   name: megatron-deepspeed
//   description: "..."
//   host: {launch: 20us, pass: 0s, pipeline_instruction: 0s, launch_blocking: false, cuda_graphs: false}
//   partition: uniform          # uniform | embedding_counted | parameters
//   memory: {context: 1.5GiB, workspace: 0B, allocator_reserve: 0.05, fp32_grad_partition: true,
//            keeps_stage_outputs: true}
//   moe: {dispatch_sync: true, grouped_gemm: per_expert}   # grouped_gemm: per_expert | grouped
#pragma once
#include <string>

#include "sim/core/units.hpp"

namespace trainsim {

// Host time, each in seconds. A pass is the forward, or the backward, of one micro-batch through
// one model chunk of one pipeline stage (sim/graph/chunk_tasks). Within a pass the host issues
// one launch per kernel, collective and pipeline send/receive (one per pass with CUDA graphs).
struct HostCosts {
  Seconds launch = 0;                // per launch: framework Python, PyTorch dispatch, cudaLaunchKernel
  // Per launch that a library makes itself inside one such call, with no Python per kernel (Transformer
  // Engine's per-expert GEMMs and per-expert quantization, looped in C++); 0: as `launch`.
  Seconds library_launch = 0;
  Seconds pass = 0;                  // per pass: module calls, schedule bookkeeping outside launches
  Seconds pipeline_instruction = 0;  // per instruction of a pipeline engine (DeepSpeed's PipeInstruction)
  // CUDA_LAUNCH_BLOCKING=1: every launch returns only when its kernel has finished, so host time
  // adds to device time and no stream overlaps another (the run's overlap switches are ignored).
  // false: launches are asynchronous; a kernel waits for its launch where the host has fallen behind
  // (sim/analytic/host_time.hpp).
  bool launch_blocking = false;
  bool cuda_graphs = false;  // each pass replayed from one captured graph: one launch per pass
  [[nodiscard]] bool any() const { return launch > 0 || pass > 0 || pipeline_instruction > 0; }
  [[nodiscard]] Seconds library_launch_cost() const { return library_launch > 0 ? library_launch : launch; }
};

// How layers are assigned to pipeline stages when the run's strategy gives no explicit split.
enum class PartitionMethod {
  kUniform,           // transformer layers evenly; embedding and output ride on the end stages
                      // (Megatron-LM; DeepSpeed partition_method "type:transformer")
  kEmbeddingCounted,  // embedding and output layer count as one layer each when balancing
                      // (DeepSpeed "type:transformer|embedding")
  kParameters,        // balance parameter counts, embedding and output included (DeepSpeed "parameters")
};

[[nodiscard]] const char* to_string(PartitionMethod m);  // its YAML spelling: "uniform", ...

struct FrameworkMemory {
  Bytes context = 0;              // per process: CUDA context, loaded kernel images, library handles, bytes
  Bytes workspace = 0;            // per process: cuBLAS / cuDNN / NCCL workspaces, bytes
  double allocator_reserve = 0;   // caching allocator: memory reserved beyond the allocated peak, as a
                                  // fraction of that peak (fragmentation and cached blocks)
  // The optimizer steps on an fp32 copy of the gradients of its shard (DeepSpeed ZeRO 1/2:
  // 4 bytes per parameter of the shard), besides the 16-bit gradients of the whole stage.
  bool fp32_grad_partition = false;
  // The pipeline engine keeps each in-flight micro-batch's stage output until its backward
  // (DeepSpeed's pipe_buffers["outputs"]); Megatron frees the output's data once sent.
  bool keeps_stage_outputs = false;
};

// How the framework runs a mixture-of-experts layer.
struct FrameworkMoe {
  // The token dispatcher needs the routing counts on the host (all-to-all split sizes, grouped-GEMM
  // row counts), so the host waits for the device once per MoE layer forward, before the dispatch
  // all-to-all: Megatron-Core's alltoall dispatcher when dropless (token_dispatcher.py,
  // cuda_sync_point "before_ep_alltoall"); none when experts are padded to capacity (static shapes).
  bool dispatch_sync = false;
  // A grouped expert GEMM runs as one GEMM kernel per local expert (Transformer Engine's GroupedLinear
  // on Hopper: cuBLAS GEMMs on a pool of streams), each with its own launch, fixed cost and tile
  // shape; false: one grouped kernel for all local experts.
  bool per_expert_gemms = false;
  // A model with expert biases (MoeSpec::expert_bias) gets its fc2 bias added per local expert after
  // the grouped GEMM: its rows plus the bias times each row's routing probability, then the experts
  // concatenated and cast (Megatron-Core's TEGroupedMLP._apply_bias, eager); false: in the GEMM.
  bool per_expert_bias = false;
  // A clamped gated activation (MoeSpec::glu_clamp) clamps the two halves and concatenates them
  // again before the fused activation, as eager operations, then makes a device scalar from the host,
  // a host synchronisation (Megatron-Core's weighted_bias_quick_geglu_impl: torch.tensor on the
  // device); false: the clamp inside the fused kernel, no synchronisation.
  bool separate_glu_clamp = false;
};

// Whether unfused attention (a run's flash_attention false) normalises its scores with Megatron's fused
// scale-mask-softmax kernel or falls back to PyTorch's ops (fp32 cast, scale, mask, softmax, cast back):
// FusedScaleMaskSoftmax.is_kernel_available, which each framework version writes differently
// (sim/model/softmax_fusion.hpp has the rules and their sources).
enum class SoftmaxFusion {
  kAlways,                 // the fused kernel always runs (no framework modelled)
  kMegatron,               // Megatron-LM 2022-, Megatron-Core: 16 < keys <= 4096, batch-per-block rule on the keys
  kMegatronDeepSpeed2022,  // the BigScience fork before 2022-03-02: queries <= 2048, batch-per-block on the heads
};

struct FrameworkSpec {
  std::string name = "none";  // "none": no framework modelled
  std::string description;
  HostCosts host;
  PartitionMethod partition = PartitionMethod::kUniform;
  FrameworkMemory memory;
  FrameworkMoe moe;
  // A YaRN rotary embedding (PositionEmbedding::kYarn) is applied by eager ops on q and on k (cos and
  // sin of the frequencies times the YaRN scale, t·cos + rotate_half(t)·sin), not by one fused kernel:
  // Megatron-Core's rope_utils falls back from Transformer Engine's fused RoPE when mscale != 1.
  bool eager_yarn_rope = false;
  // The framework's column-parallel layers can all-reduce (or SP reduce-scatter) an input gradient
  // beside their weight-gradient GEMM (Megatron's asynchronous TP all-reduce). false: they have no such
  // path, so a run on it gets strategy.overlap.tp_grad_reduce off (sim/config/run_loader.cpp).
  bool async_tp_grad_reduce = true;
  SoftmaxFusion softmax_fusion = SoftmaxFusion::kAlways;
};

}  // namespace trainsim
