// YAML spellings of the config enums, shared by the loaders. Internal to sim/config.
#pragma once
#include "sim/config/platform_spec.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {

inline const EnumNames<Precision>& precision_names() {
  static const EnumNames<Precision> names = {{"fp32", Precision::kFp32},
                                             {"tf32", Precision::kTf32},
                                             {"bf16", Precision::kBf16},
                                             {"fp16", Precision::kFp16},
                                             {"fp8", Precision::kFp8},
                                             {"mxfp8", Precision::kMxfp8}};
  return names;
}

inline const EnumNames<Fp8Recipe>& fp8_recipe_names() {
  static const EnumNames<Fp8Recipe> names = {
      {"delayed", Fp8Recipe::kDelayed}, {"current", Fp8Recipe::kCurrent}, {"mxfp8", Fp8Recipe::kMxfp8}};
  return names;
}

inline const EnumNames<Topology>& topology_names() {
  static const EnumNames<Topology> names = {{"nvswitch", Topology::kNvswitch},
                                            {"full_mesh", Topology::kFullMesh},
                                            {"fat_tree", Topology::kFatTree},
                                            {"rail_optimized", Topology::kRailOptimized},
                                            {"clos", Topology::kClos}};
  return names;
}

inline const EnumNames<NormKind>& norm_names() {
  static const EnumNames<NormKind> names = {{"layernorm", NormKind::kLayerNorm}, {"rmsnorm", NormKind::kRmsNorm}};
  return names;
}

inline const EnumNames<PositionEmbedding>& position_embedding_names() {
  static const EnumNames<PositionEmbedding> names = {{"rope", PositionEmbedding::kRope},
                                                     {"learned", PositionEmbedding::kLearned},
                                                     {"alibi", PositionEmbedding::kAlibi},
                                                     {"yarn", PositionEmbedding::kYarn}};
  return names;
}

inline const EnumNames<Recompute>& recompute_names() {
  static const EnumNames<Recompute> names = {
      {"none", Recompute::kNone}, {"selective", Recompute::kSelective}, {"full", Recompute::kFull}};
  return names;
}

// strategy.recompute_modules: each module's name and its switch, in the order the writer lists them.
inline const std::vector<std::pair<const char*, bool RecomputeModules::*>>& recompute_module_names() {
  static const std::vector<std::pair<const char*, bool RecomputeModules::*>> names = {
      {"core_attn", &RecomputeModules::core_attn},
      {"layernorm", &RecomputeModules::layernorm},
      {"moe_act", &RecomputeModules::moe_act},
      {"mlp", &RecomputeModules::mlp},
      {"mla_up_proj", &RecomputeModules::mla_up_proj}};
  return names;
}

// strategy.grad_precision: a gradient precision, or "auto" (nullopt).
inline const EnumNames<std::optional<Precision>>& grad_precision_names() {
  static const EnumNames<std::optional<Precision>> names = {
      {"auto", std::nullopt}, {"fp32", Precision::kFp32}, {"bf16", Precision::kBf16}, {"fp16", Precision::kFp16}};
  return names;
}

// framework moe.grouped_gemm: FrameworkMoe::per_expert_gemms.
inline const EnumNames<bool>& grouped_gemm_names() {
  static const EnumNames<bool> names = {{"per_expert", true}, {"grouped", false}};
  return names;
}

// framework softmax_fusion: FrameworkSpec::softmax_fusion.
inline const EnumNames<SoftmaxFusion>& softmax_fusion_names() {
  static const EnumNames<SoftmaxFusion> names = {{"always", SoftmaxFusion::kAlways},
                                                 {"megatron", SoftmaxFusion::kMegatron},
                                                 {"megatron_deepspeed_2022", SoftmaxFusion::kMegatronDeepSpeed2022}};
  return names;
}

// framework yarn_rope: FrameworkSpec::eager_yarn_rope.
inline const EnumNames<bool>& yarn_rope_names() {
  static const EnumNames<bool> names = {{"eager", true}, {"fused", false}};
  return names;
}

// framework moe.expert_bias: FrameworkMoe::per_expert_bias.
inline const EnumNames<bool>& expert_bias_names() {
  static const EnumNames<bool> names = {{"per_expert", true}, {"fused", false}};
  return names;
}

// framework moe.glu_clamp: FrameworkMoe::separate_glu_clamp.
inline const EnumNames<bool>& glu_clamp_names() {
  static const EnumNames<bool> names = {{"separate", true}, {"fused", false}};
  return names;
}

inline const EnumNames<CrossEntropy>& cross_entropy_names() {
  static const EnumNames<CrossEntropy> names = {{"unfused", CrossEntropy::kUnfused}, {"te", CrossEntropy::kTe}};
  return names;
}

inline const EnumNames<MoeRouterDtype>& moe_router_dtype_names() {
  static const EnumNames<MoeRouterDtype> names = {{"activation", MoeRouterDtype::kActivation}, {"fp32", MoeRouterDtype::kFp32}};
  return names;
}

inline const EnumNames<MoeDispatcher>& moe_dispatcher_names() {
  static const EnumNames<MoeDispatcher> names = {{"alltoall", MoeDispatcher::kAllToAll}, {"flex", MoeDispatcher::kFlex}};
  return names;
}

inline const EnumNames<OptimizerState>& optimizer_state_names() {
  static const EnumNames<OptimizerState> names = {{"fp32", OptimizerState::kFp32},
                                                  {"fp32_remainder", OptimizerState::kFp32Remainder},
                                                  {"bf16", OptimizerState::kBf16}};
  return names;
}

inline const EnumNames<Offload>& offload_names() {
  static const EnumNames<Offload> names = {{"none", Offload::kNone}, {"optimizer", Offload::kOptimizer}};
  return names;
}

}  // namespace trainsim
