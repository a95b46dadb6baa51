#include "sim/model/mtp_ops.hpp"

#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

struct MtpDims {
  double h, out, t, seq, e;  // out: eh_proj's output columns on this rank
  Precision p;
  bool gathered;
};

MtpDims mtp_dims_of(const ModelSpec& m, const Shard& sh) {
  return {static_cast<double>(m.hidden), static_cast<double>(ceil_div(m.hidden, sh.tp)),
          static_cast<double>(gemm_tokens(sh)), static_cast<double>(sequence_tokens(sh)),
          activation_element_bytes(sh.precision), sh.precision, sp_gathers(sh)};
}

int64_t mtp_whole(double x) { return static_cast<int64_t>(x); }

}  // namespace

MtpParams mtp_params(const ModelSpec& m, int tp) {
  const int64_t h = m.hidden;
  return {2 * h * ceil_div(h, tp), 3 * norm_params_per_width(m) * h};
}

std::vector<Kernel> mtp_input_forward(const ModelSpec& m, const Shard& sh) {
  const MtpDims d = mtp_dims_of(m, sh);
  std::vector<Kernel> out{norm_forward_kernel("mtp_enorm.fwd", m.norm, d.seq * d.h, d.e),
                          norm_forward_kernel("mtp_hnorm.fwd", m.norm, d.seq * d.h, d.e),
                          elementwise_kernel("mtp_concat.fwd", 2 * d.seq * d.h, 1, 1, 0, d.e)};
  append(out, quantize_kernels("mtp_eh_proj.input", 2 * d.seq * d.h, sh, !d.gathered));
  out.push_back(gemm_kernel("mtp_eh_proj.fwd", {mtp_whole(d.t), mtp_whole(d.out), mtp_whole(2 * d.h), 1}, d.p));
  return out;
}

std::vector<Kernel> mtp_input_backward(const ModelSpec& m, const Shard& sh) {
  const MtpDims d = mtp_dims_of(m, sh);
  std::vector<Kernel> out = quantize_kernels("mtp_eh_proj.output_grad", d.t * d.out, sh, true);
  out.push_back(gemm_kernel("mtp_eh_proj.dgrad", {mtp_whole(d.t), mtp_whole(2 * d.h), mtp_whole(d.out), 1}, d.p));
  append(out, as_weight_grad(norm_output_transpose("mtp_eh_proj.input", 2 * d.t * d.h, sh, d.gathered)));
  append(out, {gemm_kernel("mtp_eh_proj.wgrad", {mtp_whole(2 * d.h), mtp_whole(d.out), mtp_whole(d.t), 1}, d.p, true),
               norm_backward_kernel("mtp_enorm.dgrad", m.norm, d.seq * d.h, d.e),
               norm_backward_kernel("mtp_hnorm.dgrad", m.norm, d.seq * d.h, d.e),
               residual_backward_kernel("mtp_hidden.dgrad_sum", d.seq * d.h, d.e)});
  return out;
}

double mtp_checkpoint_bytes(const ModelSpec& m, const Shard& sh) {
  const MtpDims d = mtp_dims_of(m, sh);
  return 2 * d.seq * d.h * d.e;
}

double mtp_input_activation_bytes(const ModelSpec& m, const Shard& sh) {
  const MtpDims d = mtp_dims_of(m, sh);
  const double q = quantizes(sh) ? quantized_layout_bytes(sh) : d.e;
  return mtp_checkpoint_bytes(m, sh) + 2 * d.seq * d.h * q;
}

}  // namespace trainsim
