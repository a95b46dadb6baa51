// Uncontended seconds of one collective or point-to-point transfer of a run's group, for the
// iteration formulas' input extraction: the group's tier from the mesh (the innermost tier whose
// domain holds the group's first and last rank, as the replay picks it), the algorithm the run
// names or the NCCL-like default choice (sim/collective/choose.cpp), and that algorithm's closed
// form (collective_time.hpp) with the tier's alpha (latency) and beta (bandwidth x planes x efficiency).
#pragma once
#include <array>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/analytic/collective_time.hpp"
#include "sim/analytic/group_placements.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

// How one collective runs: its algorithm, group shape and links.
struct CollectiveSetup {
  std::string algorithm;
  GroupShape shape;
  LinkCost intra, inter;
};

class CommCosts {
 public:
  // `placements`: the caller's, kept across runs (GroupPlacements); none: the instance's own.
  explicit CommCosts(const RunSpec& run, GroupPlacements* placements = nullptr);
  CommCosts(const CommCosts&) = delete;  // may point at its own placements
  CommCosts& operator=(const CommCosts&) = delete;
  // One collective of `kind` on the `d` group of `rank`, `bytes` as collective_cost takes them.
  [[nodiscard]] Seconds collective(int rank, Dim d, CollectiveKind kind, Bytes bytes) const;
  // The algorithm, shape and links collective() uses; shape.members 1 for a group of one.
  [[nodiscard]] CollectiveSetup setup(int rank, Dim d, CollectiveKind kind, Bytes bytes) const;
  // One transfer of `bytes` from rank a to rank b: alpha + bytes / beta of their tier.
  [[nodiscard]] Seconds p2p(int a, int b, Bytes bytes) const;
  [[nodiscard]] const Mesh& mesh() const { return mesh_; }

 public:
  // The tier a transfer between ranks a and b crosses: the innermost whose domain holds both.
  [[nodiscard]] int tier_between(int a, int b) const { return trainsim::tier_between(domain_, a, b); }
  // The tier a group of `rank` along `d` is costed on (0 for a group of one).
  [[nodiscard]] int group_tier(int rank, Dim d) const { return placements_->get(rank, d).tier; }
  // The ranks of that group, in the mesh's order (Mesh::group, found once per rank and dim).
  [[nodiscard]] const std::vector<int>& group(int rank, Dim d) const { return placements_->get(rank, d).members; }
  [[nodiscard]] LinkCost link(int tier) const;
  [[nodiscard]] LinkCost link_between(int a, int b) const { return link(tier_between(a, b)); }

 private:
  const RunSpec& run_;
  Mesh mesh_;
  std::vector<int> domain_;  // devices per domain of each tier, innermost first
  std::array<const std::string*, kDims> named_{};  // the algorithm the run names for each dim, if any
  mutable GroupPlacements own_;
  GroupPlacements* placements_;
  mutable std::map<std::tuple<int, int, int, double>, Seconds> costs_;  // (rank, dim, kind, bytes)
};

// One EP exchange of `run` (a dispatch or combine all-to-all of payloads(run).ep) on `rank`'s expert
// group: its uncontended time, where the experts wait for it (the host's issue order, host_time.hpp).
[[nodiscard]] Seconds ep_exchange_seconds(const CommCosts& cc, int rank, const RunSpec& run);

}  // namespace trainsim
