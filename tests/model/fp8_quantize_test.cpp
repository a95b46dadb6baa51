// Quantization kernels of 8-bit runs (sim/model/fp8_quantize.hpp), counted by hand.
#include <catch2/catch.hpp>
#include <string>

#include "sim/model/attention_ops.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::find_kernel;
using trainsim::test::shard;

namespace {
Shard fp8_shard(Fp8Recipe recipe, int tp = 1, bool sp = false) {
  Shard sh = shard(1, 64, tp, sp);
  sh.precision = recipe == Fp8Recipe::kMxfp8 ? Precision::kMxfp8 : Precision::kFp8;
  sh.fp8_recipe = recipe;
  return sh;
}
bool has(const std::vector<Kernel>& ks, const std::string& name) {
  for (const Kernel& k : ks)
    if (k.name == name) return true;
  return false;
}
}  // namespace

TEST_CASE("a delayed-scaling cast reads the bf16 tensor once and writes one byte per layout", "[model][fp8]") {
  const Shard sh = fp8_shard(Fp8Recipe::kDelayed);
  // 1000 elements: cast+transpose 1000 x (2 + 1 + 1) = 4000 B; cast alone 1000 x (2 + 1) = 3000 B.
  const auto both = quantize_kernels("x", 1000, sh, true);
  REQUIRE(both.size() == 1);
  CHECK(both[0].name == "x.cast_transpose");
  CHECK(both[0].bytes == Approx(4000));
  const auto row = quantize_kernels("x", 1000, sh, false);
  REQUIRE(row.size() == 1);
  CHECK(row[0].bytes == Approx(3000));
}

TEST_CASE("current scaling reads the tensor twice: an amax pass, then the cast", "[model][fp8]") {
  const auto ks = quantize_kernels("x", 1000, fp8_shard(Fp8Recipe::kCurrent), true);
  REQUIRE(ks.size() == 2);
  CHECK(ks[0].name == "x.amax");
  CHECK(ks[0].bytes == Approx(2000));  // reads 2 B, writes nothing per element
  CHECK(ks[1].bytes == Approx(4000));
}

TEST_CASE("mxfp8 writes both layouts with one scale byte per 32 and needs no transpose", "[model][fp8]") {
  const Shard sh = fp8_shard(Fp8Recipe::kMxfp8);
  // 3200 elements: read 2 B, write 2 x (1 + 1/32) B = 2.0625 B: 3200 x 4.0625 = 13000 B, even row-wise only.
  const auto ks = quantize_kernels("x", 3200, sh, false);
  REQUIRE(ks.size() == 1);
  CHECK(ks[0].bytes == Approx(13000));
  CHECK(fp8_transpose_kernels("x", 3200, sh).empty());
  CHECK(fp8_transpose_kernels("x", 3200, fp8_shard(Fp8Recipe::kDelayed))[0].bytes == Approx(6400));
}

TEST_CASE("16-bit runs quantize nothing", "[model][fp8]") {
  const Shard sh = shard(1, 64);
  CHECK(quantize_kernels("x", 1000, sh, true).empty());
  CHECK(fp8_transpose_kernels("x", 1000, sh).empty());
  CHECK(weight_quantize_kernels(1e6, sh, false).empty());
  const ModelSpec m = trainsim::test::tiny_gpt();
  for (const Kernel& k : attention_forward(m, sh)) CHECK(k.name.find("cast") == std::string::npos);
}

TEST_CASE("under delayed scaling the norm before a column-parallel GEMM writes FP8 itself", "[model][fp8]") {
  // A norm over 1000 elements reads 2 B and writes 2 B (4000 B); emitting FP8 it writes 1 B: 3000 B.
  const Kernel norm = norm_forward_kernel("n", NormKind::kRmsNorm, 1000, 2);
  const auto delayed = norm_into_fp8_gemm(norm, 1000, fp8_shard(Fp8Recipe::kDelayed), false);
  REQUIRE(delayed.size() == 1);
  CHECK(delayed[0].bytes == Approx(3000));
  // Current scaling cannot: the norm keeps its bf16 output and the amax pass and cast follow.
  const auto current = norm_into_fp8_gemm(norm, 1000, fp8_shard(Fp8Recipe::kCurrent), false);
  REQUIRE(current.size() == 3);
  CHECK(current[0].bytes == Approx(4000));
}

