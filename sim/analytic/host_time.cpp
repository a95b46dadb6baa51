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

Seconds exposed_host_time(const HostCosts& host, Seconds device, const Launches& launches, int instructions) {
  if (!host.any()) return 0;
  const Seconds time = host.pass + instructions * host.pipeline_instruction + launch_seconds(host, launches);
  return host.launch_blocking ? time : std::max<Seconds>(0, time - device);
}

Seconds exposed_segment_time(const HostCosts& host, Seconds device, const Launches& launches) {
  if (!host.any()) return 0;
  const Seconds time = host.cuda_graphs ? 0 : launch_seconds(host, launches);
  return host.launch_blocking ? time : std::max<Seconds>(0, time - device);
}

int forward_instructions(bool first, bool last) { return 1 + (first ? 1 : 1 + (last ? 1 : 0)) + (last ? 0 : 1); }

int backward_instructions(bool first, bool last) { return 1 + (last ? 0 : 1) + (first ? 0 : 1); }

}  // namespace trainsim
