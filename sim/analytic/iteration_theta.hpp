// The free coefficients theta of the iteration formulas, one set per platform, fitted by
// `trainsim fit` to replayed timelines and read by `trainsim estimate`. Every coefficient is
// dimensionless and defaults to the value that makes the formula the plain physical model
// (scales 1: alpha-beta and roofline times as they are; overlap 1: a whole backward hides DP
// traffic; interference 1: the accelerator's comm_interference exactly).
#pragma once
#include <string>
#include <vector>

namespace trainsim {

struct IterationTheta {
  double compute_scale = 1;  // multiplies every kernel's roofline time
  double tp_scale = 1;       // multiplies exposed TP collective time (contention on the TP tier)
  double cp_scale = 1;       // multiplies exposed CP exchange time
  double ep_scale = 1;       // multiplies EP dispatch/combine time (contention of all-to-all flows)
  double dp_scale = 1;       // multiplies DP / ZeRO collective time
  double dp_overlap = 1;     // fraction of the last backward that hides the DP gradient reduction
  double interference = 1;   // multiplies comm_interference x communication moving beside compute
  double bubble_scale = 1;   // multiplies the schedule's closed-form bubble and the p2p hops
  // Multiply the time exposed collectives lose to another dimension's traffic on the same links
  // (sim/analytic/shared_time.hpp): 1 is fair sharing while both are active, as computed.
  double contention_node = 1;     // on links of the node's fabric (tier 0: NVSwitch port, HCCS pair)
  double contention_network = 1;  // on links of the tiers above (NIC, UB Clos port)
};

// Name and address of each coefficient, in a fixed order (for the theta file and the fit).
struct ThetaField {
  const char* name;
  double IterationTheta::*value;
  const char* meaning;
};
[[nodiscard]] const std::vector<ThetaField>& theta_fields();

}  // namespace trainsim
