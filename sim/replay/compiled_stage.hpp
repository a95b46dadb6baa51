// A StageGraph flattened for the replay's hot loop: predecessors in one contiguous array
// (CSR), for each task which OTHER streams hold tasks that depend on it (only those streams
// are woken when it finishes, and only such a task ends a fused run of compute kernels), and
// what a chain of kernels and holds needs to know (device_loop.cpp, kernel_chain.hpp).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/graph/stage_graph.hpp"

namespace trainsim {

inline constexpr TaskId kNoTask = std::numeric_limits<TaskId>::max();

struct CompiledStage {
  const StageGraph* graph = nullptr;
  std::vector<uint32_t> pred_begin;   // preds of task t: preds[pred_begin[t] .. pred_begin[t+1])
  std::vector<TaskId> preds;
  std::vector<uint8_t> cross_stream_successor;  // bit s set if a task on stream s (not t's) depends on t
  // The one task on another stream that depends on t, or kNoTask if none or several do.
  std::vector<TaskId> lone_successor;
  std::vector<uint32_t> order_index;  // position of t in its stream's order
  // 1 for a collective during which the compute stream cannot run: the compute task after its
  // last compute predecessor depends on it. Its members' bytes then move while none of them
  // computes, so the interference rendezvous (interference.hpp) changes nothing and is skipped.
  std::vector<uint8_t> compute_blocking;
  // Lowest compute-order position among the compute tasks that depend on t (UINT32_MAX if none),
  // and one past the highest compute-order position among the compute tasks t depends on (0 if
  // none): when the device must wake for the end of a timed collective (device_loop.cpp).
  std::vector<uint32_t> first_compute_successor;
  std::vector<uint32_t> compute_pred_limit;
};

[[nodiscard]] CompiledStage compile_stage(const StageGraph& graph);

}  // namespace trainsim
