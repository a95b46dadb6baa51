// The rotary embedding's kernels (sim/model/rope_ops.hpp): one fused kernel, or a YaRN rotary applied
// by eager ops, by hand; which runs get the eager ops; YaRN from a Hugging Face config.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/rope_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;

TEST_CASE("a fused rotary kernel reads and writes q and k once", "[model][rope]") {
  const Kernel k = rope_kernel(1000, 2, false, 64, false);
  CHECK(k.name == "rope.fwd");
  CHECK(k.bytes == 4000);
  CHECK(k.launches == 1);
  CHECK(k.framework_calls == 1);
}

TEST_CASE("a YaRN rotary applied by eager ops, by hand", "[model][rope]") {
  // 1000 elements of q and k together, 2 bytes; frequencies of 10 fp32 elements (seq x head_dim).
  // Forward over t: 6.5 tensors read, 5.5 written = 24,000 bytes; on the frequencies per tensor cos and
  // x scale (8 + 8 bytes per element), cast (6), and the same for sin: 44 bytes x 10 x 2 tensors = 880.
  // 12 ops per tensor, 24 launches, each a framework call.
  const Kernel fwd = rope_kernel(1000, 2, true, 10, false);
  CHECK(fwd.bytes == 24000 + 880);
  CHECK(fwd.launches == 24);
  CHECK(fwd.framework_calls == 24);
  CHECK(library_launches(fwd) == 0);
  // Backward: 5.5 read, 4.5 written over t = 20,000 bytes; 7 ops per tensor.
  const Kernel bwd = rope_kernel(1000, 2, true, 10, true);
  CHECK(bwd.name == "rope.dgrad");
  CHECK(bwd.bytes == 20000);
  CHECK(bwd.launches == 14);
}

TEST_CASE("a run applies YaRN by eager ops only with a YaRN model and a framework that does", "[model][rope]") {
  RunSpec run = load_run(data_dir() / "validation" / "runs" / "mb-gpt-oss-120b.yaml");  // megatron-core
  CHECK(run.model.position_embedding == PositionEmbedding::kYarn);
  CHECK(shard_of(run).eager_yarn_rope);
  CHECK(test::find_kernel(attention_forward(run.model, shard_of(run)), "rope.fwd").launches == 24);
  run.framework.eager_yarn_rope = false;
  CHECK_FALSE(shard_of(run).eager_yarn_rope);
  CHECK(test::find_kernel(attention_forward(run.model, shard_of(run)), "rope.fwd").launches == 1);
  RunSpec qwen = load_run(data_dir() / "validation" / "runs" / "mb-qwen3-30b-a3b.yaml");  // plain RoPE
  CHECK_FALSE(shard_of(qwen).eager_yarn_rope);
}
