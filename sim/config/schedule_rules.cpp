// The pipeline schedule a run names, checked at load time without expanding it: the name is
// registered, the schedule suits the run's p, m and v (e.g. interleaved needs m % p == 0), and
// m v stays within kMaxChunkPassesPerStage, the bound on what the replay expands per stage.
#include <string>

#include "sim/config/run_rules.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"

namespace trainsim {
namespace {

std::string str(long long v) { return std::to_string(v); }

const ScheduleInfo& registered_schedule(const std::string& name, const YamlSource& src) {
  std::vector<std::string> names;
  for (const ScheduleInfo& s : schedules()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  src.fail_at("strategy.schedule", "unknown pipeline schedule", name, join_names(names));
}

// m v passes per stage: the global batch is what makes m large, so the error names it.
void check_pass_count(const RunSpec& run, const YamlSource& src) {
  const StrategySpec& s = run.strategy;
  const long long m = run.microbatches();
  const long long passes = m * s.virtual_stages;
  if (passes <= kMaxChunkPassesPerStage) return;
  const long long per_m = static_cast<long long>(s.dp) * run.micro_batch;
  const long long largest = kMaxChunkPassesPerStage / s.virtual_stages * per_m;
  src.fail_at("global_batch",
              "gives m = global_batch/(dp*micro_batch) = " + str(m) + " micro-batches per pipeline, and m * " +
                  "virtual_stages = " + str(passes) + " passes per stage exceeds the limit of " +
                  str(kMaxChunkPassesPerStage) +
                  " (the replay expands every pass into tasks; the limit keeps that bounded)",
              str(run.global_batch),
              "at most " + str(largest) + " with dp " + str(s.dp) + ", micro_batch " + str(run.micro_batch) +
                  " and virtual_stages " + str(s.virtual_stages) + ", or a larger micro_batch");
}

}  // namespace

void check_schedule_rules(const RunSpec& run, const YamlSource& source) {
  const StrategySpec& s = run.strategy;
  const ScheduleInfo& schedule = registered_schedule(s.schedule, source);
  check_pass_count(run, source);
  try {
    schedule.check(ScheduleParams{s.pp, run.microbatches(), s.virtual_stages});
  } catch (const StrategyError& e) {
    source.fail_at("strategy.schedule", e.what(), s.schedule, "see trainsim list schedules");
  }
}

}  // namespace trainsim
