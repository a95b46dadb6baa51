// A hand-built run replayed in a child process (SimGrid allows one engine per process), its
// iteration time read back to full precision: the golden replay tests' common step.
#pragma once
#include <sstream>
#include <string>

#include "sim/core/child_process.hpp"
#include "sim/replay/engine.hpp"

namespace trainsim::test {

inline double replayed_iteration(const RunSpec& run, const RunGraph& graph,
                                 CollectiveMode mode = CollectiveMode::kBulk) {
  const std::string out = call_in_child([&] {
    ReplayOptions options;
    options.collectives = mode;
    std::ostringstream s;
    s.precision(17);
    s << replay(run, graph, Mesh(run.strategy), options).iteration_time;
    return s.str();
  });
  return std::stod(out);
}

}  // namespace trainsim::test
