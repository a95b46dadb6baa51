#include "sim/replay/switch_proxy.hpp"

#include "sim/replay/mailbox_io.hpp"
#include "sim/replay/start_batch.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {

SwitchProxy::SwitchProxy(sg4::Host* switch_host, const std::string& name, std::vector<SwitchExchange> plan)
    : up_(sg4::Mailbox::by_name(name + ".up")), down_(sg4::Mailbox::by_name(name + ".down")), plan_(std::move(plan)) {
  // It ends by itself after the plan's last exchange (not killed as a daemon: a killed actor
  // unwinds its stack by an exception, which AddressSanitizer misreads under SimGrid's user-level
  // context switching).
  sg4::Actor::create(name, switch_host, [this] { serve(); });
}

void SwitchProxy::exchange(uint64_t up, uint64_t down, std::vector<sg4::CommPtr>& comms) {
  if (up > 0) comms.push_back(mailbox_put(up_, up));
  if (down > 0) comms.push_back(mailbox_get(down_));
}

// Both sides of an exchange start in one simcall and are waited for with wait_any, which,
// unlike Comm::wait, creates no timeout action per wait.
void SwitchProxy::serve() {
  StartBatch starts;
  std::vector<sg4::ActivityPtr> comms;
  for (const SwitchExchange& e : plan_) {
    if (e.up > 0) {
      comms.push_back(mailbox_get(up_));
      starts.start(boost::static_pointer_cast<sg4::Comm>(comms.back()));
    }
    if (e.down > 0) {
      comms.push_back(mailbox_put(down_, e.down));
      starts.start(boost::static_pointer_cast<sg4::Comm>(comms.back()));
    }
    starts.flush();
    while (!comms.empty()) comms.erase(comms.begin() + sg4::Activity::wait_any(comms));
  }
}

}  // namespace trainsim
