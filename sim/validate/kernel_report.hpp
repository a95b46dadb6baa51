// The tables of `trainsim kernels`: one line per measured kernel (what it is, measured and
// predicted time and rate, error %) and the error summaries per kind and overall, as text for
// people and as CSV for programs.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/validate/kernel_fit.hpp"

namespace trainsim {

// "gemm", "attention", "stream".
[[nodiscard]] const char* kind_name(MeasuredKind kind);
// What a row measured: "1 x 4096 x 4096 x 256" (batch x m x n x k), "bwd 1 x 16 x 4096 x 128"
// (pass, batch x heads x seq x head_dim), "gelu.fwd" (the stream's op).
[[nodiscard]] std::string measurement_label(const KernelMeasurement& m);

void write_kernel_table(std::ostream& out, const std::vector<KernelRowResult>& rows);
// "95 gemm: mean |error| 1.6%, max |error| 6.1% (1 x 4096 x 512 x 256), mean error +0.0%"; the
// kind is "kernels" for a summary over all rows. Empty for no rows.
[[nodiscard]] std::string kernel_summary(const std::vector<KernelRowResult>& rows, const std::string& kind);
// One summary line per kind present, and an overall one when more than one kind is present.
void write_kernel_summaries(std::ostream& out, const std::vector<KernelRowResult>& rows);
// kind,what,flops,bytes,measured_us,predicted_us,error_pct
void write_kernel_csv(std::ostream& out, const std::vector<KernelRowResult>& rows);

}  // namespace trainsim
