#include "sim/platform/switched_tree.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/platform/tier_layout.hpp"

namespace trainsim {
namespace {

const char* level_role(size_t level) { return level == 0 ? "leaf_uplink" : level == 1 ? "agg_uplink" : "uplink"; }

std::string level_switch_name(size_t level, size_t index) {
  const std::string kind = level == 0 ? "leaf" : level == 1 ? "agg" : "core" + std::to_string(level) + "_";
  return kind + std::to_string(index);
}

void check_tree_fields(const TierContext& ctx) {
  const TierSpec& tier = ctx.tier();
  require_positive(ctx, "bandwidth", tier.bandwidth, "the per-device NIC bandwidth, e.g. 50GBps");
  require_positive(ctx, "oversubscription", tier.oversubscription, "1 for non-blocking, 2 for 2:1, ...");
  if (tier.switch_radix < 4)
    throw ConfigError(ctx.spec->source_file, 0, tier_key(ctx.tier_index, "switch_radix"),
                      "a switch needs at least 4 ports", std::to_string(tier.switch_radix), "4, 32, 64, ...");
}

}  // namespace

int SwitchedTreeFabric::leaf_down_ports(int radix) { return std::max(1, radix / 2); }

SwitchedTreeFabric::SwitchedTreeFabric(const TierContext& ctx, NicPlacement placement) {
  check_tree_fields(ctx);
  nic_of_device_.assign(static_cast<size_t>(ctx.devices), -1);
  for (int d = 0; d < ctx.domain_count(); ++d) build_domain(ctx, d, placement);
}

void SwitchedTreeFabric::build_domain(const TierContext& ctx, int domain, const NicPlacement& placement) {
  const TierSpec& tier = ctx.tier();
  const int first = domain * ctx.domain_size;
  const int count = ctx.devices_in_domain(domain);
  // A "node" is a tier-below domain; on tier 0 the devices sharing a NIC stand for one.
  const int node_size = ctx.inner_size > 1 ? ctx.inner_size : tier.devices_per_nic;
  TreeGeometry geometry;
  geometry.nics_per_node = (node_size + tier.devices_per_nic - 1) / tier.devices_per_nic;
  geometry.nodes = (count + node_size - 1) / node_size;
  geometry.leaf_down = leaf_down_ports(tier.switch_radix);
  const double nic_bandwidth = tier.bandwidth * tier.devices_per_nic * tier.planes;

  std::vector<int> domain_nics;
  int last_key = -1;
  for (int local = 0; local < count; ++local) {
    const int node = local / node_size;
    const int rail = (local % node_size) / tier.devices_per_nic;
    const int key = node * geometry.nics_per_node + rail;
    if (key != last_key) {  // consecutive devices of one NIC are adjacent ranks
      last_key = key;
      const int nic = static_cast<int>(nics_.size());
      nics_.push_back(ctx.catalog->duplex(ctx.link_name("nic" + std::to_string(nic)), nic_bandwidth,
                                          tier.latency / 2, ctx.tier_index, "nic"));
      nic_position_.push_back(placement(geometry, node, rail));
      nic_domain_.push_back(domain);
      domain_nics.push_back(nic);
    }
    nic_of_device_[static_cast<size_t>(first + local)] = static_cast<int>(nics_.size()) - 1;
  }
  Tree tree;
  tree.group_size.push_back(geometry.leaf_down);
  build_uplinks(ctx, domain, tree, domain_nics);
  trees_.push_back(std::move(tree));
}

void SwitchedTreeFabric::build_uplinks(const TierContext& ctx, int domain, Tree& tree, const std::vector<int>& nics) {
  const TierSpec& tier = ctx.tier();
  int positions = 0;
  for (int nic : nics) positions = std::max(positions, nic_position_[static_cast<size_t>(nic)] + 1);
  const int fan = std::max(2, tier.switch_radix / 2);  // leaves per pod, pods per super-pod, ...
  auto groups_at = [&](size_t level) { return (positions + tree.group_size[level] - 1) / tree.group_size[level]; };
  while (groups_at(tree.group_size.size() - 1) > tier.switch_radix)
    tree.group_size.push_back(tree.group_size.back() * fan);

  const double nic_bandwidth = tier.bandwidth * tier.devices_per_nic * tier.planes;
  const std::string prefix = ctx.domain_count() > 1 ? "dom" + std::to_string(domain) + "_" : "";
  for (size_t level = 0; level < tree.group_size.size(); ++level) {
    const int groups = groups_at(level);
    tree.uplinks.emplace_back();
    if (groups <= 1) continue;  // one switch holds everything: nothing above it
    if (tier.oversubscription <= 1) continue;  // non-blocking: the uplink never binds (header)
    std::vector<double> capacity(static_cast<size_t>(groups), 0.0);
    for (int nic : nics) capacity[static_cast<size_t>(nic_position_[static_cast<size_t>(nic)] / tree.group_size[level])] += nic_bandwidth;
    tree.uplinks.back().resize(static_cast<size_t>(groups));
    for (size_t g = 0; g < capacity.size(); ++g) {
      if (capacity[g] <= 0) continue;  // an empty switch (rail placement leaves gaps)
      tree.uplinks.back()[g] = ctx.catalog->duplex(ctx.link_name(prefix + level_switch_name(level, g) + "_up"),
                                                   capacity[g] / tier.oversubscription, 0.0, ctx.tier_index,
                                                   level_role(level));
    }
  }
}

void SwitchedTreeFabric::append_route(int a, int b, std::vector<simgrid::s4u::Link*>& links) const {
  const int na = nic_of_device_[static_cast<size_t>(a)];
  const int nb = nic_of_device_[static_cast<size_t>(b)];
  links.push_back(nics_[static_cast<size_t>(na)].up);
  if (na != nb) {
    const Tree& tree = trees_[static_cast<size_t>(nic_domain_[static_cast<size_t>(na)])];
    const int pa = nic_position_[static_cast<size_t>(na)];
    const int pb = nic_position_[static_cast<size_t>(nb)];
    int highest = -1;  // highest level whose switches differ: the route turns just above it
    for (size_t level = 0; level < tree.group_size.size(); ++level)
      if (pa / tree.group_size[level] != pb / tree.group_size[level]) highest = static_cast<int>(level);
    for (int level = 0; level <= highest; ++level) {
      const auto& up = tree.uplinks[static_cast<size_t>(level)];
      if (!up.empty()) links.push_back(up[static_cast<size_t>(pa / tree.group_size[static_cast<size_t>(level)])].up);
    }
    for (int level = highest; level >= 0; --level) {
      const auto& up = tree.uplinks[static_cast<size_t>(level)];
      if (!up.empty()) links.push_back(up[static_cast<size_t>(pb / tree.group_size[static_cast<size_t>(level)])].down);
    }
  }
  links.push_back(nics_[static_cast<size_t>(nb)].down);
}

void SwitchedTreeFabric::append_switch_route(int device, bool to_switch, std::vector<simgrid::s4u::Link*>& links) const {
  const DuplexLink& nic = nics_[static_cast<size_t>(nic_of_device_[static_cast<size_t>(device)])];
  links.push_back(to_switch ? nic.up : nic.down);
}

}  // namespace trainsim
