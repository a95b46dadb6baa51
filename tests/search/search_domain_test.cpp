// The search honours strategy.keep_in_domain: it proposes no layout `check` would refuse for a group
// that leaves the innermost domain.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/config/loader.hpp"
#include "sim/search/search.hpp"
#include "sim/strategy/domain_groups.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;

namespace {

// Llama 2 7B cut to 4 layers on 16 H100 (NVLink domains of 8) as pp 2 x dp 8 (each dp group one
// node), plus `extra` overrides.
RunSpec domain_base(const std::vector<std::string>& extra) {
  std::vector<std::string> sets = {"model.layers=4",  "devices=16",    "global_batch=16", "seq_len=2048",
                                   "strategy.tp=1",   "strategy.pp=2", "strategy.dp=8",   "strategy.cp=1",
                                   "strategy.ep=1"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return load_run(kRoot / "workloads/default.yaml", sets);
}

// Whether any data-parallel group of the strategy spans two domains of 8 devices.
bool dp_straddles(const RunSpec& run) { return first_straddling_group(Mesh(run.strategy), Dim::kDp, 8).has_value(); }

}  // namespace

TEST_CASE("the search proposes only layouts whose kept dimensions stay inside one domain", "[search]") {
  const SearchSpace space = parse_search_space({"micro_batch=1"}, {});
  // Without the rule the best layouts spread data parallelism over both nodes (dp 16 with tp 1)...
  const SearchOutcome free = search_strategies(domain_base({}), space, IterationTheta{}, 5);
  REQUIRE(!free.top.empty());
  bool any = false;
  for (const RankedStrategy& s : free.top) any = any || dp_straddles(s.run);
  CHECK(any);
  // ... with keep_in_domain [dp] every proposal keeps each dp group inside one node of 8.
  const SearchOutcome kept = search_strategies(domain_base({"strategy.keep_in_domain=[dp]"}), space, IterationTheta{}, 5);
  REQUIRE(!kept.top.empty());
  for (const RankedStrategy& s : kept.top) {
    INFO("tp " << s.run.strategy.tp << " pp " << s.run.strategy.pp << " dp " << s.run.strategy.dp << " "
               << s.run.strategy.mesh_order);
    CHECK_FALSE(dp_straddles(s.run));
  }
}
