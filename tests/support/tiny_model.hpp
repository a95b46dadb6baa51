// Small GPT-style and MoE models built in code, for graph-builder tests.
#pragma once
#include "sim/config/run_spec.hpp"
#include "tests/support/tiny_run.hpp"

namespace trainsim::test {

// GPT as in Narayanan et al.: MHA, FFN = 4h, not gated, LayerNorm, vocab V.
inline ModelSpec gpt_model(int layers, int hidden, int heads, int vocab) {
  ModelSpec m;
  m.name = "gpt-test";
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = heads;
  m.head_dim = hidden / heads;
  m.ffn_hidden = 4 * hidden;
  m.vocab = vocab;
  return m;
}

// A run of `model` on an island large enough for every device, degrees as given.
inline RunSpec gpt_run(const ModelSpec& model, int tp, int pp, int dp, int seq, int global_batch, int micro_batch) {
  RunSpec run = island_run(tp * pp * dp, 100e9, 1e-6);
  run.model = model;
  run.precision = Precision::kBf16;
  run.seq_len = seq;
  run.global_batch = global_batch;
  run.micro_batch = micro_batch;
  run.strategy.tp = tp;
  run.strategy.pp = pp;
  run.strategy.dp = dp;
  return run;
}

}  // namespace trainsim::test
