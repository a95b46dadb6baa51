// Fit of theta to replayed iterations (see theta_fit.hpp).
#include "sim/analytic/theta_fit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <string>

namespace trainsim {
namespace {

// Search interval of the line-searched coefficients: the DP overlap share in [0, 1] (at most the
// whole last backward), the interference multiplier in [0, 3].
struct Range { double lo, hi; };
Range range_of(const char* name) {
  const std::string n(name);
  if (n == "dp_overlap") return {0, 1};
  if (n == "interference") return {0, 3};
  return {0.5, 2};
}

double loss(const std::vector<IterationInputs>& in, const std::vector<ObservedIteration>& obs, const IterationTheta& th) {
  double sum = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    sum += std::fabs(estimate_iteration(in[i], th).iteration_time / obs[i].iteration_time - 1);
  }
  return sum;
}

// Golden-section search of one coefficient on its range; keeps the old value unless better.
void line_search(const std::vector<IterationInputs>& in, const std::vector<ObservedIteration>& obs, IterationTheta& th,
                 double IterationTheta::*field, Range r) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  const double before = th.*field, best_loss = loss(in, obs, th);
  double a = r.lo, b = r.hi;
  auto at = [&](double x) { th.*field = x; return loss(in, obs, th); };
  double c = b - phi * (b - a), d = a + phi * (b - a), fc = at(c), fd = at(d);
  for (int k = 0; k < 40; ++k) {
    if (fc < fd) b = d, d = c, fd = fc, c = b - phi * (b - a), fc = at(c);
    else a = c, c = d, fc = fd, d = a + phi * (b - a), fd = at(d);
  }
  const double x = (a + b) / 2;
  th.*field = at(x) < best_loss ? x : before;
}

// Linear least squares through the origin of one scale: the replayed terms y against the formula's
// terms x at theta = 1, theta = sum(x y) / sum(x x); 1 when the runs never show the term.
double scale_fit(const std::vector<IterationEstimate>& plain, const std::vector<ObservedIteration>& obs,
                 std::initializer_list<IterationTerm> terms) {
  double xy = 0, xx = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    double x = 0, y = 0;
    for (IterationTerm t : terms) x += plain[i].mean[static_cast<size_t>(t)], y += obs[i].terms[static_cast<size_t>(t)];
    const double w = 1 / (obs[i].iteration_time * obs[i].iteration_time);  // relative errors
    xy += w * x * y, xx += w * x * x;
  }
  return xx > 0 ? std::clamp(xy / xx, 0.5, 2.0) : 1.0;
}

// Least squares through the origin of a contention multiplier on the communication terms (TP, CP,
// EP, DP): x the time the formula loses to link sharing on that tier (its terms with the multiplier
// at 1 minus at 0), y what the replay's terms exceed the formula's without it. Only runs that share
// links on the tier weigh in, so errors elsewhere in other runs do not pull it. 1 when no run does.
double contention_fit(const std::vector<IterationInputs>& inputs, const std::vector<ObservedIteration>& obs,
                      double IterationTheta::*field) {
  using T = IterationTerm;
  IterationTheta none, full;
  none.*field = 0;
  double xy = 0, xx = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IterationEstimate a = estimate_iteration(inputs[i], none), b = estimate_iteration(inputs[i], full);
    double x = 0, y = 0;
    for (T t : {T::kTp, T::kCp, T::kEp, T::kDp}) {
      const size_t k = static_cast<size_t>(t);
      x += b.mean[k] - a.mean[k];
      y += obs[i].terms[k] - a.mean[k];
    }
    const double w = 1 / (obs[i].iteration_time * obs[i].iteration_time);
    xy += w * x * y, xx += w * x * x;
  }
  return xx > 0 ? std::clamp(xy / xx, 0.5, 2.0) : 1.0;
}

