// The loop of a device's actor (run_device, runtime.hpp): every stream of the device in one actor
// (stream_state.hpp). Internal to sim/replay: device_loop.cpp begins tasks and waits,
// device_loop_ends.cpp ends them and charges their time.
//
// Each stream runs its tasks in order; a task begins once the stream is free and its
// predecessors on other streams have finished. The actor begins every task that can begin,
// starts their flows in one simcall (start_batch.hpp), then waits for whichever of its flows
// completes first or for the earliest date it knows of (Activity::wait_any_for's timeout: the end
// of its kernels, device_kernel.hpp, or of a communication task's hold, CommOp::next), and goes
// round again. One actor per device, not one per stream: a finished task wakes no other actor,
// and nothing is started or waited for one simcall at a time.
//
// A collective that is an exchange with a private switch is timed, not moved (switch_shortcut.hpp):
// it holds its stream until a date known when it begins. The actor skips wake-ups at which it
// would do nothing (kernel_chain.hpp): kernels, a collective only they wait on and the kernels
// that wait on it run as one chain, and the end of a timed collective that nothing can act on
// before the running kernels end is taken up, at its own date, at the next wake. A collective
// whose members exchange over links nothing else uses is timed once they have all begun it
// (pair_shortcut.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/replay/kernel_chain.hpp"
#include "sim/replay/pipeline_inbox.hpp"
#include "sim/replay/runtime.hpp"
#include "sim/replay/start_batch.hpp"
#include "sim/replay/stream_state.hpp"

namespace trainsim {

class DeviceLoop {
 public:
  DeviceLoop(ReplayContext& ctx, DeviceRuntime& dev);
  // Runs the device's tasks to the end of the iteration.
  void run();


 private:
  StreamState& state(int s) { return streams_[static_cast<size_t>(s)]; }
  static double now() { return simgrid::s4u::Engine::get_clock(); }
  // A date counts as reached within SimGrid's timing precision, as SimGrid ends an action whose
  // date is that close to the current one with the current step.
  bool reached(double date) const { return date >= 0 && date - now() < precision_; }

  // Collectives begun in this pass that may be timed without flows (pair_shortcut.hpp): once the
  // other actors woken at this date have run (a yield), each is timed if every member has begun
  // it, else it runs as flows.
  void decide_pairs();

  // A device that arrived at a collective its peers have not reached yet lets the other actors
  // woken at this date run first (a yield: no time passes) before it takes the end of its
  // kernels as its wake-up date: peers in step with it arrive in this round, and their arrival
  // slows its kernels (interference.hpp). Waiting at once would set a wake-up for a date its
  // kernels no longer end at, a wake-up at which it would do nothing. Returns whether it yielded.
  bool settle();

  // Ends what has ended, then begins tasks on free streams until none can begin (a task that
  // moves nothing ends at once, which may let another stream's task begin). A free stream whose
  // next task waits is looked at again only once something it may wait on has finished
  // (recheck_): a task of its own stream, or one on which a task of it depends.
  void begin_ready();

  // Timed collectives whose end passed without a wake (wait_next left them out), earliest first.
  void end_passed_holds();

  // Begins the next task of stream s if it can begin now (a compute task may begin with a wait
  // for a timed collective in progress, kernel_chain.hpp); whether it began.
  bool begin_next(int s);

  // Compute task `next` and every following one of the same role that can already run, as one
  // run of kernels (kernels of one stream run back to back) at the device's current speed,
  // which interference.hpp lowers while the device's bytes move. A traced device runs each task
  // alone, so each trace slice is exact. The run may go on as a chain (extend_chain).
  void begin_compute(StreamState& st, TaskId wait);

  // Extends the compute stream's chain, once every stream has begun what it can in this pass (a
  // timed collective begun beside the kernels, or since they began, may be one the chain can
  // wait for). A timed collective the chain waits for is the chain's: its end is the chain's too.
  void extend_running_chain();

  // Waits for the first of: the flows the streams wait on (each stream's flows one by one: a
  // batch is over once its last flow is, so waiting for them in turn ends at the same moment),
  // the receives posted on the pipeline mailboxes, the end of the kernels, the end of a hold.
  void wait_next();

  // A message arrived from the pipeline neighbour `offset` stages away.
  void received(int offset);

  // The compute stream's wait, charged to the stream it waited on. A wait on a pipeline receive is
  // bubble until the sender began the transfer (the work was not there to send) and exposed_pp
  // while its bytes moved (the transfer itself was not hidden): the receive that let compute go on
  // is the one that just ended (end_recv records when its message began to move).
  void charge_stall(const StreamState& st);

  // The chain ended: each of its segments is charged and its tasks end, as they would have had
  // the actor woken at each segment's end (a hold is the compute stream's wait on its stream).
  void end_compute(StreamState& st);

  // The receive in progress on the pipeline stream has its message.
  void end_recv(StreamState& st);

  // The communication task of stream s takes its next step (a batch of flows or a hold), or ends.
  void advance_comm(int s);

  // The hold of stream s reached its date: a timed collective ends, a bulk one goes on.
  void end_hold(int s);

  // A timed collective ended at `date` (now, or earlier for one no task waited on: wait_next).
  void end_timed(int s, double date);

  // The communication task of stream s has moved its last batch.
  void end_comm(int s);

  // Task t has finished: the streams with tasks that depend on it look again.
  void finished(TaskId t);

  // The stream's task in progress is over; its next task is at `next` in its order.
  void end_task(StreamState& st, size_t next);

  // What the loop reads at every wake-up first, the streams' states last (see StreamState).
  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  const StageGraph& graph_;
  double precision_ = 0;  // SimGrid's surf/precision, seconds
  int open_ = 0;          // streams with tasks left
  // Bit s: stream s may be able to begin its next task (begin_ready), holds its stream until
  // hold_end, waits on flows (flows[cursor] onwards).
  uint8_t recheck_ = (1u << kStreams) - 1, holds_ = 0, flows_ = 0;
  uint8_t deciding_ = 0;  // bit s: stream s began a collective that may be timed (decide_pairs)
  bool traced_ = false;
  std::vector<ChainItem> chain_;  // the compute stream's chain in progress (kernel_chain.hpp)
  StartBatch starts_;
  std::vector<simgrid::s4u::ActivityPtr> waitset_;
  std::vector<int> waitset_stream_;  // the stream of each, or a pipeline inbox (< 0)
  double recv_started_ = -1;         // when the message of the last ended pipeline receive began to move
  PipelineInboxes inboxes_;
  std::array<StreamState, kStreams> streams_;
};

}  // namespace trainsim
