// What each stream of a device is doing, as its device's loop (device_loop.cpp) tracks it, and
// the bookkeeping shared by its tasks: readiness, time categories, trace events.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/replay/comm_exec.hpp"
#include "sim/replay/runtime.hpp"

namespace trainsim {

struct StreamState {
  // The fields the device's loop reads at most wake-ups come first, in the first 64 bytes (one or
  // two cache lines): a large replay touches each device's state once per wake-up, from memory
  // (README, Scale).
  const std::vector<TaskId>* order = nullptr;  // the stream's tasks, in order
  size_t next = 0;                 // index in `order` of the next task to begin
  std::vector<simgrid::s4u::CommPtr> flows;  // the current batch of flows of the task in progress
  uint32_t cursor = 0;             // flows[cursor..] not yet seen complete
  bool busy = false;               // a task (compute: a fused run of tasks) is in progress
  bool timed = false;              // the task in progress is a timed collective (no CommOp)
  bool chained = false;            // held by a chain of the compute stream (device_loop.cpp)
  bool stalled = false;            // free, but its next task waits on another stream
  double hold_end = -1;            // >= 0: the task holds the stream until then (CommOp::next)
  double start = 0;                // when the task in progress began
  Stream blocking = Stream::kCompute;  // the stream of the predecessor it last found unfinished
  size_t run_end = 0;              // compute: index after the fused run in progress
  Bytes timed_sent = 0;            // the bytes a timed collective sends
  double pair_hold = -1;           // seconds it holds if timed as pairs (pair_shortcut.hpp)
  double stall_start = 0;          // since when it is stalled
  std::optional<CommOp> comm;      // communication: the task in progress
};

// Whether every predecessor of t (on other streams) has finished; if not and `blocking` is
// given, the stream of the first unfinished one.
[[nodiscard]] bool preds_done(const DeviceRuntime& dev, TaskId t, Stream* blocking);
// Where the compute stream's wait for a task of stream s is charged.
[[nodiscard]] TimeCategory wait_category(Stream s);
// Where time running a kernel of this role is charged.
[[nodiscard]] TimeCategory busy_category(TaskRole role);
// A trace event for `task` if `dev` is traced.
void record(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task, Stream stream, double start, double end);

}  // namespace trainsim
