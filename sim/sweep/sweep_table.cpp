#include "sim/sweep/sweep_table.hpp"

#include "sim/core/number_text.hpp"
#include "sim/core/text_list.hpp"
#include "sim/core/units.hpp"

namespace trainsim {
namespace {

// Indices into PointResult::terms (the iteration formulas' order).
enum Term { kForward, kBackward, kRecompute, kOptimizer, kTp, kCp, kEp, kDp, kBubble };

const char* const kDataTermNames[kSweepTerms] = {"forward_s", "backward_s", "recompute_s", "optimizer_s", "exposed_tp_s",
                                                 "exposed_cp_s", "exposed_ep_s", "exposed_dp_s", "bubble_s"};

std::string status_text(const PointResult& r) {
  return r.status == PointStatus::kOutOfMemory ? "out of memory" : "no strategy fits";
}

std::vector<std::string> readable_row(const PointResult& r) {
  std::vector<std::string> row;
  const bool replayed = r.status == PointStatus::kReplayed;
  auto seconds = [&](double v) { return replayed ? format_with("%.4f", v) : std::string("-"); };
  row.push_back(r.strategy.empty() ? "-" : r.strategy);
  row.push_back(replayed ? format_with("%.4f", r.iteration_time) : status_text(r));
  row.push_back(replayed ? format_with("%.0f", r.tokens_per_s) : "-");
  row.push_back(replayed ? format_with("%.1f%%", 100 * r.mfu) : "-");
  row.push_back(r.memory > 0 ? format_with("%.1f", r.memory / kBytesPerGiB) + " / " + format_with("%.0f", r.capacity / kBytesPerGiB) : "-");
  const auto& t = r.terms;
  row.push_back(seconds(t[kForward] + t[kBackward] + t[kRecompute] + t[kOptimizer]));
  for (int k : {kTp, kCp, kEp, kDp, kBubble}) row.push_back(seconds(t[static_cast<size_t>(k)]));
  return row;
}

// A point that was not replayed has empty cells where a replay's figures would be.
std::vector<std::string> data_row(const PointResult& r) {
  const bool replayed = r.status == PointStatus::kReplayed;
  auto figure = [&](double v) { return replayed ? format_number(v) : std::string(); };
  std::vector<std::string> row = {to_string(r.status), r.strategy, figure(r.iteration_time), figure(r.tokens_per_s),
                                  figure(r.mfu), r.memory > 0 ? format_number(r.memory / kBytesPerGiB) : std::string(),
                                  format_number(r.capacity / kBytesPerGiB)};
  for (double t : r.terms) row.push_back(figure(t));
  return row;
}

std::vector<std::string> header(const std::vector<VaryAxis>& axes, TableStyle style) {
  std::vector<std::string> h = {"point"};
  for (const VaryAxis& a : axes) h.push_back(a.key);
  if (style == TableStyle::kReadable) {
    for (const char* c : {"strategy", "iteration_s", "tokens/s", "MFU", "memory_GiB", "compute_s", "exposed_TP_s",
                          "exposed_CP_s", "exposed_EP_s", "exposed_DP_s", "bubble_s"})
      h.push_back(c);
    return h;
  }
  for (const char* c : {"status", "strategy", "iteration_s", "tokens_per_s", "mfu", "memory_gib", "capacity_gib"}) h.push_back(c);
  for (const char* c : kDataTermNames) h.push_back(c);
  return h;
}

}  // namespace

SweepTable sweep_table(const std::vector<VaryAxis>& axes, const std::vector<PointResult>& results, TableStyle style) {
  SweepTable t;
  t.header = header(axes, style);
  for (const PointResult& r : results) {
    std::vector<std::string> row = {std::to_string(r.point.index)};
    for (const auto& kv : r.point.values) row.push_back(kv.second);
    for (std::string& cell : style == TableStyle::kReadable ? readable_row(r) : data_row(r)) row.push_back(std::move(cell));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<StrategyWins> strategy_wins(const std::vector<PointResult>& results) {
  std::vector<StrategyWins> out;
  for (const PointResult& r : results) {
    if (r.status != PointStatus::kReplayed) continue;
    auto it = out.begin();
    while (it != out.end() && it->strategy != r.strategy) ++it;
    if (it == out.end()) it = out.insert(out.end(), StrategyWins{r.strategy, {}});
    it->points.push_back(&r);
  }
  return out;
}

std::vector<std::string> strategy_win_lines(const std::vector<PointResult>& results) {
  std::vector<std::string> lines;
  for (const StrategyWins& w : strategy_wins(results)) {
    std::vector<std::string> where;
    for (const PointResult* p : w.points) {
      const std::string values = join_text(point_overrides(p->point));
      where.push_back(p->point.values.size() > 1 ? "(" + values + ")" : values);
    }
    lines.push_back(w.strategy + "  wins at " + join_text(where, "; "));
  }
  return lines;
}

}  // namespace trainsim
