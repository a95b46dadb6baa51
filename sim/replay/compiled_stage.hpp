// A StageGraph flattened for the replay's hot loop: predecessors in one contiguous array
// (CSR), and for each task which OTHER streams hold tasks that depend on it (only those streams
// are woken when it finishes, and only such a task ends a fused run of compute kernels).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/graph/stage_graph.hpp"

namespace trainsim {

struct CompiledStage {
  const StageGraph* graph = nullptr;
  std::vector<uint32_t> pred_begin;   // preds of task t: preds[pred_begin[t] .. pred_begin[t+1])
  std::vector<TaskId> preds;
  std::vector<uint8_t> cross_stream_successor;  // bit s set if a task on stream s (not t's) depends on t
};

[[nodiscard]] CompiledStage compile_stage(const StageGraph& graph);

}  // namespace trainsim
