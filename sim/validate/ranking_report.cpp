#include "sim/validate/ranking_report.hpp"

#include "sim/core/number_text.hpp"
#include "sim/core/units.hpp"
#include "sim/search/rank_agreement.hpp"
#include "sim/validate/text_format.hpp"
#include "sim/validate/validation_report.hpp"

namespace trainsim {
namespace {

// "3.1 / 7.4", or "-" when no row was measured.
std::string mean_max(const ErrorSummary& e) {
  return e.count == 0 ? "-" : format_text("%.1f / %.1f", e.mean_abs_percent, e.max_abs_percent);
}

void write_markdown_summary(std::ostream& out, const std::vector<GroupScore>& scores) {
  out << "\n| split | groups | mean Spearman | measured best predicted best | mean / max abs time error % | "
         "rows with memory | mean / max abs memory error % |\n|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& s : summarize_ranking(scores))
    out << format_text("| %s | %d | %.2f | %d of %d | %s | %d | %s |\n", s.key.c_str(), s.groups, s.mean_spearman,
                       s.best_hits, s.groups, mean_max(s.time_error).c_str(), s.memory_error.count,
                       mean_max(s.memory_error).c_str());
}

// Every grouped row: measured and predicted rank within its group (1 = fastest; ties share the mean rank).
void write_markdown_rows(std::ostream& out, const std::vector<GroupScore>& scores, const std::vector<RowResult>& results) {
  out << "\n| group | id | measured s | predicted s | error % | measured rank | predicted rank | measured GiB | "
         "predicted GiB | memory error % |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& g : scores) {
    std::vector<const RowResult*> rows;
    std::vector<double> measured, predicted;
    for (const auto& r : results)
      if (r.measurement.group == g.group) {
        rows.push_back(&r);
        measured.push_back(r.measured_time);
        predicted.push_back(r.prediction.iteration_time);
      }
    const auto rank_m = fractional_ranks(measured), rank_p = fractional_ranks(predicted);
    for (size_t i = 0; i < rows.size(); ++i) {
      const RowResult& r = *rows[i];
      const Bytes mem = r.measurement.peak_memory;
      out << format_text("| %s | %s | %.2f | %.2f | %s | %g | %g | %s | %.1f | %s |\n", g.group.c_str(),
                         r.measurement.id.c_str(), r.measured_time, r.prediction.iteration_time,
                         signed_percent(r.error_percent).c_str(), rank_m[i], rank_p[i],
                         mem > 0 ? format_text("%.0f", mem / kBytesPerGiB).c_str() : "-", r.prediction.peak_memory / kBytesPerGiB,
                         mem > 0 ? signed_percent(percent_error(r.prediction.peak_memory, mem)).c_str() : "-");
    }
  }
}

}  // namespace

void write_ranking_table(std::ostream& out, const std::vector<GroupScore>& scores) {
  out << format_text("\n%-26s %-9s %4s %8s %-16s %-16s %4s %13s %13s\n", "ranking group", "split", "rows",
                     "spearman", "measured best", "predicted best", "hit", "time err %", "memory err %");
  for (const auto& g : scores)
    out << format_text("%-26s %-9s %4d %8.2f %-16s %-16s %4s %13s %13s\n", g.group.c_str(), split_name(g.split), g.rows,
                       g.spearman, g.measured_best.c_str(), g.predicted_best.c_str(),
                       g.best_predicted_best ? "yes" : "no", mean_max(g.time_error).c_str(),
                       mean_max(g.memory_error).c_str());
  out << "ranking per split (time and memory err %: mean / max of |error|):\n";
  for (const auto& s : summarize_ranking(scores))
    out << format_text("  %-10s %2d groups   mean spearman %5.2f   best predicted best in %d of %d   time %s   memory %s\n",
                       s.key.c_str(), s.groups, s.mean_spearman, s.best_hits, s.groups, mean_max(s.time_error).c_str(),
                       mean_max(s.memory_error).c_str());
}

void write_ranking_markdown(std::ostream& out, const std::vector<GroupScore>& scores,
                            const std::vector<RowResult>& results) {
  out << "\n## Ranking groups\n\n"
      << "Each group holds runs of one model on one cluster that differ only in layout. Spearman's rho between "
         "predicted and measured seconds per iteration (1 = same order); `hit`: the layout measured fastest is "
         "predicted fastest. Memory: predicted peak per device against the measured maximum, where the source "
         "gives one.\n\n"
      << "| group | split | rows | Spearman | measured best | predicted best | hit | mean / max abs time error % | "
         "rows with memory | mean / max abs memory error % |\n|---|---|---:|---:|---|---|---|---:|---:|---:|\n";
  for (const auto& g : scores)
    out << format_text("| %s | %s | %d | %.2f | %s | %s | %s | %s | %d | %s |\n", g.group.c_str(), split_name(g.split),
                       g.rows, g.spearman, g.measured_best.c_str(), g.predicted_best.c_str(),
                       g.best_predicted_best ? "yes" : "no", mean_max(g.time_error).c_str(), g.memory_error.count,
                       mean_max(g.memory_error).c_str());
  write_markdown_summary(out, scores);
  write_markdown_rows(out, scores, results);
}

void write_ranking_csv(std::ostream& out, const std::vector<GroupScore>& scores) {
  out << "group,split,hardware,rows,spearman,measured_best,predicted_best,best_predicted_best,"
         "time_mean_abs_error_pct,time_max_abs_error_pct,memory_rows,memory_mean_abs_error_pct,"
         "memory_max_abs_error_pct\n";
  for (const auto& g : scores) {
    const bool mem = g.memory_error.count > 0;
    out << csv_field(g.group) << ',' << split_name(g.split) << ',' << csv_field(g.hardware) << ',' << g.rows << ','
        << format_number(g.spearman) << ',' << csv_field(g.measured_best) << ',' << csv_field(g.predicted_best) << ','
        << (g.best_predicted_best ? "yes" : "no") << ',' << format_number(g.time_error.mean_abs_percent) << ','
        << format_number(g.time_error.max_abs_percent) << ',' << g.memory_error.count << ','
        << (mem ? format_number(g.memory_error.mean_abs_percent) : "") << ','
        << (mem ? format_number(g.memory_error.max_abs_percent) : "") << '\n';
  }
}

}  // namespace trainsim
