#include "sim/analytic/host_time.hpp"

#include <algorithm>

namespace trainsim {

Seconds exposed_host_time(const HostCosts& host, Seconds device, int launches, int instructions) {
  if (!host.any()) return 0;
  const int issued = host.cuda_graphs ? 1 : launches;
  const Seconds time = host.pass + instructions * host.pipeline_instruction + issued * host.launch;
  return host.launch_blocking ? time : std::max<Seconds>(0, time - device);
}

Seconds exposed_segment_time(const HostCosts& host, Seconds device, int launches) {
  if (!host.any()) return 0;
  const Seconds time = (host.cuda_graphs ? 0 : launches) * host.launch;
  return host.launch_blocking ? time : std::max<Seconds>(0, time - device);
}

int forward_instructions(bool first, bool last) { return 1 + (first ? 1 : 1 + (last ? 1 : 0)) + (last ? 0 : 1); }

int backward_instructions(bool first, bool last) { return 1 + (last ? 0 : 1) + (first ? 0 : 1); }

}  // namespace trainsim
