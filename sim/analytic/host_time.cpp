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
  // n kernels of d device seconds each: the framework's `calls` first (h each), then the library's own
  // launches (l each). The idle time max_j (host to issue 1..j − (j − 1) d) is linear in j within each
  // run, so it peaks at one of the runs' ends.
  const Seconds d = device / n, h = host.launch, l = host.library_launch_cost();
  const int c = launches.calls, k = launches.library;
  const Seconds calls = c * h;
  Seconds idle = c > 0 ? std::max(h, calls - (c - 1) * d) : 0;
  if (k > 0) idle = std::max({idle, calls + l - c * d, calls + k * l - (n - 1) * d});
  return {calls + k * l, device, idle};
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
  // The pass's own host costs come before its first launch: host time of no device time.
  const Seconds before = host.pass + instructions * host.pipeline_instruction;
  if (host.cuda_graphs) return before + host.launch;
  IssueSegments pass;
  pass.spans.front() = IssueSpan{before, 0, before};
  pass = pass.then(segments);
  pass.lead_carried = segments.lead_carried;
  Seconds exposed = 0;
  for (size_t i = 0; i < pass.spans.size(); ++i)
    exposed += exposed_segment_time(host, pass.spans[i], i == 0 && pass.lead_carried);
  return exposed;
}

bool pass_starts_empty(const RunSpec& run, bool first_stage, bool last_stage, bool backward) {
  const auto& s = run.strategy;
  if (s.pp <= 1 || s.overlap.pp_comm) return false;
  const bool plain = s.virtual_stages <= 1;
  return !(plain && ((first_stage && !backward) || (last_stage && backward)));
}

int forward_instructions(bool first, bool last) { return 1 + (first ? 1 : 1 + (last ? 1 : 0)) + (last ? 0 : 1); }

int backward_instructions(bool first, bool last) { return 1 + (last ? 0 : 1) + (first ? 0 : 1); }

}  // namespace trainsim
