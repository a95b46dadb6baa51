// Fewer wake-ups for a device's actor (device_loop.cpp), each exact: the actor would have done
// nothing else at the dates it skips.
//
// A chain: kernels of the compute stream that run back to back, and, where the last of them has
// one dependent on another stream, a collective whose time is known in advance (a timed
// exchange with a private switch, held_collective_seconds) that nothing else waits for and that
// the next compute task alone waits on, the kernels go on through it (a hold of the compute
// stream, DeviceKernel::then_hold) without a wake-up. The collective's stream is the chain's
// until the chain ends, as it would be had the actor woken at each end, because no other task of
// the device can begin meanwhile: the collective's stream's next task waits on a compute task
// after the hold.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sim/replay/runtime.hpp"
#include "sim/replay/stream_state.hpp"

namespace trainsim {

// One segment of a chain: a run of kernels (held == kNoTask) that ends before compute-order
// position run_end, or the hold of collective `held`, which sends `sent` bytes from stream
// `stream`. The streams of a chain's holds are the streams it holds (StreamState::chained): the
// device's loop finds them here rather than looking at every stream's state.
struct ChainItem {
  size_t run_end = 0;
  TaskId held = kNoTask;
  Stream stream = Stream::kCompute;
  Bytes sent = 0;
};

// Bit s set: the chain holds a task of stream s.
[[nodiscard]] uint8_t chained_streams(const std::vector<ChainItem>& chain);

using DeviceStreams = std::array<StreamState, kStreams>;

// A run of compute-stream tasks of one role: their seconds on an idle device, and whether they are
// the host's exposed time (TaskRole::kHost: the device idles while the host issues launches; the
// host's CPU is not slowed by the device's transfers, so the run is a hold, not kernels).
struct ComputeRun {
  double seconds = 0;
  bool host = false;
};

// Advances *j past the compute tasks of one role that can run back to back from order[*j] (only
// order[*j] itself when `single`, for a traced device).
ComputeRun take_run(const DeviceRuntime& dev, const std::vector<TaskId>& order, size_t* j, bool single);

// Appends `run` to the device's chain (then_run) or begins a chain with it (start_run): kernels at
// the device's speed, or a hold for the host's time.
void then_run(DeviceKernel& kernel, ComputeRun run);
void start_run(DeviceKernel& kernel, ComputeRun run);

// Whether compute-order position j waits on nothing a chain cannot wait for without a wake:
// each of its predecessors has finished or is the chain's, save at most one timed collective in
// progress (*wait; kNoTask if none) whose end needs no wake of its own: only compute tasks wait
// on it, and its stream's next task waits on a compute task at j or after.
[[nodiscard]] bool waits_for(const DeviceRuntime& dev, const DeviceStreams& streams, size_t j, TaskId* wait);

// Makes timed collective `wait` (in progress, as waits_for found it) the chain's: its stream is
// the chain's until the chain ends, and `chain` waits for it; returns the date it ends.
double join_wait(DeviceRuntime& dev, DeviceStreams& streams, TaskId wait, std::vector<ChainItem>& chain);

// Extends the compute stream's chain (streams[0]: its first run begun, in `chain`) while the
// rule above holds: appends holds and runs to `chain` and to dev.kernel, marks the held
// streams chained and moves compute's run_end on.
void extend_chain(ReplayContext& ctx, DeviceRuntime& dev, DeviceStreams& streams, std::vector<ChainItem>& chain);

// Whether the end of stream s's timed collective needs no wake: the kernels run until a wake of
// their own, no task that waits on the collective can begin before then (its compute dependents
// come after the running kernels, it has no other dependents) and neither can the next task of
// its stream (it waits on a compute task after the running kernels). The first wake after its
// end ends it at its date; the device's speed changed then without a wake
// (DeviceKernel::transfer_ends_at).
[[nodiscard]] bool end_unwatched(const DeviceRuntime& dev, const DeviceStreams& streams, int s);

}  // namespace trainsim
