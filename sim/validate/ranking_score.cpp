#include "sim/validate/ranking_score.hpp"

#include <algorithm>

#include "sim/search/rank_agreement.hpp"

namespace trainsim {
namespace {

// Indices of the rows whose `value` is smallest (several on a tie), in row order.
template <class Value>
std::vector<size_t> fastest(const std::vector<RankedRow>& rows, Value value) {
  std::vector<size_t> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!out.empty() && value(rows[i]) > value(rows[out.front()])) continue;
    if (!out.empty() && value(rows[i]) < value(rows[out.front()])) out.clear();
    out.push_back(i);
  }
  return out;
}

// Per-row errors of a group, as summarize_errors wants them: time for every row, memory where measured.
void collect_errors(const std::vector<RankedRow>& rows, std::vector<std::pair<std::string, double>>* time,
                    std::vector<std::pair<std::string, double>>* memory) {
  for (const auto& r : rows) {
    time->emplace_back(r.id, percent_error(r.predicted_time, r.measured_time));
    if (r.measured_memory > 0) memory->emplace_back(r.id, percent_error(r.predicted_memory, r.measured_memory));
  }
}

}  // namespace

GroupScore score_group(const std::string& group, Split split, const std::string& hardware,
                       const std::vector<RankedRow>& rows) {
  GroupScore s;
  s.group = group;
  s.split = split;
  s.hardware = hardware;
  s.rows = static_cast<int>(rows.size());
  std::vector<double> predicted, measured;
  for (const auto& r : rows) {
    predicted.push_back(r.predicted_time);
    measured.push_back(r.measured_time);
  }
  s.spearman = spearman(predicted, measured);
  const auto best_measured = fastest(rows, [](const RankedRow& r) { return r.measured_time; });
  const auto best_predicted = fastest(rows, [](const RankedRow& r) { return r.predicted_time; });
  s.measured_best = rows[best_measured.front()].id;
  s.predicted_best = rows[best_predicted.front()].id;
  for (size_t i : best_measured)
    if (std::find(best_predicted.begin(), best_predicted.end(), i) != best_predicted.end()) s.best_predicted_best = true;
  collect_errors(rows, &s.time_errors, &s.memory_errors);
  s.time_error = summarize_errors(s.time_errors);
  s.memory_error = summarize_errors(s.memory_errors);
  return s;
}

std::vector<GroupScore> score_ranking(const std::vector<RowResult>& results) {
  std::vector<std::string> order;
  for (const auto& r : results)
    if (!r.measurement.group.empty() && std::find(order.begin(), order.end(), r.measurement.group) == order.end())
      order.push_back(r.measurement.group);
  std::vector<GroupScore> scores;
  for (const auto& group : order) {
    std::vector<RankedRow> rows;
    const RowResult* first = nullptr;
    for (const auto& r : results) {
      if (r.measurement.group != group) continue;
      if (!first) first = &r;
      rows.push_back(RankedRow{r.measurement.id, r.measured_time, r.prediction.iteration_time,
                               r.measurement.peak_memory, r.prediction.peak_memory});
    }
    if (rows.size() >= 2) scores.push_back(score_group(group, first->measurement.split, first->measurement.hardware, rows));
  }
  return scores;
}

std::vector<RankingSummary> summarize_ranking(const std::vector<GroupScore>& scores) {
  std::vector<RankingSummary> out;
  for (const char* key : {"calibrate", "check", "all"}) {
    RankingSummary s;
    s.key = key;
    std::vector<std::pair<std::string, double>> time, memory;
    double rho_sum = 0;
    for (const auto& g : scores) {
      if (std::string(key) != "all" && split_name(g.split) != std::string(key)) continue;
      ++s.groups;
      rho_sum += g.spearman;
      s.best_hits += g.best_predicted_best ? 1 : 0;
      time.insert(time.end(), g.time_errors.begin(), g.time_errors.end());
      memory.insert(memory.end(), g.memory_errors.begin(), g.memory_errors.end());
    }
    if (s.groups == 0) continue;
    s.mean_spearman = rho_sum / s.groups;
    s.time_error = summarize_errors(time);
    s.memory_error = summarize_errors(memory);
    out.push_back(s);
  }
  return out;
}

}  // namespace trainsim
