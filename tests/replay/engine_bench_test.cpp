// SimGrid's primitives as `trainsim bench-engine` times them (sim/replay/engine_bench.hpp), on three
// actors that wake up five times each: actor i waits 1 + i us per wake-up (1..7 us by actor), so the
// slowest (i = 2) ends at 5 x 3 us = 15 us; yield takes no simulated time.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "sim/core/child_process.hpp"
#include "sim/replay/engine_bench.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim;

namespace {

EngineBench in_child(EnginePrimitive p) {
  std::istringstream in(call_in_child([p] {
    const EngineBench b = bench_engine_primitive(p, 3, 5);
    std::ostringstream o;
    o.precision(17);
    o << b.wakeups << ' ' << b.simulated;
    return o.str();
  }));
  EngineBench b;
  in >> b.wakeups >> b.simulated;
  return b;
}

}  // namespace

TEST_CASE("every actor of the engine benchmark wakes up as often as asked, at the dates worked by hand",
          "[replay][bench]") {
  const EngineBench yield = in_child(EnginePrimitive::kYield);
  CHECK(yield.wakeups == 15);
  CHECK(yield.simulated == 0);
  const EngineBench sleep = in_child(EnginePrimitive::kSleep);
  CHECK(sleep.wakeups == 15);
  CHECK(sleep.simulated == Approx(15e-6).epsilon(1e-9));
  const EngineBench execute = in_child(EnginePrimitive::kExecute);
  CHECK(execute.wakeups == 15);
  CHECK(execute.simulated == Approx(15e-6).epsilon(1e-6));
}

TEST_CASE("bench-engine prints one row per case and refuses bad counts with exit code 2", "[cli][bench]") {
  const test::CommandResult ok = test::run_trainsim("bench-engine --actors 2,4 --primitives sleep --wakeups 40");
  REQUIRE(ok.exit_code == 0);
  CHECK(ok.out.find("sleep            2           40") != std::string::npos);
  CHECK(ok.out.find("sleep            4           40") != std::string::npos);
  CHECK(ok.out.find("actors^") != std::string::npos);
  CHECK(test::run_trainsim("bench-engine --actors 0").exit_code == 2);
  CHECK(test::run_trainsim("bench-engine --actors 4x").exit_code == 2);
  CHECK(test::run_trainsim("bench-engine --primitives spin").exit_code == 2);
  CHECK(test::run_trainsim("bench-engine --wakeups -5").exit_code == 2);
}
