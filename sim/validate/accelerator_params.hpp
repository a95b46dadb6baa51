// The accelerator parameters a fit may move, by their YAML names: how to read one from an
// AcceleratorSpec, set it, and the interval a search keeps it in. One table in the .cpp holds
// each parameter's field, interval and search unit: kernel_overhead in microseconds,
// dropout_rng_rate in 1e12 per second, the fixed costs in K steps or keys, the rest fractions of
// a peak. Adding a parameter is one row there.
#pragma once
#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"

namespace trainsim {

// gemm_efficiency, gemm_k_overhead, attention_efficiency, attention_k_overhead, memory_efficiency,
// kernel_overhead, dropout_rng_rate.
[[nodiscard]] const std::vector<std::string>& accelerator_parameter_names();
// UserError naming `option` and listing `valid` unless `name` is one of them.
void require_parameter(const std::string& name, const std::vector<std::string>& valid, const std::string& option);
// The same for a list: UserError when it is empty, names an invalid parameter or one twice.
void require_parameters(const std::vector<std::string>& names, const std::vector<std::string>& valid,
                        const std::string& option);
// Search interval: efficiencies (0.3, 1), kernel_overhead (0, 40) us, gemm_k_overhead (0, 2048) K steps,
// attention_k_overhead (0, 8192) keys,
// dropout_rng_rate (0.01, 100) x 1e12 per second.
void parameter_interval(const std::string& name, double* lo, double* hi);
// The value in the unit above (kernel_overhead in microseconds, dropout_rng_rate in 1e12 per second).
[[nodiscard]] double get_parameter(const AcceleratorSpec& acc, const std::string& name);
void set_parameter(AcceleratorSpec* acc, const std::string& name, double value);
// `value` moved 0.1% of the interval inside it, so a search starting there has room both ways.
[[nodiscard]] double inside_interval(const std::string& name, double value);
// The YAML spelling of a value with `digits` significant digits: "0.8125", "6.059us", "139.1", "1.05e12".
[[nodiscard]] std::string parameter_text(const std::string& name, double value, int digits = 4);

}  // namespace trainsim
