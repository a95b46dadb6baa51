#include "sim/report/links_csv.hpp"

#include <algorithm>
#include <cstdio>

namespace trainsim {
namespace {

// The tier a link belongs to, from its "<tier name>.<role>" label (tier names are unique; a role
// has no dot); nullptr for links outside the tiers (the loopback).
const TierSpec* tier_of(const RunSpec& run, const std::string& label) {
  const size_t dot = label.rfind('.');
  if (dot == std::string::npos) return nullptr;
  const std::string name = label.substr(0, dot);
  for (const TierSpec& t : run.platform.tiers)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

void write_links_csv(std::ostream& out, const RunSpec& run, const Timeline& timeline) {
  std::vector<LinkStat> links;
  for (const LinkStat& l : timeline.links)
    if (l.bytes > 0) links.push_back(l);
  const double time = timeline.iteration_time;
  auto utilisation = [&](const LinkStat& l) { return time > 0 && l.bandwidth > 0 ? l.bytes / (l.bandwidth * time) : 0.0; };
  std::sort(links.begin(), links.end(), [&](const LinkStat& a, const LinkStat& b) {
    const double ua = utilisation(a), ub = utilisation(b);
    return ua != ub ? ua > ub : a.name < b.name;
  });
  out << "link,tier,configured_Bps,effective_Bps,bytes,utilisation\n";
  for (const LinkStat& l : links) {
    const TierSpec* tier = tier_of(run, l.tier);
    const double configured = tier != nullptr && tier->efficiency > 0 ? l.bandwidth / tier->efficiency : l.bandwidth;
    char line[400];
    std::snprintf(line, sizeof line, "%s,%s,%.10g,%.10g,%.10g,%.6f\n", l.name.c_str(), l.tier.c_str(), configured,
                  l.bandwidth, l.bytes, utilisation(l));
    out << line;
  }
}

}  // namespace trainsim
