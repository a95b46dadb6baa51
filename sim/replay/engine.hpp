// The replay backend: runs every device's task graph on a SimGrid model of the cluster and
// returns the timeline. SimGrid allows one engine per process: call replay() at most once per
// process (use call_in_child for more).
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/graph/run_graph.hpp"
#include "sim/replay/options.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

[[nodiscard]] Timeline replay(const RunSpec& run, const RunGraph& graph, const Mesh& mesh,
                              const ReplayOptions& options);

}  // namespace trainsim
