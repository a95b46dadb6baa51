#include "sim/replay/flow_batch.hpp"

#include <algorithm>

#include "sim/replay/pair_shortcut.hpp"
#include "sim/replay/switch_plan.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

// The mailbox of `receiver` for messages of its group along `dim` from device `sender`
// (DeviceRuntime::inbox), made on first use. Mailbox::by_name is a simcall, during which other
// devices' actors may add to the same map: it is looked up before and stored after, never held.
sg4::Mailbox* collective_mailbox(DeviceRuntime& receiver, Dim dim, int sender) {
  const auto key = static_cast<uint32_t>(sender) * kDims + static_cast<uint32_t>(dim);
  if (auto it = receiver.inbox.find(key); it != receiver.inbox.end()) return it->second;
  sg4::Mailbox* box = sg4::Mailbox::by_name("r" + std::to_string(receiver.rank) + ".g" +
                                            std::to_string(static_cast<int>(dim)) + ".s" + std::to_string(sender));
  receiver.inbox[key] = box;
  return box;
}

}  // namespace

FlowBatch::FlowBatch(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, Dim dim, int tier, double slowdown,
                     StartBatch& starts, std::vector<sg4::CommPtr>& flows, double* until)
    : ctx_(ctx),
      dev_(dev),
      stream_(stream),
      dim_(dim),
      tier_(tier),
      slowdown_(slowdown),
      private_pairs_(private_pair_links(ctx.run->platform.tiers[static_cast<size_t>(tier)])),
      starts_(starts),
      flows_(flows),
      until_(until) {}

void FlowBatch::add(int peer_rank, Bytes bytes, bool outgoing) {
  const auto size = static_cast<uint64_t>(bytes);
  if (peer_rank < 0) {
    (outgoing ? switch_up_ : switch_down_) += size;
    return;
  }
  DeviceRuntime* peer = ctx_.device(peer_rank);
  if (peer != nullptr)
    return outgoing ? post(mailbox_put(collective_mailbox(*peer, dim_, dev_.rank), size), peer_rank, true)
                    : receive(peer_rank);
  sg4::Host* folded = ctx_.platform.hosts[static_cast<size_t>(peer_rank)];
  if (private_pairs_) return host_to_host(folded, size, outgoing);
  const int owner = ctx_.link_owner[static_cast<size_t>(peer_rank)];
  if (owner == dev_.rank) {
    if (outgoing) host_to_host(folded, size, true);
    return;
  }
  if (outgoing) {
    post(mailbox_put(collective_mailbox(*ctx_.device(owner), dim_, dev_.rank), size), owner, true);
  } else {
    receive(owner);
  }
}

void FlowBatch::post_all() {
  if ((switch_up_ > 0 || switch_down_ > 0) && ctx_.private_switch[static_cast<size_t>(tier_)]) {
    const SwitchRoute& r = switch_route(ctx_, dev_, tier_);
    const double now = sg4::Engine::get_clock();
    double end = -1;
    if (switch_up_ > 0)
      end = std::max(end, (now + r.up_latency) + static_cast<double>(switch_up_) * slowdown_ / r.up_bandwidth);
    if (switch_down_ > 0)
      end = std::max(end, (now + r.down_latency) + static_cast<double>(switch_down_) * slowdown_ / r.down_bandwidth);
    *until_ = end;
  } else if (switch_up_ > 0 || switch_down_ > 0) {
    const size_t first = pending_.size();
    switch_proxy(ctx_, dev_, stream_, tier_).exchange(switch_up_, switch_down_, pending_);
    bound_switch_transfers(first);
  }
  for (auto& c : pending_) {
    starts_.start(c);
    flows_.push_back(std::move(c));
  }
}

void FlowBatch::post(sg4::CommPtr c, int other, bool outgoing) {
  if (slowdown_ > 1) {
    const PairRoute& r = pair_route(ctx_, dev_, other);
    c->set_rate((outgoing ? r.out_bandwidth : r.in_bandwidth) / slowdown_);
  }
  post(std::move(c));
}

void FlowBatch::receive(int from) {
  post(mailbox_get(collective_mailbox(dev_, dim_, from)), from, false);
}

void FlowBatch::host_to_host(sg4::Host* other, uint64_t size, bool outgoing) {
  const auto stretched = static_cast<uint64_t>(static_cast<double>(size) * slowdown_);
  post((outgoing ? sg4::Comm::sendto_init(dev_.host, other) : sg4::Comm::sendto_init(other, dev_.host))
           ->set_payload_size(stretched));
}

// SwitchProxy::exchange appends the upward transfer (if any) before the downward one.
void FlowBatch::bound_switch_transfers(size_t first) {
  if (slowdown_ <= 1) return;
  const SwitchRoute& r = switch_route(ctx_, dev_, tier_);
  for (size_t i = first; i < pending_.size(); ++i)
    pending_[i]->set_rate((i == first && switch_up_ > 0 ? r.up_bandwidth : r.down_bandwidth) / slowdown_);
}

}  // namespace trainsim
