// A StageGraph flattened for the replay's hot loop: predecessors in one contiguous array
// (CSR), and for each task whether a task on ANOTHER stream depends on it (only then must its
// completion wake other streams, and only then must it end a fused run of compute kernels).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/graph/stage_graph.hpp"

namespace trainsim {

struct CompiledStage {
  const StageGraph* graph = nullptr;
  std::vector<uint32_t> pred_begin;   // preds of task t: preds[pred_begin[t] .. pred_begin[t+1])
  std::vector<TaskId> preds;
  std::vector<uint8_t> cross_stream_successor;  // 1 if some task on another stream depends on t
};

[[nodiscard]] CompiledStage compile_stage(const StageGraph& graph);

}  // namespace trainsim
