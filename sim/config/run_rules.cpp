#include "sim/config/run_rules.hpp"

#include <algorithm>
#include <string>

#include "sim/config/divisors.hpp"
#include "sim/config/platform_fit.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/strategy/domain_groups.hpp"
#include "sim/strategy/ep_overlap.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {
namespace {

std::string str(long long v) { return std::to_string(v); }

void fail_on(const std::optional<RuleViolation>& v, const YamlSource& src) {
  if (v) src.fail_at(v->key, v->problem, v->value, v->expected);
}

// tp * pp * dp * cp = devices (ep is carved out of dp * cp, it adds no devices).
void check_device_product(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  long long product = 1;
  for (int d : {s.tp, s.pp, s.dp, s.cp}) product = std::min(product * d, 1LL << 40);  // saturate, no overflow
  if (product == run.devices) return;
  const std::string formula = "tp*pp*dp*cp = " + str(s.tp) + "*" + str(s.pp) + "*" + str(s.dp) + "*" + str(s.cp) +
                              " = " + str(product);
  src.fail_at("devices", formula + " does not equal devices", str(run.devices),
              str(product) + ", or degrees whose product is " + str(run.devices));
}

// How the model splits across tp (heads), pp (layers), virtual stages and cp (sequence).
void check_model_split(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  const ModelSpec& m = run.model;
  if (m.heads % s.tp != 0 || m.kv_heads % s.tp != 0) {
    src.fail_at("strategy.tp",
                "must divide heads (" + str(m.heads) + ") and kv_heads (" + str(m.kv_heads) + ") of model '" +
                    m.name + "'",
                str(s.tp), list_numbers(common_divisors(m.heads, m.kv_heads)));
  }
  if (s.pp > m.layers) {
    src.fail_at("strategy.pp", "exceeds the model's " + str(m.layers) + " layers", str(s.pp),
                "an integer in 1.." + str(m.layers));
  }
  const PipelineSplit split = pipeline_split(run);
  const std::string problem = split_problem(split);
  if (!problem.empty() && split.layout())
    src.fail_at("strategy.pipeline_layout", problem, s.pipeline_layout,
                "one entry per model chunk (pp x virtual_stages), E first, every layer once as t, the MTP layers as m "
                "and L last, all in the last chunk, e.g. \"Et*4|(t*4|)*14tmL\" for 61 layers + 1 MTP layer on 16 chunks");
  if (!problem.empty() && (s.account_for_embedding || s.account_for_loss)) {
    const char* key = s.account_for_embedding ? "strategy.account_for_embedding" : "strategy.account_for_loss";
    src.fail_at(key, problem, "true",
                "false, or a pp x virtual_stages that divides the layers plus the counted embedding/loss");
  }
  if (!problem.empty() && !split.uneven()) {
    const std::vector<long long> valid = m.layers % s.pp == 0 ? divisors(m.layers / s.pp) : std::vector<long long>{1};
    src.fail_at("strategy.virtual_stages", problem, str(s.virtual_stages), list_numbers(valid));
  }
  if (!problem.empty() && !s.stage_layers.empty())
    src.fail_at("strategy.stage_layers", problem, list_numbers(std::vector<long long>(s.stage_layers.begin(), s.stage_layers.end())),
                "one layer count per pipeline stage, each at least 1, adding up to the model's " + str(m.layers) +
                    " layers (virtual_stages 1, no first/last_stage_layers)");
  if (!problem.empty()) {
    const bool first = s.first_stage_layers > 0;
    src.fail_at(first ? "strategy.first_stage_layers" : "strategy.last_stage_layers", problem,
                str(first ? s.first_stage_layers : s.last_stage_layers),
                "layer counts of the first/last stage that leave the other stages an equal share (each stage a "
                "multiple of virtual_stages), or 0 for the even split");
  }
  if (run.seq_len % s.cp != 0) {
    std::vector<long long> valid = divisors(run.seq_len);
    valid.erase(std::remove_if(valid.begin(), valid.end(), [&](long long d) { return d > run.devices; }),
                valid.end());
    src.fail_at("strategy.cp", "must divide seq_len (" + str(run.seq_len) + ")", str(s.cp), list_numbers(valid));
  }
  if (s.cp > 1 && m.sliding_window > 0) {
    src.fail_at("strategy.cp", "splits a model with sliding-window attention (sliding_window " + str(m.sliding_window) +
                "), which trainsim's context-parallel ring does not model", str(s.cp), "1");
  }
  if (s.recompute_layers > m.layers) {
    src.fail_at("strategy.recompute_layers", "exceeds the model's " + str(m.layers) + " layers",
                str(s.recompute_layers), "an integer in 0.." + str(m.layers) + " (0 = every layer)");
  }
}

// strategy.expert_tp: tp (0) or 1, the latter with experts split over EP (Megatron-Core's parallel folding
// needs sequence parallelism with tp > 1: ModelParallelConfig "When using expert parallelism and tensor
// parallelism, sequence parallelism must be used"). Shared experts stay a dense MLP split over tp
// (sim/model/moe_ops.hpp moe_gemm_in_tp_region).
void check_expert_tp(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  if (s.expert_tp == 0 || s.expert_tp == s.tp) return;
  const std::string key = "strategy.expert_tp", valid = "0 (= tp), 1 or " + str(s.tp);
  if (s.expert_tp != 1) src.fail_at(key, "expert tensor parallelism is modelled as tp or 1 only", str(s.expert_tp), valid);
  if (!run.model.is_moe() || s.ep == 1)
    src.fail_at(key, "whole experts fold over the tp ranks only with expert parallelism (ep > 1 on an MoE model)",
                str(s.expert_tp), "0");
  if (!s.sequence_parallel)
    src.fail_at(key, "with tp " + str(s.tp) + " and ep > 1 Megatron-Core requires sequence_parallel", str(s.expert_tp),
                "0, or sequence_parallel: true");
  // The data-parallel work is issued only where dp x cp > 1: expert replicas over the tp ranks alone
  // would go unreduced.
  if (s.dp * s.cp == 1 && s.expert_dp() > 1)
    src.fail_at(key, "expert data parallelism over the tp ranks alone (dp x cp 1, ep " + str(s.ep) + " < tp " +
                         str(s.tp) + ") is not modelled", str(s.expert_tp), "0, or ep = tp, or dp x cp > 1");
}

// Expert parallelism needs experts, and groups carved out of dp*cp (tp*cp*dp when the experts fold
// over the tp ranks, strategy.expert_tp 1) that split the experts evenly.
void check_experts(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  const MoeSpec& moe = run.model.moe;
  check_expert_tp(run, src);
  if (s.ep == 1) return;
  if (!run.model.is_moe()) {
    src.fail_at("strategy.ep", "model '" + run.model.name + "' is dense (moe.experts is 0)", str(s.ep), "1");
  }
  const long long span = s.expert_span();
  const std::string valid = list_numbers(common_divisors(span, moe.experts));
  const std::string carved = s.folds_experts() ? "tp*cp*dp (" : "dp*cp (";
  if (span % s.ep != 0) src.fail_at("strategy.ep", "must divide " + carved + str(span) + ")", str(s.ep), valid);
  if (moe.experts % s.ep != 0) {
    src.fail_at("strategy.ep", "must divide moe.experts (" + str(moe.experts) + ")", str(s.ep), valid);
  }
}

// strategy.recompute_modules: mla_up_proj names MLA's up-projections, which a model without latent
// attention lacks; Megatron-Core's TransformerConfig refuses it there too ("mla_up_proj" needs
// multi_latent_attention).
void check_recompute_modules(const RunSpec& run, const YamlSource& src) {
  if (!run.strategy.recompute_modules.mla_up_proj || run.model.is_mla()) return;
  src.fail_at("strategy.recompute_modules",
              "names mla_up_proj, but model '" + run.model.name + "' has no latent attention (no mla key)",
              "mla_up_proj", "the list without mla_up_proj, or a model with mla");
}

// global_batch splits evenly over dp replicas, and each replica's share into micro-batches.
void check_batch(const RunSpec& run, const YamlSource& src) {
  const int dp = run.strategy.dp;
  if (run.global_batch % dp != 0) {
    src.fail_at("global_batch", "must be divisible by strategy.dp (" + str(dp) + ")", str(run.global_batch),
                "a multiple of " + str(dp));
  }
  const int per_replica = run.global_batch / dp;
  if (per_replica % run.micro_batch != 0) {
    src.fail_at("micro_batch", "must divide global_batch/dp = " + str(per_replica), str(run.micro_batch),
                list_numbers(divisors(per_replica)));
  }
}

// strategy.keep_in_domain: every group of each named dimension inside one innermost domain.
void check_keep_in_domain(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  if (s.keep_in_domain.empty()) return;
  const TierSpec& inner = run.platform.tiers.front();
  if (const auto g = first_kept_straddling_group(Mesh(s), s.keep_in_domain, inner.domain_size)) {
    const std::string name = to_string(g->dim);
    src.fail_at("strategy.keep_in_domain",
                "the " + name + " group " + group_text(g->ranks) + " spans " + str(g->domains) + " '" + inner.name +
                    "' domains of " + str(inner.domain_size) + " devices (tiers.0.domain_size), but the run keeps " +
                    name + " groups inside one",
                name,
                "a strategy whose " + name + " groups fit one domain (" + name + " dividing " +
                    str(inner.domain_size) + ", placed by mesh_order among the fastest-varying dimensions), or " +
                    name + " left out of keep_in_domain");
  }
}

// strategy.overlap.ep_comm: only where the merged passes are modelled (sim/strategy/ep_overlap.hpp).
void check_ep_overlap(const RunSpec& run, const YamlSource& src) {
  if (!run.strategy.overlap.ep_comm) return;
  const std::string obstacle = ep_overlap_obstacle(run);
  if (obstacle.empty()) return;
  src.fail_at("strategy.overlap.ep_comm", "EP overlap (combined 1F1B) " + obstacle, "true",
              "false, or ep > 1 on an MoE model with recompute none or selective, zero_stage 0-2, and pp 1 with "
              "schedule 1f1b or pp > 1 with schedule interleaved and virtual_stages >= 2");
}

// strategy.defer_output_wgrad: the weight gradients wait for a pipeline flush, which the schedule must
// have and must not already fill with its own weight-gradient passes; Megatron-Core also needs them
// accumulated by the GEMM itself (ModelParallelConfig refuses the deferral without
// gradient_accumulation_fusion). Combined 1F1B's merged steps run the output layer's backward whole: the
// pair is not modelled.
void check_output_wgrad_deferral(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  if (s.defer_output_wgrad == 0) return;
  std::string obstacle;
  if (s.pp == 1) obstacle = "needs a pipeline (pp > 1): without one there is no flush to hide them in";
  else if (s.schedule == "zb-h1") obstacle = "cannot combine with zb-h1, which schedules weight gradients itself";
  else if (!s.grad_accumulation_fusion) obstacle = "needs grad_accumulation_fusion (Megatron-Core's requirement)";
  else if (merges_ep_passes(run)) obstacle = "is not modelled with EP overlap (overlap.ep_comm: merged 1F1B steps)";
  if (obstacle.empty()) return;
  src.fail_at("strategy.defer_output_wgrad", "deferring the output layer's weight gradients " + obstacle,
              str(s.defer_output_wgrad),
              "0, or a count of micro-batches with pp > 1, schedule 1f1b, gpipe or interleaved, "
              "grad_accumulation_fusion true and overlap.ep_comm false");
}

}  // namespace

void check_strategy_free_rules(const RunSpec& run, const YamlSource& source) {
  fail_on(platform_fit_violation(run), source);
  fail_on(whole_domains_violation(run), source);
}

void check_run_rules(const RunSpec& run, const YamlSource& source) {
  // Rules about one degree come before the product of all degrees, so that an error names the
  // degree that is wrong on its own (e.g. `--set strategy.tp=3` with 8 heads) when there is one.
  fail_on(platform_fit_violation(run), source);
  check_model_split(run, source);
  check_experts(run, source);
  check_recompute_modules(run, source);
  check_device_product(run, source);
  fail_on(whole_domains_violation(run), source);
  check_batch(run, source);
  check_schedule_rules(run, source);
  check_keep_in_domain(run, source);
  check_ep_overlap(run, source);
  check_output_wgrad_deferral(run, source);
}

}  // namespace trainsim
