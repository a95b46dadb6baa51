// The tables of `trainsim kernels`: one line per measured GEMM (shape, measured and predicted
// TFLOP/s, error %) and the error summary, as text for people and as CSV for programs.
#pragma once
#include <ostream>
#include <vector>

#include "sim/validate/kernel_fit.hpp"

namespace trainsim {

void write_gemm_table(std::ostream& out, const std::vector<GemmRowResult>& rows);
// "mean |error| 1.7%, max |error| 5.7% (4 x 4096 x 512 x 256), mean error +0.1%"
void write_gemm_summary(std::ostream& out, const std::vector<GemmRowResult>& rows);
// batch,m,n,k,measured_tflops,predicted_tflops,measured_us,predicted_us,error_pct
void write_gemm_csv(std::ostream& out, const std::vector<GemmRowResult>& rows);

}  // namespace trainsim
