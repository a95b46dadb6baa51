// The readable result of `trainsim simulate`, and its machine-readable JSON twin.
#pragma once
#include <ostream>
#include <vector>

#include "sim/analytic/device_memory.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/replay/options.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/report/metrics.hpp"

namespace trainsim {

struct SimulationReport {
  const RunSpec& run;
  const Timeline& timeline;
  const RunMetrics& metrics;
  const std::vector<DeviceMemory>& memory;
  const ReplayOptions& options;
  double wall_seconds = 0;  // how long the replay took on this machine (not written to JSON: not deterministic)
};

void write_summary(std::ostream& out, const SimulationReport& r);
void write_result_json(std::ostream& out, const SimulationReport& r);

}  // namespace trainsim
