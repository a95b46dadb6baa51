// Small GPT-style and MoE models built in code, for graph-builder tests.
#pragma once
#include "sim/config/run_spec.hpp"
#include "tests/model/model_fixtures.hpp"
#include "tests/support/tiny_run.hpp"

namespace trainsim::test {

// GPT as in Narayanan et al. (tests/model's gpt_style) with untied embeddings, so the first and
// last stages hold different tables.
inline ModelSpec gpt_model(int layers, int hidden, int heads, int vocab) {
  ModelSpec m = gpt_style(layers, hidden, heads, vocab);
  m.tied_embeddings = false;
  return m;
}

// That GPT with every FFN an MoE block: 8 experts of width 512, top-2.
inline ModelSpec gpt_moe_model() {
  ModelSpec m = gpt_model(6, 256, 4, 1024);
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 512;
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

// `layers` MoE layers (h 256, 4 experts of 4096, top 2) over `pp` stages of dp 2 = ep 2, on a 5 GB/s
// island where each all-to-all (256 KiB each way) takes about as long as a layer's kernels;
// micro-batches of one 512-token sequence.
inline RunSpec ep_pair_run(int layers, int pp, int global_batch) {
  ModelSpec m = gpt_model(layers, 256, 4, 1000);
  m.moe.experts = 4;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 4096;
  RunSpec run = gpt_run(m, 1, pp, 2, 512, global_batch, 1);
  run.platform.tiers[0].bandwidth = 5e9;
  run.strategy.ep = 2;
  return run;
}

}  // namespace trainsim::test
