// What one sweep point produced, and its text form: what a local sweep's child process sends
// back and what an emitted job writes into its result file, so that a local sweep and a merge of
// emitted jobs build their tables from the same text (hence byte-identical outputs). Pure.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "sim/sweep/grid.hpp"

namespace trainsim {

// The point's breakdown, in the iteration formulas' terms (sim/analytic/iteration_model): mean
// seconds per device of forward, backward, recompute, optimizer, exposed TP, CP, EP, DP, and the
// bubble together with idle.
constexpr int kSweepTerms = 9;

enum class PointStatus {
  kReplayed,     // fits in memory and was replayed
  kOutOfMemory,  // the strategy does not fit in device memory: not replayed
  kNoStrategy,   // --search found no strategy that fits
};
[[nodiscard]] const char* to_string(PointStatus s);

struct PointResult {
  SweepPoint point;                        // which point (checked against the grid on merge)
  PointStatus status = PointStatus::kReplayed;
  std::string strategy;                    // strategy_label of the run replayed (the winner with --search)
  double iteration_time = 0;               // seconds, replayed (0 unless replayed)
  double tokens_per_s = 0, mfu = 0;        // 0 unless replayed
  double memory = 0, capacity = 0;         // bytes per device: the fullest stage, and the device's
  std::array<double, kSweepTerms> terms{};  // seconds; 0 unless replayed
  int candidates = 0;                      // --search: strategies replayed to pick the winner
};

// Line-oriented "key value" text, numbers with 17 significant digits (exact round trip).
[[nodiscard]] std::string point_result_text(const PointResult& r);
// Throws UserError naming `source` (a file, or "point N") when the text is not a point result.
[[nodiscard]] PointResult parse_point_result(const std::string& text, const std::string& source);

}  // namespace trainsim
