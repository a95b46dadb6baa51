// validation/kernels/*.yaml -> plain structs: measured throughput of single GEMM kernels, per
// shape, on one accelerator. `trainsim kernels` compares the platform's kernel-time model with
// them and fits the model's GEMM parameters to them. Loading is strict like every sim/config
// loader: unknown keys, a non-positive size or throughput, an unknown precision are ConfigErrors
// naming the file, line, key and value.
//
//   description: "..."                   # optional
//   accelerator: H100-SXM5-80GB          # must equal the platform preset's accelerator.name
//   precision: bf16                      # fp32 | tf32 | bf16 | fp16 | fp8
//   source: "where the numbers come from"
//   gemms:
//     - {batch: 1, m: 4096, n: 4096, k: 256, tflops: 392.2}   # batch optional (default 1)
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "sim/config/precision.hpp"
#include "sim/model/kernel.hpp"

namespace trainsim {

struct GemmMeasurement {
  GemmShape shape;    // C[m×n] = A[m×k]·B[k×n], `batch` times
  double tflops = 0;  // measured 2·batch·m·n·k / kernel time, in 1e12 FLOP/s
  int line = 0;       // 1-based line of the entry in the file
};

struct GemmMeasurementSet {
  std::string file;
  std::string description;
  std::string accelerator;  // the accelerator the kernels ran on (AcceleratorSpec::name)
  Precision precision = Precision::kBf16;
  std::string source;
  std::vector<GemmMeasurement> rows;  // in file order
};

[[nodiscard]] GemmMeasurementSet load_gemm_measurements(const std::filesystem::path& file);

}  // namespace trainsim
