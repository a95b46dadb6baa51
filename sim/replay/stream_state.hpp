// What each stream of a device is doing, as its device's loop (device_loop.cpp) tracks it, and
// the bookkeeping shared by its tasks: readiness, time categories, trace events.
#pragma once
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/replay/comm_exec.hpp"
#include "sim/replay/runtime.hpp"

namespace trainsim {

struct StreamState {
  const std::vector<TaskId>* order = nullptr;  // the stream's tasks, in order
  size_t next = 0;                 // index in `order` of the next task to begin
  bool busy = false;               // a task (compute: a fused run of tasks) is in progress
  size_t run_end = 0;              // compute: index after the fused run in progress
  double start = 0;                // when the task in progress began
  std::optional<CommOp> comm;      // communication: the task in progress
  std::vector<simgrid::s4u::CommPtr> flows;  // its current batch of flows
  size_t cursor = 0;               // flows[cursor..] not yet seen complete
  double hold_end = -1;            // >= 0: the task holds the stream until then (CommOp::next)
  bool timed = false;               // the task in progress is a timed collective (no CommOp)
  Bytes timed_sent = 0;            // the bytes it sends
  double pair_hold = -1;           // seconds it holds if timed as pairs (pair_shortcut.hpp)
  bool chained = false;            // held by a chain of the compute stream (device_loop.cpp)
  bool stalled = false;            // free, but its next task waits on another stream
  double stall_start = 0;          // since when
  Stream blocking = Stream::kCompute;  // the stream of the predecessor it last found unfinished
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
