// Time lost to link sharing per stage (see shared_time.hpp).
#include "sim/analytic/shared_time.hpp"

#include <algorithm>

namespace trainsim {
namespace {

std::array<double, 2>& of(SharedTime& t, Traffic k) {
  switch (k) {
    case Traffic::kTp: return t.tp;
    case Traffic::kCp: return t.cp;
    case Traffic::kEp: return t.ep;
    default: return t.dp;
  }
}

// Per micro-batch seconds of each traffic kind: what the compute stream waits for, what runs beside.
struct KindTimes {
  std::array<double, kTrafficKinds> exposed{}, hidden{};
  double at(Traffic k, bool exposed_part) const { return (exposed_part ? exposed : hidden)[static_cast<size_t>(k)]; }
};

KindTimes kind_times(const RunSpec& run, const StageInputs& st, bool pp_beside) {
  const auto& s = run.strategy;
  KindTimes k;
  k.exposed = {st.tp_exposed, st.cp_exposed, st.ep_exposed, st.zero3_exposed, 0};
  k.hidden = {st.tp_hidden, st.cp_hidden, st.ep_hidden, st.zero3_hidden, 0};
  if (s.pp > 1) {
    // Each chunk sends one activation forward and one gradient back per micro-batch.
    const double sends = 2.0 * s.virtual_stages * st.pp_hop;
    (pp_beside ? k.hidden : k.exposed)[static_cast<size_t>(Traffic::kPp)] = sends;
  }
  return k;
}

void add(std::array<double, 2>& to, const Slowdown& s, double seconds) { to[static_cast<size_t>(s.tier_class)] += s.factor * seconds; }

// Once per iteration: the exposed collectives of a pass of length `pass` (a share pass / t of the
// stage's time per micro-batch) beside DP traffic of `dp` seconds, which can run in the last `window`
// of that pass only (the reduction: after its first bucket is ready); and how much slower that DP
// traffic runs in the pass, where each other kind is active (exposed + hidden) / t of the time.
void add_pass(const LinkSharing& links, const KindTimes& k, double t, double pass, double window, double dp,
              SharedTime& once, std::array<double, 2>& dp_slowdown) {
  pass *= window;
  if (dp <= 0 || pass <= 0 || t <= 0) return;
  const double share = pass / t, active = std::min(1.0, dp / pass);
  for (Traffic c : {Traffic::kTp, Traffic::kCp, Traffic::kEp})
    add(of(once, c), links.slowdown(c, Traffic::kDp), k.at(c, true) * share * active);
  for (Traffic c : {Traffic::kTp, Traffic::kCp, Traffic::kEp, Traffic::kPp})
    add(dp_slowdown, links.slowdown(Traffic::kDp, c), std::min(1.0, (k.at(c, true) + k.at(c, false)) / t));
}

// The terms under one setting of the pipeline switch: the stage's sends beside its compute or not.
SharedTerms shared_terms_for(const RunSpec& run, const LinkSharing& links, const StageInputs& st, bool pp_beside) {
  const auto& s = run.strategy;
  SharedTerms out;
  const KindTimes k = kind_times(run, st, pp_beside);
  const double compute = st.forward + st.backward_input + st.weight_grad + st.recompute;
  double t = compute;
  for (double e : k.exposed) t += e;
  if (t <= 0) return out;
  for (Traffic c : {Traffic::kTp, Traffic::kCp, Traffic::kEp, Traffic::kDp}) {
    if (k.at(c, true) <= 0) continue;
    for (Traffic beside : {Traffic::kDp, Traffic::kPp}) {  // the streams that run on their own
      if (beside == c || k.at(beside, false) <= 0) continue;
      const double active = std::min(1.0, k.at(beside, false) / std::max(1e-30, t - k.at(beside, true)));
      add(of(out.steady, c), links.slowdown(c, beside), k.at(c, true) * active);
    }
  }
  const double backward = compute > 0 ? t * (st.backward_input + st.weight_grad + st.recompute) / compute : 0;
  add_pass(links, k, t, backward, st.dp_reduce_window, st.dp_reduce, out.once_reduce, out.reduce_slowdown);
  if (s.overlap.zero_param_gather) add_pass(links, k, t, t - backward, 1, st.param_gather, out.once, out.gather_slowdown);
  return out;
}

}  // namespace

void add_shared_time(const RunSpec& run, const LinkSharing& links, StageInputs& st) {
  for (bool pp_beside : {false, true}) st.shared[pp_beside ? 1 : 0] = shared_terms_for(run, links, st, pp_beside);
}

}  // namespace trainsim
