// In-network reductions timed without SimGrid flows, on tiers where no other transfer can share
// their links (an exact shortcut: it declines wherever that does not hold).
//
// A member's exchange with the switch of tier t (nvls) is an up flow over its own port (up) and
// the switch's core link, and a down flow over the core link and its own port (down)
// (BuiltPlatform::switch_hosts). The core link is a fat pipe (each flow gets its full
// bandwidth, flows never share it), so only the member's port can couple the exchange to other
// traffic. The switch proxy posts its side of every exchange ahead (switch_proxy.hpp), so a flow
// starts when the member posts it and no other member takes part. When nothing else ever
// crosses tier t's ports - every transfer on tier t is an exchange with the switch, and on each
// device they all come from one stream, which runs its tasks one after the other - each flow is
// alone on its links from start to end and takes exactly latency + bytes / bandwidth of its
// route, as SimGrid would compute it. The replay then holds the stream for that time instead of
// moving the bytes (no flows, no proxy). It declines (the flows run in SimGrid) for a tier with
// any other transfer on it (a collective with member-to-member transfers between devices of one
// domain of the tier, a pipeline transfer inside one), for switch exchanges from two streams,
// for folded replays (mirrored flows) and when per-link statistics are asked for (the links
// must carry the bytes).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/config/run_spec.hpp"
#include "sim/graph/run_graph.hpp"
#include "sim/replay/options.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {


// Where the replay times transfers instead of moving them, from one scan of the run's traffic.
struct ShortcutTiers {
  // Per tier: 1 where exchanges with the tier's switch are timed without flows, else 0.
  std::vector<uint8_t> switch_exchanges;
  // Per tier: 1 where member-to-member collectives may be timed (below), else 0.
  std::vector<uint8_t> pairs;
};

// Member-to-member collectives timed without flows (pair_shortcut.hpp), on tiers where no other
// transfer can share their links: in bulk mode each member of a collective sends one flow to one
// peer and receives one from one peer; on a tier whose transfers cross only the two devices' own
// links (a crossbar's ports, a full mesh's pair links), where every such collective comes from one
// stream (which runs them one after the other) and no pipeline transfer or switch exchange
// crosses it, each flow is alone on its links from start to end when the members begin together.
// Both shortcuts decline (all 0) for folded replays and when per-link statistics are asked for;
// the pair shortcut also in step mode.
[[nodiscard]] ShortcutTiers shortcut_tiers(const RunSpec& run, const RunGraph& graph, const Mesh& mesh,
                                           const ReplayOptions& options);

}  // namespace trainsim
