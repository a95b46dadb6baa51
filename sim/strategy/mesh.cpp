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
  degree_[idx(Dim::kEdp)] = s.ep >= 1 && (s.cp * s.dp) % s.ep == 0 ? s.cp * s.dp / s.ep : 1;
  degree_[idx(Dim::kDpCp)] = s.cp * s.dp;
  for (Dim d : kAllDims) {
    if (degree_[idx(d)] < 1) {
      throw StrategyError(std::string("strategy.") + to_string(d) + ": degree must be at least 1 (got " +
                          std::to_string(degree_[idx(d)]) + ")");
    }
  }
  if ((s.cp * s.dp) % s.ep != 0) {
    throw StrategyError("strategy.ep: expert parallelism must divide cp*dp = " + std::to_string(s.cp * s.dp) +
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
  // Expert-data-parallel carving: combined (cp, dp) index, cp fastest; ep consecutive values form a group.
  const int combined = c[Dim::kCp] + degree(Dim::kCp) * c[Dim::kDp];
  c.at[idx(Dim::kEp)] = combined % degree(Dim::kEp);
  c.at[idx(Dim::kEdp)] = combined / degree(Dim::kEp);
  c.at[idx(Dim::kDpCp)] = combined;
  return c;
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
  // Combined (cp, dp) indices, cp fastest: an EP group is ep consecutive ones, an edp group those
  // congruent modulo ep (one per EP group, in EP-group order), the dp_cp group all of them.
  const int cp = degree(Dim::kCp);
  const int ep = d == Dim::kDpCp ? 1 : degree(Dim::kEp);
  const int combined = c[Dim::kCp] + cp * c[Dim::kDp];
  const int first = d == Dim::kEp ? combined / ep * ep : combined % ep;
  const int step = d == Dim::kEp ? 1 : ep;
  // The rank with cp and dp coordinates 0, then each member's cp and dp offsets by their strides.
  const int cp_stride = stride_[idx(Dim::kCp)], dp_stride = stride_[idx(Dim::kDp)];
  const int base = rank - c[Dim::kCp] * cp_stride - c[Dim::kDp] * dp_stride;
  for (int j = 0, k = first; j < degree(d); ++j, k += step)
    members.push_back(base + (cp == 1 ? k * dp_stride : (k % cp) * cp_stride + (k / cp) * dp_stride));
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
