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
  if (name == "attention_k_overhead") return &acc->attention_k_overhead;
  if (name == "memory_efficiency") return &acc->memory_efficiency;
  if (name == "kernel_overhead") return &acc->kernel_overhead;
  if (name == "dropout_rng_rate") return &acc->dropout_rng_rate;
  throw UserError("unknown accelerator parameter '" + name + "'; valid: " + joined_names(accelerator_parameter_names()));
}

constexpr double kMicro = 1e-6;  // kernel_overhead is stored in seconds, searched in microseconds
constexpr double kTera = 1e12;   // dropout_rng_rate is stored per second, searched in 1e12 per second

// The factor from the stored unit to the searched one.
double search_unit(const std::string& name) {
  if (name == "kernel_overhead") return kMicro;
  if (name == "dropout_rng_rate") return kTera;
  return 1;
}

}  // namespace

const std::vector<std::string>& accelerator_parameter_names() {
  static const std::vector<std::string> names = {"gemm_efficiency", "gemm_k_overhead", "attention_efficiency",
                                                 "attention_k_overhead", "memory_efficiency", "kernel_overhead",
                                                 "dropout_rng_rate"};
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
  } else if (name == "attention_k_overhead") {
    *hi = 8192;  // keys per query tile
  } else if (name == "dropout_rng_rate") {
    *lo = 0.01;  // 1e12 random numbers per second
    *hi = 100;
  } else {
    *lo = 0.3;
    *hi = 1.0;
  }
}

double get_parameter(const AcceleratorSpec& acc, const std::string& name) {
  return *field(&acc, name) / search_unit(name);
}

void set_parameter(AcceleratorSpec* acc, const std::string& name, double value) {
  *field(acc, name) = value * search_unit(name);
}

double inside_interval(const std::string& name, double value) {
  double lo = 0, hi = 0;
  parameter_interval(name, &lo, &hi);
  const double margin = 1e-3 * (hi - lo);
  return std::clamp(value, lo + margin, hi - margin);
}

std::string parameter_text(const std::string& name, double value, int digits) {
  if (name == "dropout_rng_rate") return format_text("%.*ge12", digits, value);
  return format_text("%.*g", digits, value) + (name == "kernel_overhead" ? "us" : "");
}

}  // namespace trainsim
