// nvswitch: an NVLink/NVSwitch domain (DGX/HGX H100: 8 GPUs, 18 NVLink4 links each = 450 GB/s
// per direction into 4 NVSwitch chips). Modelled as one non-blocking crossbar per domain
// (crossbar_fabric.hpp): `bandwidth` is each device's aggregate port bandwidth per direction,
// `latency` the end-to-end latency of a transfer, split over the two ports it crosses.
// With in_network_reduction (NVLink SHARP) the domain gets a switch endpoint for NVLS.
#include "sim/platform/crossbar_fabric.hpp"
#include "sim/platform/topology_registry.hpp"

namespace trainsim {

TopologyInfo nvswitch_topology() {
  return TopologyInfo{
      Topology::kNvswitch, "nvswitch",
      "NVSwitch domain: each device one port of `bandwidth` per direction into a non-blocking switch; "
      "a transfer crosses src port up + dst port down",
      [](const TierContext& ctx) -> std::unique_ptr<TierFabric> { return std::make_unique<CrossbarFabric>(ctx); }};
}

}  // namespace trainsim
