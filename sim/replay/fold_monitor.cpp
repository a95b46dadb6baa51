#include "sim/replay/fold_monitor.hpp"

#include <algorithm>

namespace trainsim {

uint64_t FoldMonitor::slot(int device, int tier, LinkDir dir) {
  return (static_cast<uint64_t>(device) << 16) | (static_cast<uint64_t>(tier) << 1) |
         (dir == LinkDir::kDown ? 1u : 0u);
}

void FoldMonitor::begin(const MonitoredFlow& f) {
  const LinkDir opposite = f.dir == LinkDir::kUp ? LinkDir::kDown : LinkDir::kUp;
  auto it = live_.find(slot(f.device, f.tier, opposite));
  if (it != live_.end() && exact()) {
    for (const Live& other : it->second) {
      if (other.instance == f.instance || !(other.cross || f.cross)) continue;
      fail("on device " + std::to_string(f.device) + ", a flow to or from a folded peer overlapped other traffic on "
           "tier " + std::to_string(f.tier) + " that the folded peer's own link would also carry");
      break;
    }
  }
  live_[slot(f.device, f.tier, f.dir)].push_back({f.instance, f.cross});
}

void FoldMonitor::end(const MonitoredFlow& f) {
  auto it = live_.find(slot(f.device, f.tier, f.dir));
  std::vector<Live>& v = it->second;
  const auto pos = std::find_if(v.begin(), v.end(),
                                [&](const Live& l) { return l.instance == f.instance && l.cross == f.cross; });
  v.erase(pos);
  if (v.empty()) live_.erase(it);
}

void FoldMonitor::fail(const std::string& reason) {
  if (reason_.empty()) reason_ = reason;
}

}  // namespace trainsim
