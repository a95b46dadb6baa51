// The body of a device's actor: every stream of the device in one actor (stream_state.hpp).
//
// Each stream runs its tasks in order; a task begins once the stream is free and its
// predecessors on other streams have finished. The actor begins every task that can begin,
// starts their flows in one simcall (start_batch.hpp), then waits for whichever of its flows
// completes first or for the earliest date it knows of (Activity::wait_any_for's timeout: the end
// of its kernels, device_kernel.hpp, or of a communication task's hold, CommOp::next), and goes
// round again. One actor per device, not one per stream: a finished task wakes no other actor,
// and nothing is started or waited for one simcall at a time.
#include <algorithm>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <xbt/config.hpp>

#include "sim/platform/build.hpp"
#include "sim/replay/comm_exec.hpp"
#include "sim/replay/interference.hpp"
#include "sim/replay/pipeline_inbox.hpp"
#include "sim/replay/runtime.hpp"
#include "sim/replay/stream_state.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

class DeviceLoop {
 public:
  DeviceLoop(ReplayContext& ctx, DeviceRuntime& dev)
      : ctx_(ctx), dev_(dev), graph_(*dev.stage->graph), inboxes_(ctx, dev) {
    for (int s = 0; s < kStreams; ++s) {
      state(s).order = &graph_.order(static_cast<Stream>(s));
      open_ += state(s).order->empty() ? 0 : 1;
    }
    traced_ = ctx.options.trace_devices.count(dev.rank) > 0;
    precision_ = simgrid::config::get_value<double>("surf/precision");
  }

  void run() {
    inboxes_.post(starts_);
    while (open_ > 0) {
      begin_ready();
      starts_.flush();
      if (open_ > 0) wait_next();
    }
    dev_.stats.end = sg4::Engine::get_clock();
  }

 private:
  StreamState& state(int s) { return streams_[static_cast<size_t>(s)]; }
  static double now() { return sg4::Engine::get_clock(); }
  // A date counts as reached within SimGrid's timing precision, as SimGrid ends an action whose
  // date is that close to the current one with the current step.
  bool reached(double date) const { return date >= 0 && date - now() < precision_; }

  // Ends what has ended, then begins tasks on free streams until none can begin (a task that
  // moves nothing ends at once, which may let another stream's task begin).
  void begin_ready() {
    for (bool progress = true; progress;) {
      progress = false;
      if (dev_.kernel.running() && reached(dev_.kernel.end())) end_compute(state(0)), progress = true;
      for (int s = 0; s < kStreams; ++s) {
        StreamState& st = state(s);
        if (reached(st.hold_end)) end_hold(s), progress = true;
        while (!st.busy && st.next < st.order->size() && begin_next(s)) progress = true;
      }
    }
  }

  // The compute stream's wait, charged to the stream it waited on. A wait on a pipeline receive is
  // bubble until the sender began the transfer (the work was not there to send) and exposed_pp
  // while its bytes moved (the transfer itself was not hidden): the receive that let compute go on
  // is the one that just ended (end_recv records when its message began to move).
  void charge_stall(const StreamState& st) {
    const double stall = now() - st.stall_start;
    auto& time = dev_.stats.time;
    if (st.blocking != Stream::kPpRecv) {
      time[static_cast<int>(wait_category(st.blocking))] += stall;
      return;
    }
    const double moving = std::clamp(now() - std::max(st.stall_start, recv_started_), 0.0, stall);
    time[static_cast<int>(TimeCategory::kExposedPp)] += moving;
    time[static_cast<int>(TimeCategory::kBubble)] += stall - moving;
  }

  bool begin_next(int s) {
    StreamState& st = state(s);
    const TaskId t = (*st.order)[st.next];
    Stream blocking = Stream::kCompute;
    if (!preds_done(dev_, t, &blocking)) {
      if (!st.stalled) st.stalled = true, st.stall_start = now();
      st.blocking = blocking;
      return false;
    }
    // Only the compute stream's waits make the breakdown (charged to the stream it waited on).
    if (st.stalled && static_cast<Stream>(s) == Stream::kCompute) charge_stall(st);
    st.stalled = false;
    st.busy = true;
    st.start = now();
    const Task& task = graph_.task(t);
    if (static_cast<Stream>(s) == Stream::kCompute) {
      begin_compute(st);
    } else if (task.kind == TaskKind::kRecv) {
      if (inboxes_.take(task.peer_offset, &recv_started_)) end_recv(st);
    } else {
      st.comm.emplace(ctx_, dev_, t);
      advance_comm(s);
    }
    return true;
  }

  // Compute task `next` and every following one of the same role that can already run, as one
  // run of kernels (kernels of one stream run back to back) at the device's current speed,
  // which interference.hpp lowers while the device's bytes move. A traced device runs each task
  // alone, so each trace slice is exact.
  void begin_compute(StreamState& st) {
    const std::vector<TaskId>& order = *st.order;
    const TaskRole role = graph_.task(order[st.next]).role;
    double work = 0;
    size_t j = st.next;
    do {
      work += graph_.task(order[j]).duration;
      ++j;
    } while (!traced_ && j < order.size() && !dev_.stage->cross_stream_successor[order[j - 1]] &&
             graph_.task(order[j]).role == role && preds_done(dev_, order[j], nullptr));
    st.run_end = j;
    if (work <= 0) return end_compute(st);
    dev_.kernel.start(work * kHostSpeed);
  }

