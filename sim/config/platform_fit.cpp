#include "sim/config/platform_fit.hpp"

#include <vector>

#include "sim/core/text_list.hpp"

namespace trainsim {
namespace {

std::string str(long long v) { return std::to_string(v); }

}  // namespace

std::optional<RuleViolation> platform_fit_violation(const RunSpec& run) {
  const PlatformSpec& p = run.platform;
  if (p.max_devices > 0 && run.devices > p.max_devices)
    return RuleViolation{"devices", "more devices than platform '" + p.name + "' models", str(run.devices),
                         "an integer in 1.." + str(p.max_devices) + " (max_devices)"};
  const TierSpec& outer = p.tiers.back();
  if (outer.domain_size > 0 && run.devices > outer.domain_size)
    return RuleViolation{"devices", "more devices than the outermost tier '" + outer.name + "' joins",
                         str(run.devices), "an integer in 1.." + str(outer.domain_size) + " (its domain_size)"};
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
  return std::nullopt;
}

// 16 devices cannot fill nodes of 3 (the innermost tier is the node).
std::optional<RuleViolation> whole_nodes_violation(const RunSpec& run) {
  const PlatformSpec& p = run.platform;
  const TierSpec& node = p.tiers.front();
  if (node.domain_size > 0 && node.domain_size < run.devices && run.devices % node.domain_size != 0)
    return RuleViolation{"devices",
                         "is not a whole number of nodes: platform '" + p.name + "' joins " + str(node.domain_size) +
                             " devices per '" + node.name + "' domain (tiers.0.domain_size)",
                         str(run.devices),
                         "a multiple of " + str(node.domain_size) + ", or at most " + str(node.domain_size) + " devices"};
  return std::nullopt;
}

}  // namespace trainsim
