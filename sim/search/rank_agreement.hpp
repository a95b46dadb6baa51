// How well the formulas' ranking agrees with the replay's over the strategies both timed: Spearman's
// rank correlation (Pearson's correlation of the ranks, tied values sharing their mean rank;
// Spearman 1904), and where the formulas' first pick lands in the replay's order.
#pragma once
#include <vector>

namespace trainsim {

// Ranks 1..n of `values`, ascending; ties get the mean of the ranks they span.
[[nodiscard]] std::vector<double> fractional_ranks(const std::vector<double>& values);
// Spearman's rho of two equally long lists (>= 2 entries); 0 when either list is constant.
[[nodiscard]] double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace trainsim
