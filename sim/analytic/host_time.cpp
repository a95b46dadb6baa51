#include "sim/analytic/host_time.hpp"

#include <algorithm>

namespace trainsim {

HostCosts host_costs_on(const HostCosts& framework, const PlatformSpec& platform) {
  HostCosts h = framework;
  const double k = platform.host_slowdown;
  h.launch *= k, h.library_launch *= k, h.pass *= k, h.pipeline_instruction *= k;
  return h;
}

Seconds launch_seconds(const HostCosts& host, const Launches& n) {
  if (host.cuda_graphs) return host.launch;
  return n.calls * host.launch + n.library * host.library_launch_cost();
}

IssueSpan IssueSpan::then(const IssueSpan& next) const {
  return {host + next.host, device + next.device, std::max(idle, host - device + next.idle)};
}

IssueSpan issue_span(const HostCosts& host, const Launches& launches, Seconds device) {
  const int n = launches.calls + launches.library;
  if (host.cuda_graphs || n <= 0) return {0, device, 0};
  // n equal kernels of h host and d device seconds each: the idle time max_j (j h − (j − 1) d) is at
  // j = 1 or j = n.
  const Seconds h = launch_seconds(host, launches) / n, d = device / n;
  return {n * h, device, std::max(h, n * h - (n - 1) * d)};
}

Seconds exposed_host_time(const HostCosts& host, const IssueSpan& span, int instructions) {
  IssueSegments one;
  one.spans = {span};
  return exposed_host_time(host, one, instructions);
}

Seconds exposed_segment_time(const HostCosts& host, const IssueSpan& span, bool lead_carried) {
  if (!host.any() || host.cuda_graphs) return 0;
  if (host.launch_blocking) return span.host;
  return lead_carried ? std::max<Seconds>(0, span.host - span.device) : span.idle;
}

IssueSegments IssueSegments::then(const IssueSegments& next) const {
  IssueSegments out = *this;
  out.add(next.spans.front());
  out.spans.insert(out.spans.end(), next.spans.begin() + 1, next.spans.end());
  return out;
}

Seconds exposed_host_time(const HostCosts& host, const IssueSegments& segments, int instructions) {
  if (!host.any()) return 0;
  const Seconds before = host.pass + instructions * host.pipeline_instruction;
  if (host.cuda_graphs) return before + host.launch;
  Seconds exposed = before;
  for (size_t i = 0; i < segments.spans.size(); ++i)
    exposed += exposed_segment_time(host, segments.spans[i], i == 0 && segments.lead_carried);
  return exposed;
}

bool passes_start_empty(const RunSpec& run) { return run.strategy.pp > 1 && !run.strategy.overlap.pp_comm; }

int forward_instructions(bool first, bool last) { return 1 + (first ? 1 : 1 + (last ? 1 : 0)) + (last ? 0 : 1); }

int backward_instructions(bool first, bool last) { return 1 + (last ? 0 : 1) + (first ? 0 : 1); }

}  // namespace trainsim
