// The key tables of a model file (workloads/models/*.yaml): the top level, `moe` and `mla`
// (sim/config/key_table.hpp). Internal to sim/config.
#pragma once
#include <climits>

#include "sim/config/key_table.hpp"
#include "sim/config/model_spec.hpp"

namespace trainsim {

// Widths are capped so that the default ffn_hidden = 4 * hidden still fits in an int.
inline constexpr int kMaxWidth = INT_MAX / 4;

[[nodiscard]] const KeyTable<ModelSpec>& model_keys();
[[nodiscard]] const KeyTable<MoeSpec>& moe_keys();
[[nodiscard]] const KeyTable<MlaSpec>& mla_keys();

}  // namespace trainsim
