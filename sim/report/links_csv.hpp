// `simulate --links FILE`: what every link carried during the iteration, as CSV, busiest first.
#pragma once
#include <ostream>

#include "sim/config/run_spec.hpp"
#include "sim/replay/timeline.hpp"

namespace trainsim {

// One row per link direction that carried bytes (links that carried nothing are left out):
//   link,tier,configured_Bps,effective_Bps,bytes,utilisation
// configured_Bps is the bandwidth the platform file gives for the link (a NIC: bandwidth x
// devices_per_nic x planes; a leaf uplink: the NICs below it / oversubscription), effective_Bps
// what the replay ran it at (configured x the tier's efficiency), utilisation =
// bytes / (effective_Bps x iteration time), in [0, 1]. Rows by utilisation, busiest first (ties by name).
void write_links_csv(std::ostream& out, const RunSpec& run, const Timeline& timeline);

}  // namespace trainsim
