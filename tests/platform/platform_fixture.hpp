// Helpers for platform tests: a tier/platform maker, and a SimGrid engine run inside a forked
// child (SimGrid 3.32 allows one engine per process), returning text the parent checks.
#pragma once
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "sim/config/platform_spec.hpp"
#include "sim/platform/build.hpp"

namespace trainsim::testing {

[[nodiscard]] TierSpec make_tier(const std::string& name, Topology topology, int domain_size, double bandwidth,
                                 double latency);
[[nodiscard]] PlatformSpec make_platform(const std::vector<TierSpec>& tiers);

// Runs fn(built) in a child with a fresh engine, configure_network and build_platform.
[[nodiscard]] std::string in_simulation(const PlatformSpec& spec, int devices,
                                        const std::function<std::string(const BuiltPlatform&)>& fn);

// "<link names separated by spaces> | <latency in seconds, %.9g>" for the route a -> b.
[[nodiscard]] std::string describe_route(simgrid::s4u::Host* a, simgrid::s4u::Host* b);

struct Flow {
  simgrid::s4u::Host* src;
  simgrid::s4u::Host* dst;
  double bytes;
};
// Starts all flows at time 0 and returns their completion times, space separated (%.12g).
[[nodiscard]] std::string run_flows(const std::vector<Flow>& flows);

// The numbers in a space-separated text (parent side, to check run_flows output).
[[nodiscard]] std::vector<double> parse_numbers(const std::string& text);

}  // namespace trainsim::testing
