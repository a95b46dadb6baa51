#include "sim/strategy/mesh.hpp"

#include <cassert>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

constexpr std::array<Dim, kDims> kAllDims = {Dim::kTp, Dim::kCp, Dim::kEp, Dim::kDp, Dim::kPp, Dim::kEdp, Dim::kDpCp};
// The dimensions a mesh_order may name (edp never: it follows from cp, dp and ep).
constexpr std::array<Dim, 5> kOrderDims = {Dim::kTp, Dim::kCp, Dim::kEp, Dim::kDp, Dim::kPp};
const char* const kValidOrder = "a dash-separated permutation of tp, cp, dp, pp (ep may appear, and is "
                                "ignored), fastest-varying first, e.g. tp-cp-ep-dp-pp";

int idx(Dim d) { return static_cast<int>(d); }

[[noreturn]] void bad_order(const std::string& order, const std::string& why) {
  throw StrategyError("strategy.mesh_order '" + order + "': " + why + "; valid: " + kValidOrder);
}

bool dim_named(const std::string& name, Dim* out) {
  for (Dim d : kOrderDims) {
    if (name == to_string(d)) {
      *out = d;
      return true;
    }
  }
  return false;
}

}  // namespace

const char* to_string(Dim d) {
  switch (d) {
    case Dim::kTp: return "tp";
    case Dim::kCp: return "cp";
    case Dim::kEp: return "ep";
    case Dim::kDp: return "dp";
    case Dim::kPp: return "pp";
    case Dim::kEdp: return "edp";
    case Dim::kDpCp: return "dp_cp";
  }
  return "?";
}

std::vector<Dim> parse_mesh_order(const std::string& order) {
  std::vector<Dim> layout;
  std::array<bool, kDims> seen{};
  size_t start = 0;
  while (start <= order.size()) {
    const size_t dash = order.find('-', start);
    const size_t end = dash == std::string::npos ? order.size() : dash;
    const std::string name = order.substr(start, end - start);
    Dim d{};
    if (!dim_named(name, &d)) bad_order(order, "unknown dimension '" + name + "'");
    if (seen[idx(d)]) bad_order(order, "dimension '" + name + "' appears twice");
    seen[idx(d)] = true;
    if (d != Dim::kEp) layout.push_back(d);
    start = end + 1;
  }
  for (Dim d : {Dim::kTp, Dim::kCp, Dim::kDp, Dim::kPp}) {
    if (!seen[idx(d)]) bad_order(order, std::string("dimension '") + to_string(d) + "' is missing");
  }
  return layout;
}

Mesh::Mesh(const StrategySpec& s) : order_(parse_mesh_order(s.mesh_order)) {
  degree_[idx(Dim::kTp)] = s.tp;
  degree_[idx(Dim::kCp)] = s.cp;
  degree_[idx(Dim::kEp)] = s.ep;
  degree_[idx(Dim::kDp)] = s.dp;
  degree_[idx(Dim::kPp)] = s.pp;
  experts_fold_tp_ = s.folds_experts();
  degree_[idx(Dim::kEdp)] = s.ep >= 1 && s.expert_span() % s.ep == 0 ? s.expert_dp() : 1;
  degree_[idx(Dim::kDpCp)] = s.cp * s.dp;
  for (Dim d : kAllDims) {
    if (degree_[idx(d)] < 1) {
      throw StrategyError(std::string("strategy.") + to_string(d) + ": degree must be at least 1 (got " +
                          std::to_string(degree_[idx(d)]) + ")");
    }
  }
  if (s.expert_span() % s.ep != 0) {
    throw StrategyError(std::string("strategy.ep: expert parallelism must divide ") +
                        (experts_fold_tp_ ? "tp*cp*dp = " : "cp*dp = ") + std::to_string(s.expert_span()) +
                        " (got ep " + std::to_string(s.ep) + ")");
  }
  for (Dim d : order_) {
    stride_[idx(d)] = size_;
    size_ *= degree_[idx(d)];
  }
}

int Mesh::degree(Dim d) const { return degree_[idx(d)]; }

