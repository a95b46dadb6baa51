// Combined 1F1B (strategy.overlap.ep_comm; sim/graph/merged_passes.hpp), in closed form: the time
// the compute stream waits in one pair of MoE layers merged from a forward pass F and a backward
// pass B, each of the four all-to-alls taking `a2a` seconds. The stream runs, in order,
//   B's kernels before its first all-to-all (F's dispatch is in flight),
//   F's expert kernels (after F's dispatch; B's first all-to-all in flight),
//   B's expert kernels (after B's first; F's combine in flight),
//   F's kernels after its combine (after it; B's second all-to-all in flight),
//   B's weight-gradient kernels right after its last expert GEMM (they wait for nothing), then its
//   kernels after its second all-to-all (after it), its attention backward included;
// each all-to-all starts when the kernels before it in its own pass end and the one before it on
// the EP stream is done. F's kernels before its dispatch end the previous pair and start the clock.
#pragma once

namespace trainsim {

struct MergedSegments {
  double b_before = 0;   // B before its first all-to-all, seconds
  double f_experts = 0;  // F from its first expert kernel through its last expert GEMM
  double b_experts = 0;  // B likewise
  double f_after = 0;    // F after its combine
  double b_after = 0;    // B after its second all-to-all
  double b_wgrad = 0;    // of b_after, the weight-gradient kernels that run before it ends
};

// Seconds the compute stream idles in the pair.
[[nodiscard]] double merged_ep_exposed(const MergedSegments& s, double a2a);

}  // namespace trainsim
