// Mixture-of-experts FFN block of one transformer layer, per device: norm, router GEMM
// (h × experts), softmax/top-k, permutation of tokens into expert order, the local experts as
// grouped GEMMs, un-permutation weighted by the router probabilities, shared experts as dense
// GEMMs, residual add. The EP all-to-alls (dispatch/combine) sit between permute and the expert
// GEMMs; the task-graph builder inserts them.
//
// Token counts (documented choice, Megatron-Core with expert tensor parallelism = tp):
//  * the router runs on the tokens of the non-TP region: b·s, or b·s/t under SP (each TP rank
//    routes its own sequence shard; without SP every TP rank routes all b·s redundantly);
//  * before dispatch the TP group's tokens are gathered, so the expert GEMMs of every TP rank see
//    all b·s tokens of its sequence with a 1/t slice of each expert's FFN width;
//  * the ep devices of an EP group hold ep·b·s tokens, each routed to top_k experts, spread over
//    `experts` experts: one expert receives b·s·top_k·ep/experts rows under even routing, and a
//    device's experts/ep experts receive b·s·top_k rows in all. The shard's expert_load r (the
//    run's routing: imbalance of the busiest rank, capacity and dropping, padding; RunSpec::
//    expert_load) scales that, so the executed rows per local expert are
//    ceil(r·b·s·top_k·ep/experts).
//  * with Shard::per_expert_gemms the grouped GEMMs are launched as one kernel per local expert
//    (Kernel::launches; Transformer Engine's GroupedLinear on Hopper);
//  * with Shard::separate_glu_clamp / per_expert_bias the framework's eager operations around the
//    experts (sim/model/expert_eager_ops.hpp) come before the activation / after fc2.
#pragma once
#include <string>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Rows one local expert's GEMMs process: ceil(r·b·s·top_k·ep / experts) (see above), b·s the tokens the
// device routes (expert_input_tokens: its sequence-parallel share with whole experts over tp ranks).
[[nodiscard]] int64_t tokens_per_local_expert(const ModelSpec& m, const Shard& sh);
// One routed expert's FFN width on this device: expert_ffn_hidden / etp.
[[nodiscard]] int64_t expert_width(const ModelSpec& m, const Shard& sh);

// Names: moe_norm, router, router_topk, moe_permute, moe_expert_fc1 / _act / _fc2 (grouped,
// GemmShape::batch = experts/ep), moe_unpermute, moe_shared_fc1 / _act / _fc2 (when shared
// experts exist), moe_residual; the router's kernels as router_ops.hpp names them.
// Whether GEMM `kernel_name` of an MoE block lies in the block's tensor-parallel region, the span its TP
// collectives bracket. With experts split over tp every GEMM does. With whole experts over the tp ranks
// (experts_fold_tp: `whole_experts`) only the shared experts' do: Megatron-Core builds SharedExpertMLP as a
// dense MLP over the tp group (megatron/core/transformer/moe/shared_experts.py at 0065cf8a, `tp_group=
// pg_collection.tp`), which gathers the sequence-parallel tokens before its fc1 and reduce-scatters after
// its fc2, while the router and the routed experts work on each rank's sequence-parallel share.
[[nodiscard]] bool moe_gemm_in_tp_region(const std::string& kernel_name, bool whole_experts);
// Whether an MoE block has TP collectives: tp > 1, with experts split over tp or with shared experts.
[[nodiscard]] bool moe_block_has_tp(const ModelSpec& m, const StrategySpec& s);

[[nodiscard]] std::vector<Kernel> moe_forward(const ModelSpec& m, const Shard& sh);
[[nodiscard]] std::vector<Kernel> moe_backward(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
