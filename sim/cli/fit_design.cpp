// Seeded sampling of valid strategies for `trainsim fit` (see fit_design.hpp).
#include "sim/cli/fit_design.hpp"

#include <random>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/strategy/enumerate.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {
namespace {

constexpr int kLayers = 8;       // layers every sampled model is cut to
constexpr int kLargeLayers = 4;  // layers of the larger points (4 and 8 nodes), to keep them cheap

class Draw {
 public:
  explicit Draw(uint64_t seed) : rng_(seed) {}
  int below(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool coin() { return below(2) == 1; }
  template <class T> const T& pick(const std::vector<T>& v) { return v[static_cast<size_t>(below(static_cast<int>(v.size())))]; }

 private:
  std::mt19937_64 rng_;
};

std::vector<int> divisors_of(int n, int cap) {
  std::vector<int> out;
  for (int d = 1; d <= n && d <= cap; ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

std::string flag(bool b) { return b ? "true" : "false"; }

// One candidate; may be invalid (the caller checks it). A large one spans 4 or 8 nodes with fewer
// layers: groups that cross nodes (DP, EP and CP over the NICs) at a replay cost like the others'.
DesignPoint candidate(Draw& draw, const std::string& platform, int node, bool moe, bool large) {
  DesignPoint p;
  p.moe = moe;
  p.base = (data_dir() / "workloads" / (moe ? "mixtral-8x7b-h100.yaml" : "default.yaml")).string();
  const int layers = large ? kLargeLayers : kLayers;
  const int devices = large ? draw.pick(std::vector<int>{4 * node, 8 * node}) : draw.pick(std::vector<int>{node, 2 * node});
  std::vector<ParallelDegrees> all;
  for (const ParallelDegrees& d : enumerate_degrees(devices, 32, node))
    if (layers % d.pp == 0 && d.cp <= 2) all.push_back(d);
  const ParallelDegrees d = draw.pick(all);
  const int mb = draw.pick(std::vector<int>{1, 2}), m = d.pp * draw.pick(std::vector<int>{1, 2, 4});
  const int ep = moe ? draw.pick(divisors_of(d.dp * d.cp, 8)) : 1;
  std::string schedule = "1f1b";
  int v = 1;
  if (d.pp > 1) schedule = draw.pick(std::vector<std::string>{"1f1b", "gpipe", "zb-h1", "interleaved"});
  if (schedule == "interleaved") v = layers % (2 * d.pp) == 0 ? 2 : 1;
  const int zero = d.dp * d.cp > 1 ? draw.below(4) : 0;
  auto set = [&](const std::string& k, const std::string& val) { p.sets.push_back(k + "=" + val); };
  set("platform", platform);
  set("model.layers", std::to_string(layers));
  set("devices", std::to_string(devices));
  set("seq_len", draw.coin() ? "4096" : "2048");
  set("micro_batch", std::to_string(mb));
  set("global_batch", std::to_string(d.dp * mb * m));
  for (auto [k, val] : {std::pair<const char*, int>{"tp", d.tp}, {"pp", d.pp}, {"dp", d.dp}, {"cp", d.cp}, {"ep", ep}})
    set(std::string("strategy.") + k, std::to_string(val));
  set("strategy.schedule", schedule);
  set("strategy.virtual_stages", std::to_string(v));
  set("strategy.zero_stage", std::to_string(zero));
  set("strategy.recompute", draw.pick(std::vector<std::string>{"none", "selective", "full"}));
  set("strategy.sequence_parallel", flag(d.tp > 1 && draw.coin()));
  set("strategy.overlap.dp_grad_reduce", flag(draw.coin()));
  set("strategy.overlap.zero_param_gather", flag(draw.coin()));
  set("strategy.overlap.tp_comm", flag(draw.below(4) == 0));
  set("strategy.overlap.pp_comm", flag(draw.below(4) != 0));
  return p;
}

bool valid(const DesignPoint& p) {
  try {
    const RunSpec run = load_run(p.base, p.sets);
    const auto& s = run.strategy;
    (void)find_schedule(s.schedule).steps({s.pp, run.microbatches(), s.virtual_stages}, 0);
    (void)Mesh(s);
    return true;
  } catch (const UserError&) {
    return false;
  }
}

}  // namespace

std::string DesignPoint::label() const {
  std::string out;
  for (size_t i = 1; i < sets.size(); ++i) out += (i > 1 ? " " : "") + sets[i];  // sets[0] is the platform
  return out;
}

std::vector<DesignPoint> sample_design(const std::string& platform, int samples, uint64_t seed) {
  const PlatformSpec spec = load_platform(platform);
  const int node = spec.tiers.empty() || spec.tiers.front().domain_size <= 0 ? 8 : spec.tiers.front().domain_size;
  Draw draw(seed);
  std::vector<DesignPoint> out;
  for (int i = 0; i < samples; ++i) {
    for (int attempt = 0;; ++attempt) {
      if (attempt == 200)
        throw UserError("fit: no valid strategy found for platform '" + platform + "' after 200 draws");
      DesignPoint p = candidate(draw, platform, node, i % 2 == 1, (i / 2) % 4 == 3);
      if (valid(p)) {
        out.push_back(std::move(p));
        break;
      }
    }
  }
  return out;
}

}  // namespace trainsim
