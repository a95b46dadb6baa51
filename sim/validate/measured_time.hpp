// A published measurement turned into seconds per iteration, the one quantity every
// comparison uses: TFLOP/s per device through the FLOP formula the source counted with,
// tokens/s per device through the batch, seconds as they are.
#pragma once
#include "sim/config/measurements.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

// t = F / (tflops · 1e12 · devices): F FLOP per iteration shared by `devices` devices each
// sustaining `tflops_per_device` TFLOP/s (the definition the sources use when they report it).
[[nodiscard]] Seconds seconds_from_tflops(Flops flops_per_iteration, double tflops_per_device, int devices);
// t = B · s / (tokens_per_s_per_device · devices): B sequences of s tokens per iteration.
[[nodiscard]] Seconds seconds_from_tokens(double global_batch, double seq_len, double tokens_per_s_per_device,
                                          int devices);
// FLOPs per iteration by the named formula for the run's model and batch (Narayanan et al.
// SC'21 eq. 3 or Korthikanti et al. 2022, see megatron_flops; Megatron-LM's own count, see
// megatron_lm_flops); 0 for FlopsFormula::kNone.
[[nodiscard]] Flops formula_flops(FlopsFormula formula, const RunSpec& run);
// The measurement as seconds per iteration of `run` (the run the measurement names).
[[nodiscard]] Seconds measured_iteration_seconds(const Measurement& m, const RunSpec& run);

}  // namespace trainsim
