#include "sim/core/units.hpp"
#include "sim/cli/search_report.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/core/number_text.hpp"
#include "sim/report/metrics.hpp"
#include "sim/report/json_writer.hpp"
#include "sim/search/rank_agreement.hpp"

namespace trainsim {
namespace {

std::string report_text(const char* f, double v) { return format_with(f, v); }

double gib_of(double bytes) { return bytes / kBytesPerGiB; }

double tokens_per_s(const RunSpec& run, double t) { return tokens_per_second(run, t); }
double mfu(const RunSpec& run, double t) { return model_flops_utilization(run, t); }

void print_counts(std::ostream& out, const SearchReport& r) {
  const SearchCounts& c = r.outcome->counts;
  out << "space        " << (r.space.empty() ? "every strategy the run admits" : r.space) << "\n"
      << "strategies   " << c.enumerated << " enumerated = " << c.pruned_memory << " out of memory + " << c.pruned_bound
      << " pruned by bound + " << c.evaluated << " evaluated" << (r.outcome->bound_used ? "" : " (no bound: theta < 0)")
      << "; " << c.invalid << " rejected by schedule rules\n"
      << "groups       " << c.groups << " compute groups, " << c.groups_expanded << " expanded; " << c.extractions
      << " input extractions\n";
}

// The terms that moved most between the baseline and the winner, largest saving first.
std::string why_faster(const IterationEstimate& base, const IterationEstimate& best) {
  std::vector<std::pair<double, int>> moved;
  for (int k = 0; k < kIterationTerms; ++k) moved.push_back({base.mean[static_cast<size_t>(k)] - best.mean[static_cast<size_t>(k)], k});
  std::sort(moved.begin(), moved.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (const auto& [saved, k] : moved) {
    if (std::abs(saved) < 1e-4 * base.iteration_time) continue;
    out += std::string(out.empty() ? "" : ", ") + term_name(static_cast<IterationTerm>(k)) + " " + (saved >= 0 ? "-" : "+") +
           report_text("%.3f", std::abs(saved)) + " s";
  }
  return out.empty() ? "no term moved" : out;
}

void print_baseline(std::ostream& out, const SearchReport& r) {
  const BaselineRow& b = *r.baseline;
  out << "\nbaseline     " << strategy_label(b.strategy.run) << "\n";
  if (!b.fits()) {
    out << "             does NOT fit: needs " << report_text("%.1f", gib_of(b.strategy.peak_memory)) << " GiB of "
        << report_text("%.1f", gib_of(b.capacity)) << " GiB (" << report_text("%.1f", gib_of(b.strategy.peak_memory - b.capacity))
        << " GiB over), so it cannot run" << (r.rows.empty() ? "" : "; the search's pick fits") << "\n";
    return;
  }
  out << "             formula " << report_text("%.4f", b.strategy.estimate.iteration_time) << " s";
  if (b.replay) out << ", replay " << report_text("%.4f", b.replay->iteration_time) << " s";
  if (r.rows.empty()) return void(out << "\n");
  const SearchRow& best = r.rows.front();
  out << "; the search's pick is " << report_text("%.2f", b.time() / best.time()) << "x faster"
      << (b.replay && best.replay ? " (replayed)" : " (formulas)") << "\n"
      << "             why (formula terms, mean per device): " << why_faster(b.strategy.estimate, best.strategy->estimate) << "\n";
}

struct Agreement {
  bool known = false;      // at least two strategies replayed
  double rho = 0;          // Spearman's rho, formula times vs replayed times
  int pick_rank = 0;       // the formulas' first pick in the replay's order, 1-based
  double pick_slower = 0;  // its replayed time over the replay's best, minus 1
};

Agreement agreement(const SearchReport& r) {
  Agreement a;
  std::vector<double> formula, replay;
  for (const SearchRow& row : r.rows) {
    if (!row.replay) return a;
    formula.push_back(row.strategy->estimate.iteration_time);
    replay.push_back(row.replay->iteration_time);
  }
  if (r.rows.size() < 2) return a;
  a.known = true;
  a.rho = spearman(formula, replay);
  for (size_t i = 0; i < r.rows.size(); ++i) {
    if (r.rows[i].formula_rank != 1) continue;
    a.pick_rank = static_cast<int>(i + 1);
    a.pick_slower = r.rows[i].time() / r.rows.front().time() - 1;
  }
  return a;
}

}  // namespace

void print_search_table(std::ostream& out, const SearchReport& r) {
  print_counts(out, r);
  out << "\nrank  formula_s  replay_s   diff   memory_GiB   MFU   tokens/s  strategy\n";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const SearchRow& row = r.rows[i];
    const RankedStrategy& s = *row.strategy;
    const double f = s.estimate.iteration_time;
    out << report_text("%4.0f", static_cast<double>(i + 1)) << "  " << report_text("%9.4f", f) << "  "
        << (row.replay ? report_text("%8.4f", row.replay->iteration_time) : std::string("       -")) << "  "
        << (row.replay ? report_text("%+5.1f%%", 100 * (f - row.replay->iteration_time) / row.replay->iteration_time) : std::string("     -"))
        << "  " << report_text("%11.1f", gib_of(s.peak_memory)) << "  " << report_text("%4.1f%%", 100 * mfu(s.run, row.time())) << "  "
        << report_text("%9.0f", tokens_per_s(s.run, row.time())) << "  " << strategy_label(s.run)
        << (s.equivalents > 0 ? "  (+" + std::to_string(s.equivalents) + " equal under the formulas)" : "") << "\n";
  }
  const Agreement a = agreement(r);
  if (a.known)
    out << "\nagreement    Spearman rho " << report_text("%.3f", a.rho) << " between formula and replay over these " << r.rows.size()
        << "; the formulas' pick is replay rank " << a.pick_rank << " (" << report_text("%.2f", 100 * a.pick_slower)
        << "% slower than the replay's best)\n";
  if (r.baseline) print_baseline(out, r);
}

void print_search_json(std::ostream& out, const SearchReport& r) {
  JsonWriter w(out);
  const SearchCounts& c = r.outcome->counts;
  w.begin_object();
  w.field("space", r.space.empty() ? std::string("all") : r.space);
  w.key("counts").begin_object();
  w.field("enumerated", c.enumerated).field("pruned_memory", c.pruned_memory).field("pruned_bound", c.pruned_bound);
  w.field("evaluated", c.evaluated).field("invalid", c.invalid).field("groups", c.groups);
  w.field("groups_expanded", c.groups_expanded).field("extractions", c.extractions).field("bound_used", r.outcome->bound_used);
  w.end_object();
  w.key("ranked").begin_array();
  for (const SearchRow& row : r.rows) {
    const RankedStrategy& s = *row.strategy;
    w.begin_object().field("strategy", strategy_label(s.run)).field("formula_rank", row.formula_rank);
    w.field("formula_s", s.estimate.iteration_time);
    if (row.replay) w.field("replay_s", row.replay->iteration_time);
    w.field("memory_bytes", s.peak_memory).field("mfu", mfu(s.run, row.time())).field("tokens_per_s", tokens_per_s(s.run, row.time()));
    w.field("equivalents", s.equivalents).end_object();
  }
  w.end_array();
  const Agreement a = agreement(r);
  if (a.known) {
    w.key("agreement").begin_object().field("spearman", a.rho).field("pick_replay_rank", a.pick_rank);
    w.field("pick_slower_than_best", a.pick_slower).end_object();
  }
  if (r.baseline) {
    const BaselineRow& b = *r.baseline;
    w.key("baseline").begin_object().field("strategy", strategy_label(b.strategy.run));
    w.field("formula_s", b.strategy.estimate.iteration_time);
    if (b.replay) w.field("replay_s", b.replay->iteration_time);
    w.field("memory_bytes", b.strategy.peak_memory).field("fits", b.fits());
    if (!r.rows.empty() && b.fits()) w.field("speedup", b.time() / r.rows.front().time());
    w.end_object();
  }
  w.end_object();
  out << "\n";
}

}  // namespace trainsim
