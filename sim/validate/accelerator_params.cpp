#include "sim/validate/accelerator_params.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

// The field `name` names, const or not as `acc` is.
template <class Spec>
auto field(Spec* acc, const std::string& name) -> decltype(&acc->gemm_efficiency) {
  if (name == "gemm_efficiency") return &acc->gemm_efficiency;
  if (name == "gemm_k_overhead") return &acc->gemm_k_overhead;
  if (name == "attention_efficiency") return &acc->attention_efficiency;
  if (name == "memory_efficiency") return &acc->memory_efficiency;
  if (name == "kernel_overhead") return &acc->kernel_overhead;
  throw UserError("unknown accelerator parameter '" + name + "'; valid: " + joined_names(accelerator_parameter_names()));
}

constexpr double kMicro = 1e-6;  // kernel_overhead is stored in seconds, searched in microseconds

}  // namespace

const std::vector<std::string>& accelerator_parameter_names() {
  static const std::vector<std::string> names = {"gemm_efficiency", "gemm_k_overhead", "attention_efficiency",
                                                 "memory_efficiency", "kernel_overhead"};
  return names;
}

void require_parameter(const std::string& name, const std::vector<std::string>& valid, const std::string& option) {
  if (std::find(valid.begin(), valid.end(), name) == valid.end())
    throw UserError(option + ": '" + name + "' cannot be fitted; valid: " + joined_names(valid));
}

void require_parameters(const std::vector<std::string>& names, const std::vector<std::string>& valid,
                        const std::string& option) {
  if (names.empty()) throw UserError(option + ": no parameter given; valid: " + joined_names(valid));
  for (auto it = names.begin(); it != names.end(); ++it) {
    require_parameter(*it, valid, option);
    if (std::find(names.begin(), it, *it) != it)
      throw UserError(option + ": '" + *it + "' is given twice; each parameter is fitted once");
  }
}

void parameter_interval(const std::string& name, double* lo, double* hi) {
  *lo = 0;
  if (name == "kernel_overhead") {
    *hi = 40;  // microseconds per kernel
  } else if (name == "gemm_k_overhead") {
    *hi = 2048;  // K steps per output tile
  } else {
    *lo = 0.3;
    *hi = 1.0;
  }
}

double get_parameter(const AcceleratorSpec& acc, const std::string& name) {
  const double value = *field(&acc, name);
  return name == "kernel_overhead" ? value / kMicro : value;
}

void set_parameter(AcceleratorSpec* acc, const std::string& name, double value) {
  *field(acc, name) = name == "kernel_overhead" ? value * kMicro : value;
}

double inside_interval(const std::string& name, double value) {
  double lo = 0, hi = 0;
  parameter_interval(name, &lo, &hi);
  const double margin = 1e-3 * (hi - lo);
  return std::clamp(value, lo + margin, hi - margin);
}

std::string parameter_text(const std::string& name, double value, int digits) {
  return format_text("%.*g", digits, value) + (name == "kernel_overhead" ? "us" : "");
}

}  // namespace trainsim