TEST_CASE("an fp8 attention block runs its Linear GEMMs in fp8 and attention in bf16", "[model][fp8]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // h 64, 4 heads of 16
  const Shard sh = fp8_shard(Fp8Recipe::kDelayed);
  const auto fwd = attention_forward(m, sh);
  CHECK(find_kernel(fwd, "qkv_proj.fwd").precision == Precision::kFp8);
  CHECK(find_kernel(fwd, "out_proj.fwd").precision == Precision::kFp8);
  CHECK(find_kernel(fwd, "core_attention.fwd").precision == Precision::kBf16);
  // The projection's input (64 tokens x 64) is cast+transposed: 4096 x 4 B.
  CHECK(find_kernel(fwd, "out_proj.input.cast_transpose").bytes == Approx(16384));
  // FP8 operands are 1 B, the output 2 B: qkv 64x192x64: (64*64 + 64*192) x 1 + 64*192 x 2 = 40960 B.
  CHECK(find_kernel(fwd, "qkv_proj.fwd").bytes == Approx(40960));
  const auto bwd = attention_backward(m, sh);
  // Output gradients of both GEMMs cast+transposed: projection 64x64, QKV 64x192 (x 4 B).
  CHECK(find_kernel(bwd, "out_proj.output_grad.cast_transpose").bytes == Approx(16384));
  CHECK(find_kernel(bwd, "qkv_proj.output_grad.cast_transpose").bytes == Approx(49152));
  // The saved FP8 norm output is transposed for the QKV weight gradient, as weight-gradient work.
  const Kernel t = find_kernel(bwd, "attn_norm.output.fp8_transpose");
  CHECK(t.bytes == Approx(8192));
  CHECK(t.weight_grad);
}

TEST_CASE("under sequence parallelism a row-parallel output gradient is cast on the shard, gathered, then transposed",
          "[model][fp8]") {
  const ModelSpec m = trainsim::test::tiny_gpt();
  const Shard sh = fp8_shard(Fp8Recipe::kDelayed, 2, true);
  const auto bwd = mlp_backward(m, sh);
  // fc2's output gradient: 64 tokens / tp 2 = 32 rows x 64 cast row-wise (3 B each); after the gather
  // all 64 x 64 are transposed (2 B each) for the weight gradient.
  CHECK(find_kernel(bwd, "mlp_fc2.output_grad.cast").bytes == Approx(32 * 64 * 3));
  CHECK(find_kernel(bwd, "mlp_fc2.output_grad.fp8_transpose").bytes == Approx(64 * 64 * 2));
  CHECK_FALSE(has(bwd, "mlp_fc2.output_grad.cast_transpose"));
}

TEST_CASE("expert GEMMs quantize their routed rows, the router stays 16-bit", "[model][fp8]") {
  ModelSpec m = trainsim::test::tiny_gpt();
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 128;
  const Shard sh = fp8_shard(Fp8Recipe::kDelayed);
  const auto fwd = moe_forward(m, sh);
  // 64 tokens x top-2 = 128 routed rows x h 64, cast+transposed: 8192 x 4 B.
  CHECK(find_kernel(fwd, "moe_expert_fc1.input.cast_transpose").bytes == Approx(8192 * 4));
  CHECK(find_kernel(fwd, "moe_expert_fc1.fwd").precision == Precision::kFp8);
  CHECK(find_kernel(fwd, "router.fwd").precision == Precision::kBf16);
}

