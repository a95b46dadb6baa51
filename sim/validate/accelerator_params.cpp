#include "sim/validate/accelerator_params.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

// One fittable parameter: where it lives, the interval a search keeps it in and the unit it is
// searched in (stored value = searched value x unit; the YAML spells it with `suffix`).
struct ParameterInfo {
  const char* name;
  double AcceleratorSpec::*field;
  double lo, hi;
  double unit;
  const char* suffix;
};

constexpr double kMicro = 1e-6;  // kernel_overhead: stored in seconds, searched in microseconds
constexpr double kTera = 1e12;   // dropout_rng_rate: stored per second, searched in 1e12 per second

const std::vector<ParameterInfo>& parameters() {
  static const std::vector<ParameterInfo> table = {
      {"gemm_efficiency", &AcceleratorSpec::gemm_efficiency, 0.3, 1.0, 1, ""},
      {"fp8_gemm_efficiency", &AcceleratorSpec::fp8_gemm_efficiency, 0.3, 1.0, 1, ""},
      {"gemm_k_overhead", &AcceleratorSpec::gemm_k_overhead, 0, 2048, 1, ""},          // K steps per tile
      {"attention_efficiency", &AcceleratorSpec::attention_efficiency, 0.3, 1.0, 1, ""},
      {"attention_backward_efficiency", &AcceleratorSpec::attention_backward_efficiency, 0.3, 1.0, 1, ""},
      {"attention_k_overhead", &AcceleratorSpec::attention_k_overhead, 0, 8192, 1, ""},  // keys per query tile
      {"memory_efficiency", &AcceleratorSpec::memory_efficiency, 0.3, 1.0, 1, ""},
      {"kernel_overhead", &AcceleratorSpec::kernel_overhead, 0, 40, kMicro, "us"},
      {"dropout_rng_rate", &AcceleratorSpec::dropout_rng_rate, 0.01, 100, kTera, "e12"},
  };
  return table;
}

const ParameterInfo& info(const std::string& name) {
  for (const auto& p : parameters())
    if (name == p.name) return p;
  throw UserError("unknown accelerator parameter '" + name + "'; valid: " + joined_names(accelerator_parameter_names()));
}

}  // namespace

const std::vector<std::string>& accelerator_parameter_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& p : parameters()) out.emplace_back(p.name);
    return out;
  }();
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
  const ParameterInfo& p = info(name);
  *lo = p.lo;
  *hi = p.hi;
}

double get_parameter(const AcceleratorSpec& acc, const std::string& name) {
  const ParameterInfo& p = info(name);
  return acc.*p.field / p.unit;
}

void set_parameter(AcceleratorSpec* acc, const std::string& name, double value) {
  const ParameterInfo& p = info(name);
  acc->*p.field = value * p.unit;
}

double inside_interval(const std::string& name, double value) {
  const ParameterInfo& p = info(name);
  const double margin = 1e-3 * (p.hi - p.lo);
  return std::clamp(value, p.lo + margin, p.hi - margin);
}

std::string parameter_text(const std::string& name, double value, int digits) {
  return format_text("%.*g", digits, value) + info(name).suffix;
}

}  // namespace trainsim
