// Plausible bounds on a model's size, checked when the model is loaded, before any count is
// computed: every later count (parameters, bytes, FLOPs) is then far from overflowing its type.
// Each bound is documented with its reason in docs/schema.md ("Model limits"). Internal to sim/config.
#pragma once
#include "sim/config/model_spec.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {

// check, the memory model and the replay all walk the layers one by one. 16,384 is 128 times the
// deepest bundled model (Megatron-LM 1T: 128 layers).
inline constexpr int kMaxLayers = 1 << 14;
// Routed (and shared) experts per MoE layer. PEER (He 2024, "Mixture of A Million Experts")
// uses 1024^2 = 1,048,576, the most published.
inline constexpr int kMaxExperts = 1 << 20;
// Parameters of the whole model: 10^15 is 600 times the largest published model (Switch-C,
// 1.6e12). Under it, parameter counts in int64 and their byte sizes (at most 20 bytes per
// parameter with Adam state and copies) stay below 2^63 ~ 9.2e18 with room to spare.
inline constexpr double kMaxModelParams = 1e15;

// Fails at the key of the largest term (hidden, ffn_hidden, moe.experts or vocab) when an upper
// bound of the parameter count exceeds kMaxModelParams. Call after defaults are applied.
void check_model_size(const MapReader& r, const ModelSpec& m);

}  // namespace trainsim