Coord Mesh::coord(int rank) const {
  assert(rank >= 0 && rank < size_);
  Coord c;
  for (Dim d : order_) c.at[idx(d)] = (rank / stride_[idx(d)]) % degree_[idx(d)];
  // Expert-data-parallel carving: the expert index (expert_index), ep consecutive values form a group.
  const int experts = expert_index(c);
  c.at[idx(Dim::kEp)] = experts % degree(Dim::kEp);
  c.at[idx(Dim::kEdp)] = experts / degree(Dim::kEp);
  c.at[idx(Dim::kDpCp)] = c[Dim::kCp] + degree(Dim::kCp) * c[Dim::kDp];
  return c;
}

// Combined (cp, dp) index, cp fastest; with folded experts (tp, cp, dp), tp fastest: Megatron-Core's
// expert RankGenerator orders etp, ep, edp over the same ranks as tp, cp, dp.
int Mesh::expert_index(const Coord& c) const {
  const int dense = c[Dim::kCp] + degree(Dim::kCp) * c[Dim::kDp];
  return experts_fold_tp_ ? c[Dim::kTp] + degree(Dim::kTp) * dense : dense;
}

// The rank at combined index `index` of the (cp, dp) positions, cp fastest, that share rank's (pp, tp); with
// `over_tp`, of the (tp, cp, dp) positions that share its pp, tp fastest.
int Mesh::combined_member(int rank, const Coord& c, int index, bool over_tp) const {
  const int tp = over_tp ? degree(Dim::kTp) : 1, cp = degree(Dim::kCp);
  const int tp_stride = stride_[idx(Dim::kTp)], cp_stride = stride_[idx(Dim::kCp)], dp_stride = stride_[idx(Dim::kDp)];
  int base = rank - c[Dim::kCp] * cp_stride - c[Dim::kDp] * dp_stride;
  if (over_tp) base -= c[Dim::kTp] * tp_stride;
  const int t = index % tp, rest = index / tp;
  return base + t * tp_stride + (rest % cp) * cp_stride + (rest / cp) * dp_stride;
}

int Mesh::rank(const Coord& c) const {
  int r = 0;
  for (Dim d : order_) {
    assert(c[d] >= 0 && c[d] < degree(d));
    r += c[d] * stride_[idx(d)];
  }
  return r;
}

std::vector<int> Mesh::group(int rank, Dim d) const {
  Coord c = coord(rank);
  std::vector<int> members;
  members.reserve(degree(d));
  if (d != Dim::kEp && d != Dim::kEdp && d != Dim::kDpCp) {
    const int stride = stride_[idx(d)];
    const int first = rank - c[d] * stride;  // the member with coordinate 0
    for (int i = 0; i < degree(d); ++i) members.push_back(first + i * stride);
    return members;
  }
  if (d == Dim::kDpCp) {  // every combined (cp, dp) index, cp fastest
    for (int k = 0; k < degree(d); ++k) members.push_back(combined_member(rank, c, k, false));
    return members;
  }
  // Expert indices: an EP group is ep consecutive ones, an edp group those congruent modulo ep (one
  // per EP group, in EP-group order).
  const int ep = degree(Dim::kEp), index = expert_index(c);
  const int first = d == Dim::kEp ? index / ep * ep : index % ep;
  const int step = d == Dim::kEp ? 1 : ep;
  for (int j = 0, k = first; j < degree(d); ++j, k += step) members.push_back(combined_member(rank, c, k, experts_fold_tp_));
  return members;
}

int Mesh::rank_at_stage(int rank, int stage) const {
  assert(stage >= 0 && stage < degree(Dim::kPp));
  Coord c = coord(rank);
  c.at[idx(Dim::kPp)] = stage;
  return this->rank(c);
}

int node_of(int rank, int devices_per_node) {
  assert(devices_per_node > 0 && rank >= 0);
  return rank / devices_per_node;
}

bool within_one_node(const std::vector<int>& ranks, int devices_per_node) {
  for (int r : ranks) {
    if (node_of(r, devices_per_node) != node_of(ranks.front(), devices_per_node)) return false;
  }
  return true;
}

}  // namespace trainsim