  void end_compute(StreamState& st) {
    dev_.kernel.stop();
    const Task& first = graph_.task((*st.order)[st.next]);
    dev_.stats.time[static_cast<int>(busy_category(first.role))] += now() - st.start;
    if (traced_) record(ctx_, dev_, first, Stream::kCompute, st.start, now());
    for (size_t k = st.next; k < st.run_end; ++k) dev_.done[(*st.order)[k]] = 1;
    ctx_.count_tasks(st.run_end - st.next);
    end_task(st, st.run_end);
  }

  // The receive in progress on the pipeline stream has its message.
  void end_recv(StreamState& st) {
    const TaskId t = (*st.order)[st.next];
    record(ctx_, dev_, graph_.task(t), Stream::kPpRecv, st.start, now());
    dev_.done[t] = 1;
    ctx_.count_tasks(1);
    end_task(st, st.next + 1);
  }

  // The communication task of stream s takes its next step (a batch of flows or a hold), or ends.
  void advance_comm(int s) {
    StreamState& st = state(s);
    st.flows.clear();
    st.cursor = 0;
    double until = -1;
    while (st.comm->next(starts_, st.flows, &until)) {
      if (!st.flows.empty()) return;
      if (until >= 0) {
        st.hold_end = until;
        return;
      }
    }
    end_comm(s);
  }

  void end_hold(int s) {
    state(s).hold_end = -1;
    advance_comm(s);
  }

  void end_comm(int s) {
    StreamState& st = state(s);
    const TaskId t = (*st.order)[st.next];
    dev_.stats.bytes_sent[static_cast<size_t>(s)] += st.comm->finish();
    record(ctx_, dev_, graph_.task(t), static_cast<Stream>(s), st.start, now());
    dev_.done[t] = 1;
    ctx_.count_tasks(1);
    st.comm.reset();
    end_task(st, st.next + 1);
  }

  void end_task(StreamState& st, size_t next) {
    st.busy = false;
    st.next = next;
    if (st.next == st.order->size()) --open_;
  }

  // Waits for the first of: the flows the streams wait on (each stream's flows one by one: a
  // batch is over once its last flow is, so waiting for them in turn ends at the same moment),
  // the receives posted on the pipeline mailboxes, the end of the kernels, the end of a hold.
  void wait_next() {
    waitset_.clear();
    waitset_stream_.clear();
    double deadline = dev_.kernel.running() ? dev_.kernel.end() : -1;
    for (int s = 0; s < kStreams; ++s) {
      StreamState& st = state(s);
      if (st.comm && st.cursor < st.flows.size()) {
        waitset_.push_back(st.flows[st.cursor]);
        waitset_stream_.push_back(s);
      } else if (st.hold_end >= 0 && (deadline < 0 || st.hold_end < deadline)) {
        deadline = st.hold_end;
      }
    }
    inboxes_.add_waits(waitset_, waitset_stream_);
    if (waitset_.empty() && deadline < 0)
      throw std::logic_error("replay: device " + std::to_string(dev_.rank) + " has tasks left but nothing to wait for");
    const ssize_t i = sg4::Activity::wait_any_for(waitset_, deadline < 0 ? -1.0 : deadline - now());
    if (i < 0) return;  // a date was reached: begin_ready() takes it up
    const int s = waitset_stream_[static_cast<size_t>(i)];
    if (s < 0) return received(PipelineInboxes::offset_of_wait(s));
    StreamState& st = state(s);
    if (++st.cursor == st.flows.size()) advance_comm(s);
  }

  // A message arrived from the pipeline neighbour `offset` stages away.
  void received(int offset) {
    inboxes_.arrived(offset, starts_);
    StreamState& st = state(static_cast<int>(Stream::kPpRecv));
    if (st.busy && inboxes_.take(graph_.task((*st.order)[st.next]).peer_offset, &recv_started_)) end_recv(st);
  }

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  const StageGraph& graph_;
  PipelineInboxes inboxes_;
  bool traced_ = false;
  double precision_ = 0;       // SimGrid's surf/precision, seconds
  double recv_started_ = -1;   // when the message of the last ended pipeline receive began to move
  int open_ = 0;          // streams with tasks left
  std::array<StreamState, kStreams> streams_;
  StartBatch starts_;
  std::vector<sg4::ActivityPtr> waitset_;
  std::vector<int> waitset_stream_;  // the stream of each, or a pipeline inbox (< 0)
};

}  // namespace

void run_device(ReplayContext& ctx, DeviceRuntime& dev) { DeviceLoop(ctx, dev).run(); }

}  // namespace trainsim
