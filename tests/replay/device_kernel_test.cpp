// DeviceKernel (sim/replay/device_kernel.hpp) on timelines worked by hand: one actor on a
// one-host platform reads the kernel's dates while SimGrid's clock moves. Speeds are 100 FLOP/s
// idle and 50 FLOP/s while a transfer moves bytes, so every date below is a short sum.
#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>
#include <sstream>

#include "sim/core/child_process.hpp"
#include "sim/replay/device_kernel.hpp"

using namespace trainsim;
namespace sg4 = simgrid::s4u;

namespace {

// Runs `body` in an actor of a fresh SimGrid engine (in a child process: one engine per
// process) and returns what it wrote.
std::string run_in_kernel_actor(const std::function<void(std::ostream&)>& body) {
  return call_in_child([&] {
    int argc = 1;
    char name[] = "device_kernel_test";
    char* argv[] = {name, nullptr};
    sg4::Engine engine(&argc, argv);
    auto* zone = sg4::create_full_zone("zone");
    sg4::Host* host = zone->create_host("host", 1e9);
    zone->seal();
    std::ostringstream out;
    sg4::Actor::create("device", host, [&] { body(out); });
    engine.run();
    return out.str();
  });
}

constexpr double kIdleFlops = 100, kBusyFlops = 50, kFlopPrecision = 1e-9;

}  // namespace

TEST_CASE("a chain of kernels and a hold ends at the sum of its segments, a transfer's known end included",
          "[replay][kernel]") {
  const std::string out = run_in_kernel_actor([](std::ostream& s) {
    DeviceKernel k;
    k.init(kIdleFlops, kBusyFlops, kFlopPrecision);
    k.start(1000);        // 1000 FLOP at 100 FLOP/s: 0 -> 10
    k.then_hold(2);       // 10 -> 12, whatever the speed
    k.then_compute(500);  // 12 -> 17
    s << k.end();
    k.transfer_begins();  // at 0 the speed halves: 20, 22, 32
    s << ' ' << k.end();
    k.transfer_ends_at(5);  // 250 FLOP by 5, 750 left at 100: 12.5, then 14.5, then 19.5
    s << ' ' << k.end();
    sg4::this_actor::sleep_until(19.5);
    s << ' ' << k.boundary(0) << ' ' << k.boundary(1) << ' ' << k.boundary(2);
  });
  CHECK(out == "17 32 19.5 12.5 14.5 19.5");
}

TEST_CASE("a transfer that ends during a hold leaves the hold as it is and speeds up the kernels after it",
          "[replay][kernel]") {
  const std::string out = run_in_kernel_actor([](std::ostream& s) {
    DeviceKernel k;
    k.init(kIdleFlops, kBusyFlops, kFlopPrecision);
    k.transfer_begins();
    k.start(1000);           // at 50 FLOP/s: 0 -> 20
    k.then_hold(2);          // 20 -> 22
    k.then_compute(500);     // at 100 FLOP/s once the transfer ended at 21: 22 -> 27
    k.transfer_ends_at(21);
    s << k.end();
    sg4::this_actor::sleep_until(8);  // a transfer ending now, before the known end, changes nothing
    k.transfer_begins();              // (two moving: still 50 FLOP/s)
    k.transfer_ends();
    s << ' ' << k.end();
  });
  CHECK(out == "27 27");
}
