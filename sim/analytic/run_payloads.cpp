// Collective payload sizes of a run (see run_payloads.hpp).
#include "sim/analytic/run_payloads.hpp"

#include "sim/model/shard.hpp"

namespace trainsim {

Payloads payloads(const RunSpec& run) {
  const auto& s = run.strategy;
  const double e = activation_element_bytes(run.precision);
  const double b = run.micro_batch, s_local = static_cast<double>(run.seq_len) / s.cp, h = run.model.hidden;
  const Shard sh = shard_of(run);
  Payloads p;
  p.tp = b * s_local * h * e;
  p.tp_gather = is_fp8(run.precision) ? b * s_local * h * bytes_per_element(run.precision) : p.tp;
  p.cp_kv = b * run.seq_len * e *
            static_cast<double>(local_kv_heads(run.model, sh) * (head_dim_of(run.model) + v_head_dim_of(run.model)));
  const double tokens = b * s_local / (s.sequence_parallel ? s.tp : 1);
  p.ep = run.model.is_moe() ? tokens * run.model.moe.top_k * run.expert_load() * h * e : 0;
  p.pp = b * s_local * h * e / s.tp;
  p.grad_element = gradient_element_bytes(run);
  p.param_element = run.fp8.param_gather ? bytes_per_element(run.precision) : e;
  return p;
}

}  // namespace trainsim
