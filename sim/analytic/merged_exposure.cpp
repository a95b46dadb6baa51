#include "sim/analytic/merged_exposure.hpp"

#include <algorithm>

namespace trainsim {

double merged_ep_exposed(const MergedSegments& s, double a2a) {
  double t = s.b_before;                                    // F's dispatch runs from 0
  const double f_dispatch_end = a2a;
  const double b_first_end = std::max(t, f_dispatch_end) + a2a;
  t = std::max(t, f_dispatch_end) + s.f_experts;
  const double f_combine_end = std::max(t, b_first_end) + a2a;
  t = std::max(t, b_first_end) + s.b_experts;
  const double b_second_end = std::max(t, f_combine_end) + a2a;
  t = std::max(t, f_combine_end) + s.f_after + s.b_wgrad;
  t = std::max(t, b_second_end) + (s.b_after - s.b_wgrad);
  return t - (s.b_before + s.f_experts + s.b_experts + s.f_after + s.b_after);
}

}  // namespace trainsim
