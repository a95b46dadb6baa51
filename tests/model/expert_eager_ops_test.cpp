// The eager operations a framework runs around the experts (sim/model/expert_eager_ops.hpp): the
// clamped GLU's clamps and the fc2 bias added per expert, by hand; where they sit among the expert
// kernels, when a run has them, what selective recompute re-runs, and that their framework calls
// pay the host's full launch cost.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/analytic/pass_times.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/core/error.hpp"
#include "sim/model/expert_eager_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/recompute_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::shard;

namespace {

// h 64, 8 gated experts of width 128, top-2; 1 x 64 tokens over ep 2: 4 local experts of 32 rows.
ModelSpec gated_moe() {
  ModelSpec m = trainsim::test::tiny_gpt();
  m.gated_ffn = true;
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 128;
  return m;
}

Shard eager_shard(bool bias, bool clamp) {
  Shard sh = shard(1, 64);
  sh.ep = 2;
  sh.per_expert_bias = bias;
  sh.separate_glu_clamp = clamp;
  return sh;
}

std::vector<std::string> expert_names(const std::vector<Kernel>& ks) {
  std::vector<std::string> out;
  for (const Kernel& k : ks)
    if (k.name.rfind("moe_expert", 0) == 0 && !k.weight_grad) out.push_back(k.name);
  return out;
}

}  // namespace

TEST_CASE("the clamped GLU's eager clamps and concatenation, by hand", "[model][moe]") {
  // 1000 elements of one half, 2 bytes each. Forward: clamp gate (read 1, write 1), clamp linear (1, 1),
  // cat (2, 2): 8 tensors, 16,000 bytes, 3 kernels the framework issues.
  const Kernel fwd = glu_clamp_kernel(1000, 2, false);
  CHECK(fwd.name == "moe_expert_clamp.fwd");
  CHECK(fwd.bytes == 16000);
  CHECK(fwd.launches == 3);
  CHECK(fwd.framework_calls == 3);
  CHECK(library_launches(fwd) == 0);
  // Backward: le + where (1 + 0.5 mask written; 0.5 + 1 read, 1 written), ge + le + and + where on the
  // other half (reads 1, 1, 1, 1.5; writes 0.5, 0.5, 0.5, 1), cat of the two gradients (2, 2): 9 read,
  // 6 written = 30,000 bytes in 7 kernels.
  const Kernel bwd = glu_clamp_kernel(1000, 2, true);
  CHECK(bwd.bytes == 30000);
  CHECK(bwd.launches == 7);
  CHECK(bwd.framework_calls == 7);
}

TEST_CASE("the fc2 bias added expert by expert, by hand", "[model][moe]") {
  // 4 experts over 1000 elements of the fc2 output. Forward: per expert b·p (write 1) and rows + b·p
  // (read 2, write 1), then cat (1, 1): 6 tensors, 12,000 bytes, 2 x 4 + 1 = 9 kernels.
  const Kernel fwd = expert_bias_kernel(1000, 4, 2, false);
  CHECK(fwd.name == "moe_expert_bias.fwd");
  CHECK(fwd.bytes == 12000);
  CHECK(fwd.launches == 9);
  CHECK(fwd.framework_calls == 9);
  // Backward: per expert g·p (1, 1) and its sum (1), g·b (1, 1) and its sum (1); cat of the rows'
  // gradients (1, 1): 8 tensors, 16,000 bytes, 4 x 4 + 1 = 17 kernels.
  const Kernel bwd = expert_bias_kernel(1000, 4, 2, true);
  CHECK(bwd.bytes == 16000);
  CHECK(bwd.launches == 17);
  CHECK(library_launches(bwd) == 0);
}

