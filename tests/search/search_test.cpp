// The search's planner against exhaustive evaluation on spaces small enough to evaluate every
// strategy: its lower bound never exceeds the formulas' time of a strategy it stands for, its top k
// are the exhaustive top k, every strategy is counted once, what it reports is valid, fits and
// loads back to the same time, and the enumeration of degrees matches a hand count.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/analytic/device_memory.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/run_writer.hpp"
#include "sim/core/error.hpp"
#include "sim/search/bound.hpp"
#include "sim/search/rank_agreement.hpp"
#include "sim/search/search.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/tiny_run.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {


// Llama 2 7B (workloads/default.yaml's model, on H100) cut to `layers` layers, 8 devices.
RunSpec dense_base(int layers) {
  return load_run(kRoot / "workloads/default.yaml",
                  {"model.layers=" + std::to_string(layers), "devices=8", "global_batch=16", "seq_len=2048",
                   "strategy.tp=1", "strategy.pp=1", "strategy.dp=8", "strategy.cp=1", "strategy.ep=1"});
}

// Mixtral 8x7B cut to 4 layers on 16 devices (8 under the sanitizers, 10-20x slower: fewer degree
// splits, the same expert-parallel paths): expert parallelism in the space.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kMoeDevices = 8;
#else
constexpr int kMoeDevices = 16;
#endif
RunSpec moe_base() {
  return load_run(kRoot / "workloads/mixtral-8x7b-h100.yaml",
                  {"model.layers=4", "devices=" + std::to_string(kMoeDevices), "global_batch=16", "seq_len=2048", "strategy.tp=1", "strategy.pp=1",
                   "strategy.dp=" + std::to_string(kMoeDevices), "strategy.cp=1", "strategy.ep=1", "strategy.schedule=1f1b",
                   "strategy.virtual_stages=1"});
}

// Under the sanitizers (10-20x slower) micro-batch 1 alone: the same groups, bound and pruning
// paths over half the strategies, which keeps the sanitized test run within CI's time.
#if defined(__SANITIZE_ADDRESS__)
SearchSpace small_space() { return parse_search_space({"micro_batch=1"}, {}); }
#else
SearchSpace small_space() { return parse_search_space({"micro_batch=1,2"}, {}); }
#endif

struct Evaluated {
  double time = 0;
  bool fits = false;
};

// Every strategy of the space, evaluated one by one (no bound, no recompute shortcut).
std::vector<Evaluated> exhaustive(const RunSpec& base, const SearchSpace& space, const IterationTheta& theta,
                                  bool check_bound) {
  std::vector<Evaluated> out;
  GroupCounts counts;
  RunSpec run = base;
  for (const ComputeGroup& g : compute_groups(base, space, &counts)) {
    double bound = -1;
    for (const InnerChoice& c : inner_choices(g, space, base))
      for (const FlagChoice& f : flag_choices(g, space))
        for (int k : recompute_layer_options(g, base, space)) {
          apply_choice(g, c, f, k, run);
          if (bound < 0) bound = iteration_lower_bound(extract_compute_inputs(run), theta);
          const IterationInputs in = extract_iteration_inputs(run);
          Evaluated e;
          e.time = estimate_iteration(in, theta).iteration_time;
          e.fits = peak_memory(stage_memory(run)).total() <= run.platform.accelerator.memory_capacity;
          if (check_bound) REQUIRE(bound <= e.time * (1 + 1e-12));
          out.push_back(e);
        }
  }
  return out;
}

// The k best distinct times among strategies that fit, as TopK keeps them.
std::vector<double> best_distinct(std::vector<Evaluated> all, size_t k) {
  std::vector<double> times;
  for (const Evaluated& e : all)
    if (e.fits) times.push_back(e.time);
  std::sort(times.begin(), times.end());
  std::vector<double> out;
  for (double t : times) {
    if (!out.empty() && t - out.back() <= 1e-12 * t) continue;
    out.push_back(t);
    if (out.size() == k) break;
  }
  return out;
}

