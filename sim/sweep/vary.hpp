// One `--vary KEY=V1,V2,...` of `trainsim sweep`: a run key (any key `--set` accepts) and the
// values it takes, in the order given. Pure parsing; whether the key and values are valid for the
// run is the run loader's question, asked of every point before anything is replayed.
#pragma once
#include <string>
#include <vector>

namespace trainsim {

struct VaryAxis {
  std::string key;                  // "platform.tiers.1.bandwidth"
  std::vector<std::string> values;  // {"100GBps", "200GBps"}
};

// Splits "KEY=V1,V2,...". Commas inside [...] or {...} belong to the value (YAML flow
// collections), so "strategy.overlap={tp_comm: true, pp_comm: false},{}" is two values. A missing
// '=', an empty key, an empty value or an unbalanced bracket is a UserError quoting the argument.
[[nodiscard]] VaryAxis parse_vary(const std::string& arg);

// The axes of several --vary options, in the order given; a key varied twice is a UserError.
[[nodiscard]] std::vector<VaryAxis> parse_varies(const std::vector<std::string>& args);

}  // namespace trainsim
