// Printing of fit's errors (see fit_report.hpp).
#include "sim/cli/fit_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace trainsim {

std::string pct(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", 100 * f);
  return buf;
}

FitSet subset(const FitSet& all, const std::vector<size_t>& which) {
  FitSet s;
  for (size_t i : which) {
    s.inputs.push_back(all.inputs[i]);
    s.observed.push_back(all.observed[i]);
    s.index.push_back(all.index[i]);
  }
  return s;
}

void print_errors(std::ostream& out, const FitSet& train, const FitSet& test, const IterationTheta& th,
                  const IterationTheta& plain) {
  const FitErrors tr = fit_errors(train.inputs, train.observed, th), te = fit_errors(test.inputs, test.observed, th);
  const FitErrors te0 = fit_errors(test.inputs, test.observed, plain);
  out << "\nformula vs replay, |error| / replayed iteration time   train (" << train.inputs.size() << ")   test ("
      << test.inputs.size() << ")   test, theta = 1\n";
  for (int k = 0; k < kIterationTerms; ++k) {
    std::string name = term_name(static_cast<IterationTerm>(k));
    name.resize(16, ' ');
    out << "  " << name << "mean                             " << pct(tr.term[static_cast<size_t>(k)]) << "       "
        << pct(te.term[static_cast<size_t>(k)]) << "       " << pct(te0.term[static_cast<size_t>(k)]) << "\n";
  }
  out << "  iteration       mean                             " << pct(tr.mean) << "       " << pct(te.mean) << "       "
      << pct(te0.mean) << "\n";
  out << "  iteration       max                              " << pct(tr.max) << "       " << pct(te.max) << "       "
      << pct(te0.max) << "\n";
}

void print_by_kind(std::ostream& out, const FitSet& test, const std::vector<DesignPoint>& points,
                   const IterationTheta& th) {
  for (bool moe : {false, true}) {
    std::vector<size_t> which;
    for (size_t i = 0; i < test.index.size(); ++i)
      if (points[test.index[i]].moe == moe) which.push_back(i);
    const char* kind = moe ? "MoE  " : "dense";
    if (which.empty()) {  // no error to give: 0.00% would read as a perfect fit
      out << "  test, " << kind << " (0 runs): none held out\n";
      continue;
    }
    const FitSet part = subset(test, which);
    const FitErrors e = fit_errors(part.inputs, part.observed, th);
    out << "  test, " << kind << " (" << part.inputs.size() << " runs): iteration mean " << pct(e.mean) << ", max "
        << pct(e.max) << "\n";
  }
}

void print_worst(std::ostream& out, const char* title, const FitSet& test, const std::vector<DesignPoint>& points,
                 const IterationTheta& th) {
  std::vector<std::pair<double, size_t>> errs;
  for (size_t i = 0; i < test.inputs.size(); ++i) {
    const double t = test.observed[i].iteration_time;
    errs.emplace_back((estimate_iteration(test.inputs[i], th).iteration_time - t) / t, i);
  }
  std::sort(errs.begin(), errs.end(), [](const auto& a, const auto& b) { return std::fabs(a.first) > std::fabs(b.first); });
  out << "\nworst " << title << " runs, (formula - replay) / replay:\n";
  for (size_t k = 0; k < std::min<size_t>(5, errs.size()); ++k) {
    const DesignPoint& p = points[test.index[errs[k].second]];
    out << "  " << (errs[k].first < 0 ? "" : "+") << pct(errs[k].first) << "  " << (p.moe ? "moe   " : "dense ") << p.label() << "\n";
  }
}

}  // namespace trainsim
