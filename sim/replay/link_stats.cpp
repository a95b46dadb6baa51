#include "sim/replay/link_stats.hpp"

#include <simgrid/plugins/load.h>

#include <simgrid/s4u.hpp>

namespace trainsim {

void track_links(const BuiltPlatform& platform) {
  for (const auto& l : platform.links) sg_link_load_track(l.link);
}

std::vector<LinkStat> read_link_stats(const BuiltPlatform& platform, Seconds iteration_time) {
  std::vector<LinkStat> out;
  for (const auto& l : platform.links) {
    // The plugin integrates the bandwidth used over time: bytes carried.
    const double bytes = sg_link_get_cum_load(l.link);
    if (bytes <= 0) continue;
    LinkStat s;
    s.name = l.link->get_name();
    s.tier = l.tier >= 0 ? platform.tier_names[static_cast<size_t>(l.tier)] + "." + l.role : l.role;
    s.bandwidth = l.link->get_bandwidth();
    s.bytes = bytes;
    s.busy_fraction = iteration_time > 0 && s.bandwidth > 0 ? bytes / (s.bandwidth * iteration_time) : 0;
    out.push_back(s);
  }
  return out;
}

}  // namespace trainsim
