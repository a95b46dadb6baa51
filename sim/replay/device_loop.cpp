#include "sim/replay/device_loop.hpp"

#include <algorithm>
#include <stdexcept>
#include <xbt/config.hpp>

#include "sim/replay/comm_exec.hpp"
#include "sim/replay/pair_shortcut.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {

DeviceLoop::DeviceLoop(ReplayContext& ctx, DeviceRuntime& dev)
    : ctx_(ctx), dev_(dev), graph_(*dev.stage->graph), inboxes_(ctx, dev) {
  for (int s = 0; s < kStreams; ++s) {
    state(s).order = &graph_.order(static_cast<Stream>(s));
    open_ += state(s).order->empty() ? 0 : 1;
  }
  traced_ = ctx.options.trace_devices.count(dev.rank) > 0;
  precision_ = simgrid::config::get_value<double>("surf/precision");
}

void DeviceLoop::run() {
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

void DeviceLoop::decide_pairs() {
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

bool DeviceLoop::settle() {
  if (!dev_.awaits_members) return false;
  dev_.awaits_members = false;
  if (!dev_.kernel.running()) return false;
  sg4::this_actor::yield();
  return true;
}

void DeviceLoop::begin_ready() {
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

void DeviceLoop::end_passed_holds() {
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

bool DeviceLoop::begin_next(int s) {
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

void DeviceLoop::begin_compute(StreamState& st, TaskId wait) {
  chain_.clear();
  const double until = wait == kNoTask ? -1 : join_wait(dev_, streams_, wait, chain_);
  size_t j = st.next;
  const ComputeRun run = take_run(dev_, *st.order, &j, traced_);
  chain_.push_back({j, kNoTask, Stream::kCompute, 0});
  st.run_end = j;
  if (until >= 0) {
    dev_.kernel.start_until(until);
    then_run(dev_.kernel, run);
    return;
  }
  if (run.seconds <= 0) return end_compute(st);
  start_run(dev_.kernel, run);
}

void DeviceLoop::extend_running_chain() {
  if (traced_ || !dev_.kernel.running()) return;
  extend_chain(ctx_, dev_, streams_, chain_);
  holds_ &= static_cast<uint8_t>(~chained_streams(chain_));
}

void DeviceLoop::wait_next() {
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

void DeviceLoop::received(int offset) {
  inboxes_.arrived(offset, starts_);
  StreamState& st = state(static_cast<int>(Stream::kPpRecv));
  if (st.busy && inboxes_.take(graph_.task((*st.order)[st.next]).peer_offset, &recv_started_)) end_recv(st);
}

void run_device(ReplayContext& ctx, DeviceRuntime& dev) { DeviceLoop(ctx, dev).run(); }

}  // namespace trainsim
