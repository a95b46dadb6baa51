// When unfused attention's softmax takes Megatron's fused kernel (sim/model/softmax_fusion.hpp), what
// PyTorch's fallback costs, and what it keeps for the backward. Every expected value is worked by hand.
#include <catch2/catch.hpp>

#include "sim/analytic/activation_memory.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/softmax_fusion.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::find_kernel;
using trainsim::test::shard;
using trainsim::test::tiny_gpt;

namespace {
constexpr SoftmaxFusion kFork = SoftmaxFusion::kMegatronDeepSpeed2022;

double bytes_of(const std::vector<Kernel>& ks, const std::string& prefix) {
  double bytes = 0;
  for (const Kernel& k : ks)
    if (k.name.rfind(prefix, 0) == 0) bytes += k.bytes;
  return bytes;
}
}  // namespace

TEST_CASE("the fused softmax kernel takes 128 threads per block: 4 rows above 128 keys, more below", "[model]") {
  // Rows per block = 128 / min(p, 32) x (p <= 128 ? 2 : 1), p the key length's next power of two.
  CHECK(softmax_batches_per_block(2048) == 4);   // 128/32 x 1
  CHECK(softmax_batches_per_block(4096) == 4);
  CHECK(softmax_batches_per_block(128) == 8);    // 128/32 x 2
  CHECK(softmax_batches_per_block(100) == 8);    // p = 128
  CHECK(softmax_batches_per_block(8) == 32);     // 128/8 x 2
  CHECK(softmax_batches_per_block(12) == 16);    // p = 16: 128/16 x 2
  CHECK(softmax_batches_per_block(1) == 256);    // 128/1 x 2
}

TEST_CASE("Megatron fuses 16-bit scores of 16 to 4096 keys whose batches fill whole thread blocks", "[model]") {
  const SoftmaxFusion r = SoftmaxFusion::kMegatron;
  CHECK(fused_softmax_runs(r, 1, 8, 2048, 2048, true));        // 8 batches, 4 rows per block
  CHECK(fused_softmax_runs(r, 1, 12, 4096, 4096, true));       // the 4096-key limit itself
  CHECK_FALSE(fused_softmax_runs(r, 1, 8, 8192, 8192, true));  // past 4096 keys
  CHECK_FALSE(fused_softmax_runs(r, 1, 6, 2048, 2048, true));  // 6 batches: not a multiple of 4
  CHECK_FALSE(fused_softmax_runs(r, 1, 8, 2048, 2048, false)); // fp32 scores
  CHECK_FALSE(fused_softmax_runs(r, 4, 4, 16, 16, true));      // 16 keys: the kernel needs more
  CHECK_FALSE(fused_softmax_runs(r, 1, 4, 64, 64, true));      // 64 keys: 8 rows per block, 4 batches
  CHECK(fused_softmax_runs(r, 2, 4, 64, 64, true));            // 8 batches
}

TEST_CASE("the BigScience fork of early 2022 takes its rows per block from the heads per device", "[model]") {
  // 64 heads on tp 8: 8 heads per device, 32 rows per block (128/8 x 2): only micro-batches that are
  // multiples of 4 fill whole blocks, as in the layout benchmarks of 2022-02-21 and 02-23.
  CHECK_FALSE(fused_softmax_runs(kFork, 1, 8, 2048, 2048, true));
  CHECK_FALSE(fused_softmax_runs(kFork, 2, 8, 2048, 2048, true));
  CHECK(fused_softmax_runs(kFork, 4, 8, 2048, 2048, true));
  CHECK(fused_softmax_runs(kFork, 8, 8, 2048, 2048, true));
  // 112 heads: 14 per device, p = 16, 16 rows per block; 4 x 14 = 56 batches is not a multiple.
  CHECK_FALSE(fused_softmax_runs(kFork, 4, 14, 2048, 2048, true));
  CHECK(fused_softmax_runs(kFork, 4, 16, 2048, 2048, true));    // 64 batches, 16 rows per block
  CHECK_FALSE(fused_softmax_runs(kFork, 4, 8, 4096, 4096, true));  // its bound is 2048 queries
  // Upstream's rule fuses all of these 2048-key cases (4 rows per block from the keys).
  CHECK(fused_softmax_runs(SoftmaxFusion::kMegatron, 1, 8, 2048, 2048, true));
  CHECK(fused_softmax_runs(SoftmaxFusion::kMegatron, 4, 14, 2048, 2048, true));
  CHECK(fused_softmax_runs(SoftmaxFusion::kAlways, 1, 3, 5, 7, false));
}

