// Small model shapes shared by the [model] and [analytic] tests.
#pragma once
#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace trainsim::test {

// GPT-style: MHA, head_dim = h/a, ffn = 4h, GeLU, LayerNorm (Narayanan SC'21's model).
inline ModelSpec gpt_style(int layers, int hidden, int heads, int vocab) {
  ModelSpec m;
  m.name = "gpt-test";
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = heads;
  m.head_dim = hidden / heads;
  m.ffn_hidden = 4 * hidden;
  m.vocab = vocab;
  m.tied_embeddings = true;
  return m;
}

// GPT-3 175B (Brown et al. 2020, Table 2.1; Narayanan SC'21 Table 1): l=96, h=12288, a=96, V=51200.
inline ModelSpec gpt3_175b() { return gpt_style(96, 12288, 96, 51200); }

// Llama-3 8B (Meta, model card / config.json): l=32, h=4096, a=32, kv=8, d=128, ffn=14336,
// SwiGLU, RMSNorm, V=128256, untied.
inline ModelSpec llama3_8b() {
  ModelSpec m = gpt_style(32, 4096, 32, 128256);
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn_hidden = 14336;
  m.gated_ffn = true;
  m.norm = NormKind::kRmsNorm;
  m.tied_embeddings = false;
  return m;
}

// A tiny GPT layer: h=64, a=4 (d=16), ffn=256.
inline ModelSpec tiny_gpt() { return gpt_style(2, 64, 4, 100); }

inline Shard shard(int64_t b, int64_t s, int tp = 1, bool sp = false) {
  Shard sh;
  sh.micro_batch = b;
  sh.seq = s;
  sh.context = s;
  sh.tp = tp;
  sh.sequence_parallel = sp;
  return sh;
}

// The kernel called `name` (a copy: callers pass temporaries); fails the test if none.
inline Kernel find_kernel(const std::vector<Kernel>& ks, const std::string& name) {
  for (const Kernel& k : ks)
    if (k.name == name) return k;
  FAIL("no kernel named " << name);
  return ks.front();
}

}  // namespace trainsim::test
