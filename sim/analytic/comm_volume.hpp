// Closed-form communication volume per device per iteration: the bytes each device SENDS (and,
// for these symmetric patterns, receives) with ring/pairwise algorithms. These are the reference
// numbers the task-graph tests compare against. `e` is bytes per element throughout.
#pragma once
#include <cstdint>

#include "sim/core/units.hpp"

namespace trainsim {

// Ring all-reduce of an S-byte buffer over n members: each sends 2(n−1)/n·S (reduce-scatter
// then all-gather; Patarasuk & Yuan 2009; Thakur et al. 2005).
[[nodiscard]] Bytes ring_allreduce_bytes(Bytes buffer, int n);
// Ring reduce-scatter or all-gather (S = the full, gathered buffer): (n−1)/n·S.
[[nodiscard]] Bytes ring_gather_bytes(Bytes buffer, int n);

// --- Tensor parallelism (Narayanan SC'21 Sec. 3.2 / Korthikanti 2022 Sec. 4.2.2) ---
// One TP all-reduce of the b·s·h activation: 2(t−1)/t·b·s·h·e. Under SP each all-reduce becomes
// a reduce-scatter + all-gather pair moving the same volume.
[[nodiscard]] Bytes tp_bytes_per_call(int64_t b, int64_t s, int64_t h, int t, double e);
// All-reduces (or RS+AG pairs) per layer per micro-batch: 2 forward + 2 backward, + 2 for the
// recomputed forward under full recompute.
[[nodiscard]] int tp_calls_per_layer(bool full_recompute);
// calls × layers × micro-batches × per call. (Megatron with SP additionally re-gathers each
// GEMM input in the backward for the weight gradient, 2 more all-gathers per layer; not counted.)
[[nodiscard]] Bytes tp_bytes_per_iteration(int64_t b, int64_t s, int64_t h, int t, double e, int layers,
                                           int64_t microbatches, bool full_recompute);

// --- Data parallelism / ZeRO (Rajbhandari et al. 2020, Sec. 7) over d ranks ---
// Stage 0: all-reduce of the gradients 2(d−1)/d·G. Stages 1-2: reduce-scatter of G and
// all-gather of the updated parameters P: (d−1)/d·(G + P) (= 2Ψ per rank for G = P).
// Stage 3: parameters gathered in the forward and again in the backward, gradients
// reduce-scattered: (d−1)/d·(2P + G) (= 3Ψ). G, P = bytes of this device's gradients/parameters.
// Throws StrategyError for a stage outside 0..3.
[[nodiscard]] Bytes dp_bytes_per_iteration(Bytes grad_bytes, Bytes param_bytes, int d, int zero_stage);

// --- Expert parallelism (formulas.md 7; Lepikhin et al. 2020 GShard) ---
// One all-to-all of the dispatched tokens: each device keeps 1/e of its c·k·tokens·h rows
// and sends the rest: (e−1)/e·c·k·tokens·h·e_bytes.
[[nodiscard]] Bytes ep_bytes_per_call(int64_t tokens, int64_t h, int top_k, double capacity_factor, int ep,
                                      double e);
// 2 forward (dispatch, combine) + 2 backward per MoE layer per micro-batch, + 2 when the
// forward is recomputed (full recompute).
[[nodiscard]] Bytes ep_bytes_per_iteration(Bytes per_call, int moe_layers, int64_t microbatches,
                                           bool full_recompute);

// --- Context parallelism (ring attention: Liu et al. 2023; Megatron-Core CP) ---
// One K/V block: 2·b·(s/cp)·kv_heads_local·head_dim·e (K and V of this device's chunk).
[[nodiscard]] Bytes cp_kv_block_bytes(int64_t b, int64_t s_local, int64_t kv_heads_local, int64_t head_dim,
                                      double e);
// Per layer per micro-batch: forward passes its block around the ring in cp−1 steps; backward
// passes K/V again plus dK/dV (2·(cp−1) blocks); a recomputed forward repeats the forward ring.
[[nodiscard]] Bytes cp_bytes_per_iteration(Bytes block, int cp, int layers, int64_t microbatches,
                                           bool full_recompute);

// --- Pipeline parallelism (Narayanan SC'21 Sec. 4.1: scatter/gather optimisation) ---
// One boundary activation b·s·h·e, or b·s·h·e/t when split over the TP ranks (SP, or
// Megatron's scatter-gather of the replicated activation).
[[nodiscard]] Bytes pp_message_bytes(int64_t b, int64_t s, int64_t h, double e, int t, bool split_over_tp);
// What stage `stage` of p sends per iteration with m micro-batches and v chunks per stage:
// activations forward m·v times (m·(v−1) on the last stage) and gradients backward m·v times
// (m·(v−1) on the first stage).
[[nodiscard]] Bytes pp_bytes_per_iteration(Bytes message, int64_t microbatches, int virtual_stages, int stage,
                                           int stages);

}  // namespace trainsim
