#include "tests/platform/platform_fixture.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>
#include <memory>

#include "sim/core/child_process.hpp"

namespace trainsim::testing {

TierSpec make_tier(const std::string& name, Topology topology, int domain_size, double bandwidth, double latency) {
  TierSpec tier;
  tier.name = name;
  tier.topology = topology;
  tier.domain_size = domain_size;
  tier.bandwidth = bandwidth;
  tier.latency = latency;
  return tier;
}

PlatformSpec make_platform(const std::vector<TierSpec>& tiers) {
  PlatformSpec spec;
  spec.name = "test-platform";
  spec.source_file = "test.yaml";
  spec.tiers = tiers;
  return spec;
}

std::string in_simulation(const PlatformSpec& spec, int devices,
                          const std::function<std::string(const BuiltPlatform&)>& fn) {
  return call_in_child([&]() {
    static char program[] = "trainsim_tests";
    static char quiet[] = "--log=root.thres:critical";
    char* argv[] = {program, quiet, nullptr};
    int argc = 2;
    simgrid::s4u::Engine engine(&argc, argv);
    configure_network(engine);
    const BuiltPlatform built = build_platform(spec, devices);
    return fn(built);
  });
}

std::string describe_route(simgrid::s4u::Host* a, simgrid::s4u::Host* b) {
  std::vector<simgrid::s4u::Link*> links;
  double latency = 0;
  a->route_to(b, links, &latency);
  std::string out;
  for (const simgrid::s4u::Link* link : links) out += (out.empty() ? "" : " ") + link->get_name();
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, " | %.9g", latency);
  return out + buffer;
}

std::string run_flows(const std::vector<Flow>& flows) {
  auto done = std::make_shared<std::vector<double>>(flows.size(), -1.0);
  for (size_t i = 0; i < flows.size(); ++i) {
    const std::string box = "flow" + std::to_string(i);
    const double bytes = flows[i].bytes;
    simgrid::s4u::Actor::create("send" + std::to_string(i), flows[i].src, [box, bytes]() {
      static int payload = 0;
      simgrid::s4u::Mailbox::by_name(box)->put(&payload, bytes);
    });
    simgrid::s4u::Actor::create("recv" + std::to_string(i), flows[i].dst, [box, i, done]() {
      simgrid::s4u::Mailbox::by_name(box)->get<int>();
      (*done)[i] = simgrid::s4u::Engine::get_clock();
    });
  }
  simgrid::s4u::Engine::get_instance()->run();
  std::string out;
  for (double t : *done) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s%.12g", out.empty() ? "" : " ", t);
    out += buffer;
  }
  return out;
}

std::vector<double> parse_numbers(const std::string& text) {
  std::vector<double> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t used = 0;
    out.push_back(std::stod(text.substr(pos), &used));
    pos += used;
    while (pos < text.size() && text[pos] == ' ') ++pos;
  }
  return out;
}

}  // namespace trainsim::testing
