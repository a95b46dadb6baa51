// The labels of the tasks a task of a stage graph depends on (its direct predecessors), for tests
// that check where the builder placed a task.
#pragma once
#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <vector>

#include "sim/graph/stage_graph.hpp"

namespace trainsim::test {

inline std::vector<std::string> predecessor_labels(const StageGraph& g, TaskId id) {
  std::vector<std::string> out;
  for (auto [e, end] = boost::in_edges(id, g.dag()); e != end; ++e)
    out.push_back(g.label_text(g.task(static_cast<TaskId>(boost::source(*e, g.dag()))).label));
  return out;
}

}  // namespace trainsim::test
