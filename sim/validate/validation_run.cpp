#include "sim/validate/validation_run.hpp"

#include <algorithm>
#include <chrono>

#include "sim/config/loader.hpp"
#include "sim/config/model_writer.hpp"
#include "sim/config/run_writer.hpp"
#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/measured_time.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

std::vector<std::string> ids_of(const MeasurementSet& set) {
  std::vector<std::string> ids;
  for (const auto& m : set.rows) ids.push_back(m.id);
  return ids;
}

// What makes two rows the same run: every field of the run and its model, not its name or description.
std::string run_key(RunSpec run) {
  run.name.clear();
  run.description.clear();
  return run_yaml(run, {run.model.name, run.platform.name}, "") + model_yaml(run.model, {});
}

// Parent side: the run as the row names it, checked against the row's hardware.
RowResult prepare(const Measurement& m, const std::vector<std::string>& overrides) {
  const RunSpec run = load_run(m.run, overrides);
  if (run.platform.name != m.hardware)
    throw UserError(m.run.string() + ": platform '" + run.platform.name + "' but measurement '" + m.id +
                    "' says hardware '" + m.hardware + "'");
  RowResult r;
  r.measurement = m;
  r.kind = row_kind(run);
  r.devices = run.devices;
  r.measured_time = measured_iteration_seconds(m, run);
  r.run_key = run_key(run);
  return r;
}

}  // namespace

std::string row_kind(const RunSpec& run) {
  if (run.model.is_moe()) return "MoE";
  switch (run.precision) {
    case Precision::kFp8:
    case Precision::kMxfp8: return "FP8 dense";
    case Precision::kBf16:
    case Precision::kFp16: return "16-bit dense";
    case Precision::kFp32:
    case Precision::kTf32: return "32-bit dense";
  }
  return "?";
}

std::vector<Measurement> select_measurements(const MeasurementSet& set, const std::vector<std::string>& only,
                                             std::optional<Split> split, const std::string& hardware) {
  const std::vector<std::string> ids = ids_of(set);
  for (const auto& id : only)
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      throw UserError("--only: no measurement '" + id + "' in " + set.file + "; valid: " + joined_names(ids));
  std::vector<Measurement> out;
  for (const auto& m : set.rows) {
    if (!only.empty() && std::find(only.begin(), only.end(), m.id) == only.end()) continue;
    if (split && m.split != *split) continue;
    if (!hardware.empty() && m.hardware != hardware) continue;
    out.push_back(m);
  }
  return out;
}

std::vector<RowResult> validate_measurements(const std::vector<Measurement>& rows, const ValidationOptions& options) {
  std::vector<RowResult> results;
  for (const auto& m : rows) results.push_back(prepare(m, options.overrides));
  const int total = static_cast<int>(rows.size());
  std::vector<std::function<std::string()>> jobs;
  for (const auto& r : results)
    jobs.push_back([&r, &options] {
      try {
        return simulate_row(r.measurement.run, options.overrides);
      } catch (const UserError& e) {
        throw UserError("measurement '" + r.measurement.id + "': " + e.what());
      }
    });
  std::vector<std::chrono::steady_clock::time_point> started(results.size());
  (void)call_in_children(
      jobs, options.jobs,
      [&](size_t i) {
        started[i] = std::chrono::steady_clock::now();
        if (options.on_start) options.on_start(static_cast<int>(i), total, rows[i]);
      },
      [&](size_t i, const std::string& text) {
        RowResult& r = results[i];
        r.prediction = parse_row_prediction(text, r.measurement.run);
        r.prediction.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started[i]).count();
        r.error_percent = percent_error(r.prediction.iteration_time, r.measured_time);
        if (options.on_done) options.on_done(static_cast<int>(i), total, r);
      });
  return results;
}

}  // namespace trainsim
