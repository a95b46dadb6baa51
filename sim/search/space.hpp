// The strategy space a search covers: which values each knob may take. A knob nobody restricts
// takes every value the run admits (tp: divisors of the heads up to one node, pp: divisors of the
// remaining devices up to the layers, ...; sim/search/groups.cpp); `--space knob=v1,v2` restricts
// it to those values and `--fix knob=v` to one. Two exceptions: mesh_order takes by default only
// the two orders Megatron-LM builds (parallel_state.initialize_model_parallel: order
// "tp-cp-ep-dp-pp", and "tp-cp-ep-pp-dp" with --use-tp-pp-dp-mapping; `--space mesh_order=all`
// takes all 24), and offload stays none unless the space names it (it doubles the space; its time,
// sim/analytic/optimizer_time.hpp, needs the platform's host figures).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace trainsim {

// The knobs, in the order the search prints them; "recompute" takes none, selective, full;
// "recompute_layers" (with full recompute: layers per stage recomputed, 0 = all) is searched for
// the fewest that fit unless restricted.
[[nodiscard]] const std::vector<std::string>& search_knobs();

class SearchSpace {
 public:
  // Restricts `knob` to `values` (text as the run YAML spells them: "8", "true", "zb-h1").
  // Throws UserError for an unknown knob or a value the knob cannot take, naming what is valid.
  // `option` names the command-line option in messages ("space", "fix").
  void restrict(const std::string& knob, const std::vector<std::string>& values, const std::string& option = "space");
  [[nodiscard]] bool restricted(const std::string& knob) const { return allowed_.count(knob) > 0; }
  // Whether `value` is allowed (true for every value of an unrestricted knob).
  [[nodiscard]] bool admits(const std::string& knob, const std::string& value) const;
  [[nodiscard]] bool admits(const std::string& knob, int value) const;
  [[nodiscard]] bool admits(const std::string& knob, bool value) const;
  // The allowed values of a restricted knob, else `defaults`, in the order given.
  [[nodiscard]] std::vector<std::string> values_or(const std::string& knob,
                                                   const std::vector<std::string>& defaults) const;
  // "tp=1,2,4; schedule=1f1b" for the report; "" when nothing is restricted.
  [[nodiscard]] std::string describe() const;

 private:
  std::map<std::string, std::vector<std::string>> allowed_;
};

// Parses --space KEY=V1,V2,... and --fix KEY=V arguments (a leading "strategy." is accepted).
[[nodiscard]] SearchSpace parse_search_space(const std::vector<std::string>& space_args,
                                             const std::vector<std::string>& fix_args);

// Every mesh order of tp, cp, dp and pp (ep rides with cp), the Megatron-LM default first.
[[nodiscard]] std::vector<std::string> all_mesh_orders();

}  // namespace trainsim