void require_matches_exhaustive(const RunSpec& base, const IterationTheta& theta) {
  const SearchSpace space = small_space();
  const std::vector<Evaluated> all = exhaustive(base, space, theta, true);
  const SearchOutcome o = search_strategies(base, space, theta, 5);
  const std::vector<double> expected = best_distinct(all, 5);
  REQUIRE(o.top.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) CHECK(o.top[i].estimate.iteration_time == Approx(expected[i]).epsilon(1e-12));
  const SearchCounts& c = o.counts;
  CHECK(c.enumerated == static_cast<long long>(all.size()));
  CHECK(c.enumerated == c.pruned_memory + c.pruned_bound + c.evaluated);
}

}  // namespace

TEST_CASE("the search's lower bound never exceeds the time of a strategy of its group and its top k are the exhaustive top k (dense)", "[search][release_only]") {
  require_matches_exhaustive(dense_base(8), IterationTheta{});
}

TEST_CASE("the search's top k equal the exhaustive top k with expert parallelism in the space", "[search][release_only]") {
  require_matches_exhaustive(moe_base(), IterationTheta{});
}

TEST_CASE("the search's top k equal the exhaustive top k under fitted coefficients other than 1", "[search][release_only]") {
  IterationTheta theta;  // every coefficient moved off 1, all still >= 0 as the bound requires
  theta.compute_scale = 1.1, theta.tp_scale = 1.3, theta.dp_scale = 0.8, theta.ep_scale = 1.5;
  theta.dp_overlap = 0.7, theta.interference = 2.0, theta.bubble_scale = 1.2, theta.cp_scale = 0.9;
  require_matches_exhaustive(dense_base(8), theta);
}

TEST_CASE("degree splits of 8 devices of a 4-layer model are the 9 tp x pp pairs counted by hand", "[search]") {
  // tp divides 32 heads and at most one node (8): 1, 2, 4, 8; pp divides 8/tp and is at most 4
  // layers: tp 1 -> pp 1, 2, 4; tp 2 -> 1, 2, 4; tp 4 -> 1, 2; tp 8 -> 1. dp = 8/(tp pp) divides 16.
  const SearchSpace space = parse_search_space({}, {"cp=1", "micro_batch=1", "schedule=1f1b", "sequence_parallel=false",
                                                    "recompute=none"});
  GroupCounts counts;
  const std::vector<ComputeGroup> groups = compute_groups(dense_base(4), space, &counts);
  std::vector<std::pair<int, int>> got;
  for (const ComputeGroup& g : groups) got.push_back({g.tp, g.pp});
  const std::vector<std::pair<int, int>> expected = {{1, 1}, {1, 2}, {1, 4}, {2, 1}, {2, 2}, {2, 4}, {4, 1}, {4, 2}, {8, 1}};
  CHECK(got == expected);
}

TEST_CASE("more recomputed layers never shorten the formulas' time nor grow memory", "[search]") {
  RunSpec run = dense_base(8);
  run.strategy.pp = 2, run.strategy.dp = 4, run.strategy.recompute = Recompute::kFull;
  double last_time = 0, last_memory = 1e300;
  for (int k : {1, 2, 3, 0}) {  // 0 = all 4 layers of each stage
    run.strategy.recompute_layers = k;
    const double t = estimate_iteration(extract_iteration_inputs(run), IterationTheta{}).iteration_time;
    const double m = peak_memory(stage_memory(run)).total();
    CHECK(t > last_time);
    CHECK(m < last_memory);
    last_time = t, last_memory = m;
  }
}

TEST_CASE("every strategy the search reports is valid, fits and loads back from its YAML to the same time", "[search]") {
  const RunSpec base = moe_base();
  const SearchOutcome o = search_strategies(base, small_space(), IterationTheta{}, 5);
  REQUIRE(!o.top.empty());
  for (const RankedStrategy& s : o.top) {
    CHECK(s.peak_memory <= base.platform.accelerator.memory_capacity);
    // Loading runs every rule a run file must pass; model and platform as workloads/ names them,
    // with the same cut the base was loaded with.
    const std::string text = run_yaml(s.run, {"mixtral-8x7b", "dgx-h100-superpod"}, "");
    const RunSpec back = load_run_text(text, "written", kRoot / "workloads", {"model.layers=4"});
    const double t = estimate_iteration(extract_iteration_inputs(back), IterationTheta{}).iteration_time;
    CHECK(t == s.estimate.iteration_time);
  }
}

