// Per-link bytes and utilization through SimGrid's link-load plugin.
#pragma once
#include <vector>

#include "sim/platform/build.hpp"
#include "sim/replay/timeline.hpp"

namespace trainsim {

// Starts counting on every link of the platform (call after build_platform, before run).
void track_links(const BuiltPlatform& platform);
// Bytes each link carried and its busy fraction over `iteration_time`; links that carried
// nothing are left out.
[[nodiscard]] std::vector<LinkStat> read_link_stats(const BuiltPlatform& platform, Seconds iteration_time);

}  // namespace trainsim
