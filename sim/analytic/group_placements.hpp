// Where each communication group of a mesh sits on the platform's tiers: its shape (members, and
// members in the first member's node), the tier it is costed on and its ranks, found once per
// (rank, dim). A rank's group stands for the worst placed group of its dimension in its stage, which
// the stage waits for. CommCosts keeps one per run; the search passes its own, kept across the
// strategies it extracts one after the other: those of one set of degrees differ in mesh order (kept
// apart, at most 24), micro-batching, ZeRO, recomputation and overlap (which move no group). It starts
// over when a run's degrees or tiers differ from the last one's.
#pragma once
#include <array>
#include <map>
#include <utility>
#include <vector>

#include "sim/analytic/collective_time.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

// The innermost tier whose domain holds ranks a and b (`domains`: devices per domain of each tier,
// innermost first); the outermost when none does.
[[nodiscard]] int tier_between(const std::vector<int>& domains, int a, int b);

class GroupPlacements {
 public:
  struct Placement {
    GroupShape shape;          // members 1 for a group of one
    int tier = 0;              // tier_between its first and last rank (0 for a group of one)
    std::vector<int> members;  // Mesh::group of the rank and dim
  };

  // Makes the placements those of `mesh` on `domains`, forgetting all kept ones if the mesh's
  // degrees or the domains changed.
  void use(const Mesh& mesh, const std::vector<int>& domains);
  // The `d` group of `rank` under the mesh and domains of the last use().
  [[nodiscard]] const Placement& get(int rank, Dim d);

 private:
  struct OfMesh {
    Mesh mesh;
    std::map<std::pair<int, int>, Placement> placements;  // by (rank, dim)
    std::map<std::pair<int, int>, Placement> worst;       // by (stage, dim): its worst placed group
  };
  // The worst placed group of dimension d among those of pipeline stage `stage` (farthest tier,
  // then fewest members in the first member's node).
  const Placement& worst_of_stage(int stage, Dim d);
  std::vector<int> domains_;
  std::array<int, kDims> degrees_{};
  std::map<std::vector<Dim>, OfMesh> by_order_;  // the meshes of those degrees, by mesh order
  OfMesh* current_ = nullptr;
  bool uniform_ = true;  // every group of a dimension has one shape (see use())
};

}  // namespace trainsim
