#include "sim/graph/host_time.hpp"

#include <algorithm>

namespace trainsim {
namespace {

// Seconds the compute stream is held by task `id`: a kernel's duration; a collective it waits for,
// its uncontended time (BuildContext::host_waits); nothing for work on other streams.
Seconds stream_seconds(const BuildContext& ctx, size_t id) {
  const Task& t = ctx.graph.task(static_cast<TaskId>(id));
  if (t.kind == TaskKind::kCompute) return t.duration;
  const bool waited = std::find(ctx.host_waits.begin(), ctx.host_waits.end(), id) != ctx.host_waits.end();
  return waited ? ep_exchange_seconds(*ctx.comm, ctx.comm_rank, ctx.run) : 0;
}

// The tasks issued since the segment began, in order, as the host issues them: one launch per task,
// the launches some make beyond their first, then `trailing_launches` more.
IssueSpan segment_span(const BuildContext& ctx, int trailing_launches) {
  IssueSpan span;
  auto extra = ctx.host_extras.begin();
  for (size_t id = ctx.host_segment_start; id < ctx.graph.size(); ++id) {
    Launches n{1, 0};
    for (; extra != ctx.host_extras.end() && extra->first <= id; ++extra)
      if (extra->first == id) n += Launches{extra->second.calls, extra->second.library};
    span = span.then(issue_span(ctx.host, n, stream_seconds(ctx, id)));
  }
  return span.then(issue_span(ctx.host, Launches{trailing_launches, 0}, 0));
}

void add_host_task(BuildContext& ctx, Seconds exposed, int microbatch) {
  if (exposed <= 0) return;
  Task t;
  t.kind = TaskKind::kCompute;
  t.stream = Stream::kCompute;
  t.role = TaskRole::kHost;
  t.label = ctx.graph.label("host.launches");
  t.microbatch = microbatch;
  t.duration = exposed;
  add_compute(ctx, t);
}

void new_segment(BuildContext& ctx) {
  ctx.host_segment_start = ctx.graph.size();
  ctx.host_extras.clear();
  ctx.host_waits.clear();
}

}  // namespace

void begin_pass(BuildContext& ctx, bool backward) {
  new_segment(ctx);
  const int stage = ctx.graph.stage();
  ctx.host_lead_carried = !pass_starts_empty(ctx.run, stage == 0, stage == ctx.run.strategy.pp - 1, backward);
}

void host_sync(BuildContext& ctx, int microbatch) {
  const HostCosts& host = ctx.host;
  if (!host.any()) return;
  add_host_task(ctx, exposed_segment_time(host, segment_span(ctx, 0), ctx.host_lead_carried), microbatch);
  new_segment(ctx);
  ctx.host_lead_carried = false;
}

void end_pass(BuildContext& ctx, int trailing_launches, int instructions, int microbatch) {
  const HostCosts& host = ctx.host;
  if (!host.any()) return;
  const IssueSegments pass{{segment_span(ctx, trailing_launches)}, ctx.host_lead_carried};
  add_host_task(ctx, exposed_host_time(host, pass, instructions), microbatch);
}

}  // namespace trainsim
