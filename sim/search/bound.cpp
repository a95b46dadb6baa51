#include "sim/search/bound.hpp"

#include <algorithm>
#include <limits>

namespace trainsim {

double iteration_lower_bound(const IterationInputs& in, const IterationTheta& th) {
  const int p = in.shape.stages;
  const double m = in.shape.microbatches, c = th.compute_scale;
  double slowest = 0, forward = 0, backward = 0, weight = 0;  // sums over stages, theta applied
  for (const StageInputs& s : in.stages) {
    slowest = std::max(slowest, c * (s.forward + s.backward_input + s.weight_grad + s.recompute));
    forward += c * s.forward;
    backward += c * (s.backward_input + s.weight_grad + s.recompute);
    weight += c * s.weight_grad;
  }
  if (p <= 1) return m * slowest;
  const double scale = 1.0 / ((p - 1) * in.shape.virtual_stages);
  double bubble = std::numeric_limits<double>::infinity();
  for (const StageInputs& s : in.stages) {  // the stage left out of the mean: the slowest one
    ChunkPassTimes mean;
    mean.forward = (forward - c * s.forward) * scale;
    mean.backward_input = (backward - c * (s.backward_input + s.weight_grad + s.recompute)) * scale;
    if (in.schedule->name == "zb-h1") {  // as iteration_model splits W off for ZB-H1
      mean.weight_grad = (weight - c * s.weight_grad) * scale;
      mean.backward_input -= mean.weight_grad;
    }
    bubble = std::min(bubble, in.schedule->bubble(in.shape, mean));
  }
  return m * slowest + th.bubble_scale * bubble;
}

bool bound_applies(const IterationInputs& in, const IterationTheta& th) {
  if (in.comm_interference < 0) return false;
  for (const ThetaField& f : theta_fields())
    if (th.*f.value < 0) return false;
  return true;
}

}  // namespace trainsim
