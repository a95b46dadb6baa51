#include "sim/analytic/layer_recompute.hpp"

#include "sim/model/layer_ops.hpp"

namespace trainsim {

LayerRecompute layer_recompute(const RunSpec& run, const BlockTimes& t, int layer, int position) {
  const auto& s = run.strategy;
  const bool moe = is_moe_layer(run.model, layer), window = is_window_layer(run.model, layer);
  const BlockPassTimes& ffn = moe ? t.moe : t.mlp;
  const BlockPassTimes& attention = t.attention_of(window);
  LayerRecompute r;
  if (s.recompute == Recompute::kFull && (s.recompute_layers <= 0 || position < s.recompute_layers)) {
    // An MTP layer's recompute re-runs its module's projection part too (not its embedding or head).
    const bool mtp = is_mtp_layer(run.model, layer);
    r.seconds = attention.forward + ffn.forward + (mtp ? t.mtp_in.forward : 0);
    r.ffn_issue = mtp ? t.mtp_in.forward_issue.then(attention.forward_issue).then(ffn.forward_issue)
                      : attention.forward_issue.then(ffn.forward_issue);
    r.attention_again = r.ffn_again = true;
  } else if (s.recompute == Recompute::kSelective) {
    const RedoTimes& ffn_redo = moe ? t.moe_redo : t.mlp_redo;
    const RedoTimes& attention_redo = t.attention_redo_of(window);
    r.seconds = attention_redo.seconds + ffn_redo.seconds;
    r.ffn_issue = ffn_redo.issue;
    r.attention_issue = attention_redo.issue;
    r.ffn_again = !moe && s.recompute_modules.mlp;
  }
  return r;
}

}  // namespace trainsim
