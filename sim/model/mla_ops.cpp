#include "sim/model/mla_ops.hpp"

#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

// Rotating one element of the rotary part: a multiply-add with cos and sin (the rest is copied).
constexpr double kRopeFlopsPerElement = 3;

// Per-device widths of one MLA layer (elements per token).
struct MlaWidths {
  double h, q_lora, kv_lora, rope, q_in;  // q_in: the query up-projection's input (q_lora, or h)
  double heads;                            // local heads
  double q_out, kv_out, qkv_out;           // up-projection outputs; query + key + value
  double t, seq, e;                        // GEMM and sequence-region tokens; activation bytes
  Precision p;
  bool gathered;                           // SP all-gathers the up-projections' inputs
};

MlaWidths mla_widths_of(const ModelSpec& m, const Shard& sh) {
  const MlaSpec& a = m.mla;
  const double heads = static_cast<double>(local_heads(m, sh));
  const double q_head = static_cast<double>(a.qk_head_dim) + a.qk_pos_emb_head_dim;
  MlaWidths w{};
  w.h = m.hidden;
  w.q_lora = a.q_lora_rank;
  w.kv_lora = a.kv_lora_rank;
  w.rope = a.qk_pos_emb_head_dim;
  w.q_in = a.q_lora_rank > 0 ? w.q_lora : w.h;
  w.heads = heads;
  w.q_out = heads * q_head;
  w.kv_out = heads * (static_cast<double>(a.qk_head_dim) + a.v_head_dim);
  w.qkv_out = heads * (2 * q_head + a.v_head_dim);
  w.t = static_cast<double>(gemm_tokens(sh));
  w.seq = static_cast<double>(sequence_tokens(sh));
  w.e = activation_element_bytes(sh.precision);
  w.p = sh.precision;
  w.gathered = sp_gathers(sh);
  return w;
}

int64_t mla_whole(double x) { return static_cast<int64_t>(x); }

// A memory-bound kernel reading `read` and writing `written` elements, `rotated` of them rotated.
Kernel mla_copy_kernel(std::string name, double read, double written, double rotated, double e) {
  Kernel k = elementwise_kernel(std::move(name), written, 1, 1, 0, e);
  k.bytes = (read + written) * e;
  k.flops = rotated * kRopeFlopsPerElement;
  return k;
}

// Forward: the query rotary kernel reads q and writes the query; the key/value one reads kv and the
// shared rotary key head and writes key and value.
std::vector<Kernel> mla_rotary_forward(const MlaWidths& w) {
  return {mla_copy_kernel("mla_rope_q.fwd", w.t * w.q_out, w.t * w.q_out, w.t * w.heads * w.rope, w.e),
          mla_copy_kernel("mla_rope_kv.fwd", w.t * (w.kv_out + w.rope), w.t * (w.qkv_out - w.q_out), w.t * w.rope, w.e)};
}

void mla_add_gemm(std::vector<Kernel>& out, const std::string& name, double m, double n, double k, Precision p,
              bool weight_grad = false) {
  out.push_back(gemm_kernel(name, {mla_whole(m), mla_whole(n), mla_whole(k), 1}, p, weight_grad));
}

// A down-projection (duplicated TELinear over the sequence shard) of output width `n`, forward.
void mla_down_forward(std::vector<Kernel>& out, const std::string& name, double n, const MlaWidths& w, const Shard& sh) {
  append(out, quantize_kernels(name + ".input", w.seq * w.h, sh, true));
  mla_add_gemm(out, name + ".fwd", w.seq, n, w.h, w.p);
}

void mla_down_backward(std::vector<Kernel>& out, const std::string& name, double n, const MlaWidths& w, const Shard& sh) {
  append(out, quantize_kernels(name + ".output_grad", w.seq * n, sh, true));
  mla_add_gemm(out, name + ".dgrad", w.seq, w.h, n, w.p);
  mla_add_gemm(out, name + ".wgrad", w.h, n, w.seq, w.p, true);
}

// An up-projection (column-parallel, input `in` wide from `input` = its norm's output), backward.
void mla_up_backward(std::vector<Kernel>& out, const std::string& name, const std::string& input, double in, double n,
                 const MlaWidths& w, const Shard& sh) {
  append(out, quantize_kernels(name + ".output_grad", w.t * n, sh, true));
  mla_add_gemm(out, name + ".dgrad", w.t, in, n, w.p);
  append(out, as_weight_grad(norm_output_transpose(input, w.t * in, sh, w.gathered)));
  mla_add_gemm(out, name + ".wgrad", in, n, w.t, w.p, true);
}

}  // namespace

