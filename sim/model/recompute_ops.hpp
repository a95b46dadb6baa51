// Which forward kernels selective recompute re-runs before a block's backward (Megatron-Core
// `--recompute-granularity selective --recompute-modules ...`, RecomputeModules in
// sim/config/run_spec.hpp). The kernels are picked by name out of the block's own forward, so the
// work re-run is exactly the work the forward did:
//   core_attn  attention: unfused attention's attn_scores, attn_softmax, attn_dropout, attn_context
//              (fused attention has none: its backward kernel recomputes the scores itself);
//   layernorm  MoE block: moe_norm; MLA's attention: its input norm attn_norm, a TENorm of its own before
//              the two down-projections (Megatron-Core fuses the other norms into the Linear that follows
//              them, TELayerNormColumnParallelLinear, and recomputes only unfused ones);
//   moe_act    MoE block: the experts' activation and, in 8-bit runs, the quantization of its output
//              (fc2's input);
//   mlp        dense MLP block: every kernel but the residual add (with its dropout), which sits
//              outside Megatron-Core's MLP module;
//   mla_up_proj  MLA's attention: the latent norms (fused into the up-projections), the up-projections and
//              the rotary kernels, i.e. Megatron-Core's qkv_up_proj_and_rope_apply under CheckpointWithoutOutput
//              (megatron/core/transformer/multi_latent_attention.py, recompute_up_proj), whose query, key
//              and value are freed once core attention has run. Under SP the gather inside the fused
//              norm-and-Linear would run again too; that re-gather is not modelled.
// Sources: NVIDIA/Megatron-LM megatron/core/transformer/transformer_config.py (recompute_modules and
// its documentation) and transformer_layer.py (recompute_input_layernorm / recompute_pre_mlp_layernorm
// apply only when the norm is not an IdentityOp, i.e. not fused into the next Linear).
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"

namespace trainsim {

enum class LayerBlock { kAttention, kMlp, kMoe };

// `model` says which norms are unfused (MLA's input norm).
[[nodiscard]] bool selectively_recomputed(const std::string& kernel, LayerBlock block, const RecomputeModules& m,
                                          const ModelSpec& model);

}  // namespace trainsim
