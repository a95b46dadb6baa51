#include "sim/config/run_writer.hpp"

#include <sstream>

#include "sim/config/enum_names.hpp"
#include "sim/config/yaml_scalars.hpp"

namespace trainsim {
namespace {

std::string exact_bytes(double bytes) { return yaml_exact(bytes) + "B"; }

// The whole framework as a map of its own keys (no base), so the run stands alone.
void write_framework(std::ostream& out, const FrameworkSpec& f) {
  if (f.name == "none") return;
  const HostCosts& h = f.host;
  const FrameworkMemory& m = f.memory;
  out << "framework:\n  name: " << yaml_quoted(f.name) << "\n  host: {launch: " << yaml_exact(h.launch)
      << "s, library_launch: " << yaml_exact(h.library_launch) << "s, pass: " << yaml_exact(h.pass) << "s, pipeline_instruction: " << yaml_exact(h.pipeline_instruction)
      << "s, launch_blocking: " << yaml_bool(h.launch_blocking) << ", cuda_graphs: " << yaml_bool(h.cuda_graphs)
      << "}\n  partition: " << to_string(f.partition) << "\n  memory: {context: " << exact_bytes(m.context)
      << ", workspace: " << exact_bytes(m.workspace) << ", allocator_reserve: " << yaml_exact(m.allocator_reserve)
      << ", fp32_grad_partition: " << yaml_bool(m.fp32_grad_partition)
      << ", keeps_stage_outputs: " << yaml_bool(m.keeps_stage_outputs) << "}\n  moe: {dispatch_sync: "
      << yaml_bool(f.moe.dispatch_sync) << ", grouped_gemm: " << yaml_name(grouped_gemm_names(), f.moe.per_expert_gemms)
      << ", expert_bias: " << yaml_name(expert_bias_names(), f.moe.per_expert_bias)
      << ", glu_clamp: " << yaml_name(glu_clamp_names(), f.moe.separate_glu_clamp)
      << "}\n  yarn_rope: " << yaml_name(yarn_rope_names(), f.eager_yarn_rope)
      << "\n  async_tp_grad_reduce: " << yaml_bool(f.async_tp_grad_reduce)
      << "\n  softmax_fusion: " << yaml_name(softmax_fusion_names(), f.softmax_fusion) << "\n";
}

std::string stage_layers_line(const std::vector<int>& layers) {
  if (layers.empty()) return "";
  std::string line = "\n  stage_layers: [";
  for (size_t i = 0; i < layers.size(); ++i) line += (i ? ", " : "") + std::to_string(layers[i]);
  return line + "]";
}

std::string keep_in_domain_line(const std::vector<std::string>& dims) {
  if (dims.empty()) return "";
  std::string line = "\n  keep_in_domain: [";
  for (size_t i = 0; i < dims.size(); ++i) line += (i ? ", " : "") + dims[i];
  return line + "]";
}

std::string recompute_modules_line(const StrategySpec& s) {
  if (s.recompute != Recompute::kSelective) return "";
  return "\n  recompute_modules: [" + recompute_module_list(s.recompute_modules) + "]";
}

void write_strategy(std::ostream& out, const StrategySpec& s) {
  out << "strategy:\n"
      << "  tp: " << s.tp << "\n  pp: " << s.pp << "\n  dp: " << s.dp << "\n  cp: " << s.cp << "\n  ep: " << s.ep << "\n  expert_tp: " << s.expert_tp
      << "\n  sequence_parallel: " << yaml_bool(s.sequence_parallel) << "\n  schedule: " << yaml_quoted(s.schedule)
      << "\n  virtual_stages: " << s.virtual_stages << "\n  first_stage_layers: " << s.first_stage_layers
      << "\n  last_stage_layers: " << s.last_stage_layers << stage_layers_line(s.stage_layers)
      << "\n  account_for_embedding: " << yaml_bool(s.account_for_embedding)
      << "\n  account_for_loss: " << yaml_bool(s.account_for_loss)
      << (s.pipeline_layout.empty() ? "" : "\n  pipeline_layout: " + yaml_quoted(s.pipeline_layout))
      << "\n  zero_stage: " << s.zero_stage
      << "\n  recompute: " << recompute_name(s.recompute) << recompute_modules_line(s) << "\n  recompute_layers: " << s.recompute_layers
      << "\n  offload: " << offload_name(s.offload)
      << "\n  optimizer_state: " << yaml_name(optimizer_state_names(), s.optimizer_state) << "\n  grad_bucket_size: " << exact_bytes(s.grad_bucket_size)
      << "\n  grad_precision: " << yaml_name(grad_precision_names(), s.grad_precision)
      << "\n  grad_accumulation_fusion: " << yaml_bool(s.grad_accumulation_fusion)
      << "\n  grad_nan_check: " << yaml_bool(s.grad_nan_check) << "\n  grad_scale_kernel: " << yaml_bool(s.grad_scale_kernel)
      << "\n  defer_output_wgrad: " << s.defer_output_wgrad
      << "\n  mesh_order: " << yaml_quoted(s.mesh_order) << keep_in_domain_line(s.keep_in_domain) << "\n  overlap: {dp_grad_reduce: "
      << yaml_bool(s.overlap.dp_grad_reduce) << ", zero_param_gather: " << yaml_bool(s.overlap.zero_param_gather)
      << ", tp_comm: " << yaml_bool(s.overlap.tp_comm) << ", pp_comm: " << yaml_bool(s.overlap.pp_comm)
      << ", ep_comm: " << yaml_bool(s.overlap.ep_comm) << ", tp_grad_reduce: " << yaml_bool(s.overlap.tp_grad_reduce) << "}\n";
}

}  // namespace

const char* recompute_name(Recompute r) { return yaml_name(recompute_names(), r); }
std::string recompute_module_list(const RecomputeModules& m) {
  std::string list;
  for (const auto& [name, member] : recompute_module_names())
    if (m.*member) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}
const char* offload_name(Offload o) { return yaml_name(offload_names(), o); }

// The fp8 map of an 8-bit run.
void write_fp8(std::ostream& out, const RunSpec& run) {
  if (!is_fp8(run.precision)) return;
  out << "fp8: {recipe: " << yaml_name(fp8_recipe_names(), run.fp8.recipe)
      << ", param_gather: " << yaml_bool(run.fp8.param_gather) << "}\n";
}

// The moe routing map, when the run sets one.
void write_moe_routing(std::ostream& out, const MoeRouting& m) {
  if (m.imbalance == 1 && m.capacity_factor <= 0 && m.dispatcher == MoeDispatcher::kAllToAll &&
      m.router_dtype == MoeRouterDtype::kActivation && !m.force_balance && !m.aux_loss)
    return;
  out << "moe: {imbalance: " << yaml_exact(m.imbalance);
  if (m.capacity_factor > 0)
    out << ", capacity_factor: " << yaml_exact(m.capacity_factor) << ", pad_to_capacity: " << yaml_bool(m.pad_to_capacity);
  out << ", dispatcher: " << yaml_name(moe_dispatcher_names(), m.dispatcher)
      << ", router_dtype: " << yaml_name(moe_router_dtype_names(), m.router_dtype)
      << ", force_balance: " << yaml_bool(m.force_balance) << ", aux_loss: " << yaml_bool(m.aux_loss) << "}\n";
}

std::string run_yaml(const RunSpec& run, const RunReferencesText& refs, const std::string& comment) {
  std::ostringstream out;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  out << "name: " << yaml_quoted(run.name) << "\n";
  if (!run.description.empty()) out << "description: " << yaml_quoted(run.description) << "\n";
  out << "model: " << yaml_quoted(refs.model) << "\nplatform: " << yaml_quoted(refs.platform) << "\ndevices: " << run.devices
      << "\nprecision: " << to_string(run.precision) << "\nseq_len: " << run.seq_len
      << "\nglobal_batch: " << run.global_batch << "\nmicro_batch: " << run.micro_batch << "\n";
  write_strategy(out, run.strategy);
  if (!run.collectives.empty()) {
    out << "collectives:\n";
    for (const auto& [dim, algorithm] : run.collectives) out << "  " << dim << ": " << yaml_quoted(algorithm) << "\n";
  }
  write_framework(out, run.framework);
  out << "framework_overhead: " << exact_bytes(run.framework_overhead)
      << "\nflash_attention: " << yaml_bool(run.flash_attention)
      << "\ncross_entropy: " << yaml_name(cross_entropy_names(), run.cross_entropy) << "\n";
  if (run.dropout.any())
    out << "dropout: {attention: " << yaml_exact(run.dropout.attention) << ", hidden: " << yaml_exact(run.dropout.hidden) << "}\n";
  write_fp8(out, run);
  write_moe_routing(out, run.moe);
  return out.str();
}

}  // namespace trainsim
