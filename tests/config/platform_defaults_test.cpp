// A platform's left-out keys and the defaults they took (PlatformSpec::defaulted), which `check`
// states because an efficiency of 1 or an overhead of 0 is an optimistic assumption.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
std::vector<std::string> texts(const PlatformSpec& p) {
  std::vector<std::string> out;
  for (const auto& d : p.defaulted) out.push_back(d.key + " = " + d.value);
  return out;
}
}  // namespace

TEST_CASE("a platform lists every applicable key it left out, with the default it took", "[config]") {
  // tiny-cluster gives every accelerator key but gemm_wave_quantization, gemm_k_overhead,
  // attention_backward_efficiency (0: the forward's), attention_k_overhead, dropout_rng_rate and
  // overlap_comm_slowdown; its nvswitch tier leaves out planes and efficiency
  // (devices_per_nic, switch_radix and oversubscription mean nothing on a switch), its rail tier
  // in_network_reduction and efficiency. Defaults from AcceleratorSpec and TierSpec.
  const PlatformSpec p = load_platform((fixture_data() / "platforms/tiny-cluster.yaml").string());
  CHECK(texts(p) == std::vector<std::string>{
                        "accelerator.gemm_wave_quantization = true", "accelerator.gemm_k_overhead = 0",
                        "accelerator.attention_backward_efficiency = 0", "accelerator.attention_k_overhead = 0", "accelerator.dropout_rng_rate = 0",
                        "accelerator.overlap_comm_slowdown = 1",
                        "tiers.0.planes = 1", "tiers.0.efficiency = 1", "tiers.1.in_network_reduction = false",
                        "tiers.1.efficiency = 1"});
}

TEST_CASE("a minimal platform reports the optimistic defaults, not keys its topology ignores", "[config]") {
  // mesh-box gives only name, peaks, memory and its one full_mesh tier's required keys and domain_size.
  const PlatformSpec p = load_platform((fixture_data() / "platforms/mesh-box.yaml").string());
  const std::vector<std::string> t = texts(p);
  auto has = [&](const std::string& s) { return std::find(t.begin(), t.end(), s) != t.end(); };
  CHECK(has("accelerator.kernel_overhead = 0s"));
  CHECK(has("accelerator.gemm_efficiency = 0.8"));
  CHECK(has("accelerator.comm_interference = 0"));
  CHECK(has("accelerator.overlap_comm_slowdown = 1"));
  CHECK(has("tiers.0.efficiency = 1"));
  CHECK(has("tiers.0.planes = 1"));
  CHECK(t.size() == 14 + 2);  // the 14 optional accelerator keys; the tier's planes and efficiency
  for (const char* ignored : {"switch_radix", "oversubscription", "devices_per_nic", "in_network_reduction",
                                     "link_bandwidth"}) {
    INFO(ignored);
    CHECK(std::none_of(t.begin(), t.end(), [&](const std::string& s) { return s.find(ignored) != std::string::npos; }));
  }
}
