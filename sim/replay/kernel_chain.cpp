#include "sim/replay/kernel_chain.hpp"

#include "sim/replay/comm_exec.hpp"

namespace trainsim {
namespace {

bool preds_done_but(const DeviceRuntime& dev, TaskId t, TaskId except) {
  const CompiledStage& cs = *dev.stage;
  for (uint32_t i = cs.pred_begin[t]; i < cs.pred_begin[t + 1]; ++i)
    if (cs.preds[i] != except && !dev.done[cs.preds[i]]) return false;
  return true;
}

// The collective after compute-order position j - 1 that the chain can hold, or kNoTask.
TaskId holdable(const DeviceRuntime& dev, const DeviceStreams& streams, const std::vector<TaskId>& order, size_t j) {
  const CompiledStage& cs = *dev.stage;
  const TaskId last = order[j - 1];
  const TaskId t = cs.lone_successor[last];
  if (t == kNoTask || !cs.compute_blocking[t] || cs.lone_successor[t] != order[j]) return kNoTask;
  const StreamState& held = streams[static_cast<size_t>(cs.graph->task(t).stream)];
  if ((held.busy && !held.chained) || held.next >= held.order->size() || (*held.order)[held.next] != t) return kNoTask;
  if (!preds_done_but(dev, t, last) || !preds_done_but(dev, order[j], t)) return kNoTask;
  const bool next_waits = held.next + 1 == held.order->size() || cs.compute_pred_limit[(*held.order)[held.next + 1]] > j;
  return next_waits ? t : kNoTask;
}

// Whether task p, not finished, is a collective the chain in progress already waits for (held
// or joined): its stream is the chain's and has moved past it.
bool in_chain(const DeviceRuntime& dev, const DeviceStreams& streams, TaskId p) {
  const StreamState& st = streams[static_cast<size_t>(dev.stage->graph->task(p).stream)];
  return st.chained && st.next > dev.stage->order_index[p];
}

// Whether compute-order position j can follow the chain without a wake: the last task before it
// lets no task of another stream begin, and it waits on nothing but what waits_for allows.
bool can_follow(const DeviceRuntime& dev, const DeviceStreams& streams, const std::vector<TaskId>& order, size_t j,
                TaskId* wait) {
  return dev.stage->cross_stream_successor[order[j - 1]] == 0 && waits_for(dev, streams, j, wait);
}

// Appends position *j and the run of kernels it begins to the chain, after a wait for the timed
// collective it waits on if any, when can_follow allows; moves *j past the run.
bool follow(DeviceRuntime& dev, DeviceStreams& streams, const std::vector<TaskId>& order, std::vector<ChainItem>& chain,
            size_t* j) {
  TaskId wait = kNoTask;
  if (!can_follow(dev, streams, order, *j, &wait)) return false;
  if (wait != kNoTask) dev.kernel.then_until(join_wait(dev, streams, wait, chain));
  const ComputeRun run = take_run(dev, order, j, false);
  chain.push_back({*j, kNoTask, Stream::kCompute, 0});
  then_run(dev.kernel, run);
  return true;
}

}  // namespace

bool waits_for(const DeviceRuntime& dev, const DeviceStreams& streams, size_t j, TaskId* wait) {
  const CompiledStage& cs = *dev.stage;
  *wait = kNoTask;
  const TaskId t = (*streams[0].order)[j];
  for (uint32_t i = cs.pred_begin[t]; i < cs.pred_begin[t + 1]; ++i) {
    const TaskId p = cs.preds[i];
    if (dev.done[p] || in_chain(dev, streams, p)) continue;
    const StreamState& st = streams[static_cast<size_t>(cs.graph->task(p).stream)];
    if (*wait != kNoTask || !st.timed || st.chained || (*st.order)[st.next] != p) return false;
    if ((cs.cross_stream_successor[p] & ~1u) != 0) return false;
    if (st.next + 1 < st.order->size() && cs.compute_pred_limit[(*st.order)[st.next + 1]] <= j) return false;
    *wait = p;
  }
  return true;
}

double join_wait(DeviceRuntime& dev, DeviceStreams& streams, TaskId wait, std::vector<ChainItem>& chain) {
  const Stream stream = dev.stage->graph->task(wait).stream;
  StreamState& held = streams[static_cast<size_t>(stream)];
  const double end = held.hold_end;
  held.chained = true;
  held.timed = false;
  held.hold_end = -1;
  ++held.next;
  chain.push_back({0, wait, stream, held.timed_sent});
  return end;
}

ComputeRun take_run(const DeviceRuntime& dev, const std::vector<TaskId>& order, size_t* j, bool single) {
  const StageGraph& graph = *dev.stage->graph;
  const TaskRole role = graph.task(order[*j]).role;
  ComputeRun run{0, role == TaskRole::kHost};
  do {
    run.seconds += graph.task(order[*j]).duration;
    ++*j;
  } while (!single && *j < order.size() && !dev.stage->cross_stream_successor[order[*j - 1]] &&
           graph.task(order[*j]).role == role && preds_done(dev, order[*j], nullptr));
  return run;
}

void then_run(DeviceKernel& kernel, ComputeRun run) {
  if (run.host)
    kernel.then_hold(run.seconds);
  else
    kernel.then_compute(run.seconds * kHostSpeed);
}

void start_run(DeviceKernel& kernel, ComputeRun run) {
  if (run.host)
    kernel.start_hold(run.seconds);
  else
    kernel.start(run.seconds * kHostSpeed);
}

void extend_chain(ReplayContext& ctx, DeviceRuntime& dev, DeviceStreams& streams, std::vector<ChainItem>& chain) {
  StreamState& compute = streams[0];
  const std::vector<TaskId>& order = *compute.order;
  for (size_t j = compute.run_end; j < order.size();) {
    const TaskId t = holdable(dev, streams, order, j);
    if (t == kNoTask) {
      if (!follow(dev, streams, order, chain, &j)) return;
      compute.run_end = j;
      continue;
    }
    Bytes sent = 0;
    const double hold = held_collective_seconds(ctx, dev, t, &sent);
    if (hold < 0) return;
    const Stream stream = dev.stage->graph->task(t).stream;
    StreamState& held = streams[static_cast<size_t>(stream)];
    held.busy = held.chained = true;
    held.stalled = false;
    ++held.next;
    chain.push_back({0, t, stream, sent});
    dev.kernel.then_hold(hold);
    const ComputeRun run = take_run(dev, order, &j, false);
    chain.push_back({j, kNoTask, Stream::kCompute, 0});
    then_run(dev.kernel, run);
    compute.run_end = j;
  }
}

uint8_t chained_streams(const std::vector<ChainItem>& chain) {
  uint8_t mask = 0;
  for (const ChainItem& item : chain)
    if (item.held != kNoTask) mask |= static_cast<uint8_t>(1u << static_cast<int>(item.stream));
  return mask;
}

bool end_unwatched(const DeviceRuntime& dev, const DeviceStreams& streams, int s) {
  const StreamState& st = streams[static_cast<size_t>(s)];
  if (!st.timed || !dev.kernel.running()) return false;
  const CompiledStage& cs = *dev.stage;
  const TaskId t = (*st.order)[st.next];
  const size_t running_to = streams[0].run_end;
  if ((cs.cross_stream_successor[t] & ~1u) != 0 || cs.first_compute_successor[t] < running_to) return false;
  return st.next + 1 == st.order->size() || cs.compute_pred_limit[(*st.order)[st.next + 1]] > running_to;
}

}  // namespace trainsim
