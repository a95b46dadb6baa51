// The tables of `trainsim kernels`: one line per measured GEMM (shape, measured and predicted
// TFLOP/s, error %) and the error summary, as text for people and as CSV for programs.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/validate/kernel_fit.hpp"

namespace trainsim {

void write_gemm_table(std::ostream& out, const std::vector<GemmRowResult>& rows);
// "95 GEMMs: mean |error| 1.6%, max |error| 6.1% (batch x m x n x k = 4 x 4096 x 512 x 256), mean error +0.0%";
// empty for no rows. write_gemm_summary prints it as a line.
[[nodiscard]] std::string gemm_summary(const std::vector<GemmRowResult>& rows);
void write_gemm_summary(std::ostream& out, const std::vector<GemmRowResult>& rows);
// batch,m,n,k,measured_tflops,predicted_tflops,measured_us,predicted_us,error_pct
void write_gemm_csv(std::ostream& out, const std::vector<GemmRowResult>& rows);

}  // namespace trainsim
