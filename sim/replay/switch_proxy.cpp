#include "sim/replay/switch_proxy.hpp"

#include "sim/replay/start_batch.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

// Payload pointer of simulated messages: only sizes matter, nothing is dereferenced.
int g_switch_payload = 0;
int* g_switch_sink = nullptr;

}  // namespace

SwitchProxy::SwitchProxy(sg4::Host* switch_host, const std::string& name, std::vector<SwitchExchange> plan)
    : up_(sg4::Mailbox::by_name(name + ".up")), down_(sg4::Mailbox::by_name(name + ".down")), plan_(std::move(plan)) {
  // It ends by itself after the plan's last exchange (not killed as a daemon: a killed actor
  // unwinds its stack by an exception, which AddressSanitizer misreads under SimGrid's user-level
  // context switching).
  sg4::Actor::create(name, switch_host, [this] { serve(); });
}

void SwitchProxy::exchange(uint64_t up, uint64_t down, std::vector<sg4::CommPtr>& comms) {
  if (up > 0) comms.push_back(up_->put_init(&g_switch_payload, up));
  if (down > 0) comms.push_back(down_->get_init()->set_dst_data(reinterpret_cast<void**>(&g_switch_sink), sizeof(void*)));
}

// Both sides of an exchange start in one simcall and are waited for with wait_any, which,
// unlike Comm::wait, creates no timeout action per wait.
void SwitchProxy::serve() {
  StartBatch starts;
  std::vector<sg4::ActivityPtr> comms;
  for (const SwitchExchange& e : plan_) {
    if (e.up > 0) {
      comms.push_back(up_->get_init()->set_dst_data(reinterpret_cast<void**>(&g_switch_sink), sizeof(void*)));
      starts.start(boost::static_pointer_cast<sg4::Comm>(comms.back()));
    }
    if (e.down > 0) {
      comms.push_back(down_->put_init(&g_switch_payload, e.down));
      starts.start(boost::static_pointer_cast<sg4::Comm>(comms.back()));
    }
    starts.flush();
    while (!comms.empty()) comms.erase(comms.begin() + sg4::Activity::wait_any(comms));
  }
}

}  // namespace trainsim
