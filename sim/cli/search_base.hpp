// The run `trainsim search` searches around: model, platform, devices, batch, sequence and
// precision from its options, and every run field the search does not vary (framework overhead,
// gradient buckets and precision, collectives, flash attention, dropout) from --baseline when one
// is given (it must train the same model on the same platform, devices, batch and sequence), else
// the run defaults; --framework-overhead sets the per-device framework memory either way.
#pragma once
#include <optional>
#include <string>

#include "sim/cli/args.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/config/run_writer.hpp"

namespace trainsim {

struct SearchBase {
  RunSpec run;                       // strategy fields are overwritten by every candidate
  RunReferencesText refs;            // how the written winner names the model and platform
  std::optional<RunSpec> baseline;   // --baseline, loaded and checked as `simulate` loads it
};

// `run` with the strategy the search varies reset to the defaults, keeping what it does not vary
// (gradient bucket size and precision, gradient accumulation fusion, the per-bucket gradient kernels,
// overlap.tp_grad_reduce): the base of a search.
[[nodiscard]] RunSpec with_strategy_cleared(RunSpec run);

// Throws UserError naming the option for a missing or bad value.
[[nodiscard]] SearchBase search_base(const ParsedArgs& a);

}  // namespace trainsim
