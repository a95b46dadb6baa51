// Human-readable description of a resolved run (what `trainsim check` prints and `simulate`
// starts with), and the memory table.
#pragma once
#include <ostream>
#include <vector>

#include "sim/analytic/device_memory.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

void describe_run(std::ostream& out, const RunSpec& run);
// The platform's uncalibrated parameters with their values, three per line (none: nothing).
void describe_uncalibrated(std::ostream& out, const PlatformSpec& p);
// The platform keys left out of its file and the defaults they took, three per line (none: nothing).
void describe_defaults(std::ostream& out, const PlatformSpec& p);
// One "nic ..." line per switched tier whose NIC serves several devices: the per-device bandwidth
// the file gives, and what one NIC carries.
void describe_shared_nics(std::ostream& out, const PlatformSpec& p);
// One "framework  ..." line: host costs, launch mode, stage split, memory terms (none: nothing).
// `host_slowdown`: the platform's (PlatformSpec::host_slowdown), printed when it is not 1.
void describe_framework(std::ostream& out, const FrameworkSpec& f, double host_slowdown = 1);
void describe_memory(std::ostream& out, const RunSpec& run, const std::vector<DeviceMemory>& stages);
// "64.0 GiB"-style text with one decimal.
[[nodiscard]] std::string human_bytes(Bytes b);
// Throws StrategyError with the numbers when the worst stage does not fit in HBM.
void require_fits(const RunSpec& run, const std::vector<DeviceMemory>& stages);

}  // namespace trainsim
