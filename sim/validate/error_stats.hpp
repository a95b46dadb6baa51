// Prediction-error statistics of a validation: signed percentage error per row, and mean and
// maximum absolute error over groups of rows (per split, per hardware). Pure functions.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace trainsim {

// (predicted − measured) / measured · 100: positive when the simulator is too slow.
[[nodiscard]] double percent_error(double predicted, double measured);

struct ErrorSummary {
  int count = 0;
  double mean_abs_percent = 0;  // mean of |error %| (MAPE)
  double max_abs_percent = 0;   // largest |error %|
  std::string worst;            // label of the row with the largest |error %|
};

// Over (label, error %) pairs; an empty list gives count 0 and zeros.
[[nodiscard]] ErrorSummary summarize_errors(const std::vector<std::pair<std::string, double>>& labelled_errors);

// One summary per distinct key, keys sorted; `keys[i]` groups `labelled_errors[i]`.
struct GroupSummary {
  std::string key;
  ErrorSummary summary;
};
[[nodiscard]] std::vector<GroupSummary> summarize_by(const std::vector<std::string>& keys,
                                                     const std::vector<std::pair<std::string, double>>& labelled_errors);

// mean over rows of ((predicted − measured) / measured)²: what calibration minimises.
[[nodiscard]] double mean_squared_relative_error(const std::vector<std::pair<double, double>>& predicted_measured);

}  // namespace trainsim