bool tp_local_gemm(const std::string& kernel_name) {
  return kernel_name.rfind("q_down_proj.", 0) == 0 || kernel_name.rfind("kv_down_proj.", 0) == 0;
}

int64_t tp_input_width(const ModelSpec& m) {
  if (!m.is_mla()) return m.hidden;
  const MlaSpec& a = m.mla;
  return (a.q_lora_rank > 0 ? a.q_lora_rank : m.hidden) + static_cast<int64_t>(a.kv_lora_rank) + a.qk_pos_emb_head_dim;
}

MlaParams mla_params(const ModelSpec& m, int tp) {
  Shard sh;
  sh.tp = tp;
  const MlaSpec& a = m.mla;
  const int64_t h = m.hidden, heads = local_heads(m, sh);
  const int64_t q_head = static_cast<int64_t>(a.qk_head_dim) + a.qk_pos_emb_head_dim;
  const int64_t q_lora = a.q_lora_rank, kv_lora = a.kv_lora_rank;
  MlaParams p;
  p.projections = (q_lora > 0 ? h * q_lora + q_lora * heads * q_head : h * heads * q_head) +
                  h * (kv_lora + a.qk_pos_emb_head_dim) + kv_lora * heads * (a.qk_head_dim + a.v_head_dim) +
                  heads * a.v_head_dim * h;
  p.norms = norm_params_per_width(m) * (q_lora + kv_lora);
  return p;
}

std::vector<Kernel> mla_projections_forward(const ModelSpec& m, const Shard& sh) {
  const MlaWidths w = mla_widths_of(m, sh);
  const bool q_lora = w.q_lora > 0;
  std::vector<Kernel> out;
  if (q_lora) mla_down_forward(out, "q_down_proj", w.q_lora, w, sh);
  mla_down_forward(out, "kv_down_proj", w.kv_lora + w.rope, w, sh);
  if (q_lora)
    append(out, norm_into_fp8_gemm(norm_forward_kernel("q_norm.fwd", m.norm, w.seq * w.q_lora, w.e), w.seq * w.q_lora,
                                   sh, w.gathered));
  append(out, norm_into_fp8_gemm(norm_forward_kernel("kv_norm.fwd", m.norm, w.seq * w.kv_lora, w.e),
                                 w.seq * w.kv_lora, sh, w.gathered));
  if (!q_lora) append(out, quantize_kernels("q_proj.input", w.seq * w.h, sh, !w.gathered));
  mla_add_gemm(out, q_lora ? "q_up_proj.fwd" : "q_proj.fwd", w.t, w.q_out, w.q_in, w.p);
  mla_add_gemm(out, "kv_up_proj.fwd", w.t, w.kv_out, w.kv_lora, w.p);
  append(out, mla_rotary_forward(w));
  return out;
}

std::vector<Kernel> mla_projections_backward(const ModelSpec& m, const Shard& sh) {
  const MlaWidths w = mla_widths_of(m, sh);
  const bool q_lora = w.q_lora > 0;
  std::vector<Kernel> out{
      mla_copy_kernel("mla_rope_kv.dgrad", w.t * (w.qkv_out - w.q_out), w.t * (w.kv_out + w.rope), w.t * w.rope, w.e),
      mla_copy_kernel("mla_rope_q.dgrad", w.t * w.q_out, w.t * w.q_out, w.t * w.heads * w.rope, w.e)};
  mla_up_backward(out, "kv_up_proj", "kv_norm.output", w.kv_lora, w.kv_out, w, sh);
  mla_up_backward(out, q_lora ? "q_up_proj" : "q_proj", q_lora ? "q_norm.output" : "q_proj.input", w.q_in, w.q_out, w, sh);
  if (q_lora) out.push_back(norm_backward_kernel("q_norm.dgrad", m.norm, w.seq * w.q_lora, w.e));
  out.push_back(norm_backward_kernel("kv_norm.dgrad", m.norm, w.seq * w.kv_lora, w.e));
  if (q_lora) mla_down_backward(out, "q_down_proj", w.q_lora, w, sh);
  mla_down_backward(out, "kv_down_proj", w.kv_lora + w.rope, w, sh);
  // Autograd sums the input gradients of the hidden state's two consumers (the down-projections, or q_proj
  // and kv_down_proj).
  out.push_back(residual_backward_kernel("mla_input.dgrad_sum", w.seq * w.h, w.e));
  return out;
}

double mla_qkv_elements(const ModelSpec& m, const Shard& sh) { return mla_widths_of(m, sh).qkv_out; }

double mla_latent_elements(const ModelSpec& m) {
  return static_cast<double>(m.mla.q_lora_rank) + m.mla.kv_lora_rank;
}

}  // namespace trainsim
