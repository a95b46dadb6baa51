#include "sim/config/run_writer.hpp"

#include <cstdio>
#include <sstream>

#include "sim/config/enum_names.hpp"

namespace trainsim {
namespace {

template <typename E>
const char* name_in(const EnumNames<E>& names, E value) {
  for (const auto& entry : names)
    if (entry.second == value) return entry.first;
  return "?";
}

std::string exact_bytes(double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17gB", bytes);
  return buf;
}

std::string exact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A string as a double-quoted YAML scalar (backslashes and quotes escaped).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* yes_no(bool b) { return b ? "true" : "false"; }

// The whole framework as a map of its own keys (no base), so the run stands alone.
void write_framework(std::ostream& out, const FrameworkSpec& f) {
  if (f.name == "none") return;
  const HostCosts& h = f.host;
  const FrameworkMemory& m = f.memory;
  out << "framework:\n  name: " << quoted(f.name) << "\n  host: {launch: " << exact(h.launch)
      << "s, library_launch: " << exact(h.library_launch) << "s, pass: " << exact(h.pass) << "s, pipeline_instruction: " << exact(h.pipeline_instruction)
      << "s, launch_blocking: " << yes_no(h.launch_blocking) << ", cuda_graphs: " << yes_no(h.cuda_graphs)
      << "}\n  partition: " << to_string(f.partition) << "\n  memory: {context: " << exact_bytes(m.context)
      << ", workspace: " << exact_bytes(m.workspace) << ", allocator_reserve: " << exact(m.allocator_reserve)
      << ", fp32_grad_partition: " << yes_no(m.fp32_grad_partition)
      << ", keeps_stage_outputs: " << yes_no(m.keeps_stage_outputs) << "}\n  moe: {dispatch_sync: "
      << yes_no(f.moe.dispatch_sync) << ", grouped_gemm: " << name_in(grouped_gemm_names(), f.moe.per_expert_gemms)
      << ", expert_bias: " << name_in(expert_bias_names(), f.moe.per_expert_bias)
      << ", glu_clamp: " << name_in(glu_clamp_names(), f.moe.separate_glu_clamp)
      << "}\n  yarn_rope: " << name_in(yarn_rope_names(), f.eager_yarn_rope)
      << "\n  async_tp_grad_reduce: " << yes_no(f.async_tp_grad_reduce)
      << "\n  softmax_fusion: " << name_in(softmax_fusion_names(), f.softmax_fusion) << "\n";
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
      << "  tp: " << s.tp << "\n  pp: " << s.pp << "\n  dp: " << s.dp << "\n  cp: " << s.cp << "\n  ep: " << s.ep
      << "\n  sequence_parallel: " << yes_no(s.sequence_parallel) << "\n  schedule: " << quoted(s.schedule)
      << "\n  virtual_stages: " << s.virtual_stages << "\n  first_stage_layers: " << s.first_stage_layers
      << "\n  last_stage_layers: " << s.last_stage_layers << stage_layers_line(s.stage_layers)
      << "\n  account_for_embedding: " << yes_no(s.account_for_embedding)
      << "\n  account_for_loss: " << yes_no(s.account_for_loss)
      << "\n  zero_stage: " << s.zero_stage
      << "\n  recompute: " << recompute_name(s.recompute) << recompute_modules_line(s) << "\n  recompute_layers: " << s.recompute_layers
      << "\n  offload: " << offload_name(s.offload)
      << "\n  optimizer_state: " << name_in(optimizer_state_names(), s.optimizer_state) << "\n  grad_bucket_size: " << exact_bytes(s.grad_bucket_size)
      << "\n  grad_precision: " << name_in(grad_precision_names(), s.grad_precision)
      << "\n  grad_accumulation_fusion: " << yes_no(s.grad_accumulation_fusion)
      << "\n  grad_nan_check: " << yes_no(s.grad_nan_check) << "\n  grad_scale_kernel: " << yes_no(s.grad_scale_kernel)
      << "\n  defer_output_wgrad: " << s.defer_output_wgrad
      << "\n  mesh_order: " << quoted(s.mesh_order) << keep_in_domain_line(s.keep_in_domain) << "\n  overlap: {dp_grad_reduce: "
      << yes_no(s.overlap.dp_grad_reduce) << ", zero_param_gather: " << yes_no(s.overlap.zero_param_gather)
      << ", tp_comm: " << yes_no(s.overlap.tp_comm) << ", pp_comm: " << yes_no(s.overlap.pp_comm)
      << ", ep_comm: " << yes_no(s.overlap.ep_comm) << ", tp_grad_reduce: " << yes_no(s.overlap.tp_grad_reduce) << "}\n";
}

}  // namespace

const char* recompute_name(Recompute r) { return name_in(recompute_names(), r); }
std::string recompute_module_list(const RecomputeModules& m) {
  std::string list;
  for (const auto& [name, member] : recompute_module_names())
    if (m.*member) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}
const char* offload_name(Offload o) { return name_in(offload_names(), o); }

// The fp8 map of an 8-bit run.
void write_fp8(std::ostream& out, const RunSpec& run) {
  if (!is_fp8(run.precision)) return;
  out << "fp8: {recipe: " << name_in(fp8_recipe_names(), run.fp8.recipe)
      << ", param_gather: " << yes_no(run.fp8.param_gather) << "}\n";
}

// The moe routing map, when the run sets one.
void write_moe_routing(std::ostream& out, const MoeRouting& m) {
  if (m.imbalance == 1 && m.capacity_factor <= 0 && m.dispatcher == MoeDispatcher::kAllToAll &&
      m.router_dtype == MoeRouterDtype::kActivation && !m.force_balance && !m.aux_loss)
    return;
  out << "moe: {imbalance: " << exact(m.imbalance);
  if (m.capacity_factor > 0)
    out << ", capacity_factor: " << exact(m.capacity_factor) << ", pad_to_capacity: " << yes_no(m.pad_to_capacity);
  out << ", dispatcher: " << name_in(moe_dispatcher_names(), m.dispatcher)
      << ", router_dtype: " << name_in(moe_router_dtype_names(), m.router_dtype)
      << ", force_balance: " << yes_no(m.force_balance) << ", aux_loss: " << yes_no(m.aux_loss) << "}\n";
}

std::string run_yaml(const RunSpec& run, const RunReferencesText& refs, const std::string& comment) {
  std::ostringstream out;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  out << "name: " << quoted(run.name) << "\n";
  if (!run.description.empty()) out << "description: " << quoted(run.description) << "\n";
  out << "model: " << quoted(refs.model) << "\nplatform: " << quoted(refs.platform) << "\ndevices: " << run.devices
      << "\nprecision: " << to_string(run.precision) << "\nseq_len: " << run.seq_len
      << "\nglobal_batch: " << run.global_batch << "\nmicro_batch: " << run.micro_batch << "\n";
  write_strategy(out, run.strategy);
  if (!run.collectives.empty()) {
    out << "collectives:\n";
    for (const auto& [dim, algorithm] : run.collectives) out << "  " << dim << ": " << quoted(algorithm) << "\n";
  }
  write_framework(out, run.framework);
  out << "framework_overhead: " << exact_bytes(run.framework_overhead)
      << "\nflash_attention: " << yes_no(run.flash_attention)
      << "\ncross_entropy: " << name_in(cross_entropy_names(), run.cross_entropy) << "\n";
  if (run.dropout.any())
    out << "dropout: {attention: " << exact(run.dropout.attention) << ", hidden: " << exact(run.dropout.hidden) << "}\n";
  write_fp8(out, run);
  write_moe_routing(out, run.moe);
  return out.str();
}

}  // namespace trainsim
