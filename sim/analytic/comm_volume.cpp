#include "sim/analytic/comm_volume.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {
double share_sent(int n) { return n > 1 ? static_cast<double>(n - 1) / n : 0.0; }
}  // namespace

Bytes ring_allreduce_bytes(Bytes buffer, int n) { return 2 * share_sent(n) * buffer; }
Bytes ring_gather_bytes(Bytes buffer, int n) { return share_sent(n) * buffer; }

Bytes tp_bytes_per_call(int64_t b, int64_t s, int64_t h, int t, double e) {
  return ring_allreduce_bytes(static_cast<double>(b) * s * h * e, t);
}

int tp_calls_per_layer(bool full_recompute) { return full_recompute ? 6 : 4; }

Bytes tp_bytes_per_iteration(int64_t b, int64_t s, int64_t h, int t, double e, int layers, int64_t microbatches,
                             bool full_recompute) {
  return tp_calls_per_layer(full_recompute) * static_cast<double>(layers) * static_cast<double>(microbatches) *
         tp_bytes_per_call(b, s, h, t, e);
}

Bytes dp_bytes_per_iteration(Bytes grad_bytes, Bytes param_bytes, int d, int zero_stage) {
  switch (zero_stage) {
    case 0: return ring_allreduce_bytes(grad_bytes, d);
    case 1:
    case 2: return ring_gather_bytes(grad_bytes, d) + ring_gather_bytes(param_bytes, d);
    case 3: return ring_gather_bytes(grad_bytes, d) + 2 * ring_gather_bytes(param_bytes, d);
    default: break;
  }
  throw StrategyError("zero_stage must be 0, 1, 2 or 3 (got " + std::to_string(zero_stage) + ")");
}

Bytes ep_bytes_per_call(int64_t tokens, int64_t h, int top_k, double capacity_factor, int ep, double e) {
  return share_sent(ep) * capacity_factor * top_k * static_cast<double>(tokens) * h * e;
}

Bytes ep_bytes_per_iteration(Bytes per_call, int moe_layers, int64_t microbatches, bool full_recompute) {
  const int calls = full_recompute ? 6 : 4;
  return calls * static_cast<double>(moe_layers) * static_cast<double>(microbatches) * per_call;
}

Bytes cp_kv_block_bytes(int64_t b, int64_t s_local, int64_t kv_heads_local, int64_t head_dim, double e) {
  return 2.0 * b * s_local * kv_heads_local * head_dim * e;
}

Bytes cp_bytes_per_iteration(Bytes block, int cp, int layers, int64_t microbatches, bool full_recompute) {
  if (cp <= 1) return 0;
  const double forward_passes = full_recompute ? 2 : 1;
  const double blocks_per_layer = (forward_passes + 2) * (cp - 1);
  return blocks_per_layer * layers * static_cast<double>(microbatches) * block;
}

Bytes pp_message_bytes(int64_t b, int64_t s, int64_t h, double e, int t, bool split_over_tp) {
  const double full = static_cast<double>(b) * s * h * e;
  return split_over_tp ? full / t : full;
}

Bytes pp_bytes_per_iteration(Bytes message, int64_t microbatches, int virtual_stages, int stage, int stages) {
  if (stages <= 1) return 0;
  const double m = static_cast<double>(microbatches);
  const double forward = m * (stage == stages - 1 ? virtual_stages - 1 : virtual_stages);
  const double backward = m * (stage == 0 ? virtual_stages - 1 : virtual_stages);
  return (forward + backward) * message;
}

}  // namespace trainsim
