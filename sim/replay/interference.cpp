#include "sim/replay/interference.hpp"

#include <algorithm>

#include "sim/platform/build.hpp"
#include "sim/replay/runtime.hpp"

namespace trainsim {

void begin_transfer(DeviceRuntime& dev) {
  if (dev.transfers_moving++ == 0) dev.kernel.set_speed(dev.host->get_pstate_speed(kDeviceBusyLinks));
}

void end_transfer(DeviceRuntime& dev) {
  if (--dev.transfers_moving == 0) dev.kernel.set_speed(dev.host->get_pstate_speed(kDeviceIdleLinks));
}

void CollectiveRendezvous::arrive(uint64_t key, int members, DeviceRuntime& dev) {
  Instance& in = instances_[key];
  in.members = members;
  ++in.arrived;
  in.present.push_back(&dev);
  if (in.arrived < members) return;
  in.moving = true;
  for (DeviceRuntime* d : in.present) begin_transfer(*d);
}

void CollectiveRendezvous::leave(uint64_t key, DeviceRuntime& dev) {
  auto it = instances_.find(key);
  Instance& in = it->second;
  in.present.erase(std::find(in.present.begin(), in.present.end(), &dev));
  if (in.moving) end_transfer(dev);
  if (++in.left == in.members) instances_.erase(it);
}

}  // namespace trainsim