TEST_CASE("PyTorch's fp32 softmax moves 36 bytes per score forward and 40 backward, the fused kernel 4 and 6",
          "[model]") {
  // Tiny GPT layer, b = 2, s = 32, 4 heads, bf16: 2 x 4 x 32 x 32 = 8,192 scores. Under the fork's rule the
  // 8 batches do not fill its 64 rows per block (4 heads: 128/4 x 2), so the fallback runs. Forward: cast
  // (2 B in, 4 out), scale (4, 4), mask (4, 4), softmax (4, 4), cast back (4, 2) = 36 B per score; its
  // backward: the casts' gradients (2+4, 4+2), softmax's (reads 4+4, writes 4), mask's and scale's (4+4
  // each) = 40 B. The fused kernel reads and writes the 16-bit scores (4 B), its backward reads the
  // probabilities and their gradient and writes one (6 B).
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(2, 32);
  sh.flash_attention = false;
  CHECK(bytes_of(attention_forward(m, sh), "attn_softmax") == 8192.0 * 4);
  CHECK(bytes_of(attention_backward(m, sh), "attn_softmax") == 8192.0 * 6);
  sh.softmax_fusion = kFork;
  const std::vector<Kernel> fwd = attention_forward(m, sh);
  CHECK(bytes_of(fwd, "attn_softmax") == 8192.0 * 36);
  CHECK(find_kernel(fwd, "attn_softmax_cast.fwd").bytes == 8192.0 * 6);
  CHECK(find_kernel(fwd, "attn_softmax_cast_back.fwd").bytes == 8192.0 * 6);
  CHECK(bytes_of(attention_backward(m, sh), "attn_softmax") == 8192.0 * 40);
  // Upstream Megatron fuses this shape (32 keys: 8 rows per block, 8 batches).
  sh.softmax_fusion = SoftmaxFusion::kMegatron;
  CHECK(bytes_of(attention_forward(m, sh), "attn_softmax") == 8192.0 * 4);
}

TEST_CASE("with attention dropout the fallback's backward runs dropout's gradient as a kernel of its own", "[model]") {
  // Dropout's backward reads the 2-byte gradient and the 1-byte mask and writes 2 bytes: 8,192 x 5 B.
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(2, 32);
  sh.flash_attention = false;
  sh.attention_dropout = 0.1;
  sh.softmax_fusion = kFork;
  const std::vector<Kernel> bwd = attention_backward(m, sh);
  CHECK(find_kernel(bwd, "attn_dropout.dgrad").bytes == 8192.0 * 5);
  CHECK(bytes_of(bwd, "attn_softmax") == 8192.0 * 40);
}

TEST_CASE("the fp32 softmax keeps its 4-byte output for the backward beside the 16-bit probabilities",
          "[analytic]") {
  // Korthikanti's layer with dropout (180,224 B at b = 2, s = 32, h = 64, 4 heads, tp 1) keeps the softmax
  // output at 2 B per score; PyTorch's fp32 softmax keeps it at 4 B: 8,192 scores x 2 B more. Without
  // dropout the context GEMM's input is the 16-bit copy the fallback casts back to, a tensor of its own:
  // 4 + 2 B per score against the fused kernel's 2.
  const ModelSpec m = tiny_gpt();
  ActivationOptions o;
  o.flash_attention = false;
  o.dropout = true;
  Shard sh = shard(2, 32);
  sh.flash_attention = false;
  CHECK(layer_activation_bytes(m, sh, 0, o) == 180224.0);
  sh.softmax_fusion = kFork;
  CHECK(layer_activation_bytes(m, sh, 0, o) == 180224.0 + 8192.0 * 2);
  o.dropout = false;
  sh.softmax_fusion = SoftmaxFusion::kAlways;
  const double fused = layer_activation_bytes(m, sh, 0, o);
  sh.softmax_fusion = kFork;
  CHECK(layer_activation_bytes(m, sh, 0, o) - fused == 8192.0 * 4);
}