TEST_CASE("the eager expert kernels sit around the GEMMs and the activation, in both passes", "[model][moe]") {
  const ModelSpec m = gated_moe();
  CHECK(expert_names(moe_forward(m, eager_shard(true, true))) ==
        std::vector<std::string>{"moe_expert_fc1.fwd", "moe_expert_clamp.fwd", "moe_expert_act.fwd",
                                 "moe_expert_fc2.fwd", "moe_expert_bias.fwd"});
  CHECK(expert_names(moe_backward(m, eager_shard(true, true))) ==
        std::vector<std::string>{"moe_expert_bias.dgrad", "moe_expert_fc2.dgrad", "moe_expert_act.dgrad",
                                 "moe_expert_clamp.dgrad", "moe_expert_fc1.dgrad"});
  CHECK(expert_names(moe_forward(m, eager_shard(false, false))) ==
        std::vector<std::string>{"moe_expert_fc1.fwd", "moe_expert_act.fwd", "moe_expert_fc2.fwd"});
  // Sizes: 4 local experts x 32 rows = 128 rows; the clamp over one half (128 x 128), the bias over the
  // fc2 output (128 x 64), bf16.
  const Kernel clamp = test::find_kernel(moe_forward(m, eager_shard(false, true)), "moe_expert_clamp.fwd");
  CHECK(clamp.bytes == 8.0 * 128 * 128 * 2);
  const Kernel bias = test::find_kernel(moe_forward(m, eager_shard(true, false)), "moe_expert_bias.fwd");
  CHECK(bias.bytes == 6.0 * 128 * 64 * 2);
  CHECK(bias.launches == 2 * 4 + 1);
}

TEST_CASE("a run has the eager expert kernels when its model and its framework both say so", "[model][moe]") {
  RunSpec run = load_run(data_dir() / "validation" / "runs" / "mb-gpt-oss-120b.yaml");  // megatron-core
  CHECK(run.model.moe.expert_bias);
  CHECK(run.model.moe.glu_clamp == 7.0);
  CHECK(shard_of(run).per_expert_bias);
  CHECK(shard_of(run).separate_glu_clamp);
  run.framework.moe.per_expert_bias = false;  // a framework with the bias in the GEMM epilogue
  run.framework.moe.separate_glu_clamp = false;
  CHECK_FALSE(shard_of(run).per_expert_bias);
  CHECK_FALSE(shard_of(run).separate_glu_clamp);
  RunSpec qwen = load_run(data_dir() / "validation" / "runs" / "mb-qwen3-30b-a3b.yaml");  // no bias, no clamp
  CHECK_FALSE(shard_of(qwen).per_expert_bias);
  CHECK_FALSE(shard_of(qwen).separate_glu_clamp);
}

TEST_CASE("moe_act recompute re-runs the clamps with the activation; the bias is not re-run", "[model][moe]") {
  RecomputeModules modules;
  modules.core_attn = false;
  modules.moe_act = true;
  CHECK(selectively_recomputed("moe_expert_clamp.fwd", LayerBlock::kMoe, modules, ModelSpec{}));
  CHECK(selectively_recomputed("moe_expert_act.fwd", LayerBlock::kMoe, modules, ModelSpec{}));
  CHECK_FALSE(selectively_recomputed("moe_expert_bias.fwd", LayerBlock::kMoe, modules, ModelSpec{}));
}

TEST_CASE("the eager kernels' framework calls each count as a full launch of the pass", "[analytic][moe]") {
  RunSpec run = load_run(data_dir() / "validation" / "runs" / "mb-gpt-oss-120b.yaml");
  const BlockPassTimes with = block_times(run).moe;
  run.framework.moe.per_expert_bias = false;
  run.framework.moe.separate_glu_clamp = false;
  const BlockPassTimes without = block_times(run).moe;
  // 16 local experts: forward 3 clamp kernels and 2 x 16 + 1 bias kernels; backward 7 and 4 x 16 + 1,
  // each one launch beyond the catalogue kernels of the block; no library launches among them.
  CHECK(with.forward_launches.calls - without.forward_launches.calls == 3 + 33);
  CHECK(with.backward_launches.calls - without.backward_launches.calls == 7 + 65);
  CHECK(with.forward_launches.library == without.forward_launches.library);
}

TEST_CASE("a clamped GLU needs a gated FFN", "[config][moe]") {
  const std::string preset = (data_dir() / "workloads" / "models" / "gpt-oss-120b.yaml").string();
  CHECK_NOTHROW(load_model_file(preset, {{"--set moe.glu_clamp=7", "moe.glu_clamp", "7"}}));
  CHECK_THROWS_WITH(load_model_file(preset, {{"--set gated_ffn=false", "gated_ffn", "false"}}),
                    Catch::Contains("moe.glu_clamp") && Catch::Contains("gated_ffn is false"));
}
