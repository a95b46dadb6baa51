// Which peers one member of a collective sends to, and how much, as the replay's bulk mode runs
// each registered algorithm (sim/collective/*.cpp): one flow per peer carrying the member's whole
// share for that peer. The link-sharing model of the iteration formulas (link_sharing.hpp) needs
// it to know which links a collective occupies: on a full mesh each peer is its own link, through
// a switch every peer shares the member's port.
#pragma once
#include <string>
#include <vector>

#include "sim/collective/plan.hpp"

namespace trainsim {

struct PeerSend {
  int member = 0;     // peer index in the group, or kSwitchMember (NVLS: the switch)
  double share = 0;   // bytes to that peer / the collective's `bytes` argument
};

// The flows member `member` of `shape` starts for collective `kind` run with `algorithm`
// ("ring", "direct", "hierarchical", "nvls", "tree"), one per peer. Tree: empty (its all-reduces
// are chosen only for small buffers, whose time is latency; they are left out of link sharing).
// NVLS: one flow to the switch with the larger of the up and down volumes (the port carries both).
[[nodiscard]] std::vector<PeerSend> member_sends(CollectiveKind kind, const std::string& algorithm,
                                                 const GroupShape& shape, int member);

}  // namespace trainsim
