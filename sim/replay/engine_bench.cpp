// SimGrid primitives timed at a given number of actors (see engine_bench.hpp).
#include "sim/replay/engine_bench.hpp"

#include <ctime>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>
#include <xbt/log.h>

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

constexpr double kBenchHostSpeed = 1e9;  // flop/s: an execution of k·1e3 flop takes k us
constexpr int kSpread = 7;               // actors wait 1..7 us, so that they do not all wake at once

void bench_actor(EnginePrimitive p, int id, int per_actor, long* wakeups) {
  const double us = 1 + id % kSpread;
  for (int i = 0; i < per_actor; ++i) {
    switch (p) {
      case EnginePrimitive::kYield: sg4::this_actor::yield(); break;
      case EnginePrimitive::kSleep: sg4::this_actor::sleep_for(us * 1e-6); break;
      case EnginePrimitive::kExecute: sg4::this_actor::execute(us * 1e-6 * kBenchHostSpeed); break;
    }
    ++*wakeups;
  }
}

}  // namespace

const char* to_string(EnginePrimitive p) {
  switch (p) {
    case EnginePrimitive::kYield: return "yield";
    case EnginePrimitive::kSleep: return "sleep";
    case EnginePrimitive::kExecute: return "execute";
  }
  return "?";
}

EngineBench bench_engine_primitive(EnginePrimitive p, int actors, int per_actor) {
  int argc = 1;
  char name[] = "trainsim";
  char* argv[] = {name, nullptr};
  xbt_log_control_set("root.thres:warning");
  sg4::Engine engine(&argc, argv);
  engine.set_config("contexts/stack-size:256");  // as the replay (sim/replay/engine.cpp)
  auto* zone = sg4::create_empty_zone("bench");
  std::vector<sg4::Host*> hosts;
  for (int i = 0; i < actors; ++i) hosts.push_back(zone->create_host("h" + std::to_string(i), kBenchHostSpeed));
  zone->seal();
  EngineBench out;
  for (int i = 0; i < actors; ++i) sg4::Actor::create("a" + std::to_string(i), hosts[i], bench_actor, p, i, per_actor, &out.wakeups);
  const std::clock_t start = std::clock();
  engine.run();
  out.cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  out.simulated = sg4::Engine::get_clock();
  return out;
}

}  // namespace trainsim
