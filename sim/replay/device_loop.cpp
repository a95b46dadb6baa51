// The body of a device's actor: every stream of the device in one actor (stream_state.hpp).
//
// Each stream runs its tasks in order; a task begins once the stream is free and its
// predecessors on other streams have finished. The actor begins every task that can begin,
// starts their kernels and flows in one simcall (start_batch.hpp), then waits for whichever of
// its activities completes first (Activity::wait_any_for; its timeout ends the holds of
// communication tasks: bulk mode's latency tails, timed switch exchanges), and goes round
// again. One actor per device instead of one per stream: a finished task wakes no other actor,
// and nothing is started or waited for one simcall at a time.
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <xbt/config.hpp>

#include "sim/platform/build.hpp"
#include "sim/replay/comm_exec.hpp"
#include "sim/replay/runtime.hpp"
#include "sim/replay/stream_state.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

class DeviceLoop {
 public:
  DeviceLoop(ReplayContext& ctx, DeviceRuntime& dev) : ctx_(ctx), dev_(dev), graph_(*dev.stage->graph) {
    for (int s = 0; s < kStreams; ++s) {
      streams_[static_cast<size_t>(s)].order = &graph_.order(static_cast<Stream>(s));
      open_ += streams_[static_cast<size_t>(s)].order->empty() ? 0 : 1;
    }
    traced_ = ctx.options.trace_devices.count(dev.rank) > 0;
    precision_ = simgrid::config::get_value<double>("surf/precision");
  }

  void run() {
    while (open_ > 0) {
      begin_ready();
      starts_.flush();
      if (open_ > 0) wait_next();
    }
    dev_.stats.end = sg4::Engine::get_clock();
  }

 private:
  StreamState& state(int s) { return streams_[static_cast<size_t>(s)]; }
  // A hold ends within SimGrid's timing precision of its date, as SimGrid ends an action (the
  // sleep, the flow) whose date is that close to the current one with the current step.
  bool hold_over(const StreamState& st) const { return st.hold_end >= 0 && st.hold_end - now() < precision_; }
  static double now() { return sg4::Engine::get_clock(); }

  // Begins tasks on free streams until none can begin (a task that moves nothing ends at once,
  // which may let another stream's task begin).
  void begin_ready() {
    for (bool progress = true; progress;) {
      progress = false;
      for (int s = 0; s < kStreams; ++s) {
        StreamState& st = state(s);
        if (hold_over(st)) end_hold(s), progress = true;
        while (!st.busy && st.next < st.order->size() && begin_next(s)) progress = true;
      }
    }
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
    if (st.stalled && static_cast<Stream>(s) == Stream::kCompute)
      dev_.stats.time[static_cast<int>(wait_category(st.blocking))] += now() - st.stall_start;
    st.stalled = false;
    st.busy = true;
    st.start = now();
    if (static_cast<Stream>(s) == Stream::kCompute) {
      begin_compute(st);
    } else {
      st.comm.emplace(ctx_, dev_, t, starts_);
      advance_comm(s);
    }
    return true;
  }

  // Compute task `next` and every following one of the same role that can already run, as one
  // Exec (kernels of one stream run back to back). The Exec runs at the host's current speed,
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
    st.exec = sg4::Exec::init();
    starts_.start(st.exec, work * kHostSpeed, dev_.host);
  }

  void end_compute(StreamState& st) {
    const Task& first = graph_.task((*st.order)[st.next]);
    dev_.stats.time[static_cast<int>(busy_category(first.role))] += now() - st.start;
    if (traced_) record(ctx_, dev_, first, Stream::kCompute, st.start, now());
    for (size_t k = st.next; k < st.run_end; ++k) dev_.done[(*st.order)[k]] = 1;
    ctx_.count_tasks(st.run_end - st.next);
    st.exec = nullptr;
    end_task(st, st.run_end);
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
    dev_.stats.bytes_sent[static_cast<size_t>(s)] += st.comm->finish(starts_);
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

  // Waits for the first of the activities the streams wait on (each stream's flows one by one:
  // a batch is over once its last flow is, so waiting for them in turn ends at the same moment),
  // or for the earliest hold to end.
  void wait_next() {
    waitset_.clear();
    waitset_stream_.clear();
    double deadline = -1;
    for (int s = 0; s < kStreams; ++s) {
      StreamState& st = state(s);
      if (st.exec) {
        waitset_.push_back(st.exec);
      } else if (st.comm && st.cursor < st.flows.size()) {
        waitset_.push_back(st.flows[st.cursor]);
      } else {
        if (st.hold_end >= 0 && (deadline < 0 || st.hold_end < deadline)) deadline = st.hold_end;
        continue;
      }
      waitset_stream_.push_back(s);
    }
    if (waitset_.empty() && deadline < 0)
      throw std::logic_error("replay: device " + std::to_string(dev_.rank) + " has tasks left but nothing to wait for");
    const ssize_t i = sg4::Activity::wait_any_for(waitset_, deadline < 0 ? -1.0 : deadline - now());
    if (i < 0) return;  // a hold ended: begin_ready() takes it up
    const int s = waitset_stream_[static_cast<size_t>(i)];
    StreamState& st = state(s);
    if (st.exec) return end_compute(st);
    if (++st.cursor == st.flows.size()) advance_comm(s);
  }

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  const StageGraph& graph_;
  bool traced_ = false;
  double precision_ = 0;  // SimGrid's surf/precision, seconds
  int open_ = 0;  // streams with tasks left
  std::array<StreamState, kStreams> streams_;
  StartBatch starts_;
  std::vector<sg4::ActivityPtr> waitset_;
  std::vector<int> waitset_stream_;
};

}  // namespace

void run_device(ReplayContext& ctx, DeviceRuntime& dev) { DeviceLoop(ctx, dev).run(); }

}  // namespace trainsim
