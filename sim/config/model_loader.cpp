// workloads/models/*.yaml -> ModelSpec.
#include "sim/config/divisors.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/model_keys.hpp"
#include "sim/config/model_limits.hpp"
#include "sim/config/preset_base.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/core/number_text.hpp"

namespace trainsim {
namespace {

void read_moe(MapReader& r, const ModelSpec& m, MoeSpec* moe) {
  moe_keys().read(r, *moe, nullptr);
  if (moe->experts == 0) return;
  if (moe->top_k > moe->experts) {
    r.fail("top_k", "cannot exceed moe.experts (" + std::to_string(moe->experts) + ")",
           std::to_string(moe->top_k), "an integer in 1.." + std::to_string(moe->experts));
  }
  if (moe->first_dense_layers >= m.layers) {
    r.fail("first_dense_layers", "leaves no MoE layer among the " + std::to_string(m.layers) + " layers",
           std::to_string(moe->first_dense_layers), "an integer in 0.." + std::to_string(m.layers - 1));
  }
  if (moe->glu_clamp > 0 && !m.gated_ffn)
    r.fail("glu_clamp", "clamps the two halves of a gated activation, and gated_ffn is false",
           format_number(moe->glu_clamp), "0, or set gated_ffn: true");
}

// MLA expands keys and values per query head, and its head widths are the `mla` keys': kv_heads must
// be heads (or 0), head_dim the query/key head width (or 0; it is set to that).
void check_mla(MapReader& r, ModelSpec* m) {
  const int qk = m->mla.qk_head_dim + m->mla.qk_pos_emb_head_dim;
  if (m->kv_heads != 0 && m->kv_heads != m->heads)
    r.fail("kv_heads", "must equal heads with mla (latent attention projects keys and values up per query head)",
           std::to_string(m->kv_heads), "0 or " + std::to_string(m->heads));
  if (m->head_dim != 0 && m->head_dim != qk)
    r.fail("head_dim", "must be the query/key head width mla.qk_head_dim + mla.qk_pos_emb_head_dim with mla",
           std::to_string(m->head_dim), "0 or " + std::to_string(qk));
  if (m->qk_norm)
    r.fail("qk_norm", "applies to standard attention's query and key heads; MLA normalises its latents itself",
           "true", "false (or leave it out) with mla");
  const PositionEmbedding pe = m->position_embedding;
  if (pe != PositionEmbedding::kRope && pe != PositionEmbedding::kYarn)
    r.fail("position_embedding", "must be rotary with mla (its keys carry the rotary part, mla.qk_pos_emb_head_dim)",
           r.text_of("position_embedding"), "rope or yarn");
  m->kv_heads = m->heads;
  m->head_dim = qk;
}

// kv_heads 0 -> heads, head_dim 0 -> hidden / heads, ffn_hidden 0 -> 4 * hidden,
// moe.expert_ffn_hidden 0 -> ffn_hidden; checks the head arithmetic those imply.
void apply_defaults(MapReader& r, ModelSpec* m) {
  if (m->kv_heads == 0) m->kv_heads = m->heads;
  if (m->heads % m->kv_heads != 0) {
    r.fail("kv_heads", "must divide heads (" + std::to_string(m->heads) + ")", std::to_string(m->kv_heads),
           list_numbers(divisors(m->heads)));
  }
  if (m->head_dim == 0) {
    if (m->hidden % m->heads != 0) {
      const int below = m->hidden / m->heads * m->heads;
      r.fail("hidden", "must be divisible by heads (" + std::to_string(m->heads) + ") when head_dim is not given",
             std::to_string(m->hidden),
             "a multiple of " + std::to_string(m->heads) + " (e.g. " + std::to_string(below) + " or " +
                 std::to_string(below + m->heads) + "), or set head_dim");
    }
    m->head_dim = m->hidden / m->heads;
  }
  if (m->full_attention_every > 0 && m->sliding_window == 0)
    r.fail("full_attention_every", "needs a sliding_window for the other layers", std::to_string(m->full_attention_every),
           "0, or set sliding_window (keys per query) as well");
  if (m->ffn_hidden == 0) m->ffn_hidden = 4 * m->hidden;
  if (m->moe.experts > 0 && m->moe.expert_ffn_hidden == 0) m->moe.expert_ffn_hidden = m->ffn_hidden;
}

}  // namespace

ModelSpec parse_model(YamlSource& source, const YAML::Node& root) {
  MapReader r(source, root, "", model_keys().keys());
  ModelSpec m;
  m.source_file = source.file();
  model_keys().read(r, m, nullptr);
  if (auto moe = r.map("moe", Need::kOptional, moe_keys().keys())) read_moe(*moe, m, &m.moe);
  if (auto mla = r.map("mla", Need::kOptional, mla_keys().keys())) {
    mla_keys().read(*mla, m.mla, nullptr);
    check_mla(r, &m);
  }
  apply_defaults(r, &m);
  check_model_size(r, m);
  return m;
}

ModelSpec load_model_file(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  YamlSource source(file.string());
  YAML::Node root = resolve_preset_base(source, load_yaml_file(file), PresetKind::kModel, file.parent_path());
  apply_overrides(root, overrides, source);
  return parse_model(source, root);
}

ModelSpec load_model(const std::string& name_or_path) {
  if (const auto hf = hf_reference_path(name_or_path))  // as a run's `model: hf:PATH`
    return load_hf_model_file(resolve_hf_config(*hf, "", Location{name_or_path, 0}), {});
  const Location where{looks_like_path(name_or_path) ? name_or_path : preset_folder(PresetKind::kModel).string(), 0};
  return load_model_file(resolve_reference(name_or_path, PresetKind::kModel, "", where, "model"), {});
}

}  // namespace trainsim
