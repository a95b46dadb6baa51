// Every exchange a device's stream makes with the switch of one tier (in-network reductions),
// in the order its collectives make them, so that the switch proxy (switch_proxy.hpp) can post
// its side ahead of time without being told.
#pragma once
#include <vector>

#include "sim/replay/runtime.hpp"

namespace trainsim {

// Exchanges of `dev`'s `stream` with its switch on `tier`: one per step (step mode) or per
// collective (bulk mode) that moves bytes to or from the switch, with the bytes FlowBatch posts.
[[nodiscard]] std::vector<SwitchExchange> switch_exchanges(ReplayContext& ctx, DeviceRuntime& dev, Stream stream,
                                                           int tier);

// Latency (s) and bottleneck bandwidth (bytes/s) of the route from one host to another.
void route_figures(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to, double* latency, double* bandwidth);

}  // namespace trainsim
