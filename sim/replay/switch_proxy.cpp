#include "sim/replay/switch_proxy.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

// Payload pointer of simulated messages: only sizes matter, nothing is dereferenced.
int g_switch_payload = 0;
int* g_switch_sink = nullptr;

}  // namespace

SwitchProxy::SwitchProxy(sg4::Host* switch_host, const std::string& name)
    : up_(sg4::Mailbox::by_name(name + ".up")),
      down_(sg4::Mailbox::by_name(name + ".down")),
      mutex_(sg4::Mutex::create()),
      posted_(sg4::ConditionVariable::create()) {
  // It ends when its member's stream calls stop() (switch_proxy.hpp says why not as a daemon).
  sg4::Actor::create(name, switch_host, [this] { serve(); });
}

void SwitchProxy::exchange(uint64_t up, uint64_t down, std::vector<sg4::CommPtr>& comms) {
  {
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    requests_.push_back({up, down});
    posted_->notify_one();
  }
  if (up > 0) comms.push_back(up_->put_async(&g_switch_payload, up));
  if (down > 0) comms.push_back(down_->get_async<int>(&g_switch_sink));
}

void SwitchProxy::stop() {
  std::unique_lock<sg4::Mutex> lock(*mutex_);
  requests_.push_back({0, 0, true});
  posted_->notify_one();
}

void SwitchProxy::serve() {
  std::vector<sg4::CommPtr> comms;
  for (;;) {
    Request r;
    {
      std::unique_lock<sg4::Mutex> lock(*mutex_);
      while (requests_.empty()) posted_->wait(lock);
      r = requests_.front();
      requests_.pop_front();
    }
    if (r.stop) return;
    if (r.up > 0) comms.push_back(up_->get_async<int>(&g_switch_sink));
    if (r.down > 0) comms.push_back(down_->put_async(&g_switch_payload, r.down));
    sg4::Comm::wait_all(comms);
    comms.clear();
  }
}

}  // namespace trainsim
