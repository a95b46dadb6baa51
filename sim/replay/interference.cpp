#include "sim/replay/interference.hpp"

#include <algorithm>

#include <simgrid/simix.hpp>

#include "sim/platform/build.hpp"
#include "sim/replay/runtime.hpp"

namespace trainsim {

void begin_transfer(DeviceRuntime& dev) {
  if (dev.transfers_moving++ == 0) dev.host->set_pstate(kDeviceBusyLinks);
}

void end_transfer(DeviceRuntime& dev) {
  if (--dev.transfers_moving == 0) dev.host->set_pstate(kDeviceIdleLinks);
}

// set_pstate is a simcall; from kernel mode it runs directly, so one simcall switches several hosts.
void begin_transfer(DeviceRuntime& a, DeviceRuntime& b) {
  simgrid::kernel::actor::simcall_answered([&a, &b] { begin_transfer(a), begin_transfer(b); });
}

void end_transfer(DeviceRuntime& a, DeviceRuntime& b) {
  simgrid::kernel::actor::simcall_answered([&a, &b] { end_transfer(a), end_transfer(b); });
}

void CollectiveRendezvous::arrive(uint64_t key, int members, DeviceRuntime& dev) {
  Instance& in = instances_[key];
  in.members = members;
  ++in.arrived;
  in.present.push_back(&dev);
  if (in.arrived < members) return;
  in.moving = true;
  // One simcall for all members, not one each (see begin_transfer above).
  simgrid::kernel::actor::simcall_answered([&in] {
    for (DeviceRuntime* d : in.present) begin_transfer(*d);
  });
}

void CollectiveRendezvous::leave(uint64_t key, DeviceRuntime& dev) {
  auto it = instances_.find(key);
  Instance& in = it->second;
  in.present.erase(std::find(in.present.begin(), in.present.end(), &dev));
  if (in.moving) end_transfer(dev);
  if (++in.left == in.members) instances_.erase(it);
}

}  // namespace trainsim
