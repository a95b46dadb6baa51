// The design of experiments `trainsim fit` replays: strategies drawn at random (seeded, so the same
// seed gives the same runs) over degrees (tp, pp, dp, cp, ep), micro-batch and micro-batch count,
// schedule and virtual stages, ZeRO stage, recompute, sequence parallelism and the overlap switches,
// for a dense model (Llama 2 7B) and an MoE model (Mixtral 8x7B) cut to 8 layers on 1 or 2 nodes so
// that a replay takes about a second, and (every fourth pair) cut to 4 layers on 4 or 8 nodes, where
// DP, EP and CP groups cross nodes; on one platform. Each point is a bundled run plus --set overrides; only
// points that pass the run's own checks (loading, schedule, mesh) are kept. Memory is not checked:
// the formulas are fitted for time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace trainsim {

struct DesignPoint {
  std::string base;                 // path of the bundled run it modifies
  std::vector<std::string> sets;    // "key=value" overrides
  bool moe = false;
  [[nodiscard]] std::string label() const;  // the overrides joined, for printing
};

// `samples` points alternating dense and MoE; of each 8, the last 2 are large. Throws UserError when the platform cannot host them.
[[nodiscard]] std::vector<DesignPoint> sample_design(const std::string& platform, int samples, uint64_t seed);

}  // namespace trainsim
