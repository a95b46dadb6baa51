// The device mesh: rank <-> coordinates along (tp, cp, ep, dp, pp), and the process group
// of every rank along every dimension. The order is configurable (mesh_order, fastest-varying
// first); Megatron's default "tp-cp-ep-dp-pp" keeps TP groups inside a node.
// EP groups are carved out of the data-parallel dimension (ep divides dp*cp): ranks that share
// (pp, tp) and the same expert-data-parallel index form an EP group.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "sim/config/run_spec.hpp"

namespace trainsim {

enum class Dim : uint8_t { kTp = 0, kCp = 1, kEp = 2, kDp = 3, kPp = 4 };
constexpr int kDims = 5;
[[nodiscard]] const char* to_string(Dim d);

struct Coord {
  std::array<int, kDims> at{};  // index along each Dim (ep is the index inside the EP group)
  int operator[](Dim d) const { return at[static_cast<int>(d)]; }
};

class Mesh {
 public:
  explicit Mesh(const StrategySpec& strategy);  // throws StrategyError on a bad mesh_order
  int size() const { return size_; }
  int degree(Dim d) const;
  Coord coord(int rank) const;
  int rank(const Coord& c) const;
  // Ranks of the group of `rank` along `d`, in group order (index i has coordinate i).
  std::vector<int> group(int rank, Dim d) const;
  // Rank of the same (dp, cp, tp) position on pipeline stage `stage`.
  int rank_at_stage(int rank, int stage) const;
  // ...
 private:
  // implementation detail owned by sim/strategy
  std::array<int, kDims> degree_{};
  std::array<int, kDims> stride_{};
  int size_ = 1;
};

}  // namespace trainsim
