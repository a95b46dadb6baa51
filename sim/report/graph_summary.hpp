// What a device's task graph contains: tasks, FLOPs and bytes per stream and kind; and a
// Graphviz rendering of one micro-batch's tasks.
#pragma once
#include <ostream>

#include "sim/graph/stage_graph.hpp"

namespace trainsim {

void write_graph_summary(std::ostream& out, const StageGraph& graph);
// Tasks of micro-batch `microbatch` (and those tied to none, e.g. the optimizer) as a DOT graph:
// one cluster per stream, solid edges for stream order, dashed for cross-stream dependencies.
void write_dot(std::ostream& out, const StageGraph& graph, int microbatch);

}  // namespace trainsim
