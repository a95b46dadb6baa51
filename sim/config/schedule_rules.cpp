// The pipeline schedule a run names, checked at load time without expanding it: the name is
// registered, the schedule suits the run's p, m and v (e.g. interleaved needs m % p == 0), and
// m v and m * layers/p stay within kMaxChunkPassesPerStage and kMaxLayerPassesPerStage, the
// bounds on what the replay expands per stage (sim/graph/schedule.hpp).
#include <algorithm>
#include <string>

#include "sim/config/run_rules.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {
namespace {

std::string int_text(long long v) { return std::to_string(v); }

const ScheduleInfo& registered_schedule(const std::string& name, const YamlSource& src) {
  std::vector<std::string> names;
  for (const ScheduleInfo& s : schedules()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  src.fail_at("strategy.schedule", "unknown pipeline schedule", name, join_names(names));
}

// m v passes per stage, and m * layers/p layer passes: the global batch is what makes m large,
// so the error names it.
void check_pass_count(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  const long long m = run.microbatches();
  // the fullest stage's layers (uneven splits included)
  const long long layers_per_stage = fullest_stage_layer_count(pipeline_split(run));
  const long long passes = m * s.virtual_stages;
  const long long layer_passes = m * layers_per_stage;
  if (passes <= kMaxChunkPassesPerStage && layer_passes <= kMaxLayerPassesPerStage) return;
  const long long per_m = static_cast<long long>(s.dp) * run.micro_batch;
  const long long max_m = std::min(kMaxChunkPassesPerStage / s.virtual_stages, kMaxLayerPassesPerStage / layers_per_stage);
  const std::string what =
      passes > kMaxChunkPassesPerStage
          ? "m * virtual_stages = " + int_text(passes) + " passes per stage exceeds the limit of " +
                int_text(kMaxChunkPassesPerStage)
          : "m * layers per stage (" + int_text(layers_per_stage) + ") = " + int_text(layer_passes) +
                " layer passes per stage exceeds the limit of " + int_text(kMaxLayerPassesPerStage);
  src.fail_at("global_batch",
              "gives m = global_batch/(dp*micro_batch) = " + int_text(m) + " micro-batches per pipeline, and " + what +
                  " (the replay expands every pass into tasks; the limit bounds its time and memory)",
              int_text(run.global_batch),
              "at most " + int_text(max_m * per_m) + " with dp " + int_text(s.dp) + ", micro_batch " + int_text(run.micro_batch) +
                  ", virtual_stages " + int_text(s.virtual_stages) + " and pp " + int_text(s.pp) + ", or a larger micro_batch");
}

}  // namespace

void check_schedule_rules(const RunSpec& run, const YamlSource& source) {
  const StrategySpec& s = run.strategy;
  const ScheduleInfo& schedule = registered_schedule(s.schedule, source);
  check_pass_count(run, source);
  try {
    schedule.check(ScheduleParams{s.pp, run.microbatches(), s.virtual_stages});
  } catch (const StrategyError& e) {  // its "...; valid: ..." tail becomes the error's valid part
    const std::string text = e.what();
    const size_t valid = text.find("; valid: ");
    const std::string problem = valid == std::string::npos ? text : text.substr(0, valid);
    const std::string expected = valid == std::string::npos ? "see trainsim list schedules" : text.substr(valid + 9);
    source.fail_at("strategy.schedule", problem, s.schedule, expected);
  }
}

}  // namespace trainsim
