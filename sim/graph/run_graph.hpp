// The task graphs of a whole run: one StageGraph template per pipeline stage.
#pragma once
#include <vector>

#include "sim/graph/stage_graph.hpp"

namespace trainsim {

struct RunGraph {
  std::vector<StageGraph> stages;  // stages[s] is the template of pipeline stage s
};

}  // namespace trainsim
