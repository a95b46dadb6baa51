// The list of theta's coefficients (see iteration_theta.hpp).
#include "sim/analytic/iteration_theta.hpp"

namespace trainsim {

const std::vector<ThetaField>& theta_fields() {
  static const std::vector<ThetaField> fields = {
      {"compute_scale", &IterationTheta::compute_scale, "x roofline kernel time"},
      {"tp_scale", &IterationTheta::tp_scale, "x exposed TP collective time"},
      {"cp_scale", &IterationTheta::cp_scale, "x exposed CP exchange time"},
      {"ep_scale", &IterationTheta::ep_scale, "x EP all-to-all time"},
      {"dp_scale", &IterationTheta::dp_scale, "x DP/ZeRO collective time"},
      {"dp_overlap", &IterationTheta::dp_overlap, "share of the last backward hiding DP reduction"},
      {"interference", &IterationTheta::interference, "x comm_interference x hidden comm time"},
      {"bubble_scale", &IterationTheta::bubble_scale, "x closed-form bubble and p2p hops"},
      {"contention_node", &IterationTheta::contention_node, "x time lost to other dimensions on node links"},
      {"contention_network", &IterationTheta::contention_network, "x time lost to other dimensions on network links"},
  };
  return fields;
}

}  // namespace trainsim