// The search extracts a strategy's formula inputs once and evaluates its overlap switches on them. The
// pipeline switch decides whether the stage's sends run beside its collectives (sharing links) or make
// the compute wait, so a time taken with the switch toggled must equal that of inputs extracted with it.
TEST_CASE("a strategy whose pipeline overlap the search toggled has the time of its own inputs", "[search]") {
  const SearchSpace space = parse_search_space({"overlap.pp_comm=true,false"},
                                               {"tp=2", "pp=2", "dp=2", "cp=1", "micro_batch=1", "schedule=1f1b",
                                                "virtual_stages=1", "zero_stage=1", "recompute=none",
                                                "offload=none", "overlap.dp_grad_reduce=true",
                                                "overlap.zero_param_gather=true", "overlap.tp_comm=false"});
  const SearchOutcome o = search_strategies(dense_base(8), space, IterationTheta{}, 4);
  REQUIRE(o.top.size() >= 2);  // the two pipeline switches, on all mesh orders the space admits
  bool with = false, without = false;
  for (const RankedStrategy& s : o.top) {
    (s.run.strategy.overlap.pp_comm ? with : without) = true;
    const double t = estimate_iteration(extract_iteration_inputs(s.run), IterationTheta{}).iteration_time;
    CHECK(t == s.estimate.iteration_time);
  }
  CHECK((with && without));
}

TEST_CASE("two searches of the same space give the same strategies in the same order", "[search]") {
  const SearchOutcome a = search_strategies(dense_base(8), small_space(), IterationTheta{}, 8);
  const SearchOutcome b = search_strategies(dense_base(8), small_space(), IterationTheta{}, 8);
  REQUIRE(a.top.size() == b.top.size());
  for (size_t i = 0; i < a.top.size(); ++i) CHECK(strategy_label(a.top[i].run) == strategy_label(b.top[i].run));
}

TEST_CASE("a space that admits no strategy is refused naming its restrictions", "[search]") {
  const SearchSpace space = parse_search_space({}, {"tp=3"});  // 3 divides neither 32 heads nor 8 devices
  CHECK_THROWS_WITH(search_strategies(dense_base(4), space, IterationTheta{}, 3), Catch::Contains("tp=3"));
}

TEST_CASE("search knobs and values are checked naming what is valid", "[search]") {
  CHECK_THROWS_WITH(parse_search_space({"tpp=2"}, {}), Catch::Contains("unknown search knob 'tpp'") && Catch::Contains("micro_batch"));
  CHECK_THROWS_WITH(parse_search_space({"schedule=zb"}, {}), Catch::Contains("zb-h1"));
  CHECK_THROWS_WITH(parse_search_space({}, {"tp=2,4"}), Catch::Contains("--fix takes one value"));
  CHECK_THROWS_WITH(parse_search_space({"zero_stage=4"}, {}), Catch::Contains("0, 1, 2 or 3"));
  CHECK_THROWS_WITH(parse_search_space({"tp=1,2", "tp=4"}, {}), Catch::Contains("leave no value"));
  CHECK(parse_search_space({"mesh_order=all"}, {}).values_or("mesh_order", {}).size() == 24);
}

TEST_CASE("Spearman's rho of hand-ranked lists, with ties sharing their mean rank", "[search]") {
  // Ranks of (10, 20, 20, 40) are (1, 2.5, 2.5, 4); identical order gives 1, reversed -1.
  CHECK(fractional_ranks({10, 20, 20, 40}) == std::vector<double>{1, 2.5, 2.5, 4});
  CHECK(spearman({1, 2, 3, 4}, {10, 20, 30, 40}) == Approx(1));
  CHECK(spearman({1, 2, 3, 4}, {40, 30, 20, 10}) == Approx(-1));
  // Ranks (1,2,3,4) vs (2,1,4,3): d = (1,1,1,1), rho = 1 - 6*4/(4*15) = 0.6.
  CHECK(spearman({1, 2, 3, 4}, {2, 1, 4, 3}) == Approx(0.6));
}

