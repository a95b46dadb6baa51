// Which links each dimension's traffic occupies from one device, and how much longer a collective
// takes while another dimension's traffic is on the same links. The replay times every flow on
// SimGrid's max-min fair sharing, so flows of different dimensions on one link split it; the
// formulas time each collective on an idle fabric (collective_time.hpp) and add this slowdown.
//
// A flow from the device to a peer crosses, on the tier that joins them (the innermost whose
// domain holds both): on a full mesh (HCCS) the pair's own link, on a switched tier (NVSwitch,
// UB Clos, fat tree or rail NICs) the device's port into it. Which peers a collective sends to
// follows from its algorithm (collective_peers.hpp): a ring sends only to its successor, direct
// algorithms to every member, hierarchical ones to one peer inside the node and one across. So
// on a full mesh, TP and DP never share a link (different peers), while an EP group carved out of
// the DP group shares every one of its links with DP; behind a switch every dimension on the
// same tier shares the port.
//
// Slowdown: a collective's time is that of its slowest flow. On a link where it has f flows and
// another dimension f', fair sharing leaves it f/(f+f') of the link, so the flows there take
// (1 + f'/f) times longer; a link that was not its bottleneck (time t_l < T) limits it only from
// t_l (1 + f'/f) on. While the other dimension is active the collective thus takes
//   kappa = max_l t_l (1 + f'_l/f_l) / T - 1
// longer (0 when they share no link), counted on the tier of the link that sets the maximum.
#pragma once
#include <array>
#include <map>
#include <utility>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/run_payloads.hpp"

namespace trainsim {

// The kinds of traffic a device sends: the collectives of each dimension and the pipeline's p2p.
enum class Traffic { kTp, kCp, kEp, kDp, kPp };
constexpr int kTrafficKinds = 5;

struct Slowdown {
  double factor = 0;   // kappa above: extra time as a multiple of the collective's own
  int tier_class = 0;  // where: 0 links of the node's fabric (tier 0), 1 links of the tiers above
};

class LinkSharing {
 public:
  // The links `rank`'s traffic of each kind uses: TP's reduction, CP's K/V gather, EP's all-to-all,
  // DP's gradient bucket (ZeRO-3: a layer's gather, `dp_bytes`), PP's send to the next stage.
  LinkSharing(const RunSpec& run, const CommCosts& cc, const Payloads& pl, int rank, Bytes dp_bytes);
  // kappa of traffic `of` while traffic `beside` is active (0 for the same kind).
  [[nodiscard]] Slowdown slowdown(Traffic of, Traffic beside) const;

 private:
  struct Use {
    double flows = 0, seconds = 0;  // flows on the link, and seconds they need at its bandwidth (per byte sent)
  };
  using Links = std::map<std::pair<int, int>, Use>;  // (tier, peer rank on a full mesh, else -1)
  void add_collective(const CommCosts& cc, int rank, Traffic t, Dim d, CollectiveKind kind, Bytes bytes);
  void add_flow(const CommCosts& cc, Traffic t, int tier, int peer, Bytes bytes);
  const RunSpec& run_;
  std::array<Links, kTrafficKinds> links_;
};

}  // namespace trainsim