TEST_CASE("current scaling launches a memset, an amax and a scale kernel before each cast", "[model][fp8]") {
  // One tensor: 3 launches for its scale, 1 for the cast (TE current_scaling.cu, quantizer.cpp).
  const auto one = quantize_kernels("x", 1000, fp8_shard(Fp8Recipe::kCurrent), true);
  CHECK(one[0].launches == 3);
  CHECK(one[1].launches == 1);
  // Five tensors quantized in one call (a GroupedLinear of 5 experts): one by one, 15 + 5 launches;
  // the bytes are those of one tensor of all the elements.
  const auto five = quantize_kernels("x", 1000, fp8_shard(Fp8Recipe::kCurrent), true, 5);
  CHECK(five[0].launches == 15);
  CHECK(five[1].launches == 5);
  CHECK(five[1].bytes == Approx(4000));
  // Delayed scaling casts them all in one multi-tensor kernel; MXFP8 quantizes them one by one.
  CHECK(quantize_kernels("x", 1000, fp8_shard(Fp8Recipe::kDelayed), true, 5)[0].launches == 1);
  CHECK(quantize_kernels("x", 1000, fp8_shard(Fp8Recipe::kMxfp8), true, 5)[0].launches == 5);
}

TEST_CASE("expert inputs and output gradients are quantized expert by expert under current scaling", "[model][fp8]") {
  ModelSpec m = trainsim::test::tiny_gpt();
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 128;
  const Shard sh = fp8_shard(Fp8Recipe::kCurrent);  // ep 1: all 8 experts are local
  const auto fwd = moe_forward(m, sh);
  CHECK(find_kernel(fwd, "moe_expert_fc1.input.amax").launches == 3 * 8);
  CHECK(find_kernel(fwd, "moe_expert_fc2.input.cast_transpose").launches == 8);
  const auto bwd = moe_backward(m, sh);
  CHECK(find_kernel(bwd, "moe_expert_fc2.output_grad.amax").launches == 3 * 8);
  CHECK(find_kernel(bwd, "moe_expert_fc1.output_grad.cast_transpose").launches == 8);
}

TEST_CASE("weights are re-quantized once per iteration; fp8 params need only their transposes", "[model][fp8]") {
  const Shard sh = fp8_shard(Fp8Recipe::kDelayed);
  // 1e6 Linear weights: cast+transpose 4 B each; with param_gather only the FP8 transpose, 2 B each.
  CHECK(total_bytes(weight_quantize_kernels(1e6, sh, false)) == Approx(4e6));
  CHECK(total_bytes(weight_quantize_kernels(1e6, sh, true)) == Approx(2e6));
}

TEST_CASE("on a card whose FP8 GEMMs take any layout, tensor scaling writes one layout and transposes nothing",
          "[model][fp8]") {
  Shard sh = fp8_shard(Fp8Recipe::kCurrent);
  sh.fp8_any_layout = true;
  // 1000 elements asked for both layouts: amax 1000 x 2 B, then a cast 1000 x (2 + 1) B, row-wise only.
  const auto ks = quantize_kernels("x", 1000, sh, true);
  REQUIRE(ks.size() == 2);
  CHECK(ks[1].name == "x.cast");
  CHECK(ks[1].bytes == Approx(3000));
  CHECK(fp8_transpose_kernels("x", 1000, sh).empty());
  CHECK(norm_output_transpose("ln", 1000, sh, true).empty());
  // Weights: cast once (3 B each) without fp8 params; nothing with them (the parameter is the copy).
  CHECK(total_bytes(weight_quantize_kernels(1e6, sh, false)) == Approx(3e6 + 2e6));  // amax pass + cast
  CHECK(weight_quantize_kernels(1e6, sh, true).empty());
  // MXFP8 still writes both layouts there: 3200 x (2 + 2 x 33/32) = 13000 B.
  Shard mx = fp8_shard(Fp8Recipe::kMxfp8);
  mx.fp8_any_layout = true;
  CHECK(quantize_kernels("x", 3200, mx, false)[0].bytes == Approx(13000));
}
