#include "sim/analytic/layer_recompute.hpp"

namespace trainsim {

LayerRecompute layer_recompute(const RunSpec& run, const BlockTimes& t, bool moe, int position) {
  const auto& s = run.strategy;
  const BlockPassTimes& ffn = moe ? t.moe : t.mlp;
  LayerRecompute r;
  if (s.recompute == Recompute::kFull && (s.recompute_layers <= 0 || position < s.recompute_layers)) {
    r.seconds = t.attention.forward + ffn.forward;
    r.launches = t.attention.forward_launches + ffn.forward_launches;
    r.attention_again = r.ffn_again = true;
  } else if (s.recompute == Recompute::kSelective) {
    const RedoTimes& ffn_redo = moe ? t.moe_redo : t.mlp_redo;
    r.seconds = t.attention_redo.seconds + ffn_redo.seconds;
    r.launches = t.attention_redo.launches + ffn_redo.launches;
    r.ffn_again = !moe && s.recompute_modules.mlp;
  }
  return r;
}

}  // namespace trainsim
