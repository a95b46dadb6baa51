// Communication tasks as SimGrid flows: collectives (step or bulk mode, folded groups) and
// pipeline sends, run by a device's loop (device_loop.cpp). A task moves its bytes in
// batches of flows (one per step in step mode, one in bulk mode), each batch waited for whole
// before the next is posted; bulk mode then holds the stream for the latencies of the steps it
// merged.
#pragma once
#include <vector>

#include "sim/replay/runtime.hpp"
#include "sim/replay/start_batch.hpp"

namespace trainsim {

// `dev`'s part of collective `task` on `group` (its ranks in member order), and in *tier the
// tier the group's transfers use (collective_choice.hpp).
const MemberSchedule& member_schedule(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task,
                                      const std::vector<int>& group, int* tier);
// Rank of the device `offset` stages away (wrapping: interleaved chunks pass from the last
// stage back to the first).
int pipeline_peer(const ReplayContext& ctx, int rank, int offset);

// How many times slower than alone collective `task` moves its bytes: the accelerator's
// overlap_comm_slowdown for a collective pipelined with its GEMM (Task::pipelined), else 1.
[[nodiscard]] double collective_slowdown(const RunSpec& run, const Task& task);

// The seconds collective `id` of dev's stage template holds its stream when it is an exchange
// with a private switch (switch_shortcut.hpp) in bulk mode, and in *sent the bytes it sends;
// -1 when its time depends on other traffic (it moves flows).
double held_collective_seconds(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, Bytes* sent);

// Begins collective `id` as a timed hold when held_collective_seconds can time it: joins the
// interference rendezvous with its departure; returns the date it ends (and *sent), or -1.
double begin_timed_collective(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, Bytes* sent);

// Bulk mode moves a collective's bytes in one batch, which pays one latency: the seconds of the
// latencies of its other steps (`latency` each), added after the batch.
[[nodiscard]] Seconds merged_step_latencies(const MemberSchedule& mine, Seconds latency);

// Begins collective `id` as a hold of `hold` seconds from now (joining the interference
// rendezvous with its departure, as begin_timed_collective does); returns the date it ends.
double begin_held_collective(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, double hold);

// The key naming one instance of collective `id` of dev's stage template: the same for every
// member of its group.
[[nodiscard]] uint64_t collective_instance(ReplayContext& ctx, DeviceRuntime& dev, TaskId id);

// One communication task of one device, from its beginning to its end.
class CommOp {
 public:
  // Begins task `id` of dev's stage template (a collective or a send; receives are the device
  // loop's, device_loop.cpp).
  CommOp(ReplayContext& ctx, DeviceRuntime& dev, TaskId id);
  // The task's next step, once the previous one is over: a batch of flows (appended to `flows`,
  // their starts to `starts`; maybe none for a batch that moves nothing), or a date until which
  // it holds the stream (*until >= 0: exchanges with a private switch, switch_shortcut.hpp;
  // bulk mode's merged latencies). False once the task is over.
  bool next(StartBatch& starts, std::vector<simgrid::s4u::CommPtr>& flows, double* until);
  // Ends the task; returns the payload bytes it sent.
  Bytes finish();

 private:
  void begin_collective();
  bool collective_batch(StartBatch& starts, std::vector<simgrid::s4u::CommPtr>& flows, double* until);

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  const Task& task_;
  TaskId id_;
  const std::vector<int>* group_ = nullptr;  // collectives only
  const MemberSchedule* mine_ = nullptr;     // collectives only; null when the group has one member
  int tier_ = 0;
  size_t batches_posted_ = 0;
  bool rendezvous_ = false;                  // joined ctx.rendezvous (interference)
  double tail_ = 0;                          // bulk mode: seconds held after the last batch
  bool tail_held_ = false;
  Bytes sent_ = 0;
};

}  // namespace trainsim
