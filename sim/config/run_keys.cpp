// The keys of a run file, read by run_loader.cpp and printed by `trainsim schema run`.
#include "sim/config/run_keys.hpp"

#include "sim/config/enum_names.hpp"
#include "sim/config/plausible_ranges.hpp"

namespace trainsim {
namespace {

using R = RunSpec;
using S = StrategySpec;

std::vector<KeyEntry<R>> run_entries() {
  const Need req = Need::kRequired, opt = Need::kOptional;
  return {
      string_key<R>("name", &R::name, req, "a non-empty string", "the run's name"),
      string_key<R>("description", &R::description, opt, "a string", "one line for `trainsim list`", true),
      custom_key<R>("model", req, "a model preset name (`trainsim list models`), a path to a model YAML, or `hf:` and the "
                                  "path of a Hugging Face config.json (model_type llama, mistral, mixtral, qwen2, "
                                  "qwen2_moe, qwen3, qwen3_moe, deepseek_v3, gpt_oss)",
                    "the model; a relative path is taken from the run file's folder first"),
      custom_key<R>("platform", req, "a platform preset name (`trainsim list platforms`) or a path",
                    "the cluster; a relative path is taken from the run file's folder first"),
      int_key<R>("devices", &R::devices, req, 1, kMaxDevices,
                 "devices in the run (10x the largest cluster built); a whole number of domains of every tier it "
                 "spans more than one of (a multiple of `tiers.N.domain_size` when above it)"),
      enum_key<R>("precision", &R::precision, req, precision_names(), "training precision of the GEMMs"),
      int_key<R>("seq_len", &R::seq_len, req, 1, INT_MAX, "tokens per sequence"),
      int_key<R>("global_batch", &R::global_batch, req, 1, INT_MAX,
                 "sequences per iteration; m x virtual_stages <= 65,536 and m x (layers of the fullest stage) <= "
                 "262,144, where m = global_batch / (dp x micro_batch): the replay expands every (micro-batch, "
                 "chunk) pass of a stage, and every layer of it, into tasks (about 27 KB and 6 ms per layer pass "
                 "on workloads/default.yaml, so the second bound is about 7 GB and half an hour; 16x and 12x the "
                 "largest bundled and validation runs). `check` computes everything else in closed form"),
      int_key<R>("micro_batch", &R::micro_batch, opt, 1, INT_MAX, "sequences per micro-batch, dividing global_batch / dp"),
      custom_key<R>("strategy", opt, "a map with the `strategy.*` keys", "the parallel layout; absent: all degrees 1"),
      custom_key<R>("collectives", opt,
                    "a map from tp, cp, ep, dp, pp to a registered algorithm (`trainsim list collectives`) that runs "
                    "every collective the strategy gives that group",
                    "per-dimension algorithm; absent: chosen as NCCL does"),
      custom_key<R>("framework", opt,
                    "a preset name (`workloads/frameworks/*.yaml`), a path, or a map: `base:` (a preset) plus any "
                    "framework key",
                    "absent: no framework is modelled (no host time, uniform stages, no process memory)"),
      quantity_key<R>("framework_overhead", &R::framework_overhead, Quantity::kBytes, opt, framework_overhead_range(),
                      "per-device memory held besides what `framework` models (at most the largest device memory)"),
      bool_key<R>("flash_attention", &R::flash_attention, opt,
                  "false: unfused attention (scores, softmax, dropout and context as kernels, s x s scores in HBM)"),
      enum_key<R>("cross_entropy", &R::cross_entropy, opt, cross_entropy_names(),
                  "the loss's cross entropy: unfused (Megatron-LM's chain of ops over fp32 logits, the fp32 softmax "
                  "kept) or te (Transformer Engine's fused kernels: two 16-bit passes, the gradient written in "
                  "place of the logits and scaled in the backward; Megatron-Core cross_entropy_fusion_impl te)"),
      custom_key<R>("dropout", opt, "a map with the `dropout.*` keys", "dropout probabilities; absent: none"),
      custom_key<R>("fp8", opt, "a map with the `fp8.*` keys; only with precision fp8 or mxfp8",
                    "how an 8-bit run quantizes (Transformer Engine recipes, sim/config/fp8_spec.hpp)"),
      custom_key<R>("moe", opt, "a map with the `moe.*` keys", "routing and capacity of MoE models; absent: balanced, dropless"),
  };
}

std::vector<KeyEntry<S>> strategy_entries() {
  const Need opt = Need::kOptional;
  return {
      int_key<S>("tp", &S::tp, opt, 1, INT_MAX, "tensor-parallel degree, dividing heads and kv_heads"),
      int_key<S>("pp", &S::pp, opt, 1, INT_MAX, "pipeline stages, at most layers"),
      int_key<S>("dp", &S::dp, opt, 1, INT_MAX, "data-parallel degree; tp x pp x dp x cp = devices"),
      int_key<S>("cp", &S::cp, opt, 1, INT_MAX, "context-parallel degree, dividing seq_len"),
      int_key<S>("ep", &S::ep, opt, 1, INT_MAX,
                 "expert-parallel degree, dividing moe.experts and dp x cp (tp x cp x dp with expert_tp 1)"),
      int_key<S>("expert_tp", &S::expert_tp, opt, 0, INT_MAX,
                 "Megatron-Core's --expert-tensor-parallel-size: 0 = tp (the default: experts split as the dense "
                 "layers); 1 = experts whole and EP groups carved out of tp x cp x dp (MoE parallel folding; "
                 "needs sequence_parallel when tp > 1; shared experts stay split over tp)"),
      bool_key<S>("sequence_parallel", &S::sequence_parallel, opt, "Megatron SP: reduce-scatter + all-gather instead of all-reduce"),
      string_key<S>("schedule", &S::schedule, opt,
                    "a registered schedule (`trainsim list schedules`) that suits pp, m and v (interleaved: m a "
                    "multiple of pp; the others: virtual_stages 1)",
                    "the pipeline schedule"),
      int_key<S>("virtual_stages", &S::virtual_stages, opt, 1, INT_MAX, "model chunks per pipeline rank (interleaved)"),
      int_key<S>("first_stage_layers", &S::first_stage_layers, opt, 0, INT_MAX,
                 "0 (the even split) or, with pp >= 2, layers of the first stage that leave the other stages an "
                 "equal share of at least one layer (first + last = layers when pp = 2), each stage a multiple of "
                 "virtual_stages: Megatron-Core's `--decoder-first-pipeline-num-layers` (sim/strategy/stage_layout.hpp)"),
      int_key<S>("last_stage_layers", &S::last_stage_layers, opt, 0, INT_MAX,
                 "the same for the last stage (`--decoder-last-pipeline-num-layers`)"),
      string_key<S>("pipeline_layout", &S::pipeline_layout, opt,
                    "Megatron-Core's --pipeline-model-parallel-layout text: one entry per model chunk joined by '|', "
                    "E embedding, t layer, m MTP layer, L loss, (...)*n and x*n repeats, e.g. \"Et*4|(t*4|)*14tmL\"",
                    "the layers of every model chunk (pp x virtual_stages entries, in model-chunk order); not with "
                    "first/last_stage_layers, stage_layers or account_for_*", true),
      custom_key<S>("stage_layers", opt,
                    "a list of layer counts, one per stage (pp entries), each >= 1, adding up to the model's layers; "
                    "virtual_stages 1 and no first/last_stage_layers",
                    "DeepSpeed's explicit partition, MindSpeed's `--num-layer-list`; without it the framework's "
                    "`partition` decides (sim/strategy/partition.hpp)"),
      bool_key<S>("account_for_embedding", &S::account_for_embedding, opt,
                  "Megatron-Core's `--account-for-embedding-in-pipeline-split`: the embedding takes one layer's slot "
                  "of the first model chunk of the even split (layers + counted slots a multiple of pp x "
                  "virtual_stages, a layer left in the first and last chunk; not with first/last/stage_layers)"),
      bool_key<S>("account_for_loss", &S::account_for_loss, opt,
                  "`--account-for-loss-in-pipeline-split`: the loss takes one layer's slot of the last model chunk"),
      int_key<S>("zero_stage", &S::zero_stage, opt, 0, 3, "ZeRO stage (3 = FSDP)"),
      enum_key<S>("recompute", &S::recompute, opt, recompute_names(), "activation recomputation"),
      custom_key<S>("recompute_modules", opt,
                    "with recompute: selective, a list of core_attn, layernorm, moe_act, mlp, mla_up_proj, each at most once",
                    "what selective recompute re-runs (Megatron-Core's `--recompute-modules`; default [core_attn]): "
                    "core_attn the unfused attention scores, layernorm the norm before MoE blocks, moe_act the experts' activation, mlp a dense layer's MLP block, mla_up_proj MLA's "
                    "up-projections and rotary kernels (sim/model/recompute_ops.hpp)"),
      int_key<S>("recompute_layers", &S::recompute_layers, opt, 0, INT_MAX,
                 "0 = every layer; else this many layers per stage, at most layers"),
      enum_key<S>("offload", &S::offload, opt, offload_names(), "optimizer state (and its step) in host memory"),
      enum_key<S>("optimizer_state", &S::optimizer_state, opt, optimizer_state_names(),
                  "what Adam keeps per parameter: fp32 (fp32 moments and master weight, 12 B: Megatron-Core, "
                  "DeepSpeed), fp32_remainder (fp32 moments, the master's low 16 bits beside the bf16 weight, "
                  "10 B: Apex/NeMo distributed_fused_adam with fp32 state), bf16 (bf16 moments, no master, 4 B: "
                  "distributed_fused_adam with dtype bf16)"),
      quantity_key<S>("grad_bucket_size", &S::grad_bucket_size, Quantity::kBytes, opt, bucket_size_range(),
                      "data-parallel gradient bucket (Megatron's default is 40 MB)"),
      enum_key<S>("grad_precision", &S::grad_precision, opt, grad_precision_names(),
                  "main gradients and their reduction; auto: fp32 for bf16 runs (Megatron-LM), else the run's own"),
      bool_key<S>("grad_accumulation_fusion", &S::grad_accumulation_fusion, opt,
                  "false: Megatron's `--no-gradient-accumulation-fusion`, an extra add of each weight gradient "
                  "into the main-gradient buffer per micro-batch"),
      bool_key<S>("grad_nan_check", &S::grad_nan_check, opt,
                  "Megatron's `--check-for-nan-in-loss-and-grad` (Megatron-LM's default, off in Megatron-Bridge's "
                  "performance scripts): each gradient bucket's norm is computed on the compute stream and read on "
                  "the host (a synchronisation) before its reduction, in the last micro-batch"),
      bool_key<S>("grad_scale_kernel", &S::grad_scale_kernel, opt,
                  "each gradient bucket is multiplied by 1/dp on the compute stream before its reduction "
                  "(Megatron-LM without `--ddp-average-in-collective`); false: the reduction averages (with ep > 1 "
                  "Megatron then still scales the experts' buckets by their group's share: not modelled)"),
      int_key<S>("defer_output_wgrad", &S::defer_output_wgrad, opt, 0, INT_MAX,
                 "Megatron-Core's `defer_embedding_wgrad_compute` with `wgrad_deferral_limit` N: the output layer's "
                 "weight gradients of the first N micro-batches run after the stage's last backward, inside the "
                 "pipeline flush; 0 = off (Megatron's limit 0 means all: write the micro-batch count); needs pp > "
                 "1, not zb-h1, grad_accumulation_fusion"),
      string_key<S>("mesh_order", &S::mesh_order, opt, "tp, cp, ep, dp and pp, each once, joined by '-'",
                    "rank layout, fastest-varying dimension first (Megatron's order)"),
      custom_key<S>("keep_in_domain", opt, "a list naming each of tp, cp, ep, dp, pp at most once, e.g. [tp, ep]",
                    "dimensions whose every group must sit in one domain of the innermost tier (a node's NVLink); a "
                    "strategy that puts one across domains is refused. Absent: allowed, and `check` warns when a TP "
                    "or EP group straddles"),
      custom_key<S>("overlap", opt, "a map with the `strategy.overlap.*` keys", "which communication overlaps compute"),
  };
}

std::vector<KeyEntry<OverlapSpec>> overlap_entries() {
  using O = OverlapSpec;
  const Need opt = Need::kOptional;
  return {
      bool_key<O>("dp_grad_reduce", &O::dp_grad_reduce, opt, "gradient reduction in buckets overlaps backward"),
      bool_key<O>("zero_param_gather", &O::zero_param_gather, opt, "ZeRO parameter all-gather prefetched, overlapping compute"),
      bool_key<O>("tp_comm", &O::tp_comm, opt, "TP collectives overlap GEMMs (comm/GEMM overlap kernels)"),
      bool_key<O>("pp_comm", &O::pp_comm, opt, "PP sends/receives overlap compute"),
      bool_key<O>("ep_comm", &O::ep_comm, opt,
                  "Megatron-Core's combined 1F1B (`--overlap-moe-expert-parallel-comm`): each forward merged with "
                  "the next backward layer by layer, one micro-batch's EP all-to-alls beside the other's compute; "
                  "needs ep > 1, no full recompute, zero_stage below 3, and schedule 1f1b with pp 1 or interleaved "
                  "with virtual_stages >= 2 (whose warm-up then runs one more forward)"),
      bool_key<O>("tp_grad_reduce", &O::tp_grad_reduce, opt,
                  "a column-parallel layer's weight-gradient GEMM runs beside the TP reduction of its input gradient "
                  "(Megatron's asynchronous TP all-reduce); false: it waits for it (Megatron-LM of 2021)"),
  };
}

std::vector<KeyEntry<DropoutSpec>> dropout_entries() {
  using D = DropoutSpec;
  const Need opt = Need::kOptional;
  return {
      number_key<D>("attention", &D::attention, opt, fraction_below_one(),
                    "probability (Megatron-LM `--attention-dropout`), inside fused attention or as a kernel"),
      number_key<D>("hidden", &D::hidden, opt, fraction_below_one(),
                    "probability (`--hidden-dropout`) on the attention and MLP outputs before their residual add"),
  };
}

std::vector<KeyEntry<Fp8Spec>> fp8_entries() {
  const Need opt = Need::kOptional;
  return {
      enum_key<Fp8Spec>("recipe", &Fp8Spec::recipe, opt, fp8_recipe_names(),
                        "delayed (default for fp8: one read per cast, amax history), current (fp8: an amax pass, "
                        "then the cast), mxfp8 (the only one, and the default, for precision mxfp8)"),
      bool_key<Fp8Spec>("param_gather", &Fp8Spec::param_gather, opt,
                        "Megatron `--fp8-param-gather`: FP8 weights (1 byte) all-gathered in FP8 by the distributed "
                        "optimizer, cast once after its step"),
  };
}

std::vector<KeyEntry<MoeRouting>> moe_routing_entries() {
  using M = MoeRouting;
  const Need opt = Need::kOptional;
  return {
      number_key<M>("imbalance", &M::imbalance, opt, expert_imbalance_range(),
                    "routed rows of the busiest expert-parallel rank over an even share (1: balanced); the "
                    "all-to-alls make every rank wait for it, so every rank is given its load"),
      number_key<M>("capacity_factor", &M::capacity_factor, opt, capacity_factor_range(),
                    "Megatron `--moe-expert-capacity-factor`: an expert accepts at most this many even shares and "
                    "drops the rest; absent: dropless"),
      bool_key<M>("pad_to_capacity", &M::pad_to_capacity, opt,
                  "`--moe-pad-expert-input-to-capacity`: every expert runs exactly its capacity (needs "
                  "capacity_factor; static shapes, so the dispatcher needs no host synchronisation)"),
      enum_key<M>("dispatcher", &M::dispatcher, opt, moe_dispatcher_names(),
                  "`--moe-token-dispatcher-type`: alltoall sorts the received chunks into expert order (and back) "
                  "when a rank holds several experts, a second pass over the routed tokens each way; flex "
                  "(DeepEP / HybridEP) orders them in its one local permutation"),
      enum_key<M>("router_dtype", &M::router_dtype, opt, moe_router_dtype_names(),
                  "`--moe-router-dtype`: activation (the default: the router GEMMs in the activations' "
                  "precision) or fp32 (fp32 logits: the backward's two router GEMMs run as TF32 on fp32 "
                  "operands, with the router input cast to fp32 and its gradient cast back)"),
      bool_key<M>("force_balance", &M::force_balance, opt,
                  "`--moe-router-force-load-balancing`: the router's logits replaced by random ones (two kernels "
                  "per MoE layer forward); the load itself is `imbalance`"),
      bool_key<M>("aux_loss", &M::aux_loss, opt,
                  "`--moe-router-load-balancing-type aux_loss` (with `--moe-router-fusion`): the auxiliary loss's "
                  "kernels, four per MoE layer forward and four per backward"),
  };
}

}  // namespace

const KeyTable<Fp8Spec>& fp8_keys() {
  static const KeyTable<Fp8Spec> table(fp8_entries());
  return table;
}

const KeyTable<MoeRouting>& moe_routing_keys() {
  static const KeyTable<MoeRouting> table(moe_routing_entries());
  return table;
}

const KeyTable<RunSpec>& run_keys() {
  static const KeyTable<RunSpec> table(run_entries());
  return table;
}

const KeyTable<StrategySpec>& strategy_keys() {
  static const KeyTable<StrategySpec> table(strategy_entries());
  return table;
}

const KeyTable<OverlapSpec>& overlap_keys() {
  static const KeyTable<OverlapSpec> table(overlap_entries());
  return table;
}

const KeyTable<DropoutSpec>& dropout_keys() {
  static const KeyTable<DropoutSpec> table(dropout_entries());
  return table;
}

}  // namespace trainsim
