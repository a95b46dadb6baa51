#include "sim/replay/interference.hpp"

#include <algorithm>

#include "sim/platform/build.hpp"
#include "sim/replay/runtime.hpp"
#include <simgrid/s4u/Engine.hpp>

namespace trainsim {

void begin_transfer(DeviceRuntime& dev) { dev.kernel.transfer_begins(); }

void end_transfer(DeviceRuntime& dev) { dev.kernel.transfer_ends(); }

void CollectiveRendezvous::arrive(uint64_t key, int members, DeviceRuntime& dev, double departure) {
  Instance& in = instances_[key];
  in.members = members;
  ++in.arrived;
  in.present.push_back({&dev, departure});
  if (in.arrived < members) {
    dev.awaits_members = true;
    return;
  }
  in.moving = true;
  const double now = simgrid::s4u::Engine::get_clock();
  bool known = true;
  for (const Member& m : in.present) {
    known = known && m.departure >= 0;
    if (m.departure >= 0 && m.departure <= now) continue;  // gone before the bytes moved
    begin_transfer(*m.dev);
    if (m.departure >= 0) m.dev->kernel.transfer_ends_at(m.departure);
  }
  if (known) instances_.erase(key);  // nobody will call leave
}

void CollectiveRendezvous::leave(uint64_t key, DeviceRuntime& dev) {
  auto it = instances_.find(key);
  Instance& in = it->second;
  in.present.erase(std::find_if(in.present.begin(), in.present.end(), [&](const Member& m) { return m.dev == &dev; }));
  if (in.moving) end_transfer(dev);
  if (++in.left == in.members) instances_.erase(it);
}

}  // namespace trainsim
