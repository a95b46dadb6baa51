// A non-blocking crossbar: every device has one split-duplex port into its domain's switch,
// and the switch itself never limits (no backplane link). A transfer a -> b crosses a's port
// up then b's port down; each direction of a port has half the tier latency, so the route's
// latency is the tier latency. Used by nvswitch and clos. Internal to sim/platform.
#pragma once
#include "sim/platform/fabric.hpp"

namespace trainsim {

class CrossbarFabric : public TierFabric {
 public:
  // Port bandwidth per direction: tier bandwidth * planes.
  explicit CrossbarFabric(const TierContext& ctx);
  void append_route(int a, int b, std::vector<simgrid::s4u::Link*>& links) const override;
  [[nodiscard]] bool has_switch() const override { return true; }
  void append_switch_route(int device, bool to_switch, std::vector<simgrid::s4u::Link*>& links) const override;

 private:
  std::vector<DuplexLink> ports_;  // by rank
};

}  // namespace trainsim
