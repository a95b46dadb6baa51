// What one device computes of one transformer layer: the micro-batch, its slice of the sequence
// (context parallelism) and the tensor/expert split. Together with a ModelSpec it fixes the shape
// of every kernel in the operator catalogue.
#pragma once
#include <cstdint>

#include "sim/config/model_spec.hpp"
#include "sim/config/precision.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

struct Shard {
  int64_t micro_batch = 1;         // b: sequences per micro-batch
  int64_t seq = 0;                 // s: tokens per sequence on this device = seq_len / cp
  int64_t context = 0;             // tokens every query may attend to = seq_len (full sequence)
  int64_t window = 0;              // sliding window of this layer's attention, keys; 0 = full causal
  int tp = 1;                      // tensor-parallel degree t
  bool sequence_parallel = false;  // Megatron SP: norms/residuals run on b*s/t tokens
  int cp = 1;                      // context-parallel degree
  int ep = 1;                      // expert-parallel degree (routed experts split over ep devices)
  int etp = 0;                     // expert tensor-parallel degree: each expert's width split over etp; 0 = tp
  double expert_load = 1;          // routed rows per local expert over an even share (RunSpec::expert_load)
  bool per_expert_gemms = false;   // grouped expert GEMMs run as one kernel per local expert (framework)
  // The alltoall dispatcher sorts received chunks into expert order and back (RunSpec MoeRouting::
  // dispatcher) when the rank holds several experts behind an exchange (ep > 1).
  bool chunk_sort = false;
  bool router_fp32 = false;        // fp32 router logits (MoeRouting::router_dtype)
  bool router_force_balance = false;  // random router logits (MoeRouting::force_balance)
  bool router_aux_loss = false;      // the auxiliary load-balancing loss (MoeRouting::aux_loss)
  // Eager operations around the experts (FrameworkMoe): the fc2 bias added per local expert, and the
  // clamped activation's clamps and concatenation, when the model has them.
  bool per_expert_bias = false;
  bool separate_glu_clamp = false;
  bool eager_yarn_rope = false;    // YaRN RoPE by eager ops on q and k (FrameworkSpec::eager_yarn_rope)
  Precision precision = Precision::kBf16;
  Fp8Recipe fp8_recipe = Fp8Recipe::kDelayed;  // how 8-bit GEMM operands are quantized (fp8/mxfp8 runs)
  bool fp8_any_layout = false;     // the card's FP8 GEMMs take any operand layout (AcceleratorSpec::fp8_gemm_any_layout)
  bool flash_attention = true;     // fused attention kernel; false = unfused (scores in HBM)
  // Unfused attention's softmax: when the fused scale-mask-softmax kernel runs (FrameworkSpec::softmax_fusion,
  // sim/model/softmax_fusion.hpp).
  SoftmaxFusion softmax_fusion = SoftmaxFusion::kAlways;
  bool fused_cross_entropy = false;  // Transformer Engine's cross entropy (RunSpec::cross_entropy kTe)
  double attention_dropout = 0;    // probability; > 0 adds the dropout of attention probabilities
  double hidden_dropout = 0;       // probability; > 0 adds the dropout before each residual add
};

// The shard of a run's device: seq = seq_len / cp, context = seq_len.
[[nodiscard]] Shard shard_of(const RunSpec& run);

// --- Model dimensions with the YAML defaults resolved (0 = "derive it"). ---
[[nodiscard]] int64_t kv_heads_of(const ModelSpec& m);    // kv_heads, or heads when 0
// The width of one query/key head: head_dim, or hidden / heads when 0; with MLA (ModelSpec::mla) its
// qk_head_dim + qk_pos_emb_head_dim.
[[nodiscard]] int64_t head_dim_of(const ModelSpec& m);
// The width of one value head (and of the attention output per head): head_dim_of, or MLA's v_head_dim.
[[nodiscard]] int64_t v_head_dim_of(const ModelSpec& m);
[[nodiscard]] int64_t ffn_hidden_of(const ModelSpec& m);  // ffn_hidden, or 4 * hidden when 0
[[nodiscard]] int64_t ffn_matrices(const ModelSpec& m);   // 3 for gated (SwiGLU) FFNs, else 2
[[nodiscard]] int64_t norm_params_per_width(const ModelSpec& m);  // 2 (LayerNorm: gain+bias), 1 (RMSNorm)

// --- Per-device sizes of a shard. ---
[[nodiscard]] int64_t ceil_div(int64_t a, int64_t b);
// b*s: tokens entering the column/row-parallel GEMMs on this device.
[[nodiscard]] int64_t gemm_tokens(const Shard& sh);
// Tokens of the regions outside tensor parallelism (norms, residual adds, dropout):
// b*s, or b*s/t under sequence parallelism (Korthikanti et al. 2022, Sec. 4.2.2).
[[nodiscard]] int64_t sequence_tokens(const Shard& sh);
// Whether sequence parallelism all-gathers the inputs of column-parallel GEMMs (SP with tp > 1).
[[nodiscard]] bool sp_gathers(const Shard& sh);
// Tokens this device routes to the experts and combines back: the TP-gathered b*s with experts split
// over tp (etp = tp), its sequence-parallel share with whole experts (etp 1 < tp, MoE parallel folding).
[[nodiscard]] int64_t expert_input_tokens(const Shard& sh);
// Whether the MoE block runs without TP collectives: whole experts on sequence-parallel tokens.
[[nodiscard]] bool experts_fold_tp(const Shard& sh);
// The degree each routed expert's width is split over: etp, or tp when etp is 0.
[[nodiscard]] int expert_tp_of(const Shard& sh);
// Query heads on this device: heads / tp. Throws StrategyError when tp does not divide heads.
[[nodiscard]] int64_t local_heads(const ModelSpec& m, const Shard& sh);
// Key/value heads on this device: kv_heads / tp; when there are fewer kv heads than tp ranks
// they are replicated (one per rank), i.e. ceil(kv_heads / tp).
[[nodiscard]] int64_t local_kv_heads(const ModelSpec& m, const Shard& sh);
// Routed experts on this device: experts / ep. Throws StrategyError when ep does not divide experts.
[[nodiscard]] int64_t local_experts(const ModelSpec& m, const Shard& sh);

// Precision per operator class. A run's weight GEMMs (the Linear layers: QKV, projection, FFN,
// experts) run in the run's precision p. Everything else (fused attention and unfused attention's
// batched GEMMs, the router, the logits GEMM, norms, elementwise kernels) runs in
// activation_precision(p): bf16 for fp8/mxfp8 runs, else p. This is Transformer Engine's FP8 split:
// only its Linear modules' GEMMs take FP8 inputs inside fp8_autocast; dot-product attention stays
// 16-bit unless FP8 attention is requested, and Megatron-Core's router and output layer are not TE
// modules.
[[nodiscard]] Precision activation_precision(Precision p);
// Bytes per element of the tensors around the GEMMs (activations, their gradients, GEMM outputs).
[[nodiscard]] double activation_element_bytes(Precision p);
// Bytes per main-gradient element (buffer and DP reduction): strategy.grad_precision, or for auto
// 4 in bf16 runs (Megatron-LM reduces fp32 gradients there) and the activation size otherwise.
[[nodiscard]] double gradient_element_bytes(const RunSpec& run);

}  // namespace trainsim
