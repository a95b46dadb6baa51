// Emits the tasks of one block (attention, MLP, MoE, embedding, output) for one micro-batch:
// its kernels on the compute stream plus the collectives its partitioning implies.
//  - TP (Megatron column→row parallel pair): all-reduce after the row-parallel GEMM; under
//    sequence parallelism an all-gather before the first GEMM and a reduce-scatter after the last
//    (Korthikanti et al. 2022 §4.2.2). Backward mirrors forward.
//  - EP: all-to-all dispatch before the expert GEMMs and combine after them (forward and backward).
//  - CP: the K/V of the other context shards are all-gathered over the CP ring while the local
//    block of attention runs; dK/dV are reduce-scattered after the attention backward.
#pragma once
#include "sim/graph/build_context.hpp"

namespace trainsim {

enum class BackwardPart { kAll, kInputGrad, kWeightGrad };

struct BlockRules {
  bool gather_before_first_gemm = false;  // SP all-gather
  bool reduce_after_last_gemm = false;    // all-reduce (or SP reduce-scatter)
  bool reduce_after_block = false;        // all-reduce after the last kernel (vocab-parallel embedding)
};

// A run of a block's kernels, [begin, end) (end -1: through the last), for passes merged layer by
// layer (sim/graph/merged_passes.hpp). lead_comm false: the EP all-to-all due before kernel
// `begin` (and, in the forward, the dispatcher's host sync) was already issued by the caller
// (add_ep_exchange).
struct KernelSpan {
  int begin = 0, end = -1;
  bool lead_comm = true;
};

[[nodiscard]] BlockRules forward_rules(const BuildContext& ctx, const BlockTemplate& block);
[[nodiscard]] BlockRules backward_rules(const BuildContext& ctx, const BlockTemplate& block);

void emit_block_forward(BuildContext& ctx, const BlockTemplate& block, const BlockRules& rules, int microbatch,
                        int layer, TaskRole role, KernelSpan span = {});
// Returns the last weight-gradient task emitted (or the last task when none), for gradient sync.
TaskId emit_block_backward(BuildContext& ctx, const BlockTemplate& block, const BlockRules& rules, int microbatch,
                           int layer, BackwardPart part, KernelSpan span = {});
// The EP all-to-all a block issues before its first expert kernel, issued on its own (with the
// dispatcher's host sync before a forward dispatch): `label` "ep.dispatch" in both passes, as the
// blocks name them.
void add_ep_exchange(BuildContext& ctx, int microbatch, int layer, TaskRole role);

}  // namespace trainsim
