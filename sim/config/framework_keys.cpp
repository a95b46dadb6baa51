// The keys of a framework, read by framework_loader.cpp and printed by `trainsim schema framework`.
#include "sim/config/framework_keys.hpp"

#include "sim/config/enum_names.hpp"
#include "sim/config/plausible_ranges.hpp"

namespace trainsim {
namespace {

std::vector<KeyEntry<FrameworkSpec>> framework_entries() {
  using F = FrameworkSpec;
  const Need opt = Need::kOptional;
  return {
      custom_key<F>("base", opt, "a framework preset name or path (only in a run's `framework:` map)",
                    "the preset this map changes"),
      string_key<F>("name", &F::name, opt, "a non-empty string (required in a preset file)", "the framework's name"),
      string_key<F>("description", &F::description, opt, "a string", "one line for `trainsim list`", true),
      custom_key<F>("host", opt, "a map with the `host.*` keys", "host time per launch, pass and pipeline instruction"),
      enum_key<F>("partition", &F::partition, opt, partition_names(),
                  "how layers are split into stages when the strategy gives no split"),
      custom_key<F>("memory", opt, "a map with the `memory.*` keys", "memory the process holds besides model states"),
      custom_key<F>("moe", opt, "a map with the `moe.*` keys", "how the framework runs mixture-of-experts layers"),
      enum_key<F>("yarn_rope", &F::eager_yarn_rope, opt, yarn_rope_names(),
                  "eager: a YaRN rotary embedding runs as eager ops on q and k, each a host launch (Megatron-Core); "
                  "fused: one kernel, as plain RoPE"),
      bool_key<F>("async_tp_grad_reduce", &F::async_tp_grad_reduce, opt,
                  "whether its column-parallel layers can reduce an input gradient beside their weight-gradient "
                  "GEMM (Megatron's asynchronous TP all-reduce); false turns a run's strategy.overlap.tp_grad_reduce "
                  "off"),
      enum_key<F>("softmax_fusion", &F::softmax_fusion, opt, softmax_fusion_names(),
                  "when unfused attention's scores take the fused scale-mask-softmax kernel; otherwise PyTorch's "
                  "fp32 softmax runs as five kernels (sim/model/softmax_fusion.hpp). always: every shape; megatron: "
                  "Megatron-LM 2022- and Megatron-Core (16 < keys <= 4096, keys and queries multiples of 4, "
                  "micro-batch x local heads a multiple of the kernel's batches per block); megatron_deepspeed_2022: "
                  "the BigScience fork before 2022-03-02 (queries <= 2048, batches per block taken from the local "
                  "heads: with 8 heads per device only micro-batches that are multiples of 4 fuse)"),
  };
}

std::vector<KeyEntry<HostCosts>> host_entries() {
  using H = HostCosts;
  const Need opt = Need::kOptional;
  return {
      quantity_key<H>("launch", &H::launch, Quantity::kTime, opt, host_time_range(),
                      "host time per launch (kernel, collective, pipeline transfer) of trainsim's catalogue"),
      quantity_key<H>("library_launch", &H::library_launch, Quantity::kTime, opt, host_time_range(),
                      "host time per launch a library makes itself inside one catalogue launch, with no Python per "
                      "kernel (Transformer Engine's per-expert GEMMs and quantization); 0: as `launch`"),
      quantity_key<H>("pass", &H::pass, Quantity::kTime, opt, host_time_range(),
                      "host time per forward or backward pass of one micro-batch through one stage chunk"),
      quantity_key<H>("pipeline_instruction", &H::pipeline_instruction, Quantity::kTime, opt, host_time_range(),
                      "host time per instruction of a pipeline engine (DeepSpeed: 2-3 per pass)"),
      bool_key<H>("launch_blocking", &H::launch_blocking, opt,
                  "CUDA_LAUNCH_BLOCKING=1: host time adds to device time and nothing overlaps (the run's "
                  "`strategy.overlap` switches are turned off); false: a kernel waits for its launch only where the host has fallen behind the device"),
      bool_key<H>("cuda_graphs", &H::cuda_graphs, opt, "one launch per pass"),
  };
}

std::vector<KeyEntry<FrameworkMemory>> memory_entries() {
  using M = FrameworkMemory;
  const Need opt = Need::kOptional;
  return {
      quantity_key<M>("context", &M::context, Quantity::kBytes, opt, framework_overhead_range(),
                      "per process: CUDA context and kernel images"),
      quantity_key<M>("workspace", &M::workspace, Quantity::kBytes, opt, framework_overhead_range(),
                      "per process: library workspaces (cuBLAS, cuDNN, NCCL)"),
      number_key<M>("allocator_reserve", &M::allocator_reserve, opt, allocator_reserve_range(),
                    "the caching allocator's memory beyond the allocated peak, as a fraction of that peak"),
      bool_key<M>("fp32_grad_partition", &M::fp32_grad_partition, opt,
                  "the optimizer steps on an fp32 copy of its shard's gradients (DeepSpeed ZeRO): +4 bytes per "
                  "parameter of the shard"),
      bool_key<M>("keeps_stage_outputs", &M::keeps_stage_outputs, opt,
                  "each in-flight micro-batch keeps its stage output until its backward (DeepSpeed's pipeline engine)"),
  };
}

std::vector<KeyEntry<FrameworkMoe>> framework_moe_entries() {
  using M = FrameworkMoe;
  const Need opt = Need::kOptional;
  return {
      bool_key<M>("dispatch_sync", &M::dispatch_sync, opt,
                  "the MoE dispatcher reads routing counts on the host once per MoE layer forward (Megatron-Core's "
                  "dropless alltoall dispatcher): host time counts per segment between syncs; none when the run "
                  "pads experts to capacity"),
      enum_key<M>("grouped_gemm", &M::per_expert_gemms, opt, grouped_gemm_names(),
                  "per_expert: a grouped expert GEMM runs as one GEMM kernel per local expert (Transformer Engine's "
                  "GroupedLinear on Hopper), each with its own launch and fixed cost; grouped: one kernel"),
      enum_key<M>("expert_bias", &M::per_expert_bias, opt, expert_bias_names(),
                  "per_expert: a biased expert's fc2 bias times the routing probability is added expert by expert "
                  "after the grouped GEMM, then concatenated (Megatron-Core's TEGroupedMLP); fused: in the GEMM"),
      enum_key<M>("glu_clamp", &M::separate_glu_clamp, opt, glu_clamp_names(),
                  "separate: a clamped gated activation's clamps and concatenation run as eager kernels before the "
                  "fused activation, then a host synchronisation (Megatron-Core); fused: inside it"),
  };
}

}  // namespace

const EnumNames<PartitionMethod>& partition_names() {
  static const EnumNames<PartitionMethod> names = {{"uniform", PartitionMethod::kUniform},
                                                   {"embedding_counted", PartitionMethod::kEmbeddingCounted},
                                                   {"parameters", PartitionMethod::kParameters}};
  return names;
}

const KeyTable<FrameworkSpec>& framework_keys() {
  static const KeyTable<FrameworkSpec> table(framework_entries());
  return table;
}

const KeyTable<HostCosts>& host_keys() {
  static const KeyTable<HostCosts> table(host_entries());
  return table;
}

const KeyTable<FrameworkMemory>& framework_memory_keys() {
  static const KeyTable<FrameworkMemory> table(memory_entries());
  return table;
}

const KeyTable<FrameworkMoe>& framework_moe_keys() {
  static const KeyTable<FrameworkMoe> table(framework_moe_entries());
  return table;
}

}  // namespace trainsim