// The fit on one set of runs, before the cross-validation guard below.
IterationTheta fit_on(const std::vector<IterationInputs>& inputs, const std::vector<ObservedIteration>& observed) {
  IterationTheta th;
  if (inputs.empty()) return th;
  std::vector<IterationEstimate> plain;
  for (const IterationInputs& in : inputs) plain.push_back(estimate_iteration(in, th));
  using T = IterationTerm;
  const std::pair<double IterationTheta::*, double> scales[] = {
      {&IterationTheta::compute_scale, scale_fit(plain, observed, {T::kForward, T::kBackward, T::kRecompute, T::kOptimizer})},
      {&IterationTheta::tp_scale, scale_fit(plain, observed, {T::kTp})},
      {&IterationTheta::cp_scale, scale_fit(plain, observed, {T::kCp})},
      {&IterationTheta::ep_scale, scale_fit(plain, observed, {T::kEp})},
      {&IterationTheta::dp_scale, scale_fit(plain, observed, {T::kDp})},
      {&IterationTheta::bubble_scale, scale_fit(plain, observed, {T::kBubble})},
      {&IterationTheta::contention_node, contention_fit(inputs, observed, &IterationTheta::contention_node)},
      {&IterationTheta::contention_network, contention_fit(inputs, observed, &IterationTheta::contention_network)}};
  // A term's own fit is kept only where it also brings the iteration times closer.
  for (const auto& [field, value] : scales) {
    const double before = loss(inputs, observed, th), old = th.*field;
    th.*field = value;
    if (loss(inputs, observed, th) >= before) th.*field = old;
  }
  // The two coefficients no single term shows: on the iteration time, one line search each.
  for (const ThetaField& f : theta_fields()) {
    const std::string name(f.name);
    if (name == "dp_overlap" || name == "interference") line_search(inputs, observed, th, f.value, range_of(f.name));
  }
  return th;
}

struct Runs {
  std::vector<IterationInputs> in;
  std::vector<ObservedIteration> obs;
};

}  // namespace

// Each coefficient of the fit on all runs is kept only if it passes 2-fold cross-validation: fitted
// on the even runs it lowers the loss of the odd ones, and fitted on the odd runs that of the even
// ones (together), added one coefficient at a time in theta_fields() order. A coefficient that only
// chases a few runs stays at 1.
IterationTheta fit_theta(const std::vector<IterationInputs>& inputs, const std::vector<ObservedIteration>& observed) {
  const IterationTheta all = fit_on(inputs, observed);
  Runs half[2];
  for (size_t i = 0; i < inputs.size(); ++i) half[i % 2].in.push_back(inputs[i]), half[i % 2].obs.push_back(observed[i]);
  const IterationTheta fold[2] = {fit_on(half[0].in, half[0].obs), fit_on(half[1].in, half[1].obs)};
  IterationTheta th;
  for (const ThetaField& f : theta_fields()) {
    double before = 0, after = 0;
    for (int k = 0; k < 2; ++k) {
      IterationTheta trial = th;
      trial.*f.value = fold[k].*f.value;
      before += loss(half[1 - k].in, half[1 - k].obs, th);
      after += loss(half[1 - k].in, half[1 - k].obs, trial);
    }
    if (after < before) th.*f.value = all.*f.value;
  }
  return th;
}

FitErrors fit_errors(const std::vector<IterationInputs>& inputs, const std::vector<ObservedIteration>& observed,
                     const IterationTheta& theta) {
  FitErrors e;
  if (inputs.empty()) return e;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IterationEstimate est = estimate_iteration(inputs[i], theta);
    const double t = observed[i].iteration_time;
    const double err = std::fabs(est.iteration_time - t) / t;
    e.mean += err / inputs.size();
    e.max = std::max(e.max, err);
    for (int k = 0; k < kIterationTerms; ++k)
      e.term[static_cast<size_t>(k)] += std::fabs(est.mean[static_cast<size_t>(k)] - observed[i].terms[static_cast<size_t>(k)]) / t / inputs.size();
  }
  return e;
}

}  // namespace trainsim
