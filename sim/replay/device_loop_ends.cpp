// How a device's tasks end (device_loop.hpp): each ended task is recorded, charged to its time
// category and lets the streams that wait on it look again.
#include <algorithm>

#include "sim/replay/comm_exec.hpp"
#include "sim/replay/device_loop.hpp"

namespace trainsim {

void DeviceLoop::charge_stall(const StreamState& st) {
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

void DeviceLoop::end_compute(StreamState& st) {
  const std::vector<TaskId>& order = *st.order;
  double start = st.start;
  size_t k = st.next;
  uint8_t chained = 0;  // the streams the chain held (chained_streams), gathered on the way
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
      dev_.stats.time[static_cast<int>(wait_category(item.stream))] += end - start;
      dev_.stats.bytes_sent[static_cast<size_t>(item.stream)] += item.sent;
      chained |= static_cast<uint8_t>(1u << static_cast<int>(item.stream));
      finished(item.held);
      ctx_.count_tasks(1);
    }
    start = end;
  }
  dev_.kernel.stop();
  for (uint8_t m = chained; m != 0; m &= static_cast<uint8_t>(m - 1)) {
    StreamState& held = state(__builtin_ctz(m));
    held.chained = held.busy = false;
    if (held.next == held.order->size()) --open_;
  }
  recheck_ |= chained;
  end_task(st, st.run_end);
}

void DeviceLoop::end_recv(StreamState& st) {
  const TaskId t = (*st.order)[st.next];
  record(ctx_, dev_, graph_.task(t), Stream::kPpRecv, st.start, now());
  finished(t);
  ctx_.count_tasks(1);
  end_task(st, st.next + 1);
}

void DeviceLoop::advance_comm(int s) {
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

void DeviceLoop::end_hold(int s) {
  StreamState& st = state(s);
  const double date = st.hold_end;
  st.hold_end = -1;
  holds_ &= static_cast<uint8_t>(~(1u << s));
  if (st.timed) return end_timed(s, date);
  advance_comm(s);
}

void DeviceLoop::end_timed(int s, double date) {
  StreamState& st = state(s);
  const TaskId t = (*st.order)[st.next];
  st.timed = false;
  dev_.stats.bytes_sent[static_cast<size_t>(s)] += st.timed_sent;
  record(ctx_, dev_, graph_.task(t), static_cast<Stream>(s), st.start, date);
  finished(t);
  ctx_.count_tasks(1);
  end_task(st, st.next + 1);
}

void DeviceLoop::end_comm(int s) {
  StreamState& st = state(s);
  const TaskId t = (*st.order)[st.next];
  dev_.stats.bytes_sent[static_cast<size_t>(s)] += st.comm->finish();
  record(ctx_, dev_, graph_.task(t), static_cast<Stream>(s), st.start, now());
  finished(t);
  ctx_.count_tasks(1);
  st.comm.reset();
  end_task(st, st.next + 1);
}

void DeviceLoop::finished(TaskId t) {
  dev_.done[t] = 1;
  recheck_ |= dev_.stage->cross_stream_successor[t];
}

void DeviceLoop::end_task(StreamState& st, size_t next) {
  recheck_ |= static_cast<uint8_t>(1u << (&st - streams_.data()));
  st.busy = false;
  st.next = next;
  if (st.next == st.order->size()) --open_;
}

}  // namespace trainsim
