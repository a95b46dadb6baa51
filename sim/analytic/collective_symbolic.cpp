// SymPy text of a run's per-call collective times (see collective_symbolic.hpp).
#include "sim/analytic/collective_symbolic.hpp"

#include "sim/core/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/run_payloads.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

std::string num(double value) { return format_number(value); }

struct Call {
  const char* name;     // python name of the line
  Dim dim;
  CollectiveKind kind;
  const char* payload;  // python name of its S
  Bytes bytes;
};

void call_line(std::ostringstream& o, const CommCosts& cc, const Call& c) {
  const CollectiveSetup set = cc.setup(0, c.dim, c.kind, c.bytes);
  if (set.shape.members < 2 || c.bytes <= 0) return;
  const int chunks = std::clamp(static_cast<int>(std::floor(c.bytes / (1024.0 * 1024))), 1, 8);
  const Seconds value = cc.collective(0, c.dim, c.kind, c.bytes);
  const SympyLinks links{set.inter.pair_links, set.intra.pair_links, set.shape.node_size < set.shape.members};
  o << c.name << " = (" << collective_sympy(c.kind, set.algorithm, links) << ").subs({n: "
    << set.shape.members << ", g: " << set.shape.node_size << ", S: " << c.payload << ", alpha: " << num(set.inter.alpha)
    << ", beta: " << num(set.inter.beta) << ", alpha_i: " << num(set.intra.alpha) << ", beta_i: " << num(set.intra.beta)
    << ", k: " << chunks << "})  # " << set.algorithm << " " << to_string(c.kind) << ", " << num(value) << " s\n";
}

}  // namespace

std::string symbolic_collectives(const RunSpec& run) {
  const auto& st = run.strategy;
  const ModelSpec& m = run.model;
  const Shard sh = shard_of(run);
  const Payloads pl = payloads(run);
  const CommCosts cc(run);
  std::ostringstream o;
  o << "# Per-call collective times of rank 0 (the pieces of TP_s, CP_s, EP_s, Z3_s, DP_s, AG_s, hop_s):\n"
    << "n, g, S, alpha, beta, alpha_i, beta_i, k = symbols('n g S alpha beta alpha_i beta_i k')\n"
    << "b, s, h, e, t, cp = " << run.micro_batch << ", " << run.seq_len << ", " << m.hidden << ", "
    << num(activation_element_bytes(run.precision)) << ", " << st.tp << ", " << st.cp
    << "  # micro-batch, sequence, hidden, bytes per element, tp, cp\n"
    << "S_tp = b*s/cp*h*e\nS_pp = b*s/cp*h*e/t\n"
    << "S_tpg = b*s/cp*h*" << num(pl.tp_gather / pl.tp * activation_element_bytes(run.precision))
    << "  # the SP all-gather: FP8 in 8-bit runs (cast before the gather)\n"
    << "S_cp = b*s*" << local_kv_heads(m, sh) * (head_dim_of(m) + v_head_dim_of(m))
    << "*e  # K and V of the local kv heads\n";
  if (m.is_moe())
    o << "S_ep = b*s/cp/" << (st.sequence_parallel ? "t" : "1") << "*" << m.moe.top_k << "*" << num(run.expert_load())
      << "*h*e  # tokens x top_k x capacity factor\n";
  o << "S_bucket = " << num(st.grad_bucket_size) << "  # one full DP bucket, bytes (buckets close at layer ends)\n";
  const CollectiveKind tp_reduce = st.sequence_parallel ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
  const bool sharded = st.zero_stage == 1 || st.zero_stage == 2;
  const Call calls[] = {
      {"tp_reduce", Dim::kTp, tp_reduce, "S_tp", pl.tp},
      {"tp_gather", Dim::kTp, CollectiveKind::kAllGather, "S_tpg", st.sequence_parallel ? pl.tp_gather : 0},
      {"cp_kv_gather", Dim::kCp, CollectiveKind::kAllGather, "S_cp", pl.cp_kv},
      {"ep_all_to_all", Dim::kEp, CollectiveKind::kAllToAll, "S_ep", pl.ep},
      {"dp_bucket", Dim::kDpCp, sharded ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce, "S_bucket",
       st.zero_stage < 3 ? st.grad_bucket_size : 0},
  };
  for (const Call& c : calls) call_line(o, cc, c);
  if (st.pp > 1) {
    const LinkCost l = cc.link_between(0, cc.mesh().rank_at_stage(0, 1));
    o << "pp_hop = (alpha + S/beta).subs({S: S_pp, alpha: " << num(l.alpha) << ", beta: " << num(l.beta) << "})  # "
      << num(cc.p2p(0, cc.mesh().rank_at_stage(0, 1), pl.pp)) << " s\n";
  }
  return o.str();
}

}  // namespace trainsim
