#include "sim/config/platform_fit.hpp"

#include <string>
#include <vector>

#include "sim/core/text_list.hpp"

namespace trainsim {
std::optional<RuleViolation> platform_fit_violation(const RunSpec& run) {
  const PlatformSpec& p = run.platform;
  if (p.max_devices > 0 && run.devices > p.max_devices)
    return RuleViolation{"devices", "more devices than platform '" + p.name + "' models", std::to_string(run.devices),
                         "an integer in 1.." + std::to_string(p.max_devices) + " (max_devices)"};
  const TierSpec& outer = p.tiers.back();
  if (outer.domain_size > 0 && run.devices > outer.domain_size)
    return RuleViolation{"devices", "more devices than the outermost tier '" + outer.name + "' joins",
                         std::to_string(run.devices), "an integer in 1.." + std::to_string(outer.domain_size) + " (its domain_size)"};
  const auto& peaks = p.accelerator.peak_flops;
  if (peaks.count(run.precision) == 0) {
    std::vector<std::string> have;
    for (const auto& entry : peaks) have.emplace_back(to_string(entry.first));
    return RuleViolation{"precision", "accelerator '" + p.accelerator.name + "' has no peak_flops entry for it",
                         to_string(run.precision), join_text(have)};
  }
  if (is_fp8(run.precision) && p.accelerator.fp8_gemm_efficiency <= 0)
    return RuleViolation{"precision",
                         "needs the fraction of its 8-bit peak accelerator '" + p.accelerator.name +
                             "' reaches on large GEMMs, and platform '" + p.name +
                             "' gives no accelerator.fp8_gemm_efficiency",
                         to_string(run.precision), "bf16, or add accelerator.fp8_gemm_efficiency to the platform"};
  if (is_fp8(run.precision) && peaks.count(Precision::kBf16) == 0 && peaks.count(Precision::kFp16) == 0)
    return RuleViolation{"precision",
                         "keeps attention, norms and the router in 16 bit, and accelerator '" + p.accelerator.name +
                             "' lists no bf16 or fp16 peak",
                         to_string(run.precision), "add a bf16 peak to the platform"};
  if (run.model.is_moe() && run.moe.router_dtype == MoeRouterDtype::kFp32 && peaks.count(Precision::kTf32) == 0 &&
      peaks.count(Precision::kFp32) == 0)
    return RuleViolation{"moe.router_dtype",
                         "runs the router's backward GEMMs on fp32 operands (TF32), and accelerator '" +
                             p.accelerator.name + "' lists no tf32 or fp32 peak",
                         "fp32", "activation, or add a tf32 (or fp32) peak to the platform"};
  if (run.strategy.offload == Offload::kOptimizer && !p.gives_host_side())
    return RuleViolation{"strategy.offload",
                         "moves gradients and weights between device and host and runs the optimizer in host memory, "
                         "and platform '" + p.name + "' gives no " +
                             (p.host_link_bandwidth <= 0 ? "host_link_bandwidth" : "host_memory_bandwidth") +
                             " to time that with",
                         "optimizer", "none, or add host_link_bandwidth and host_memory_bandwidth to the platform"};
  return std::nullopt;
}

// 16 devices cannot fill nodes of 3 (the innermost tier is the node), nor 392 devices whole
// 384-device supernodes: a run that spans more than one domain of a tier fills each of them, so
// that every domain of every tier is the one the platform file describes (a partial domain would
// silently take fewer NICs, leaves or switch ports than the file says). A run inside one domain
// (4 of a node's 8 devices) is a part of one machine and is fine.
std::optional<RuleViolation> whole_domains_violation(const RunSpec& run) {
  const PlatformSpec& p = run.platform;
  for (size_t t = 0; t < p.tiers.size(); ++t) {
    const TierSpec& tier = p.tiers[t];
    const int size = tier.domain_size;
    if (size == 0 || size >= run.devices || run.devices % size == 0) continue;
    const std::string key = "tiers." + std::to_string(t) + ".domain_size";
    const std::string domains = t == 0 ? "nodes ('" + tier.name + "' domains)" : "'" + tier.name + "' domains";
    return RuleViolation{"devices",
                         "is not a whole number of " + domains + ": platform '" + p.name + "' joins " +
                             std::to_string(size) + " devices per domain (" + key + "), so " + std::to_string(run.devices) +
                             " devices would leave the last one with " + std::to_string(run.devices % size),
                         std::to_string(run.devices),
                         "a multiple of " + std::to_string(size) + " (e.g. " + std::to_string(run.devices / size * size) + " or " +
                             std::to_string((run.devices / size + 1) * size) + "), or at most " + std::to_string(size) + " devices"};
  }
  return std::nullopt;
}

}  // namespace trainsim
