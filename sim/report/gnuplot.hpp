// Drawing a plot with gnuplot: it runs as a separate program reading a generated script on its
// standard input (data inline as datablocks), so trainsim links no plotting library.
#pragma once
#include <string>

namespace trainsim {

// `s` as a gnuplot single-quoted string (a quote is written twice).
[[nodiscard]] std::string gnuplot_quoted(const std::string& s);

// Runs gnuplot on `script`. Returns "" on success, else why no plot was made (gnuplot not on
// PATH, or it failed); the caller decides whether that is a warning or an error.
[[nodiscard]] std::string run_gnuplot(const std::string& script);

}  // namespace trainsim
