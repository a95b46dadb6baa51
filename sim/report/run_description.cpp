#include "sim/report/run_description.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "sim/config/run_writer.hpp"
#include "sim/core/error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/model/model_flops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"
#include "sim/model/softmax_fusion.hpp"
#include "sim/report/metrics.hpp"

namespace trainsim {
namespace {

std::string fmt(const char* f, double v) { return format_with(f, v); }

}  // namespace

void describe_framework(std::ostream& out, const FrameworkSpec& f, double host_slowdown) {
  if (f.name == "none") return;
  const HostCosts& h = f.host;
  out << "framework  " << f.name << ": host " << fmt("%g", h.launch * 1e6) << " us per launch"
      << (h.library_launch > 0 ? " (" + fmt("%g", h.library_launch * 1e6) + " us per library launch)" : "") << ", "
      << fmt("%g", h.pass * 1e3) << " ms per pass, " << fmt("%g", h.pipeline_instruction * 1e3)
      << " ms per pipeline instruction, launches "
      << (h.launch_blocking ? "blocking (no stream overlaps another; overlap switches off)" : "asynchronous")
      << (h.cuda_graphs ? ", CUDA graphs" : "")
      << (host_slowdown != 1 ? "; host costs x" + fmt("%g", host_slowdown) + " on this platform's host" : "")
      << "; stages split " << to_string(f.partition) << "; memory "
      << human_bytes(f.memory.context + f.memory.workspace) << " context + workspace, allocator reserve "
      << fmt("%g", 100 * f.memory.allocator_reserve) << "%"
      << (f.memory.fp32_grad_partition ? ", fp32 gradient shard" : "")
      << (f.memory.keeps_stage_outputs ? ", stage outputs kept" : "") << "\n";
}

std::string human_bytes(Bytes b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (b >= 1024 && i < 4) {
    b /= 1024;
    ++i;
  }
  return fmt("%.1f ", b) + units[i];
}

void describe_uncalibrated(std::ostream& out, const PlatformSpec& p) {
  if (p.uncalibrated.empty()) return;
  out << "uncalibrated " << p.uncalibrated.size() << " platform parameter(s) no measurement supports (estimates, not fits):";
  for (size_t i = 0; i < p.uncalibrated.size(); ++i) {
    out << (i % 3 == 0 ? "\n             " : ", ") << p.uncalibrated[i].key << " = " << p.uncalibrated[i].value;
  }
  out << "\n";
}

void describe_defaults(std::ostream& out, const PlatformSpec& p) {
  if (p.defaulted.empty()) return;
  out << "defaults   " << p.defaulted.size() << " platform key(s) not in the file took their defaults:";
  for (size_t i = 0; i < p.defaulted.size(); ++i) {
    out << (i % 3 == 0 ? "\n             " : ", ") << p.defaulted[i].key << " = " << p.defaulted[i].value;
  }
  out << "\n";
}

void describe_shared_nics(std::ostream& out, const PlatformSpec& p) {
  for (size_t t = 0; t < p.tiers.size(); ++t) {
    const TierSpec& tier = p.tiers[t];
    const bool switched = tier.topology == Topology::kFatTree || tier.topology == Topology::kRailOptimized;
    if (!switched || tier.devices_per_nic <= 1) continue;
    const double per_nic = tier.bandwidth * tier.devices_per_nic * tier.planes;
    out << "nic        '" << tier.name << "' (tiers." << t << "): " << tier.devices_per_nic
        << " devices share each NIC; bandwidth is per device: " << fmt("%g", tier.bandwidth * 8 / 1e9) << " Gb/s x "
        << tier.devices_per_nic << " devices";
    if (tier.planes > 1) out << " x " << tier.planes << " planes";
    out << " = " << fmt("%g", per_nic * 8 / 1e9) << " Gb/s (" << fmt("%g", per_nic / 1e9) << " GB/s) per NIC\n";
  }
}

void describe_run(std::ostream& out, const RunSpec& run) {
  const auto& m = run.model;
  const auto& s = run.strategy;
  const auto& acc = run.platform.accelerator;
  const double params = static_cast<double>(count_params(m).total());
  out << "run        " << run.name << "  (" << run.source_file << ")\n";
  out << "model      " << m.name << ": " << fmt("%.2f", params / 1e9) << " B parameters, " << m.layers
      << " layers, hidden " << m.hidden << ", heads " << m.heads;
  if (m.is_mla())
    out << " (latent attention: q " << m.mla.q_lora_rank << ", kv " << m.mla.kv_lora_rank << ")";
  else
    out << " (kv " << m.kv_heads << ")";
  if (m.is_moe()) out << ", " << m.moe.experts << " experts top-" << m.moe.top_k;
  if (m.mtp_layers > 0) out << ", " << m.mtp_layers << " MTP layer" << (m.mtp_layers > 1 ? "s" : "");
  out << "\n";
  for (const std::string& note : m.notes) out << "imported   not expressible, taken as noted: " << note << "\n";
  out << "platform   " << run.platform.name << ": " << run.devices << " x " << acc.name << ", "
      << human_bytes(acc.memory_capacity) << " HBM each\n";
  describe_uncalibrated(out, run.platform);
  describe_defaults(out, run.platform);
  describe_shared_nics(out, run.platform);
  out << "strategy   tp " << s.tp << " · pp " << s.pp << " · dp " << s.dp << " · cp " << s.cp << " · ep " << s.ep;
  if (s.folds_experts()) out << " (whole experts, expert tp 1)";
  out << "  | sp " << (s.sequence_parallel ? "on" : "off") << ", schedule " << s.schedule;
  if (s.virtual_stages > 1) out << " (v=" << s.virtual_stages << ")";
  out << ", zero " << s.zero_stage << ", recompute " << recompute_name(s.recompute);
  if (s.recompute == Recompute::kSelective) out << " [" << recompute_module_list(s.recompute_modules) << "]";
  if (!s.grad_accumulation_fusion) out << ", unfused gradient accumulation";
  if (!s.overlap.tp_grad_reduce && s.tp > 1) out << ", weight gradients after the TP reduction";
  if (run.deferred_output_wgrads() > 0)
    out << ", output weight gradients of " << run.deferred_output_wgrads() << " micro-batches in the flush";
  if (s.grad_nan_check) out << ", gradient buckets' norms checked on the host";
  if (s.grad_scale_kernel) out << ", gradient buckets scaled by 1/dp";
  out << "\n";
  out << "batch      " << run.global_batch << " sequences x " << run.seq_len << " tokens, micro-batch "
      << run.micro_batch << " → " << run.microbatches() << " micro-batches per pipeline, " << to_string(run.precision);
  if (!run.flash_attention) {
    const Shard sh = shard_of(run);
    const int64_t heads = local_heads(m, sh);
    out << ", unfused attention";
    if (!fused_softmax_runs(m, sh))
      out << " with PyTorch's fp32 softmax (" << run.framework.name << "'s fused-softmax rule does not take "
          << sh.micro_batch << " x " << heads << " heads x " << sh.seq << " x " << sh.context << " scores)";
  }
  if (run.dropout.any())
    out << ", dropout " << fmt("%g", run.dropout.attention) << " (attention) / " << fmt("%g", run.dropout.hidden)
        << " (hidden)";
  out << "\n";
  describe_framework(out, run.framework, run.platform.host_slowdown);
  out << "FLOPs      " << fmt("%.4g", model_flops(m, run.global_batch, run.seq_len)) << " model FLOP per iteration ("
      << fmt("%.4g", narayanan_flops(run)) << " counting recompute, Narayanan et al. eq. 3)\n";
}

void describe_memory(std::ostream& out, const RunSpec& run, const std::vector<DeviceMemory>& stages) {
  // Each column is as wide as its header or its widest value, so that a what-if of 1,000 GiB and
  // more stays aligned; the minimum widths are the fixed ones this table had (comm to 99.9 GiB).
  const double g = 1073741824.0, capacity = run.platform.accelerator.memory_capacity;
  const std::vector<std::string> header = {"stage", "weights", "grads", "optim", "activ", "comm", "frame", "total"};
  std::vector<size_t> width = {5, 7, 5, 5, 5, 4, 5, 6};
  std::vector<std::vector<std::string>> rows;
  for (const auto& d : stages) {
    rows.push_back({std::to_string(d.stage), fmt("%.1f", d.weights / g), fmt("%.1f", d.gradients / g),
                    fmt("%.1f", d.optimizer / g), fmt("%.1f", d.activations / g), fmt("%.1f", d.comm_buffers / g),
                    fmt("%.1f", d.framework / g), fmt("%.1f", d.total() / g)});
    for (size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], rows.back()[c].size());
  }
  const auto line = [&width](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) text += (c == 0 ? "" : "  ") + std::string(width[c] - cells[c].size(), ' ') + cells[c];
    return text;
  };
  const std::string indent(26, ' ');
  out << "memory per device (GiB)   " << line(header) << "  of " << fmt("%.1f", capacity / g) << "\n";
  for (size_t i = 0; i < rows.size(); ++i)
    out << indent << line(rows[i]) << (stages[i].total() > capacity ? "  OUT OF MEMORY" : "") << "\n";
}

