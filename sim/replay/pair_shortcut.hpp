// Member-to-member collectives timed without flows (an exact shortcut, like switch_shortcut.hpp's
// for exchanges with a switch), on the tiers shortcut_tiers admits.
//
// There, in bulk mode, a member of a collective sends one flow to one peer and receives one from
// one peer, and nothing else crosses the links those flows use while they move. A flow starts
// once both its ends have posted it (SimGrid matches the send with the receive) and then takes
// latency + bytes / bandwidth of its route, as SimGrid computes it for a flow alone on its route.
// When every member begins the collective at the same date, every flow starts then and the
// member's part ends at that date plus the longer of its two flows, plus the latencies of the steps
// bulk mode merged (comm_exec.hpp): a hold known in advance. Whether they all begin at the same date
// is only known once they have: a member that begins lets the other actors woken at this date run
// first (a yield: no time passes), then decides. If every member has begun by then, every member
// times it; if not, the members that began later than the first one's decision run the collective
// as flows, and so do all the others: the first one to decide settles it for the instance.
#pragma once
#include <cstdint>
#include <unordered_map>

#include "sim/core/units.hpp"
#include "sim/graph/stage_graph.hpp"

namespace trainsim {

struct ReplayContext;
struct DeviceRuntime;
struct PairRoute;

class PairRendezvous {
 public:
  // A member of instance `key`, a collective of `members` devices, begins it.
  void arrive(uint64_t key, int members);
  // A member that arrived decides: true to time the instance (every member has arrived, all at
  // this date), false to run it as flows (then every member does).
  bool decide(uint64_t key);

 private:
  struct Instance {
    int members = 0;
    int arrived = 0;
    int decided = 0;
    bool flows = false;
  };
  std::unordered_map<uint64_t, Instance> instances_;
};

// The route from `dev` to device `peer` (out) and back (in): latency and bottleneck bandwidth, as
// SimGrid routes them; looked up once per peer and kept in dev.pair_routes.
const PairRoute& pair_route(ReplayContext& ctx, DeviceRuntime& dev, int peer);

// The seconds collective `id` of dev's stage template holds its stream when its members begin it
// together, and in *sent the bytes it sends; -1 when it cannot be timed (not in bulk mode, not on
// a tier of shortcut_tiers, or a flow of it crosses another tier).
double pair_collective_seconds(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, Bytes* sent);

}  // namespace trainsim
