// The device mesh: rank <-> coordinates along (tp, cp, ep, dp, pp), and the process group
// of every rank along every dimension. The order is configurable (mesh_order, fastest-varying
// first); Megatron's default "tp-cp-ep-dp-pp" keeps TP groups inside a node.
// EP groups are carved out of the data-parallel dimension (ep divides dp*cp): ranks that share
// (pp, tp) and the same expert-data-parallel index form an EP group. With whole experts folded over
// the tp ranks (StrategySpec::folds_experts, expert_tp 1) they are carved out of tp*cp*dp instead.
//
// Rank layout: only tp, cp, dp and pp place ranks (their product is the device count). For a
// rank with expert index i = cp_idx + cp * dp_idx (folded: tp_idx + tp * (cp_idx + cp * dp_idx)),
// its EP group is the ep consecutive values of i that share i / ep, and its EP coordinate is i % ep
// (Megatron-Core's expert mesh, where the expert data-parallel degree is expert_span/ep). The
// expert-data-parallel (edp) group of a rank is the expert_span/ep ranks that hold the same experts:
// same pp (and tp, unless folded), the same EP coordinate, one from each EP group (Megatron-Core's
// expert data-parallel group, over which the routed experts' gradients are reduced and their ZeRO
// shards gathered).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/run_spec.hpp"

namespace trainsim {

// kEdp and kDpCp place no ranks (like kEp they are carved out of cp x dp, kEp and kEdp out of tp x cp x
// dp with folded experts) and never appear in a
// mesh_order. kDpCp is the whole cp x dp set of a (tp, pp) position: the ranks that hold the same
// parameters (Megatron-Core's data-parallel group with context parallelism, over which gradients
// are reduced and the distributed optimizer shards).
enum class Dim : uint8_t { kTp = 0, kCp = 1, kEp = 2, kDp = 3, kPp = 4, kEdp = 5, kDpCp = 6 };
constexpr int kDims = 7;
[[nodiscard]] const char* to_string(Dim d);
// The run key `collectives.<name>` that picks the algorithm of a group's collectives: its own name,
// and "dp" for the data-parallel reductions over dp x cp and over the expert data-parallel group.
[[nodiscard]] inline const char* collective_name(Dim d) {
  return d == Dim::kDpCp || d == Dim::kEdp ? "dp" : to_string(d);
}

struct Coord {
  std::array<int, kDims> at{};  // index along each Dim (ep, edp, dp_cp: inside that group)
  int operator[](Dim d) const { return at[static_cast<int>(d)]; }
};

class Mesh {
 public:
  explicit Mesh(const StrategySpec& strategy);  // throws StrategyError on a bad mesh_order
  int size() const { return size_; }
  int degree(Dim d) const;
  Coord coord(int rank) const;
  // The rank at coordinates c; c[kEp], c[kEdp] and c[kDpCp] are ignored (they follow from c[kCp] and c[kDp],
  // and c[kTp] with folded experts).
  int rank(const Coord& c) const;
  // Ranks of the group of `rank` along `d`, in group order (index i has coordinate i).
  std::vector<int> group(int rank, Dim d) const;
  // Rank of the same (dp, cp, tp) position on pipeline stage `stage`.
  int rank_at_stage(int rank, int stage) const;
  // The layout dimensions (tp, cp, dp, pp) in mesh_order, fastest-varying first.
  const std::vector<Dim>& order() const { return order_; }

 private:
  std::array<int, kDims> degree_{};  // group size along each Dim
  std::array<int, kDims> stride_{};  // rank distance between neighbours along a layout Dim (0 for ep)
  std::vector<Dim> order_;           // layout dims, fastest-varying first
  int size_ = 1;                     // tp * cp * dp * pp
  bool experts_fold_tp_ = false;     // EP and expert-DP groups carved out of tp*cp*dp (StrategySpec::folds_experts)
  // The expert index of a rank's (tp, cp, dp) position (tp fastest, when folded), and back.
  int expert_index(const Coord& c) const;
  int combined_member(int rank, const Coord& c, int index, bool over_tp) const;
};

// The group over which the routed experts' gradients are reduced and their ZeRO shards gathered
// (Megatron-Core's DistributedDataParallel keeps them in their own buffers, reduced over the expert
// data-parallel group): kEdp with expert parallelism (ep > 1), else kDpCp like every other parameter.
[[nodiscard]] inline Dim expert_grad_dim(const StrategySpec& s) { return s.ep > 1 ? Dim::kEdp : Dim::kDpCp; }
// Its size: cp*dp/ep with ep > 1 (tp*cp*dp/ep with folded experts; 1: nothing to reduce), else cp*dp.
[[nodiscard]] inline int expert_grad_degree(const StrategySpec& s) {
  return s.ep > 1 ? s.expert_dp() : s.cp * s.dp;
}

// `params` parameters, `experts` of them routed experts', split as the data-parallel collectives move
// them: `dense` over dp x cp (Dim::kDpCp), `expert` over the expert data-parallel group (Dim::kEdp).
// With ep = 1 the experts go with the rest; with cp*dp/ep = 1 nothing of theirs moves (expert = 0).
struct GradSplit {
  double dense = 0, expert = 0;
};
[[nodiscard]] inline GradSplit grad_split(const StrategySpec& s, double params, double experts) {
  const double apart = s.ep > 1 ? experts : 0;
  return {params - apart, expert_grad_degree(s) > 1 ? apart : 0};
}

// Whether gradients are reduced over data parallelism in buckets (ZeRO-3 reduces them layer by layer).
[[nodiscard]] inline bool reduces_gradients_in_buckets(const StrategySpec& s) { return s.dp * s.cp > 1 && s.zero_stage < 3; }

// Whether a data-parallel bucket holding `params` gradients of `element` bytes is issued: once it holds
// `bucket_size` bytes, or at the stage's last item (the graph's reductions, its per-bucket kernels and
// the formulas cut buckets by this one rule).
[[nodiscard]] inline bool bucket_closes(double params, double element, double bucket_size, bool last) {
  return params > 0 && (last || params * element >= bucket_size);
}

// Parses a mesh_order string ("tp-cp-ep-dp-pp"): a dash-separated permutation naming tp, cp, dp
// and pp once each; ep may appear once and is ignored. Returns the layout dims, fastest first.
// Throws StrategyError naming the valid dims.
[[nodiscard]] std::vector<Dim> parse_mesh_order(const std::string& order);

// Placement: ranks are numbered node by node, devices_per_node consecutive ranks per node.
[[nodiscard]] int node_of(int rank, int devices_per_node);
// True when all `ranks` sit on one node (an empty or single-rank group trivially does).
[[nodiscard]] bool within_one_node(const std::vector<int>& ranks, int devices_per_node);

}  // namespace trainsim
