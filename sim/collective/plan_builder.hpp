// Helpers the algorithm files share to lay transfers into steps. Internal to sim/collective.
#pragma once
#include <string>
#include <vector>

#include "sim/collective/plan.hpp"

namespace trainsim {

// Makes sure plan.steps has at least `count` steps.
void ensure_steps(CollectivePlan& plan, size_t count);

// Adds a ring phase over `ring` (member indices in ring order): in each of the `steps` steps
// starting at `first_step`, ring[i] sends `chunk` bytes to ring[(i+1) % size]. Rings of
// different groups may share the same steps (they run concurrently).
void add_ring_phase(CollectivePlan& plan, size_t first_step, int steps, const std::vector<int>& ring,
                    Bytes chunk);

// The members 0..n-1 in order.
[[nodiscard]] std::vector<int> iota_members(int n);

// Throws UserError: algorithm `name` cannot plan collective `kind`.
[[noreturn]] void throw_unsupported(const std::string& name, CollectiveKind kind);

// Throws UserError unless shape.members >= 1 and bytes >= 0.
void check_group(const std::string& name, const GroupShape& shape, Bytes bytes);

}  // namespace trainsim
