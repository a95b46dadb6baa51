// validation/measurements.yaml -> plain structs: published measurements of real training runs,
// each tied to a run file in the project's own format. Loading is strict like every other
// sim/config loader: unknown keys, duplicate ids, a missing run file, a metric that does not
// suit its FLOP formula are ConfigErrors naming the file, line, key and value.
//
//   measurements:
//     - id: sc21-1.7b
//       run: runs/sc21-1.7b.yaml          # relative to this file's folder
//       split: calibrate                  # calibrate | check
//       hardware: dgx-a100-superpod       # the platform preset the run uses
//       metric: tflops_per_device         # tflops_per_device | iteration_s | tokens_per_s_per_device
//       value: 137
//       flops_formula: megatron-full-recompute   # | megatron-no-recompute | megatron-lm | none
//       mfu: 0.41                         # optional, informational
//       source: "Narayanan et al. SC'21, Table 1"
//       notes: "..."                      # optional
//       group: g-0221-h14336-l72-a64      # optional: a ranking group (runs that differ only in layout;
//                                         #   at least 2 rows, one split and one hardware per group)
//       peak_memory: 29GiB                # optional: measured per-device peak memory (absent = not measured)
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace trainsim {

enum class Split { kCalibrate, kCheck };
enum class MeasuredMetric {
  kTflopsPerDevice,         // model TFLOP/s per device, counted with `flops_formula`
  kIterationSeconds,        // seconds per iteration
  kTokensPerSecondPerDevice // tokens/s per device (global batch x seq / time / devices)
};
enum class FlopsFormula {
  kNone,
  kMegatronFullRecompute,  // 96 B s l h^2 (1 + s/(6h) + V/(16 l h))  (Narayanan et al. SC'21 eq. 3)
  kMegatronNoRecompute,    // 72 B s l h^2 (1 + s/(6h) + V/(12 l h))  (Korthikanti et al. 2022)
  kMegatronLm,             // Megatron-LM's num_floating_point_operations: GQA, SwiGLU, MoE top-k, causal
                           //   attention (sim/model/model_flops.hpp megatron_lm_flops)
};

struct Measurement {
  std::string id;
  std::filesystem::path run;     // run file, resolved against the measurements file's folder
  Split split = Split::kCheck;
  std::string hardware;          // platform preset name; must equal the run's platform name
  MeasuredMetric metric = MeasuredMetric::kIterationSeconds;
  double value = 0;              // in the metric's unit (TFLOP/s, seconds or tokens/s)
  FlopsFormula flops_formula = FlopsFormula::kNone;
  double mfu = 0;                // as published, a fraction; 0 = not given
  std::string source;
  std::string notes;
  std::string group;             // ranking group ("" = none): ranking_groups.hpp
  Bytes peak_memory = 0;         // measured per-device peak memory; 0 = not measured
  int line = 0;                  // 1-based line of the entry in the file
};

struct MeasurementSet {
  std::string file;
  std::string description;
  std::vector<Measurement> rows;  // in file order
};

[[nodiscard]] MeasurementSet load_measurements(const std::filesystem::path& file);
// Several files as one set, rows in the order given; `file` lists them ("a.yaml, b.yaml"). An id
// used in two files is bad input (ConfigError at the second one's entry).
[[nodiscard]] MeasurementSet load_measurements(const std::vector<std::filesystem::path>& files);

// YAML spellings, for messages and reports: "calibrate", "tflops_per_device", "megatron-full-recompute".
[[nodiscard]] const char* split_name(Split s);
[[nodiscard]] const char* metric_name(MeasuredMetric m);
[[nodiscard]] const char* flops_formula_name(FlopsFormula f);

}  // namespace trainsim