namespace {

// What would shrink the largest part of a device's memory.
std::string memory_advice(const DeviceMemory& d) {
  const Bytes state = std::max({d.weights, d.gradients, d.optimizer});
  const Bytes largest = std::max({state, d.activations, d.comm_buffers, d.framework});
  if (largest == d.comm_buffers) return "a smaller strategy.grad_bucket_size (the communication buffers are the largest part)";
  if (largest == d.framework) return "a smaller framework_overhead (the framework's memory is the largest part)";
  if (largest == d.activations) return "recompute: full, a smaller micro_batch or more tp/pp/cp";
  return "a higher zero_stage or more tp/pp";
}

}  // namespace

void require_fits(const RunSpec& run, const std::vector<DeviceMemory>& stages) {
  const DeviceMemory& worst = peak_memory(stages);
  const Bytes cap = run.platform.accelerator.memory_capacity;
  if (worst.total() <= cap) return;
  throw StrategyError(run.source_file + ": strategy does not fit in memory: stage " + std::to_string(worst.stage) +
                      " needs " + human_bytes(worst.total()) + " per device (weights " + human_bytes(worst.weights) +
                      ", gradients " + human_bytes(worst.gradients) + ", optimizer " + human_bytes(worst.optimizer) +
                      ", activations " + human_bytes(worst.activations) + ", communication buffers " +
                      human_bytes(worst.comm_buffers) + ", framework " + human_bytes(worst.framework) + ") but " +
                      run.platform.accelerator.name + " has " + human_bytes(cap) + "; try " + memory_advice(worst) +
                      " (or --allow-oom to simulate anyway)");
}

}  // namespace trainsim
