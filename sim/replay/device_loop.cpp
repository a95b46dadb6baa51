// The body of a device's actor: every stream of the device in one actor (stream_state.hpp).
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
// before the running kernels end is taken up, at its own date, at the next wake.
#include <algorithm>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <xbt/config.hpp>

#include "sim/platform/build.hpp"
#include "sim/replay/comm_exec.hpp"
#include "sim/replay/interference.hpp"
#include "sim/replay/kernel_chain.hpp"
#include "sim/replay/pair_shortcut.hpp"
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
      if (deciding_ != 0) {
        decide_pairs();
        continue;
      }
      if (open_ > 0 && !settle()) wait_next();
    }
    dev_.stats.end = sg4::Engine::get_clock();
  }

 private:
  StreamState& state(int s) { return streams_[static_cast<size_t>(s)]; }
  static double now() { return sg4::Engine::get_clock(); }
  // A date counts as reached within SimGrid's timing precision, as SimGrid ends an action whose
  // date is that close to the current one with the current step.
  bool reached(double date) const { return date >= 0 && date - now() < precision_; }

  // Collectives begun in this pass that may be timed without flows (pair_shortcut.hpp): once the
  // other actors woken at this date have run (a yield), each is timed if every member has begun
  // it, else it runs as flows.
  void decide_pairs() {
    sg4::this_actor::yield();
    for (uint8_t m = deciding_; m != 0; m &= static_cast<uint8_t>(m - 1)) {
      const int s = __builtin_ctz(m);
      StreamState& st = state(s);
      const TaskId t = (*st.order)[st.next];
      if (ctx_.pairs.decide(collective_instance(ctx_, dev_, t))) {
        st.hold_end = begin_held_collective(ctx_, dev_, t, st.pair_hold);
        st.timed = true;
        holds_ |= static_cast<uint8_t>(1u << s);
        recheck_ |= 1u;  // the compute stream may now wait for it in a chain
      } else {
        st.comm.emplace(ctx_, dev_, t);
        advance_comm(s);
      }
    }
    deciding_ = 0;
  }

  // A device that arrived at a collective its peers have not reached yet lets the other actors
  // woken at this date run first (a yield: no time passes) before it takes the end of its
  // kernels as its wake-up date: peers in step with it arrive in this round, and their arrival
  // slows its kernels (interference.hpp). Waiting at once would set a wake-up for a date its
  // kernels no longer end at, a wake-up at which it would do nothing. Returns whether it yielded.
  bool settle() {
    if (!dev_.awaits_members) return false;
    dev_.awaits_members = false;
    if (!dev_.kernel.running()) return false;
    sg4::this_actor::yield();
    return true;
  }

  // Ends what has ended, then begins tasks on free streams until none can begin (a task that
  // moves nothing ends at once, which may let another stream's task begin). A free stream whose
  // next task waits is looked at again only once something it may wait on has finished
  // (recheck_): a task of its own stream, or one on which a task of it depends.
  void begin_ready() {
    end_passed_holds();
    for (bool progress = true; progress;) {
      progress = false;
      if (dev_.kernel.running() && reached(dev_.kernel.end())) end_compute(state(0)), progress = true;
      for (int s = 0; s < kStreams; ++s) {
        const auto bit = static_cast<uint8_t>(1u << s);
        if ((holds_ & bit) && reached(state(s).hold_end)) end_hold(s), progress = true;
        if (!(recheck_ & bit)) continue;
        recheck_ &= static_cast<uint8_t>(~bit);
        StreamState& st = state(s);
        while (!st.busy && st.next < st.order->size() && begin_next(s)) progress = true;
      }
    }
    extend_running_chain();
  }

  // Timed collectives whose end passed without a wake (wait_next left them out), earliest first.
  void end_passed_holds() {
    for (;;) {
      int first = -1;
      for (uint8_t m = holds_; m != 0; m &= static_cast<uint8_t>(m - 1)) {
        const int s = __builtin_ctz(m);
        const double end = state(s).hold_end;
        if (state(s).timed && end < now() - precision_ && (first < 0 || end < state(first).hold_end)) first = s;
      }
      if (first < 0) return;
      end_hold(first);
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
    TaskId wait = kNoTask;
    if (!preds_done(dev_, t, &blocking)) {
      if (!st.stalled) st.stalled = true, st.stall_start = now();
      st.blocking = blocking;
      // The compute stream may begin a chain with a wait for a timed collective in progress.
      if (s != 0 || traced_ || !waits_for(dev_, streams_, st.next, &wait) || wait == kNoTask) return false;
    }
    // Only the compute stream's waits make the breakdown (charged to the stream it waited on).
    if (st.stalled && static_cast<Stream>(s) == Stream::kCompute) charge_stall(st);
    st.stalled = false;
    st.busy = true;
    st.start = now();
    const Task& task = graph_.task(t);
    if (static_cast<Stream>(s) == Stream::kCompute) {
      begin_compute(st, wait);
    } else if (task.kind == TaskKind::kRecv) {
      if (inboxes_.take(task.peer_offset, &recv_started_)) end_recv(st);
    } else if (task.kind == TaskKind::kCollective && (st.hold_end = begin_timed_collective(ctx_, dev_, t, &st.timed_sent)) >= 0) {
      st.timed = true;
      holds_ |= static_cast<uint8_t>(1u << s);
      recheck_ |= 1u;  // the compute stream may now wait for it in a chain
    } else if (task.kind == TaskKind::kCollective && (st.pair_hold = pair_collective_seconds(ctx_, dev_, t, &st.timed_sent)) >= 0) {
      ctx_.pairs.arrive(collective_instance(ctx_, dev_, t), static_cast<int>(ctx_.group(dev_, task.group).size()));
      deciding_ |= static_cast<uint8_t>(1u << s);
    } else {
      st.comm.emplace(ctx_, dev_, t);
      advance_comm(s);
    }
    return true;
  }

  // Compute task `next` and every following one of the same role that can already run, as one
  // run of kernels (kernels of one stream run back to back) at the device's current speed,
  // which interference.hpp lowers while the device's bytes move. A traced device runs each task
  // alone, so each trace slice is exact. The run may go on as a chain (extend_chain).
  void begin_compute(StreamState& st, TaskId wait) {
    chain_.clear();
    const double until = wait == kNoTask ? -1 : join_wait(dev_, streams_, wait, chain_);
    size_t j = st.next;
    const double work = take_run(dev_, *st.order, &j, traced_);
    chain_.push_back({j, kNoTask, 0});
    st.run_end = j;
    if (until >= 0) {
      holds_ &= static_cast<uint8_t>(~(1u << static_cast<int>(graph_.task(wait).stream)));
      dev_.kernel.start_until(until);
      dev_.kernel.then_compute(work * kHostSpeed);
      return;
    }
    if (work <= 0) return end_compute(st);
    dev_.kernel.start(work * kHostSpeed);
  }

  // Extends the compute stream's chain, once every stream has begun what it can in this pass (a
  // timed collective begun beside the kernels, or since they began, may be one the chain can
  // wait for). A timed collective the chain waits for is the chain's: its end is the chain's too.
  void extend_running_chain() {
    if (traced_ || !dev_.kernel.running()) return;
    extend_chain(ctx_, dev_, streams_, chain_);
    for (int s = 1; s < kStreams; ++s)
      if (state(s).chained) holds_ &= static_cast<uint8_t>(~(1u << s));
  }

  // The chain ended: each of its segments is charged and its tasks end, as they would have had
  // the actor woken at each segment's end (a hold is the compute stream's wait on its stream).
  void end_compute(StreamState& st) {
    const std::vector<TaskId>& order = *st.order;
    double start = st.start;
    size_t k = st.next;
    for (size_t i = 0; i < chain_.size(); ++i) {
      const ChainItem& item = chain_[i];
      const double end = i + 1 == chain_.size() ? now() : dev_.kernel.boundary(i);
      if (item.held == kNoTask) {
        const Task& first = graph_.task(order[k]);
        dev_.stats.time[static_cast<int>(busy_category(first.role))] += end - start;
        if (traced_) record(ctx_, dev_, first, Stream::kCompute, start, end);
        ctx_.count_tasks(item.run_end - k);
        for (; k < item.run_end; ++k) finished(order[k]);
      } else {
        const Stream held = graph_.task(item.held).stream;
        dev_.stats.time[static_cast<int>(wait_category(held))] += end - start;
        dev_.stats.bytes_sent[static_cast<size_t>(held)] += item.sent;
        finished(item.held);
        ctx_.count_tasks(1);
      }
      start = end;
    }
    dev_.kernel.stop();
    for (StreamState& held : streams_)
      if (held.chained) {
        held.chained = held.busy = false;
        recheck_ |= static_cast<uint8_t>(1u << (&held - streams_.data()));
        if (held.next == held.order->size()) --open_;
      }
    end_task(st, st.run_end);
  }

  // The receive in progress on the pipeline stream has its message.
  void end_recv(StreamState& st) {
    const TaskId t = (*st.order)[st.next];
    record(ctx_, dev_, graph_.task(t), Stream::kPpRecv, st.start, now());
    finished(t);
    ctx_.count_tasks(1);
    end_task(st, st.next + 1);
  }

  // The communication task of stream s takes its next step (a batch of flows or a hold), or ends.
  void advance_comm(int s) {
    StreamState& st = state(s);
    const auto bit = static_cast<uint8_t>(1u << s);
    st.flows.clear();
    st.cursor = 0;
    flows_ &= static_cast<uint8_t>(~bit);
    double until = -1;
    while (st.comm->next(starts_, st.flows, &until)) {
      if (!st.flows.empty()) {
        flows_ |= bit;
        return;
      }
      if (until >= 0) {
        st.hold_end = until;
        holds_ |= bit;
        return;
      }
    }
    end_comm(s);
  }

  void end_hold(int s) {
    StreamState& st = state(s);
    const double date = st.hold_end;
    st.hold_end = -1;
    holds_ &= static_cast<uint8_t>(~(1u << s));
    if (st.timed) return end_timed(s, date);
    advance_comm(s);
  }

  // A timed collective ended at `date` (now, or earlier for one no task waited on: wait_next).
  void end_timed(int s, double date) {
    StreamState& st = state(s);
    const TaskId t = (*st.order)[st.next];
    st.timed = false;
    dev_.stats.bytes_sent[static_cast<size_t>(s)] += st.timed_sent;
    record(ctx_, dev_, graph_.task(t), static_cast<Stream>(s), st.start, date);
    finished(t);
    ctx_.count_tasks(1);
    end_task(st, st.next + 1);
  }

  void end_comm(int s) {
    StreamState& st = state(s);
    const TaskId t = (*st.order)[st.next];
    dev_.stats.bytes_sent[static_cast<size_t>(s)] += st.comm->finish();
    record(ctx_, dev_, graph_.task(t), static_cast<Stream>(s), st.start, now());
    finished(t);
    ctx_.count_tasks(1);
    st.comm.reset();
    end_task(st, st.next + 1);
  }

  // Task t has finished: the streams with tasks that depend on it look again.
  void finished(TaskId t) {
    dev_.done[t] = 1;
    recheck_ |= dev_.stage->cross_stream_successor[t];
  }

  void end_task(StreamState& st, size_t next) {
    recheck_ |= static_cast<uint8_t>(1u << (&st - streams_.data()));
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
      const auto bit = static_cast<uint8_t>(1u << s);
      if (flows_ & bit) {
        const StreamState& st = state(s);
        waitset_.push_back(st.flows[st.cursor]);
        waitset_stream_.push_back(s);
      } else if ((holds_ & bit) && (deadline < 0 || state(s).hold_end < deadline) && !end_unwatched(dev_, streams_, s)) {
        deadline = state(s).hold_end;
      }
    }
    inboxes_.add_waits(waitset_, waitset_stream_);
    if (waitset_.empty() && deadline < 0)
      throw std::logic_error("replay: device " + std::to_string(dev_.rank) + " has tasks left but nothing to wait for");
    ++ctx_.wakeups;
    const ssize_t i = sg4::Activity::wait_any_for(waitset_, deadline < 0 ? -1.0 : deadline - now());
    if (i < 0) return;  // a date was reached: begin_ready() takes it up
    const int s = waitset_stream_[static_cast<size_t>(i)];
    if (s < 0) return received(PipelineInboxes::offset_of_wait(s));
    StreamState& st = state(s);
    if (++st.cursor == st.flows.size()) advance_comm(s);  // clears or sets flows_
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
  // Bit s: stream s may be able to begin its next task (begin_ready), holds its stream until
  // hold_end, waits on flows (flows[cursor] onwards).
  uint8_t recheck_ = (1u << kStreams) - 1, holds_ = 0, flows_ = 0;
  uint8_t deciding_ = 0;  // bit s: stream s began a collective that may be timed (decide_pairs)
  std::array<StreamState, kStreams> streams_;
  std::vector<ChainItem> chain_;  // the compute stream's chain in progress (kernel_chain.hpp)
  StartBatch starts_;
  std::vector<sg4::ActivityPtr> waitset_;
  std::vector<int> waitset_stream_;  // the stream of each, or a pipeline inbox (< 0)
};

}  // namespace

void run_device(ReplayContext& ctx, DeviceRuntime& dev) { DeviceLoop(ctx, dev).run(); }

}  // namespace trainsim