TEST_CASE("a strategy that recomputes more layers than memory needs still enters the top k when fast enough", "[search]") {
  // 10 layers on 8 H100 at micro-batch 1: full recompute of 1 layer fits, and recomputing 2 is slower
  // but still among the 5 best, which a search that stops at the fewest fitting layers would miss.
  const RunSpec base = dense_base(10);
  const SearchOutcome o = search_strategies(base, parse_search_space({"micro_batch=1"}, {}), IterationTheta{}, 5);
  std::vector<std::string> labels;
  std::string listed;
  for (const RankedStrategy& r : o.top) {
    labels.push_back(strategy_label(r.run));
    listed += labels.back() + "; ";
  }
  INFO(listed);
  bool both = false;
  for (const std::string& l : labels) {
    const auto at = l.find("rc:full2");
    if (at == std::string::npos) continue;
    std::string fewer = l;
    fewer.replace(at, 8, "rc:full1");
    both = both || std::find(labels.begin(), labels.end(), fewer) != labels.end();
  }
  CHECK(both);
}

TEST_CASE("with 10 layers the search interleaves over uneven stages and still matches the exhaustive top k",
          "[search][release_only]") {
  // 10 layers over pp 4 x v 2 cannot be split evenly (10 mod 8 != 0); first/last stage layers that
  // are 0 or multiples of 2 up to ceil(10/4) + 1 leave e.g. stages of 2, 2, 2, 4.
  const RunSpec base = dense_base(10);
  GroupCounts counts;
  int uneven = 0;
  for (const ComputeGroup& g : compute_groups(base, small_space(), &counts)) {
    if (g.first_stage_layers == 0 && g.last_stage_layers == 0) continue;
    ++uneven;
    CHECK(g.schedule == "interleaved");
    RunSpec run = base;
    apply_choice(g, inner_choices(g, small_space(), run).front(), flag_choices(g, small_space()).front(), 0, run);
    // What the search would write loads back: every rule of a run file passes.
    CHECK_NOTHROW(load_run_text(run_yaml(run, {"llama2-7b", "dgx-h100-superpod"}, ""), "written", kRoot / "workloads",
                                {"model.layers=10"}));
  }
  CHECK(uneven > 0);
  require_matches_exhaustive(base, IterationTheta{});
}

// A candidate of a run whose framework blocks on every launch overlaps nothing, whatever the flags
// drawn for it say, as the loader makes of a run file (sim/config/run_loader.cpp).
TEST_CASE("search candidates of a blocking-launch run overlap no stream", "[search][framework]") {
  RunSpec run = test::island_run(8, 100e9, 1e-6);
  run.framework.host.launch_blocking = true;
  ComputeGroup g;
  g.tp = 2, g.pp = 2, g.dp = 2;
  InnerChoice c;
  c.tp_comm = true;
  apply_choice(g, c, FlagChoice{true, true}, 0, run);
  CHECK_FALSE(run.strategy.overlap.tp_comm);
  CHECK_FALSE(run.strategy.overlap.dp_grad_reduce);
  CHECK_FALSE(run.strategy.overlap.pp_comm);
  CHECK_FALSE(run.strategy.overlap.tp_grad_reduce);
  RunSpec asynchronous = test::island_run(8, 100e9, 1e-6);
  apply_choice(g, c, FlagChoice{true, true}, 0, asynchronous);
  CHECK(asynchronous.strategy.overlap.tp_comm);
  CHECK(asynchronous.strategy.overlap.tp_grad_reduce);
  // A framework without the asynchronous TP all-reduce keeps its candidates' weight gradients after it.
  RunSpec no_async = test::island_run(8, 100e9, 1e-6);
  no_async.framework.async_tp_grad_reduce = false;
  apply_choice(g, c, FlagChoice{true, true}, 0, no_async);
  CHECK(no_async.strategy.overlap.tp_comm);
  CHECK_FALSE(no_async.strategy.overlap.tp_grad_reduce);
}
