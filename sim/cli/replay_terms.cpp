// The replay's breakdown in formula terms (see replay_terms.hpp).
#include "sim/cli/replay_terms.hpp"

#include <sstream>
#include <stdexcept>

#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/fold_plan.hpp"
#include "sim/report/metrics.hpp"

namespace trainsim {

std::string replay_terms_text(const RunSpec& run, FoldPolicy fold) {
  ReplayOptions options;  // simulate's defaults: bulk collectives, --fold auto
  const bool big = run.devices > 1024 || fold == FoldPolicy::kWherePossible;
  options.fold_data_parallel = big && run.strategy.dp > replicas_kept(run.strategy);
  options.fold_tensor_parallel = big && run.strategy.tp > 1;
  const RunGraph graph = build_run_graph(run);
  const Timeline timeline = replay_exact(run, graph, Mesh(run.strategy), options);
  const RunMetrics metrics = compute_metrics(run, timeline);
  std::ostringstream out;
  out.precision(17);
  out << metrics.iteration_time;
  // Time categories 0..7 map one to one; the formulas' bubble term is pipeline_bubble + exposed_pp
  // + idle (they price pipeline transfers inside the pipeline term).
  for (int k = 0; k < 8; ++k) out << ' ' << metrics.breakdown[static_cast<size_t>(k)];
  out << ' ' << metrics.breakdown[static_cast<size_t>(TimeCategory::kBubble)] +
                    metrics.breakdown[static_cast<size_t>(TimeCategory::kExposedPp)] +
                    metrics.breakdown[static_cast<size_t>(TimeCategory::kIdle)];
  return out.str();
}

ReplayTerms parse_replay_terms(const std::string& text) {
  std::istringstream in(text);
  ReplayTerms t;
  in >> t.iteration_time;
  for (double& v : t.mean) in >> v;
  if (!in) throw std::runtime_error("internal: replay terms '" + text + "' are not " + std::to_string(kIterationTerms + 1) + " numbers");
  return t;
}

ReplayTerms replay_terms(const RunSpec& run) {
  return parse_replay_terms(call_in_child([&] { return replay_terms_text(run); }));
}

}  // namespace trainsim
