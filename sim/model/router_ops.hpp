// The router of one MoE layer on one device (Megatron-Core's TopKRouter): the gate GEMM (h x experts
// over the tokens this device routes), the fused softmax and top-k, and what the run's router options
// add (RunSpec MoeRouting, carried by the Shard):
//  * router_fp32 (--moe-router-dtype fp32): the backward's two GEMMs as TF32 between casts (below);
//  * router_force_balance (--moe-router-force-load-balancing): the logits replaced by random ones
//    (moe_utils.RandomSTE: logits.clone().normal_()), two kernels over tokens x experts fp32 values in
//    the forward, none in the backward (a straight-through estimator);
//  * router_aux_loss (--moe-router-load-balancing-type aux_loss with --moe-router-fusion): the fused
//    kernels of Transformer Engine's router (fused_compute_score_for_moe_aux_loss, fused_moe_aux_loss),
//    the tokens per expert summed from the routing map, and the loss stored in the logging tracker;
//    backward, the scaler's gradient, both fused kernels' backwards and the add of the two gradients of
//    the logits (they feed the top-k and the loss). Sources: NVIDIA/Megatron-LM megatron/core/transformer/
//    moe/router.py and moe_utils.py (2025-26).
// Names: router, router_topk, router_random_logits, router_aux_scores, router_tokens_per_expert,
// router_aux_loss, router_aux_track, router_aux_scale, router_logits_grad_add, and the fp32 casts
// router_weight_cast.dgrad / .wgrad, router_grad_cast.dgrad, router_input_cast.wgrad.
#pragma once
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

[[nodiscard]] std::vector<Kernel> router_forward(const ModelSpec& m, const Shard& sh);
[[nodiscard]] std::vector<Kernel> router_backward(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
